package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/spf13/pflag"
)

// fileConfig is the TOML config file: the same settings as serve's flags,
// plus the token (which has no flag: a command line is visible to every
// user of the machine through ps).
type fileConfig struct {
	GitHubURL           string   `toml:"github_url"`
	Token               string   `toml:"token"`
	Toolsets            []string `toml:"toolsets"`
	ReadOnly            *bool    `toml:"read_only"`
	AllowedIssueCreator string   `toml:"allowed_issue_creator"`
	State               string   `toml:"state"`
	CursorKey           string   `toml:"cursor_key"`
	HTTP                string   `toml:"http"`
}

// serveConfig is what serve runs with once the file, the environment and
// the flags are merged.
type serveConfig struct {
	GitHubURL           string
	Token               string
	Toolsets            []string
	ReadOnly            bool
	AllowedIssueCreator string
	State               string
	CursorKey           []byte
	HTTP                string
	AllowRemote         bool
	Demo                bool
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
	state               string
	http                string
	allowRemote         bool
	demo                bool
}

func (f *serveFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "TOML config file (keys: github_url, token, toolsets, read_only, allowed_issue_creator, state, cursor_key, http)")
	fs.StringVar(&f.githubURL, "github-url", "", "GitHub API base URL for GitHub Enterprise Server or an emulator (default: GitHub.com)")
	fs.StringSliceVar(&f.toolsets, "toolsets", nil, fmt.Sprintf("toolsets to serve, comma-separated, or all (known: %s; default: %s)",
		strings.Join(server.ToolsetNames(), ", "), strings.Join(server.DefaultToolsets, ", ")))
	fs.BoolVar(&f.readOnly, "read-only", false, "serve no write tools: not listed, not callable")
	fs.StringVar(&f.allowedIssueCreator, "allowed-issue-creator", "", "limit reads to issues this user opened and refuse writes to others")
	fs.StringVar(&f.state, "state", "", "state database path (default: $XDG_STATE_HOME/ghgate/state.db)")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP (stateless) on this loopback address, e.g. 127.0.0.1:8080, instead of stdio")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow --http on a non-loopback address (anyone who reaches it acts with the token)")
	fs.BoolVar(&f.demo, "demo", false, "serve against an in-process GitHub emulator with the demo seed, as alice; no token needed, state in memory")
}

// resolve merges, lowest precedence first: the config file, the
// environment (the token only), the flags. getenv is os.Getenv outside
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
		State: fc.State, HTTP: fc.HTTP, AllowRemote: f.allowRemote, Demo: f.demo}
	if fc.ReadOnly != nil {
		c.ReadOnly = *fc.ReadOnly
	}
	if fc.CursorKey != "" {
		key, err := decodeKey(fc.CursorKey)
		if err != nil {
			return serveConfig{}, fmt.Errorf("config %s: cursor_key: %w", f.config, err)
		}
		c.CursorKey = key
	}
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		if tok := strings.TrimSpace(getenv(name)); tok != "" {
			c.Token = tok
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
	if changed("state") {
		c.State = f.state
	}
	if changed("http") {
		c.HTTP = f.http
	}
	return c, c.check()
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
		if err := checkListen(c.HTTP, c.AllowRemote); err != nil {
			return err
		}
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
		return fileConfig{}, fmt.Errorf("config %s: unknown key %s (known: github_url, token, toolsets, read_only, allowed_issue_creator, state, cursor_key, http)",
			path, strings.Join(keys, ", "))
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
