// Package upstream lets the broker front another MCP server: a child
// process spoken to over stdio, or a streamable HTTP endpoint. Only the
// allowlisted tools are listed and callable; each call is forwarded with
// the credential its target owner and mode (read or write) route to, and
// that credential is injected here, on the broker's side, never by the
// agent.
//
// Decisions, so the broker's operator can predict the behaviour:
//
//   - A child process has one environment, so one child is started per
//     credential actually used (a route's read or write secret), lazily,
//     on the first call that needs it; the child that lists the tools at
//     start counts as the first. A child whose credential changed (an App
//     installation token was refreshed) is replaced by one started with
//     the new token; the old one is closed once its calls have finished.
//   - A call's arguments are read once (callargs.ReadUpstream, by the
//     broker around the handler): each key once under any case folding
//     (at every depth), only the top-level keys the tool declares, and
//     every argument that can name an owner or repository (owner, org,
//     organization, user, username, repo, repository, repositories,
//     repos, full_name, a query's scope qualifiers, and the names the
//     operator adds per tool), found at any depth, read as a GitHub name
//     or refused. The one owner they name chooses the route, in the
//     tool's mode; a call naming two owners is refused, as is one whose
//     owner has no route (without a "*" route) or no credential for the
//     mode. A call naming no owner takes the configured owner's route.
//     What is forwarded is the arguments as read, so the upstream acts
//     on the owner whose credential it holds.
//   - A URL upstream gets the same treatment: one MCP session per
//     credential, each session's requests carrying `Authorization: Bearer
//     <token>` of that credential. The header is only ever sent to the configured origin and
//     redirects are not followed, so the token reaches that URL and
//     nowhere else. Plain http:// is refused except to a loopback host.
//   - The child's environment is PATH, HOME and LANG (when the broker has
//     them) plus the token variable; nothing else of the broker's.
//   - With user set, a child runs as that user (a write-credential child
//     as write_user, default user) with its primary group only, so it
//     cannot read the broker's memory or files, the secrets file, or
//     (given a distinct write_user) the other child's token; HOME is the
//     user's home, or "/". The users are checked at start and before
//     every child starts (see resolveChildUser). Without user, a child
//     runs as the broker's own user and is trusted with every credential
//     the broker holds. Either way a child starts with no capability:
//     those the broker holds to switch users stay with the broker.
//   - Proxied tools keep their upstream names. A name that clashes with one
//     of ghgate's own tools or another upstream's is refused at start
//     (CheckNames); drop the broker's own tool with [tools] deny to expose
//     the upstream's instead.
//   - Results are passed through, isError ones too, with credential-shaped
//     text (Authorization and x-access-token values, GitHub tokens)
//     redacted (see [redact.Registry.Clean]). A dead child
//     is restarted once, on the next call; any failure to reach the
//     upstream becomes an isError result with an upstream_unavailable
//     envelope, never a protocol error that would end the agent's session.
//   - Tokens never appear in an error, a log line or a result: the
//     child's stderr and the upstream's error messages are redacted, and a
//     result that contains one of the process's credentials, in any form
//     the registry knows, is withheld.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is one [[upstream]] entry. It mirrors broker.Upstream so this
// package does not import the broker (which imports it).
type Config struct {
	Name string
	// Command runs the upstream as a child over stdio; URL reaches it over
	// streamable HTTP. Exactly one is set.
	Command []string
	URL     string
	// TokenEnv is the environment variable the child reads its token from.
	// Unused for a URL (the token goes in the Authorization header).
	TokenEnv string
	// Owner is the route for calls whose arguments name no owner ("" or
	// "*": the fallback route); a call that names one is routed by it.
	Owner string
	Allow []Allowed
	// User, when set, is the OS user a child runs as; WriteUser the one
	// for a child holding a write credential (default User). Empty: the
	// children run as the broker's own user and can read what it can.
	User      string
	WriteUser string
	// SecretsFile is the broker's secrets file: a child user who could
	// read it is refused.
	SecretsFile string
	// GitHubHosts are the hosts, beside GitHub's own, whose URLs in a
	// call's arguments name the owner it acts on (see
	// [callargs.Upstream].Hosts).
	GitHubHosts []string
}

// userFor is the user a child holding a credential of mode runs as; ""
// is the broker's own.
func (c Config) userFor(mode tooldef.Mode) string {
	if mode == tooldef.Write && c.WriteUser != "" {
		return c.WriteUser
	}
	return c.User
}

