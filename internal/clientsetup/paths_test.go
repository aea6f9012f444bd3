package clientsetup

import "testing"

func TestPathPerClientAndOS(t *testing.T) {
	t.Parallel()
	linux := Env{GOOS: "linux", Home: "/home/ann", WorkDir: "/home/ann/src/app"}
	linuxXDG := Env{GOOS: "linux", Home: "/home/ann", XDGConfigHome: "/home/ann/.xdg", WorkDir: "/home/ann/src/app"}
	mac := Env{GOOS: "darwin", Home: "/Users/ann", WorkDir: "/Users/ann/src/app"}
	win := Env{GOOS: "windows", Home: `C:\Users\ann`, AppData: `C:\Users\ann\AppData\Roaming`, WorkDir: `C:\src\app`}
	winNoAppData := Env{GOOS: "windows", Home: `C:\Users\ann`}
	codexHome := Env{GOOS: "linux", Home: "/home/ann", CodexHome: "/srv/codex"}
	cases := []struct {
		client Client
		scope  Scope
		env    Env
		want   string
	}{
		{ClaudeCode, User, linux, "/home/ann/.claude.json"},
		{ClaudeCode, User, mac, "/Users/ann/.claude.json"},
		{ClaudeCode, User, win, `C:\Users\ann\.claude.json`},
		{ClaudeCode, Project, linux, "/home/ann/src/app/.mcp.json"},
		{ClaudeCode, Project, win, `C:\src\app\.mcp.json`},

		{ClaudeDesktop, User, mac, "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json"},
		{ClaudeDesktop, User, win, `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{ClaudeDesktop, User, winNoAppData, `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{ClaudeDesktop, User, linux, "/home/ann/.config/Claude/claude_desktop_config.json"},

		{VSCode, User, linux, "/home/ann/.config/Code/User/mcp.json"},
		{VSCode, User, linuxXDG, "/home/ann/.xdg/Code/User/mcp.json"},
		{VSCode, User, mac, "/Users/ann/Library/Application Support/Code/User/mcp.json"},
		{VSCode, User, win, `C:\Users\ann\AppData\Roaming\Code\User\mcp.json`},
		{VSCode, Project, mac, "/Users/ann/src/app/.vscode/mcp.json"},
		{VSCode, Project, win, `C:\src\app\.vscode\mcp.json`},

		{Cursor, User, linux, "/home/ann/.cursor/mcp.json"},
		{Cursor, User, mac, "/Users/ann/.cursor/mcp.json"},
		{Cursor, User, win, `C:\Users\ann\.cursor\mcp.json`},
		{Cursor, Project, linux, "/home/ann/src/app/.cursor/mcp.json"},

		{Codex, User, linux, "/home/ann/.codex/config.toml"},
		{Codex, User, mac, "/Users/ann/.codex/config.toml"},
		{Codex, User, win, `C:\Users\ann\.codex\config.toml`},
		{Codex, User, codexHome, "/srv/codex/config.toml"},

		{Gemini, User, linux, "/home/ann/.gemini/settings.json"},
		{Gemini, User, win, `C:\Users\ann\.gemini\settings.json`},
		{Gemini, Project, mac, "/Users/ann/src/app/.gemini/settings.json"},

		{Zed, User, linux, "/home/ann/.config/zed/settings.json"},
		{Zed, User, linuxXDG, "/home/ann/.xdg/zed/settings.json"},
		{Zed, User, mac, "/Users/ann/.config/zed/settings.json"},
		{Zed, User, win, `C:\Users\ann\AppData\Roaming\Zed\settings.json`},

		{Windsurf, User, linux, "/home/ann/.codeium/windsurf/mcp_config.json"},
		{Windsurf, User, mac, "/Users/ann/.codeium/windsurf/mcp_config.json"},
		{Windsurf, User, win, `C:\Users\ann\.codeium\windsurf\mcp_config.json`},
	}
	for _, tc := range cases {
		got, err := Path(tc.client, tc.scope, tc.env)
		if err != nil {
			t.Errorf("Path(%s, %s, %s): %v", tc.client, tc.scope, tc.env.GOOS, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Path(%s, %s, %s) = %q, want %q", tc.client, tc.scope, tc.env.GOOS, got, tc.want)
		}
	}
}

func TestProjectScopeOnlyWhereTheClientHasOne(t *testing.T) {
	t.Parallel()
	for _, c := range Clients() {
		_, err := c.ResolveScope("project")
		wantOK := c == ClaudeCode || c == VSCode || c == Cursor || c == Gemini
		if (err == nil) != wantOK {
			t.Errorf("%s: ResolveScope(project) error = %v, want accepted = %v", c, err, wantOK)
		}
		if s, err := c.ResolveScope(""); err != nil {
			t.Errorf("%s: ResolveScope(\"\"): %v", c, err)
		} else if s != User {
			t.Errorf("%s: default scope = %q, want %q", c, s, User)
		}
	}
	if _, err := ClaudeCode.ResolveScope("global"); err == nil {
		t.Error("ResolveScope(global) accepted, want an error naming user and project")
	}
}

func TestParseClientNamesTheKnownOnes(t *testing.T) {
	t.Parallel()
	if c, err := ParseClient("VSCode"); err != nil {
		t.Errorf("ParseClient(VSCode): %v", err)
	} else if c != VSCode {
		t.Errorf("ParseClient(VSCode) = %q, want %q", c, VSCode)
	}
	_, err := ParseClient("emacs")
	if err == nil {
		t.Fatal("ParseClient(emacs) accepted")
	}
	for _, c := range Clients() {
		if !contains(err.Error(), string(c)) {
			t.Errorf("error %q does not list %s", err, c)
		}
	}
}
