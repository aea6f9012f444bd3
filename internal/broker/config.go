// Package broker runs ghgate as a credential broker: a daemon under its own
// OS user that holds the GitHub credentials in memory, routes each call to
// a read or write credential by target owner, serves agents over a Unix
// socket only a bridge group can open, and audits every call.
package broker

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/broker/augment"
	"github.com/ghgate/ghgate/internal/broker/upstream"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
	"github.com/ghgate/ghgate/internal/tools/toolkit"

	"github.com/BurntSushi/toml"
)

// Config is the broker's TOML configuration (see deploy/broker.example.toml
// for an annotated example).
type Config struct {
	Listen    Listen     `toml:"listen"`
	GitHub    GitHub     `toml:"github"`
	Secrets   Secrets    `toml:"secrets"`
	Routes    []Route    `toml:"route"`
	Tools     Tools      `toml:"tools"`
	Audit     Audit      `toml:"audit"`
	Upstreams []Upstream `toml:"upstream"`
	Limits    Limits     `toml:"limits"`
	// Policy bounds what agents may write (see policy.Rules); quotas
	// count per agent uid.
	Policy policy.Rules `toml:"policy"`
	// State is the SQLite state file (ETags, idempotency keys, the cursor
	// key); empty keeps state in memory.
	State string `toml:"state"`
}

// Listen is where agents connect.
type Listen struct {
	Socket string `toml:"socket"`
	// Group owns the socket; its members (the agents) may connect.
	Group string `toml:"group"`
	// Mode is the socket's permission bits as an octal string; default
	// "0660". Anything wider is refused.
	Mode string `toml:"mode"`
}

// GitHub selects the GitHub the broker talks to.
type GitHub struct {
	URL string `toml:"url"`
}

// Secrets says where credentials are read from. A name is looked up in
// $CREDENTIALS_DIRECTORY (systemd LoadCredential=) before the file.
type Secrets struct {
	File string `toml:"file"`
}

// Route chooses credentials for an owner ("*" is the fallback): a read
// and a write secret, or a GitHub App installation.
type Route struct {
	Owner          string `toml:"owner"`
	Read           string `toml:"read"`
	Write          string `toml:"write"`
	AppID          int64  `toml:"app_id"`
	InstallationID int64  `toml:"installation_id"`
	AppKey         string `toml:"app_key"`
	// Lockdown, when set, is this route's own lockdown (see
	// Tools.Lockdown), over the broker's.
	Lockdown *bool `toml:"lockdown"`
	// Repositories, on an App route, are the installation's repositories
	// (names, without the owner) its tokens are minted for; empty: all
	// of the installation's.
	Repositories []string `toml:"repositories"`
}

// IsApp reports whether the route uses a GitHub App.
func (r Route) IsApp() bool { return r.AppID != 0 }

// Tools selects the served surface.
type Tools struct {
	Toolsets []string `toml:"toolsets"`
	Allow    []string `toml:"allow"`
	Deny     []string `toml:"deny"`
	ReadOnly bool     `toml:"read_only"`
	// SyncRoot is the absolute directory github_sync_issues writes
	// mirrors under (sync_root/OWNER/REPO), as the broker's user; empty
	// refuses the tool. It must exist and be changeable only by the
	// broker's user and root, as must every directory above it (see
	// toolkit.CheckSyncRoot): the broker refuses to start otherwise.
	SyncRoot string `toml:"sync_root"`
	// The release pull request conventions (toolkit.ReleaseSettings);
	// absent: the defaults.
	ReleaseLabel          string   `toml:"release_label"`
	ReleaseTitlePattern   string   `toml:"release_title_pattern"`
	ReleaseChangelogPaths []string `toml:"release_changelog_paths"`
	// Lockdown withholds, in public repositories, the bodies and comments
	// of authors who are not OWNER, MEMBER or COLLABORATOR (toolkit.Lockdown);
	// AllowIncludeUntrusted lets a read ask for them (include_untrusted),
	// audited. Absent: off. An HTTP client's [client.tools] sets its own
	// over the server's.
	Lockdown              *bool `toml:"lockdown"`
	AllowIncludeUntrusted *bool `toml:"allow_include_untrusted"`
	// Reports are the report tools' settings, as serve's [reports]:
	// [[tools.reports.classify.tier]] holds the repository tiers.
	Reports ToolsReports `toml:"reports"`
}

// ToolsReports is the [tools.reports] table.
type ToolsReports struct {
	Classify tiers.Rules `toml:"classify"`
}