// Allowed is one allowlisted upstream tool and the credential mode it uses.
type Allowed struct {
	Tool string
	Mode tooldef.Mode
	// OwnerArgs and RepoArgs are the operator's names for more arguments
	// that name an owner or a repository, TextArgs for arguments that
	// hold text (callargs.Upstream).
	OwnerArgs, RepoArgs, TextArgs []string
}

// CheckArgNames refuses owner_args, repo_args and text_args that no
// argument could match (an empty name or dotted part, or spaces), a name
// given in two of them, and text_args naming an argument read as an
// owner, repository or search in every tool.
func CheckArgNames(owner, repo, text []string) error {
	var errs []error
	seen := map[string]string{}
	for _, set := range []struct {
		what  string
		names []string
	}{{"owner_args", owner}, {"repo_args", repo}, {"text_args", text}} {
		for _, name := range set.names {
			if slices.Contains(strings.Split(name, "."), "") || strings.ContainsFunc(name, unicode.IsSpace) {
				errs = append(errs, fmt.Errorf("%s: %q is not an argument name or a dotted path of them (\"account\", \"target.login\")", set.what, name))
				continue
			}
			if set.what == "text_args" && callargs.NamesOwner(name) {
				errs = append(errs, fmt.Errorf("text_args: %q names an owner, repository or search in every tool and cannot be text", name))
			}
			folded := callargs.Fold(name)
			if prev, ok := seen[folded]; ok && prev != set.what {
				errs = append(errs, fmt.Errorf("%q is in both %s and %s", name, prev, set.what))
			}
			seen[folded] = set.what
		}
	}
	return errors.Join(errs...)
}

// TokenSource hands out the raw token for an owner and mode, for
// injection on the broker's side. The broker's router implements it; its
// errors are *contract.Error (missing_credential, insufficient_scope).
type TokenSource interface {
	Token(ctx context.Context, owner string, mode tooldef.Mode) (token, credential string, err error)
}

// Options are what a Proxy needs from the broker around it.
type Options struct {
	Tokens TokenSource
	Log    *slog.Logger
	// Forwarded, when set, is called once for every call forwarded to the
	// upstream (the broker counts them in the call's audit record).
	Forwarded func(ctx context.Context)
	// Fingerprint, when set, is stamped on every envelope this package
	// builds, as ghgate's own tools do.
	Fingerprint func() string
	// Transport is the base RoundTripper for URL upstreams; default
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Version is the client version announced to the upstream.
	Version string
	// Secrets are the process's credentials, redacted from what the
	// upstream answers and logs; the tokens handed to the upstream are
	// added to it. Nil: a registry of the proxy's own.
	Secrets *redact.Registry
}

// Tool is one proxied tool, ready for the broker to register.
type Tool struct {
	Def     *mcp.Tool
	Mode    tooldef.Mode
	Handler mcp.ToolHandler
	// Args says how its arguments are read (callargs.ReadUpstream): by
	// the broker around Handler, or by Handler when called without it.
	Args callargs.Upstream
}

// Proxy is a connected upstream.
type Proxy struct {
	cfg   Config
	opts  Options
	log   *slog.Logger
	owner string
	tools []Tool
	// slots hold one session per credential (mode and secret name): a
	// child has one environment, so each credential gets its own.
	slotsMu sync.Mutex
	slots   map[string]*slot
	red     *redactor

	// retiring tracks sessions being closed in the background; closing
	// tells them to stop waiting for their calls.
	retiring sync.WaitGroup
	closing  chan struct{}
	closeMu  sync.Once
}

// Connect checks cfg, starts (or reaches) the upstream with one of the
// credentials the allowlist needs, lists its tools and checks the
// allowlist against them. An allowlisted tool the upstream does not offer
// is an error that names it.
func Connect(ctx context.Context, cfg Config, opts Options) (*Proxy, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if opts.Tokens == nil {
		return nil, fmt.Errorf("upstream %q: no token source", cfg.Name)
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Proxy{cfg: cfg, opts: opts, log: log.With("upstream", cfg.Name), owner: cfg.Owner,
		slots: map[string]*slot{}, red: newRedactor(opts.Secrets), closing: make(chan struct{})}
	if p.owner == "*" {
		p.owner = "" // the router's fallback route
	}
	sess, err := p.firstSession(ctx)
	if err != nil {
		return nil, err
	}
	offered, err := listTools(ctx, sess.cs)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("upstream %q: listing tools: %s", cfg.Name, p.red.clean(err.Error()))
	}
	if err := p.buildTools(offered); err != nil {
		p.Close()
		return nil, err
	}
	p.log.Info("upstream connected", "tools", len(p.tools))
	return p, nil
}

