package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/spf13/pflag"
)

// fileConfig is the TOML config file: the same settings as serve's flags,
// plus the token (which has no flag: a command line is visible to every
// user of the machine through ps).
type fileConfig struct {
	GitHubURL string `toml:"github_url"`
	Token     string `toml:"token"`
	// OAuthClientID is the OAuth app `ghgate auth login` signs in
	// through (GHGATE_OAUTH_CLIENT_ID and --client-id override it).
	OAuthClientID       string   `toml:"oauth_client_id"`
	Toolsets            []string `toml:"toolsets"`
	ReadOnly            *bool    `toml:"read_only"`
	AllowedIssueCreator string   `toml:"allowed_issue_creator"`
	SyncRoot            string   `toml:"sync_root"`
	// The release pull request conventions (toolkit.ReleaseSettings).
	ReleaseLabel          string   `toml:"release_label"`
	ReleaseTitlePattern   string   `toml:"release_title_pattern"`
	ReleaseChangelogPaths []string `toml:"release_changelog_paths"`
	State                 string   `toml:"state"`
	CursorKey             string   `toml:"cursor_key"`
	HTTP                  string   `toml:"http"`
	// Auth is the --auth file: the clients of the HTTP endpoint.
	Auth      string `toml:"auth"`
	RateFloor *int   `toml:"rate_floor"`
	// Who reads /metrics, and where: see metricsConfig.
	MetricsAddr        string `toml:"metrics_addr"`
	MetricsKeySHA256   string `toml:"metrics_key_sha256"`
	MetricsClientLabel *bool  `toml:"metrics_client_label"`
	// The bounds on tasks and reports (see serveConfig).
	MaxTasks               *int `toml:"max_tasks"`
	MaxTasksPerClient      *int `toml:"max_tasks_per_client"`
	MaxFanoutPerCredential *int `toml:"max_fanout_per_credential"`

	// The HTTP limits, pointers so that a value given as 0 is told from
	// one not given (and refused where 0 would disable the limit).
	HTTPReadHeaderTimeout *duration `toml:"http_read_header_timeout"`
	HTTPReadTimeout       *duration `toml:"http_read_timeout"`
	HTTPWriteTimeout      *duration `toml:"http_write_timeout"`
	HTTPIdleTimeout       *duration `toml:"http_idle_timeout"`
	HTTPMaxHeaderBytes    *int      `toml:"http_max_header_bytes"`
	HTTPMaxBodyBytes      *int64    `toml:"http_max_body_bytes"`

	// Policy bounds what the server writes on GitHub (policy.Rules): the
	// whole server's on stdio, the default of every HTTP client that
	// names none of its own.
	Policy policy.Rules `toml:"policy"`
	// Lockdown and AllowIncludeUntrusted are toolkit.Lockdown: strangers'
	// text withheld in public repositories, and whether a read may ask
	// for it. An --auth client's [client.tools] may set its own.
	Lockdown              *bool `toml:"lockdown"`
	AllowIncludeUntrusted *bool `toml:"allow_include_untrusted"`
	// Reports are the report tools' settings: [reports.classify] holds
	// the repository tiers (tiers.Rules).
	Reports reportsConfig `toml:"reports"`
}

// reportsConfig is the config file's [reports] table.
type reportsConfig struct {
	Classify tiers.Rules `toml:"classify"`
}

// configKeys are the config file's keys, in the order of fileConfig.
func configKeys() []string {
	t := reflect.TypeFor[fileConfig]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]
	}
	return keys
}

// duration is a [time.Duration] written in TOML as a Go duration string
// ("30s", "2m"). A bare number is refused: its unit would be a guess.
type duration time.Duration

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		// The value is not repeated: errors never quote the file.
		return errors.New("want a duration with a unit, such as 30s or 2m")
	}
	*d = duration(v)
	return nil
}