// Releases are the release conventions the reports toolset reads.
func (t Tools) Releases() toolkit.ReleaseSettings {
	return toolkit.ReleaseSettings{Label: t.ReleaseLabel, TitlePattern: t.ReleaseTitlePattern, ChangelogPaths: t.ReleaseChangelogPaths}
}

// Audit says where the audit log goes.
type Audit struct {
	File string `toml:"file"`
}

// Upstream is another MCP server the broker fronts.
type Upstream struct {
	Name string `toml:"name"`
	// Command runs the upstream as a child over stdio; URL reaches it over
	// streamable HTTP. Exactly one is set.
	Command []string `toml:"command"`
	URL     string   `toml:"url"`
	// TokenEnv is the environment variable a child reads its token from;
	// for a URL the token goes in the Authorization header.
	TokenEnv string `toml:"token_env"`
	// Owner is the route for calls whose arguments name no owner; a call
	// that names one is routed by it. Default "*".
	Owner string         `toml:"owner"`
	Allow []UpstreamTool `toml:"allow"`
	// User is the OS user the children run as; WriteUser the one for the
	// children holding a write credential (default User). A distinct
	// WriteUser keeps a read child from reading a write child's token
	// (processes of one uid read each other's environment). Empty: the
	// children run as the broker's own user, trusted with every credential.
	User      string `toml:"user"`
	WriteUser string `toml:"write_user"`
}

// UpstreamTool is one allowlisted upstream tool and the credential mode it
// needs.
type UpstreamTool struct {
	Tool string `toml:"tool"`
	// Mode is read or write; omitted means write, so a tool nobody
	// declared a read never runs with a read-only deployment's blessing.
	Mode string `toml:"mode"`
	// OwnerArgs and RepoArgs name more arguments of this tool that name
	// an owner or a repository (OWNER/REPO, or a name beside an owner),
	// beyond those read in every tool (see callargs.Upstream): "account"
	// at any depth, "target.login" as a path from the top. A call is
	// routed by every owner they name.
	OwnerArgs []string `toml:"owner_args"`
	RepoArgs  []string `toml:"repo_args"`
	// TextArgs name arguments of this tool that hold text, never read as
	// naming an owner ("affects", whose "actions/checkout" is a package):
	// an operator's word for what the reading would otherwise take for
	// OWNER/REPO and refuse.
	TextArgs []string `toml:"text_args"`
	// Kind is the kind of write the write policy counts a call as
	// (policy.Kinds); default "upstream". Text names the top-level string
	// arguments the outbound text policy checks and rewrites; default
	// ["body", "title"].
	Kind string   `toml:"kind"`
	Text []string `toml:"text"`
	// Augment names what the broker adds to this tool (broker/augment):
	// "pull_request_ci" on GitHub's pull_request_read (a ci field when the
	// call gives ciVerbosity), "issue_write_labels_note" on its
	// issue_write (a warning in its description). Note is the operator's
	// own warning, appended to the tool's description in tools/list.
	Augment []string `toml:"augment"`
	Note    string   `toml:"note"`
}

// Limits bound what one client can take of the broker, so a hostile or
// broken agent cannot exhaust its memory, file descriptors or GitHub's
// rate budget, or lock other agents out. Zero values take the defaults
// ([DefaultLimits]); every limit refuses with a JSON-RPC error or closes the
// connection, and never leaves a client hanging.
type Limits struct {
	// MaxConnections bounds open client connections in total;
	// MaxConnectionsPerClient those of one peer uid, so one agent cannot
	// take every slot. A connection over either is answered with a
	// JSON-RPC error and closed.
	MaxConnections          int `toml:"max_connections"`
	MaxConnectionsPerClient int `toml:"max_connections_per_client"`
	// IdleTimeout closes a connection that sent nothing and has no call
	// in flight for this long.
	IdleTimeout time.Duration `toml:"idle_timeout"`
	// WriteTimeout closes a connection whose client has not taken an
	// answer within it: a client that stops reading cannot make the
	// broker hold its answers, nor read more of its requests meanwhile.
	WriteTimeout time.Duration `toml:"write_timeout"`
	// MaxLineBytes bounds one JSON-RPC message line; MaxBatch the
	// messages in one batch.
	MaxLineBytes int `toml:"max_line_bytes"`
	MaxBatch     int `toml:"max_batch"`
	// MaxInFlight bounds the requests one session has unanswered; more
	// are refused at once. A running task (a call answered at once that
	// runs on) holds one of these until it ends, counted against its
	// client's uid: every session of that uid has that much less room,
	// one opened after the task's own closed included.
	MaxInFlight int `toml:"max_in_flight"`
	// MaxTasks bounds the tasks running at once in all,
	// MaxTasksPerClient those of one peer uid; a call over either is
	// refused, not started.
	MaxTasks          int `toml:"max_tasks"`
	MaxTasksPerClient int `toml:"max_tasks_per_client"`
	// MaxFanoutPerCredential bounds the GitHub calls in flight that the
	// reports running on one credential make together, whichever agent
	// runs them: the rest of GitHub's 100 concurrent requests per
	// credential stays free for the agents' other calls.
	MaxFanoutPerCredential int `toml:"max_fanout_per_credential"`
	// CallsPerSecond and CallBurst bound one session's request rate (a
	// token bucket); a request over it is refused with the time to retry.
	CallsPerSecond float64 `toml:"calls_per_second"`
	CallBurst      int     `toml:"call_burst"`
}