// Tools returns the allowlisted tools in allowlist order.
func (p *Proxy) Tools() []Tool { return slices.Clone(p.tools) }

// Name is the upstream's configured name.
func (p *Proxy) Name() string { return p.cfg.Name }

// Close ends every session and child process. Calls still running fail
// with upstream_unavailable.
func (p *Proxy) Close() error {
	p.closeMu.Do(func() { close(p.closing) })
	p.slotsMu.Lock()
	slots := make([]*slot, 0, len(p.slots))
	for _, s := range p.slots {
		slots = append(slots, s)
	}
	p.slotsMu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		cur := s.sess
		s.sess = nil
		s.mu.Unlock()
		if cur != nil {
			cur.close()
		}
	}
	p.retiring.Wait()
	return nil
}

// CheckNames refuses a tool name served twice: by ghgate itself (own) and
// an upstream, or by two upstreams. The error names every clash.
func CheckNames(own []string, proxies ...*Proxy) error {
	by := map[string]string{}
	for _, n := range own {
		by[n] = "ghgate"
	}
	var clashes []string
	for _, p := range proxies {
		for _, t := range p.tools {
			if prev, ok := by[t.Def.Name]; ok {
				clashes = append(clashes, fmt.Sprintf("%q (upstream %q and %s)", t.Def.Name, p.cfg.Name, describe(prev)))
				continue
			}
			by[t.Def.Name] = "upstream:" + p.cfg.Name
		}
	}
	if len(clashes) > 0 {
		return fmt.Errorf("tool names served twice: %s; deny one of each pair ([tools] deny for ghgate's own, the allow list for an upstream)",
			strings.Join(clashes, ", "))
	}
	return nil
}

func describe(source string) string {
	if name, ok := strings.CutPrefix(source, "upstream:"); ok {
		return fmt.Sprintf("upstream %q", name)
	}
	return "ghgate's own tool"
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// check validates what Connect relies on.
func (c Config) check() error {
	var errs []error
	if c.Name == "" {
		errs = append(errs, errors.New("upstream: name is required"))
	}
	if (len(c.Command) == 0) == (c.URL == "") {
		errs = append(errs, fmt.Errorf("upstream %q: give exactly one of command or url", c.Name))
	}
	if len(c.Command) > 0 {
		switch {
		case c.TokenEnv == "":
			errs = append(errs, fmt.Errorf("upstream %q: token_env is required for a command: it names the variable the child reads its token from", c.Name))
		case !envName.MatchString(c.TokenEnv):
			errs = append(errs, fmt.Errorf("upstream %q: token_env %q is not an environment variable name", c.Name, c.TokenEnv))
		case slices.Contains(childBaseEnv, c.TokenEnv):
			errs = append(errs, fmt.Errorf("upstream %q: token_env %q would replace the child's own %s", c.Name, c.TokenEnv, c.TokenEnv))
		}
	}
	if c.URL != "" {
		if err := checkURL(c.URL); err != nil {
			errs = append(errs, fmt.Errorf("upstream %q: %w", c.Name, err))
		}
	}
	if err := c.checkUsers(); err != nil {
		errs = append(errs, fmt.Errorf("upstream %q: %w", c.Name, err))
	}
	if len(c.Allow) == 0 {
		errs = append(errs, fmt.Errorf("upstream %q: allow is empty: list the tools to expose", c.Name))
	}
	seen := map[string]bool{}
	for _, a := range c.Allow {
		switch {
		case a.Tool == "":
			errs = append(errs, fmt.Errorf("upstream %q: an allow entry has no tool", c.Name))
		case seen[a.Tool]:
			errs = append(errs, fmt.Errorf("upstream %q: tool %q is allowed twice", c.Name, a.Tool))
		}
		seen[a.Tool] = true
		if a.Mode != tooldef.Read && a.Mode != tooldef.Write {
			errs = append(errs, fmt.Errorf("upstream %q: tool %q: mode must be read or write", c.Name, a.Tool))
		}
		if err := CheckArgNames(a.OwnerArgs, a.RepoArgs, a.TextArgs); err != nil {
			errs = append(errs, fmt.Errorf("upstream %q: tool %q: %w", c.Name, a.Tool, err))
		}
	}
	return errors.Join(errs...)
}

// checkUsers refuses a user or write_user a child could reach the
// broker's credentials through (see resolveChildUser), and a broker that
// cannot switch to them.
func (c Config) checkUsers() error {
	switch {
	case c.User == "" && c.WriteUser == "":
		return nil
	case c.User == "":
		return errors.New("write_user needs user (the user for the read children)")
	case len(c.Command) == 0:
		return errors.New("user and write_user are for a command upstream (there is no child to run as them)")
	}
	errs := []error{canSwitchUsers()}
	for _, name := range slices.Compact([]string{c.User, c.userFor(tooldef.Write)}) {
		_, err := resolveChildUser(name, c.SecretsFile)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkURL accepts https anywhere and http only to a loopback host: a
// bearer token sent in clear over a network is a token given away.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("url: %w", err)
	}
	switch u.Scheme {
	case "https":
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("url %q: plain http is only allowed to a loopback host (the token would travel in clear); use https", raw)
		}
	default:
		return fmt.Errorf("url %q: want an http(s) URL", raw)
	}
	if u.Host == "" {
		return fmt.Errorf("url %q: no host", raw)
	}
	if u.User != nil {
		return fmt.Errorf("url %q: credentials in the URL are not allowed; the token goes in the Authorization header", raw)
	}
	return nil
}