// httpLimits bound what one client of serve --http can make the server
// hold: a connection, the time to send a request, its headers, its body.
type httpLimits struct {
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included. It ends
	// once the body is read, so a long tool call is not cut by it.
	ReadTimeout time.Duration
	// WriteTimeout bounds a whole response, from the request's headers on;
	// 0 means none. A stateless streamable HTTP response stays open for the
	// whole tool call, which with GitHub's retries and rate-limit waits can
	// take minutes, so by default there is none: a client that stops
	// reading holds only what fits in its socket buffers, and IdleTimeout
	// closes the connection after.
	WriteTimeout   time.Duration
	IdleTimeout    time.Duration
	MaxHeaderBytes int
	MaxBodyBytes   int64
}

// defaultHTTPLimits leave room for any real MCP client on a slow link: a
// request is a few kilobytes (an issue body at most 65,536 characters) and
// MCP needs a handful of headers.
var defaultHTTPLimits = httpLimits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	IdleTimeout:       120 * time.Second,
	MaxHeaderBytes:    64 << 10,
	MaxBodyBytes:      1 << 20,
}

// serveConfig is what serve runs with once the file, the environment and
// the flags are merged.
type serveConfig struct {
	GitHubURL string
	Token     string
	// TokenSource names where Token came from, for the start log; never
	// the token. TokenProblems are stored credentials that could not be
	// read on the way (serve_token.go).
	TokenSource         string
	TokenProblems       []error
	Toolsets            []string
	ReadOnly            bool
	AllowedIssueCreator string
	// SyncRoot is the directory local mirrors may be written under; empty
	// refuses github_sync_issues with sync_not_configured.
	SyncRoot string
	// Releases are the release pull request conventions the reports
	// toolset reads (file only: defaults when absent).
	Releases toolkit.ReleaseSettings
	// Tiers are the repository tiers of the security alert report's
	// classify (file only: tiers.Default when absent).
	Tiers     tiers.Rules
	State     string
	CursorKey []byte
	HTTP      string
	// Auth, when not nil, makes the HTTP endpoint require a bearer token
	// from one of its clients (see internal/httpauth).
	Auth       *httpauth.Config
	AuthFile   string
	Demo       bool
	HTTPLimits httpLimits
	RateFloor  int
	Metrics    metricsConfig
	// MaxTasks bounds the MCP tasks running at once, MaxTasksPerClient
	// those of one client (an HTTP client under --auth; stdio has one).
	MaxTasks, MaxTasksPerClient int
	// MaxFanoutPerCredential bounds the GitHub calls in flight that every
	// report running on the token makes together.
	MaxFanoutPerCredential int
	// Policy is the write policy (file only).
	Policy policy.Rules
	// Lockdown is the rule on strangers' text (toolkit.Lockdown).
	Lockdown toolkit.Lockdown
}

// metricsConfig says where /metrics is served and to whom. The series
// show the rate budget, the calls per tool and outcome and (opted in)
// the clients' names: on a listener with --auth they are served only to
// a scraper with the metrics key, or on a listener of their own.
type metricsConfig struct {
	// Addr, when set, serves /metrics on a listener of its own, and no
	// longer beside /mcp. It has no default: replicas share a host (one
	// per port, deploy/ghgate@.service), and any fixed port would stop
	// the second from starting. A non-loopback address needs KeySHA256.
	Addr string
	// KeySHA256 is the SHA-256 digest of the bearer key a scraper must
	// present; the key itself is never configured. nil: no key asked,
	// which the MCP listener allows only without --auth.
	KeySHA256 []byte
	// ClientLabel labels tool calls with the HTTP client's name.
	ClientLabel bool
}

// onMCPListener reports whether /metrics is served beside /mcp: not when
// it has a listener of its own, and not with --auth unless a key guards
// it, since anyone who reaches an authenticated endpoint could read it.
func (m metricsConfig) onMCPListener(auth bool) bool {
	return m.Addr == "" && (!auth || m.KeySHA256 != nil)
}