// DefaultLimits are the limits a config leaves at zero.
func DefaultLimits() Limits {
	return Limits{
		MaxConnections:          128,
		MaxConnectionsPerClient: 16,
		IdleTimeout:             10 * time.Minute,
		WriteTimeout:            30 * time.Second,
		MaxLineBytes:            server.DefaultMaxLineBytes,
		MaxBatch:                server.DefaultMaxBatch,
		MaxInFlight:             20,
		MaxTasks:                tasks.DefaultMaxTasks,
		MaxTasksPerClient:       tasks.DefaultMaxTasksPerClient,
		MaxFanoutPerCredential:  fanout.DefaultShared,
		CallsPerSecond:          10,
		CallBurst:               40,
	}
}

// withDefaults fills the zero limits in and refuses negative ones, and
// durations under a second (a bare TOML integer is nanoseconds).
func (l *Limits) withDefaults() error {
	d := DefaultLimits()
	var errs []error
	ints := []struct {
		name string
		v    *int
		def  int
	}{
		{"max_connections", &l.MaxConnections, d.MaxConnections},
		{"max_connections_per_client", &l.MaxConnectionsPerClient, d.MaxConnectionsPerClient},
		{"max_line_bytes", &l.MaxLineBytes, d.MaxLineBytes},
		{"max_batch", &l.MaxBatch, d.MaxBatch},
		{"max_in_flight", &l.MaxInFlight, d.MaxInFlight},
		{"max_tasks", &l.MaxTasks, d.MaxTasks},
		{"max_tasks_per_client", &l.MaxTasksPerClient, d.MaxTasksPerClient},
		{"max_fanout_per_credential", &l.MaxFanoutPerCredential, d.MaxFanoutPerCredential},
		{"call_burst", &l.CallBurst, d.CallBurst},
	}
	for _, f := range ints {
		switch {
		case *f.v < 0:
			errs = append(errs, fmt.Errorf("[limits] %s must not be negative", f.name))
		case *f.v == 0:
			*f.v = f.def
		}
	}
	durations := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"idle_timeout", &l.IdleTimeout, d.IdleTimeout},
		{"write_timeout", &l.WriteTimeout, d.WriteTimeout},
	}
	for _, f := range durations {
		switch {
		case *f.v == 0:
			*f.v = f.def
		case *f.v < time.Second:
			errs = append(errs, fmt.Errorf("[limits] %s %v is under a second; give a duration such as \"30s\"", f.name, *f.v))
		}
	}
	switch {
	case l.CallsPerSecond < 0:
		errs = append(errs, errors.New("[limits] calls_per_second must not be negative"))
	case l.CallsPerSecond == 0:
		l.CallsPerSecond = d.CallsPerSecond
	}
	if l.MaxConnectionsPerClient > l.MaxConnections {
		l.MaxConnectionsPerClient = l.MaxConnections
	}
	if l.MaxTasksPerClient > l.MaxTasks {
		l.MaxTasksPerClient = l.MaxTasks
	}
	return errors.Join(errs...)
}

// LoadConfig reads and checks a config file. Unknown keys are an error.
func LoadConfig(path string) (*Config, error) {
	var c Config
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("config %s: unknown keys: %s", path, strings.Join(keys, ", "))
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &c, nil
}

