package clientsetup

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Options is what goes into ghgate's entry.
type Options struct {
	Name       string   // the entry's name; "" means ghgate
	Executable string   // ghgate's absolute path: the entry's command
	Toolsets   []string // serve --toolsets
	ReadOnly   bool     // serve --read-only
	Config     string   // serve --config, absolute
	Socket     string   // connect --socket, absolute: the broker holds the token
	// TokenVar names the variable (GITHUB_TOKEN or GH_TOKEN) set in setup's
	// environment, or is empty. Only its name is ever written.
	TokenVar string
}

// DefaultName is the entry's name unless --name says otherwise.
const DefaultName = "ghgate"

func (o Options) name() string {
	if o.Name == "" {
		return DefaultName
	}
	return o.Name
}

// Validate refuses options that would make an entry ghgate cannot run.
func (o Options) Validate() error {
	if !filepath.IsAbs(o.Executable) && !isWindowsAbs(o.Executable) {
		return fmt.Errorf("the command %q is not an absolute path", o.Executable)
	}
	if strings.TrimSpace(o.name()) == "" || strings.ContainsAny(o.name(), "\n\r") {
		return fmt.Errorf("--name %q: want a non-empty single-line name", o.Name)
	}
	if o.Socket != "" && (o.Config != "" || o.ReadOnly || len(o.Toolsets) > 0) {
		return errors.New("--socket runs `ghgate connect` to a broker, whose configuration decides tools and credentials: " +
			"--config, --toolsets and --read-only do not apply")
	}
	return nil
}

func isWindowsAbs(p string) bool {
	return len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// Entry is ghgate's server entry, before a client's shape is put on it.
type Entry struct {
	Command string
	Args    []string
	// Env maps a variable the server gets to a reference the client
	// expands ("${env:GITHUB_TOKEN}"); never a value.
	Env map[string]string
	// EnvVars names variables Codex forwards (its env_vars).
	EnvVars []string
}

// BuildEntry is the entry for client c.
func BuildEntry(c Client, o Options) Entry {
	e := Entry{Command: o.Executable}
	if o.Socket != "" {
		e.Args = []string{"connect", "--socket", o.Socket}
		return e
	}
	e.Args = []string{"serve"}
	if o.Config != "" {
		e.Args = append(e.Args, "--config", o.Config)
	}
	if len(o.Toolsets) > 0 {
		e.Args = append(e.Args, "--toolsets", strings.Join(o.Toolsets, ","))
	}
	if o.ReadOnly {
		e.Args = append(e.Args, "--read-only")
	}
	// With --config the file is the token's source: an inherited variable
	// would override it (serve prefers the environment), so none is named.
	if o.TokenVar == "" || o.Config != "" {
		return e
	}
	switch specs[c].env {
	case envBraceEnv:
		e.Env = map[string]string{o.TokenVar: "${env:" + o.TokenVar + "}"}
	case envDollar:
		e.Env = map[string]string{o.TokenVar: "${" + o.TokenVar + "}"}
	case envForward:
		e.EnvVars = []string{o.TokenVar}
	}
	return e
}

// TokenAdvice says where ghgate, started by c from entry e, finds its
// token, and what is left for the user to do. configHasToken says whether
// the --config file has a token key.
func TokenAdvice(c Client, o Options, e Entry, configHasToken bool) string {
	title := c.Title()
	switch {
	case o.Socket != "":
		return "token: none here; the broker behind " + o.Socket + " holds the credential."
	case o.Config != "" && configHasToken:
		return "token: from `token` in " + o.Config + " (keep that file mode 0600)."
	case o.Config != "":
		return "token: " + o.Config + " has no `token` key; add one (file mode 0600), or every tool call fails with missing_credential."
	case len(e.Env) > 0 || len(e.EnvVars) > 0:
		return fmt.Sprintf("token: %s passes %s from its own environment to ghgate (the entry names the variable, never its value); "+
			"start %s where %s is set, or use --config FILE with a `token` key.", title, o.TokenVar, title, o.TokenVar)
	}
	switch specs[c].env {
	case envInherits:
		return fmt.Sprintf("token: ghgate reads GITHUB_TOKEN or GH_TOKEN from the environment %s runs in; set one there, or use --config FILE with a `token` key.", title)
	case envNone:
		return fmt.Sprintf("token: %s does not pass your shell's environment and its file expands no variables: "+
			"ghgate uses its stored sign-in (`ghgate auth login`) or gh's for the host, else "+
			"put `token = \"...\"` in a config file (mode 0600) and run setup again with --config FILE.", title)
	}
	advice := "token: neither GITHUB_TOKEN nor GH_TOKEN was set, so the entry names none; ghgate uses its stored sign-in (`ghgate auth login`) or gh's, " +
		"else set one and run setup again, or use --config FILE with a `token` key"
	if specs[c].env == envBraceEnv {
		return advice + "."
	}
	// Gemini CLI and Codex withhold credential-like variables from the
	// servers they start unless the entry names them.
	return advice + fmt.Sprintf(" (%s passes a token variable only when the entry names it).", title)
}