// serveFlags are serve's command-line settings; which of them were given
// is asked of the flag set, so a flag set to its zero value still wins
// over the file.
type serveFlags struct {
	config              string
	githubURL           string
	toolsets            []string
	readOnly            bool
	allowedIssueCreator string
	syncRoot            string
	state               string
	http                string
	auth                string
	allowRemote         bool
	demo                bool
	httpLimits          httpLimits
	rateFloor           int
	metricsAddr         string
	metricsKeySHA256    string
	metricsClientLabel  bool
	maxTasks            int
	maxTasksPerClient   int
	maxFanout           int
	lockdown            bool
	allowInclude        bool
}

func (f *serveFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "TOML config file (keys: "+strings.Join(configKeys(), ", ")+")")
	fs.StringVar(&f.githubURL, "github-url", "", "GitHub API base URL for GitHub Enterprise Server or an emulator (default: GitHub.com)")
	fs.StringSliceVar(&f.toolsets, "toolsets", nil, fmt.Sprintf("toolsets to serve, comma-separated, or all (known: %s; default: %s)",
		strings.Join(server.ToolsetNames(), ", "), strings.Join(server.DefaultToolsets(), ", ")))
	fs.BoolVar(&f.readOnly, "read-only", false, "serve no write tools: not listed, not callable")
	fs.StringVar(&f.allowedIssueCreator, "allowed-issue-creator", "", "limit reads to issues this user opened and refuse writes to others")
	fs.StringVar(&f.syncRoot, "sync-root", "", "absolute directory github_sync_issues may write mirrors under (default: none, the tool is refused)")
	fs.StringVar(&f.state, "state", "", "state: a SQLite database path (default: $XDG_STATE_HOME/ghgate/state.db), or redis://[:password@]host:port/db?namespace=NAME shared by replicas")
	fs.IntVar(&f.rateFloor, "rate-floor", 0, "requests of each GitHub rate budget to keep back: calls stop when this many are left (replicas: at least the calls they run at once)")
	fs.IntVar(&f.maxTasks, "max-tasks", tasks.DefaultMaxTasks, "MCP tasks running at once, all clients together; one more is refused with rate_limited")
	fs.IntVar(&f.maxTasksPerClient, "max-tasks-per-client", tasks.DefaultMaxTasksPerClient, "MCP tasks one client (an --auth client; stdio's one) may have running at once")
	fs.IntVar(&f.maxFanout, "max-fanout-per-credential", fanout.DefaultShared,
		"GitHub calls in flight that every report running on the token makes together; the rest of GitHub's 100 concurrent requests stays free for other calls")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP (stateless) on this loopback address, e.g. 127.0.0.1:8080, instead of stdio")
	fs.StringVar(&f.auth, "auth", "", "--http: TOML file of the clients allowed to call (identity provider and/or static keys, each with a policy); "+
		"required on a non-loopback address")
	// --allow-remote once opened a non-loopback address without
	// authentication; it is kept only to say what replaced it.
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "removed: a non-loopback --http address needs --auth")
	_ = fs.MarkHidden("allow-remote")
	fs.BoolVar(&f.demo, "demo", false, "serve against an in-process GitHub emulator with the demo seed, as alice; no token needed, state in memory")
	d := defaultHTTPLimits
	fs.DurationVar(&f.httpLimits.ReadHeaderTimeout, "http-read-header-timeout", d.ReadHeaderTimeout, "--http: time allowed to send a request's headers")
	fs.DurationVar(&f.httpLimits.ReadTimeout, "http-read-timeout", d.ReadTimeout, "--http: time allowed to send a whole request, body included")
	fs.DurationVar(&f.httpLimits.WriteTimeout, "http-write-timeout", d.WriteTimeout,
		"--http: time allowed for a whole response, tool call included; 0 for none, as a call may take minutes")
	fs.DurationVar(&f.httpLimits.IdleTimeout, "http-idle-timeout", d.IdleTimeout, "--http: how long an idle keep-alive connection stays open")
	fs.IntVar(&f.httpLimits.MaxHeaderBytes, "http-max-header-bytes", d.MaxHeaderBytes, "--http: largest request headers")
	fs.Int64Var(&f.httpLimits.MaxBodyBytes, "http-max-body-bytes", d.MaxBodyBytes, "--http: largest request body; a larger one is answered 413")
	fs.StringVar(&f.metricsAddr, "metrics-addr", "", "--http: serve /metrics on this address of its own instead of beside /mcp "+
		"(default: none); a non-loopback one needs --metrics-key-sha256")
	fs.StringVar(&f.metricsKeySHA256, "metrics-key-sha256", "", "--http: SHA-256 digest (64 hex digits) of the bearer key /metrics asks for; "+
		"with --auth and no --metrics-addr, /metrics is served only with it")
	fs.BoolVar(&f.metricsClientLabel, "metrics-client-label", false, "--http: label tool call metrics with the HTTP client's name")
	fs.BoolVar(&f.lockdown, "lockdown", false, "in public repositories, withhold the bodies and comments of authors who are not OWNER, MEMBER or COLLABORATOR")
	fs.BoolVar(&f.allowInclude, "allow-include-untrusted", false, "with --lockdown, let a read ask for the withheld text (include_untrusted), audited")
}

