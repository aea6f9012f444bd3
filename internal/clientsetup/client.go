// Package clientsetup puts ghgate into an MCP client's configuration file:
// which file each client reads on each OS, the entry it expects, and an
// edit that changes that one entry and leaves every other byte of the file
// (other servers, comments, trailing commas) as it was.
package clientsetup

import (
	"fmt"
	"slices"
	"strings"
)

// A Client is an MCP client ghgate setup knows, by its command-line name.
type Client string

// The clients, by the name `ghgate setup` takes.
const (
	ClaudeCode    Client = "claude-code"
	ClaudeDesktop Client = "claude-desktop"
	VSCode        Client = "vscode"
	Cursor        Client = "cursor"
	Codex         Client = "codex"
	Gemini        Client = "gemini"
	Zed           Client = "zed"
	Windsurf      Client = "windsurf"
)

// Clients lists every client, in the order help text shows them.
func Clients() []Client {
	return []Client{ClaudeCode, ClaudeDesktop, VSCode, Cursor, Codex, Gemini, Zed, Windsurf}
}

// A Scope says whose configuration is edited: the user's (every project)
// or one project's, a file in the working directory meant to be shared.
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// envStyle is how a client lets an entry name a variable of the client's
// own environment, so the entry can point at a token without holding it.
type envStyle int

const (
	// envNone: no expansion documented and the environment may not be the
	// shell's (a desktop app): nothing is written, the token comes from
	// the --config file.
	envNone envStyle = iota
	// envInherits: the client runs from a shell and passes its environment
	// on to the servers it starts: nothing to write.
	envInherits
	// envBraceEnv: "${env:NAME}" in env values (VS Code, Cursor, Windsurf).
	envBraceEnv
	// envDollar: "${NAME}" in env values (Gemini CLI, which also withholds
	// variables named like credentials unless env names them).
	envDollar
	// envForward: Codex's env_vars = ["NAME"], which forwards the variable
	// past the short list Codex passes by default.
	envForward
)

// spec is what differs between clients.
type spec struct {
	title     string  // as the client calls itself
	key       string  // the object (table for Codex) holding the servers
	toml      bool    // config.toml rather than JSON with comments
	typeStdio bool    // the entry says "type": "stdio"
	scopes    []Scope // the first is the default
	env       envStyle
}

var specs = map[Client]spec{
	ClaudeCode:    {title: "Claude Code", key: "mcpServers", typeStdio: true, scopes: []Scope{User, Project}, env: envInherits},
	ClaudeDesktop: {title: "Claude Desktop", key: "mcpServers", scopes: []Scope{User}, env: envNone},
	VSCode:        {title: "VS Code", key: "servers", typeStdio: true, scopes: []Scope{User, Project}, env: envBraceEnv},
	Cursor:        {title: "Cursor", key: "mcpServers", scopes: []Scope{User, Project}, env: envBraceEnv},
	Codex:         {title: "Codex", key: "mcp_servers", toml: true, scopes: []Scope{User}, env: envForward},
	Gemini:        {title: "Gemini CLI", key: "mcpServers", scopes: []Scope{User, Project}, env: envDollar},
	Zed:           {title: "Zed", key: "context_servers", scopes: []Scope{User}, env: envNone},
	Windsurf:      {title: "Windsurf", key: "mcpServers", scopes: []Scope{User}, env: envBraceEnv},
}

// ParseClient names the client c, or says which ones there are.
func ParseClient(name string) (Client, error) {
	c := Client(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := specs[c]; ok {
		return c, nil
	}
	return "", fmt.Errorf("unknown client %q (known: %s)", name, strings.Join(clientNames(), ", "))
}

func clientNames() []string {
	var names []string
	for _, c := range Clients() {
		names = append(names, string(c))
	}
	return names
}

// Title is the client's own name, for messages.
func (c Client) Title() string { return specs[c].title }

// Scopes lists the scopes c has, its default first.
func (c Client) Scopes() []Scope { return slices.Clone(specs[c].scopes) }

// ResolveScope turns the --scope flag ("" for the default) into one of c's
// scopes.
func (c Client) ResolveScope(s string) (Scope, error) {
	scopes := specs[c].scopes
	if s == "" {
		return scopes[0], nil
	}
	if slices.Contains(scopes, Scope(s)) {
		return Scope(s), nil
	}
	if s != string(User) && s != string(Project) {
		return "", fmt.Errorf("--scope %q: want user or project", s)
	}
	return "", fmt.Errorf("%s has no %s scope: it reads only its %s configuration", c.Title(), s, scopes[0])
}