// firstSession starts the session that lists the tools, with the read
// credential if the allowlist uses it, else the write one; if the first
// credential is not routed it tries the other.
func (p *Proxy) firstSession(ctx context.Context) (*session, error) {
	var modes []tooldef.Mode
	for _, m := range []tooldef.Mode{tooldef.Read, tooldef.Write} {
		if slices.ContainsFunc(p.cfg.Allow, func(a Allowed) bool { return a.Mode == m }) {
			modes = append(modes, m)
		}
	}
	var errs []error
	for _, m := range modes {
		token, cred, err := p.opts.Tokens.Token(ctx, p.owner, m)
		if err == nil && token == "" {
			err = errors.New("the route gave an empty token")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s credential: %s", m, p.red.clean(err.Error())))
			continue
		}
		p.red.add(token)
		sess, err := p.acquire(ctx, m, cred, token)
		if err != nil {
			return nil, fmt.Errorf("upstream %q: %w", p.cfg.Name, err)
		}
		sess.release()
		return sess, nil
	}
	return nil, fmt.Errorf("upstream %q: no credential to start it with: %w", p.cfg.Name, errors.Join(errs...))
}

// maxListPages bounds tools/list pagination against an upstream that
// never stops returning cursors.
const maxListPages = 100

func listTools(ctx context.Context, cs *mcp.ClientSession) (map[string]*mcp.Tool, error) {
	out := map[string]*mcp.Tool{}
	params := &mcp.ListToolsParams{}
	for range maxListPages {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tools {
			out[t.Name] = t
		}
		if res.NextCursor == "" {
			return out, nil
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return nil, fmt.Errorf("more than %d pages of tools", maxListPages)
}

// buildTools matches the allowlist against what the upstream offers.
func (p *Proxy) buildTools(offered map[string]*mcp.Tool) error {
	var missing, bad []string
	for _, a := range p.cfg.Allow {
		t, ok := offered[a.Tool]
		if !ok {
			missing = append(missing, a.Tool)
			continue
		}
		if !objectSchema(t.InputSchema) {
			// The broker's MCP server only takes tools whose input is an
			// object; better to say so here than to fail registering.
			bad = append(bad, a.Tool)
			continue
		}
		def := *t
		args := callargs.Upstream{Declared: callargs.DeclaredBy(def.InputSchema), OwnerArgs: a.OwnerArgs, RepoArgs: a.RepoArgs, TextArgs: a.TextArgs, Hosts: p.cfg.GitHubHosts}
		p.tools = append(p.tools, Tool{Def: &def, Mode: a.Mode, Handler: p.handler(a, args), Args: args})
	}
	var errs []error
	if len(missing) > 0 {
		names := make([]string, 0, len(offered))
		for n := range offered {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(names) > 30 {
			names = append(names[:30], "…")
		}
		errs = append(errs, fmt.Errorf("upstream %q does not offer allowlisted tools %s (it offers: %s)",
			p.cfg.Name, strings.Join(missing, ", "), strings.Join(names, ", ")))
	}
	if len(bad) > 0 {
		errs = append(errs, fmt.Errorf("upstream %q: tools %s have an input schema that is not an object", p.cfg.Name, strings.Join(bad, ", ")))
	}
	return errors.Join(errs...)
}

func objectSchema(s any) bool {
	m, ok := s.(map[string]any)
	return ok && m["type"] == "object"
}