// resolve merges, lowest precedence first: the config file, the
// environment (the token only), the flags. getenv is [os.Getenv] outside
// tests.
func (f *serveFlags) resolve(fs *pflag.FlagSet, getenv func(string) string) (serveConfig, error) {
	var fc fileConfig
	if f.config != "" {
		var err error
		if fc, err = loadConfigFile(f.config); err != nil {
			return serveConfig{}, err
		}
	}
	c := serveConfig{GitHubURL: fc.GitHubURL, Token: fc.Token, Toolsets: fc.Toolsets, AllowedIssueCreator: fc.AllowedIssueCreator,
		SyncRoot: fc.SyncRoot, State: fc.State, HTTP: fc.HTTP, AuthFile: fc.Auth, Demo: f.demo,
		Releases: toolkit.ReleaseSettings{Label: fc.ReleaseLabel, TitlePattern: fc.ReleaseTitlePattern, ChangelogPaths: fc.ReleaseChangelogPaths},
		MaxTasks: tasks.DefaultMaxTasks, MaxTasksPerClient: tasks.DefaultMaxTasksPerClient, MaxFanoutPerCredential: fanout.DefaultShared,
		Policy: fc.Policy, Tiers: fc.Reports.Classify}
	if err := fc.Policy.Validate(); err != nil {
		return serveConfig{}, err
	}
	if err := fc.Reports.Classify.Validate("reports.classify"); err != nil {
		return serveConfig{}, fmt.Errorf("config %s: %w", f.config, err)
	}
	if f.allowRemote {
		return serveConfig{}, errors.New("--allow-remote is gone: a non-loopback --http address now requires --auth FILE, " +
			"so that every caller is authenticated (see docs/http.md)")
	}
	if fc.ReadOnly != nil {
		c.ReadOnly = *fc.ReadOnly
	}
	if fc.RateFloor != nil {
		c.RateFloor = *fc.RateFloor
	}
	if fc.Lockdown != nil {
		c.Lockdown.On = *fc.Lockdown
	}
	if fc.AllowIncludeUntrusted != nil {
		c.Lockdown.AllowInclude = *fc.AllowIncludeUntrusted
	}
	for _, v := range []struct {
		file *int
		to   *int
	}{{fc.MaxTasks, &c.MaxTasks}, {fc.MaxTasksPerClient, &c.MaxTasksPerClient}, {fc.MaxFanoutPerCredential, &c.MaxFanoutPerCredential}} {
		if v.file != nil {
			*v.to = *v.file
		}
	}
	c.HTTPLimits = fc.httpLimits()
	if fc.CursorKey != "" {
		key, err := decodeKey(fc.CursorKey)
		if err != nil {
			return serveConfig{}, fmt.Errorf("config %s: cursor_key: %w", f.config, err)
		}
		c.CursorKey = key
	}
	if c.Token != "" {
		c.TokenSource = "the config file's token (" + f.config + ")"
	}
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		if tok := strings.TrimSpace(getenv(name)); tok != "" {
			c.Token, c.TokenSource = tok, name+" in the environment"
			break
		}
	}
	changed := fs.Changed
	if changed("github-url") {
		c.GitHubURL = f.githubURL
	}
	if changed("toolsets") {
		c.Toolsets = f.toolsets
	}
	if changed("read-only") {
		c.ReadOnly = f.readOnly
	}
	if changed("allowed-issue-creator") {
		c.AllowedIssueCreator = f.allowedIssueCreator
	}
	if changed("sync-root") {
		c.SyncRoot = f.syncRoot
	}
	if changed("state") {
		c.State = f.state
	}
	if changed("rate-floor") {
		c.RateFloor = f.rateFloor
	}
	if changed("lockdown") {
		c.Lockdown.On = f.lockdown
	}
	if changed("allow-include-untrusted") {
		c.Lockdown.AllowInclude = f.allowInclude
	}
	if c.RateFloor < 0 {
		return serveConfig{}, fmt.Errorf("rate_floor must be 0 or more, not %d", c.RateFloor)
	}
	if changed("max-tasks") {
		c.MaxTasks = f.maxTasks
	}
	if changed("max-tasks-per-client") {
		c.MaxTasksPerClient = f.maxTasksPerClient
	}
	if changed("max-fanout-per-credential") {
		c.MaxFanoutPerCredential = f.maxFanout
	}
	if changed("http") {
		c.HTTP = f.http
	}
	if changed("auth") {
		c.AuthFile = f.auth
	}
	if err := c.resolveMetrics(fc, f, changed); err != nil {
		return serveConfig{}, err
	}
	if c.AuthFile != "" {
		ac, err := httpauth.Load(c.AuthFile)
		if err != nil {
			return serveConfig{}, err
		}
		c.Auth = ac
	}
	lim, fl := &c.HTTPLimits, f.httpLimits
	if changed("http-read-header-timeout") {
		lim.ReadHeaderTimeout = fl.ReadHeaderTimeout
	}
	if changed("http-read-timeout") {
		lim.ReadTimeout = fl.ReadTimeout
	}
	if changed("http-write-timeout") {
		lim.WriteTimeout = fl.WriteTimeout
	}
	if changed("http-idle-timeout") {
		lim.IdleTimeout = fl.IdleTimeout
	}
	if changed("http-max-header-bytes") {
		lim.MaxHeaderBytes = fl.MaxHeaderBytes
	}
	if changed("http-max-body-bytes") {
		lim.MaxBodyBytes = fl.MaxBodyBytes
	}
	if c.Token == "" && !c.Demo {
		c.findStoredToken(getenv, serveKeyring)
	}
	return c, c.check()
}

