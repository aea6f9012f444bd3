// Package broker runs ghgate as a credential broker: a daemon under its own
// OS user that holds the GitHub credentials in memory, routes each call to
// a read or write credential by target owner, serves agents over a Unix
// socket only a bridge group can open, and audits every call.
package broker

import (
	"errors"
	"fmt"
	"strings"

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
}

// IsApp reports whether the route uses a GitHub App.
func (r Route) IsApp() bool { return r.AppID != 0 }

// Tools selects the served surface.
type Tools struct {
	Toolsets []string `toml:"toolsets"`
	Allow    []string `toml:"allow"`
	Deny     []string `toml:"deny"`
	ReadOnly bool     `toml:"read_only"`
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
}

// UpstreamTool is one allowlisted upstream tool and the credential mode it
// needs.
type UpstreamTool struct {
	Tool string `toml:"tool"`
	// Mode is read or write; omitted means write, so a tool nobody
	// declared a read never runs with a read-only deployment's blessing.
	Mode string `toml:"mode"`
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
		} else if r.Read == "" && r.Write == "" {
			errs = append(errs, fmt.Errorf("route %q: needs a read or write secret, or an App", r.Owner))
		}
	}
	for _, u := range c.Upstreams {
		if (len(u.Command) == 0) == (u.URL == "") {
			errs = append(errs, fmt.Errorf("upstream %q: give exactly one of command or url", u.Name))
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
		}
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