// validate checks the config's own consistency; file modes and secrets are
// checked when they are opened (see Check).
func (c *Config) validate() error {
	var errs []error
	if c.Listen.Socket == "" {
		errs = append(errs, errors.New("[listen] socket is required"))
	}
	if c.Listen.Mode == "" {
		c.Listen.Mode = "0660"
	}
	if len(c.Routes) == 0 {
		errs = append(errs, errors.New("at least one [[route]] is required"))
	}
	if err := c.Limits.withDefaults(); err != nil {
		errs = append(errs, err)
	}
	if c.Tools.SyncRoot != "" && !filepath.IsAbs(c.Tools.SyncRoot) {
		errs = append(errs, errors.New("[tools] sync_root must be an absolute path"))
	}
	if err := c.Tools.Releases().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("[tools] %w", err))
	}
	if err := c.Tools.Reports.Classify.Validate("tools.reports.classify"); err != nil {
		errs = append(errs, err)
	}
	seen := map[string]bool{}
	for i, r := range c.Routes {
		owner := strings.ToLower(r.Owner)
		switch {
		case r.Owner == "":
			errs = append(errs, fmt.Errorf("route %d: owner is required (an owner, or \"*\")", i+1))
		case seen[owner]:
			errs = append(errs, fmt.Errorf("route %d: owner %q is routed twice", i+1, r.Owner))
		}
		seen[owner] = true
		if r.IsApp() {
			if r.InstallationID == 0 || r.AppKey == "" {
				errs = append(errs, fmt.Errorf("route %q: an App route needs app_id, installation_id and app_key", r.Owner))
			}
			if r.Read != "" || r.Write != "" {
				errs = append(errs, fmt.Errorf("route %q: give either read/write secrets or an App, not both", r.Owner))
			}
			errs = append(errs, r.checkRepositories()...)
		} else {
			if r.Read == "" && r.Write == "" {
				errs = append(errs, fmt.Errorf("route %q: needs a read or write secret, or an App", r.Owner))
			}
			if len(r.Repositories) > 0 {
				// A token secret's reach is the token's own; naming
				// repositories here would only look like a limit.
				errs = append(errs, fmt.Errorf("route %q: repositories narrows an App's installation tokens; a route with read/write secrets cannot narrow them", r.Owner))
			}
		}
	}
	for _, u := range c.Upstreams {
		if (len(u.Command) == 0) == (u.URL == "") {
			errs = append(errs, fmt.Errorf("upstream %q: give exactly one of command or url", u.Name))
		}
		if u.WriteUser != "" && u.User == "" {
			errs = append(errs, fmt.Errorf("upstream %q: write_user needs user (the user for the read children)", u.Name))
		}
		if (u.User != "" || u.WriteUser != "") && len(u.Command) == 0 {
			errs = append(errs, fmt.Errorf("upstream %q: user and write_user are for a command upstream", u.Name))
		}
		for i, t := range u.Allow {
			switch t.Mode {
			case "":
				// Fail closed: a tool not declared a read is a write, so
				// read_only hides it and it gets only a write credential.
				u.Allow[i].Mode = "write"
			case "read", "write":
			default:
				errs = append(errs, fmt.Errorf("upstream %q: tool %q: mode must be read or write (omitted: write)", u.Name, t.Tool))
			}
			if err := upstream.CheckArgNames(t.OwnerArgs, t.RepoArgs, t.TextArgs); err != nil {
				errs = append(errs, fmt.Errorf("upstream %q: tool %q: %w", u.Name, t.Tool, err))
			}
			if err := augment.Check(t.Tool, t.Augment, t.Note); err != nil {
				errs = append(errs, fmt.Errorf("upstream %q: tool %q: %w", u.Name, t.Tool, err))
			}
			if t.Kind != "" && !policy.KnownKind(policy.Kind(t.Kind)) {
				errs = append(errs, fmt.Errorf("upstream %q: tool %q: kind %q is not a kind of write", u.Name, t.Tool, t.Kind))
			}
		}
	}
	if err := c.Policy.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// SecretNames lists every secret name the routes refer to.
func (c *Config) SecretNames() []string {
	var out []string
	for _, r := range c.Routes {
		for _, n := range []string{r.Read, r.Write, r.AppKey} {
			if n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// checkRepositories refuses repository names GitHub's token request would
// not take: empty, owner-qualified, or given twice.
func (r Route) checkRepositories() []error {
	var errs []error
	seen := map[string]bool{}
	for _, name := range r.Repositories {
		switch low := strings.ToLower(name); {
		case strings.TrimSpace(name) == "" || strings.ContainsAny(name, "/ "):
			errs = append(errs, fmt.Errorf("route %q: repositories entry %q: give a repository's name without its owner", r.Owner, name))
		case seen[low]:
			errs = append(errs, fmt.Errorf("route %q: repositories names %q twice", r.Owner, name))
		default:
			seen[low] = true
		}
	}
	return errs
}