// resolveMetrics merges the metrics settings, flags over the file.
func (c *serveConfig) resolveMetrics(fc fileConfig, f *serveFlags, changed func(string) bool) error {
	addr, digest := fc.MetricsAddr, fc.MetricsKeySHA256
	if fc.MetricsClientLabel != nil {
		c.Metrics.ClientLabel = *fc.MetricsClientLabel
	}
	if changed("metrics-addr") {
		addr = f.metricsAddr
	}
	if changed("metrics-key-sha256") {
		digest = f.metricsKeySHA256
	}
	if changed("metrics-client-label") {
		c.Metrics.ClientLabel = f.metricsClientLabel
	}
	c.Metrics.Addr = strings.TrimSpace(addr)
	if digest = strings.TrimSpace(digest); digest != "" {
		d, err := hex.DecodeString(digest)
		if err != nil || len(d) != 32 {
			// The value is not repeated: a key pasted where its digest
			// belongs must not reach a log.
			return errors.New("metrics_key_sha256 / --metrics-key-sha256 must be 64 hex digits: the SHA-256 of the key " +
				"(printf %s \"$KEY\" | sha256sum), never the key itself")
		}
		c.Metrics.KeySHA256 = d
	}
	return nil
}

// check refuses a metrics listener that cannot work or would show the
// metrics to anyone who reaches it.
func (m metricsConfig) check(httpAddr string) error {
	if m.Addr == "" {
		return nil
	}
	if httpAddr == "" {
		return errors.New("metrics_addr / --metrics-addr applies to --http: stdio serves no metrics")
	}
	if isLoopback(m.Addr) {
		return nil
	}
	if _, _, err := net.SplitHostPort(m.Addr); err != nil {
		return fmt.Errorf("--metrics-addr %q: want HOST:PORT, e.g. 127.0.0.1:9464: %w", m.Addr, err)
	}
	if m.KeySHA256 == nil {
		return fmt.Errorf("--metrics-addr %q is not a loopback address: anyone who could reach it would read the metrics, "+
			"so it requires metrics_key_sha256 / --metrics-key-sha256; or listen on 127.0.0.1", m.Addr)
	}
	return nil
}

// httpLimits are the defaults with what the file sets over them.
func (fc fileConfig) httpLimits() httpLimits {
	l := defaultHTTPLimits
	if fc.HTTPReadHeaderTimeout != nil {
		l.ReadHeaderTimeout = time.Duration(*fc.HTTPReadHeaderTimeout)
	}
	if fc.HTTPReadTimeout != nil {
		l.ReadTimeout = time.Duration(*fc.HTTPReadTimeout)
	}
	if fc.HTTPWriteTimeout != nil {
		l.WriteTimeout = time.Duration(*fc.HTTPWriteTimeout)
	}
	if fc.HTTPIdleTimeout != nil {
		l.IdleTimeout = time.Duration(*fc.HTTPIdleTimeout)
	}
	if fc.HTTPMaxHeaderBytes != nil {
		l.MaxHeaderBytes = *fc.HTTPMaxHeaderBytes
	}
	if fc.HTTPMaxBodyBytes != nil {
		l.MaxBodyBytes = *fc.HTTPMaxBodyBytes
	}
	return l
}

// check refuses a limit that would be no limit: net/http reads 0 as "none"
// (and a negative as "already expired", or as its own default for
// MaxHeaderBytes). Only the write timeout may be 0; see httpLimits.
func (l httpLimits) check() error {
	for _, v := range []struct {
		name string
		bad  bool
	}{
		{"http_read_header_timeout / --http-read-header-timeout", l.ReadHeaderTimeout <= 0},
		{"http_read_timeout / --http-read-timeout", l.ReadTimeout <= 0},
		{"http_idle_timeout / --http-idle-timeout", l.IdleTimeout <= 0},
		{"http_max_header_bytes / --http-max-header-bytes", l.MaxHeaderBytes <= 0},
		{"http_max_body_bytes / --http-max-body-bytes", l.MaxBodyBytes <= 0},
	} {
		if v.bad {
			return fmt.Errorf("%s must be more than 0", v.name)
		}
	}
	if l.WriteTimeout < 0 {
		return errors.New("http_write_timeout / --http-write-timeout must be 0 (none) or more")
	}
	return nil
}

// check rejects settings that cannot work, before anything starts.
func (c *serveConfig) check() error {
	for i, n := range c.Toolsets {
		c.Toolsets[i] = strings.TrimSpace(n)
	}
	if err := checkToolsets(c.Toolsets); err != nil {
		return err
	}
	if c.Demo && c.GitHubURL != "" {
		return errors.New("--demo serves its own emulator: drop --github-url (or github_url in the config file)")
	}
	if c.HTTP != "" {
		if err := checkListen(c.HTTP, c.Auth); err != nil {
			return err
		}
	} else if c.Auth != nil {
		return errors.New("--auth applies to --http: stdio has one caller, the process that started ghgate")
	}
	if err := c.HTTPLimits.check(); err != nil {
		return err
	}
	if err := c.Metrics.check(c.HTTP); err != nil {
		return err
	}
	if err := c.checkTaskLimits(); err != nil {
		return err
	}
	if c.SyncRoot != "" && !filepath.IsAbs(c.SyncRoot) {
		return errors.New("sync_root / --sync-root must be an absolute path")
	}
	if err := c.Releases.Validate(); err != nil {
		return err
	}
	if c.State == "" && !c.Demo {
		p, err := store.DefaultPath()
		if err != nil {
			return err
		}
		c.State = p
	}
	return nil
}

// checkTaskLimits refuses a bound that would be none (0 or less), and
// holds one client's tasks within all of them.
func (c *serveConfig) checkTaskLimits() error {
	for _, v := range []struct {
		name string
		n    int
	}{
		{"max_tasks / --max-tasks", c.MaxTasks},
		{"max_tasks_per_client / --max-tasks-per-client", c.MaxTasksPerClient},
		{"max_fanout_per_credential / --max-fanout-per-credential", c.MaxFanoutPerCredential},
	} {
		if v.n <= 0 {
			return fmt.Errorf("%s must be more than 0", v.name)
		}
	}
	c.MaxTasksPerClient = min(c.MaxTasksPerClient, c.MaxTasks)
	return nil
}

// checkToolsets refuses unknown toolset names up front, listing the known
// ones, so a typo fails at start rather than serving fewer tools.
func checkToolsets(names []string) error {
	known := server.ToolsetNames()
	var unknown []string
	for _, n := range names {
		if n != "all" && !slices.Contains(known, n) {
			unknown = append(unknown, fmt.Sprintf("%q", n))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("unknown toolset %s (known: %s, or all)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return nil
}

// loadConfigFile decodes the TOML file strictly: a key ghgate does not know
// is an error, since a misspelt read_only silently ignored would widen what
// an agent can do. Errors never quote the file's text, which may hold the
// token.
func loadConfigFile(path string) (fileConfig, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fileConfig{}, fmt.Errorf("config: %w", err)
	}
	var fc fileConfig
	md, err := toml.NewDecoder(bytes.NewReader(raw)).Decode(&fc)
	if err != nil {
		return fileConfig{}, fmt.Errorf("config %s: %s", path, redactTOMLError(err))
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return fileConfig{}, fmt.Errorf("config %s: unknown key %s (known: %s)", path, strings.Join(keys, ", "), strings.Join(configKeys(), ", "))
	}
	return fc, nil
}

var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'|` + "`[^`]*`")

// redactTOMLError says where the file is wrong without repeating any of
// its text: the parser's messages quote the offending value, and that value
// may be the token.
func redactTOMLError(err error) string {
	var pe toml.ParseError
	if ppe := (*toml.ParseError)(nil); errors.As(err, &ppe) && ppe != nil {
		pe = *ppe
	} else if !errors.As(err, &pe) {
		return "invalid TOML: " + strings.TrimPrefix(quoted.ReplaceAllString(err.Error(), "…"), "toml: ")
	}
	msg := quoted.ReplaceAllString(pe.Message, "…")
	if strings.Contains(strings.ToLower(pe.LastKey), "token") {
		msg = "invalid value"
	}
	where := fmt.Sprintf("line %d, column %d", pe.Position.Line, pe.Position.Col)
	if pe.LastKey != "" {
		where += fmt.Sprintf(" (after key %s)", pe.LastKey)
	}
	return "invalid TOML at " + where + ": " + msg
}

// decodeKey reads a cursor key given as hex or base64 (standard or URL
// alphabet, padded or not). The key is secret: errors never echo it.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	var key []byte
	if b, err := hex.DecodeString(s); err == nil {
		key = b
	} else {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(s); err == nil {
				key = b
				break
			}
		}
	}
	if key == nil {
		return nil, errors.New("neither hex nor base64")
	}
	if len(key) < 32 {
		return nil, fmt.Errorf("%d bytes, need at least 32", len(key))
	}
	return key, nil
}
