package clientsetup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	"github.com/tailscale/hujson"
)

const testExe = "/opt/ghgate/bin/ghgate"

// samples are real-looking client files: other servers, comments, trailing
// commas. keep lists text that must survive the edit verbatim.
var samples = []struct {
	client Client
	file   string
	keep   []string
}{
	{ClaudeCode, "claude-code.json", []string{`"numStartups": 42,`, `"args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ann/src"],`,
		`"url": "https://mcp.sentry.dev/mcp"`, `"hasTrustDialogAccepted": true`}},
	{ClaudeDesktop, "claude-desktop.json", []string{`"args": ["-y", "@modelcontextprotocol/server-memory"]`, `"menuBarEnabled": false`}},
	{VSCode, "vscode.json", []string{"// VS Code user MCP configuration\n", "\t\t// Web search, key asked for once\n",
		`"PERPLEXITY_API_KEY": "${input:perplexity-key}"`, `"args": ["mcp-server-fetch"], // pinned in uv.lock` + "\n", `"password": true`}},
	{Cursor, "cursor.json", []string{"/* browser automation for the agent */", `"args": ["-y", "@playwright/mcp@latest"]`,
		`"headers": { "CONTEXT7_API_KEY": "${env:CONTEXT7_API_KEY}" }`, "// remote\n"}},
	{Codex, "codex.toml", []string{"# Codex configuration\nmodel = \"gpt-5-codex\"\n", "[mcp_servers.docs]\ncommand = \"npx\"\n",
		"[mcp_servers.docs.env]\nDOCS_ROOT = \"/home/ann/docs\"\n", "# The profile used in CI\n[profiles.ci]\n"}},
	{Gemini, "gemini.json", []string{`"vimMode": true,`, "// tools Gemini may call\n", `"trust": false`}},
	{Zed, "zed.json", []string{"// Zed settings\n//\n", `"dark": "One Dark",` + "\n  },", `"postgresql://localhost/dev"],`, `"vim_mode": false, // not yet`}},
	{Windsurf, "windsurf.json", []string{`"args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],`, `"disabled": true`}},
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyToTemp puts a testdata file into a fresh directory, as the client's
// file would be.
func copyToTemp(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, readTestdata(t, name), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// entryOf reads client c's entry name back out of a file's content, the way
// the client would: JSON with comments, or TOML.
func entryOf(t *testing.T, c Client, content []byte, name string) map[string]any {
	t.Helper()
	var doc map[string]any
	if specs[c].toml {
		if _, err := toml.Decode(string(content), &doc); err != nil {
			t.Fatalf("%s: the result does not parse as TOML: %v\n%s", c, err, content)
		}
	} else {
		std, err := hujson.Standardize(slices.Clone(content))
		if err != nil {
			t.Fatalf("%s: the result does not parse as JSON with comments: %v\n%s", c, err, content)
		}
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatalf("%s: the result is not a JSON object: %v", c, err)
		}
	}
	servers, _ := doc[specs[c].key].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	if !ok {
		t.Fatalf("%s: no %s.%s in the result:\n%s", c, specs[c].key, name, content)
	}
	return entry
}

func argsOf(entry map[string]any) []string {
	var out []string
	arr, _ := entry["args"].([]any)
	for _, a := range arr {
		s, _ := a.(string)
		out = append(out, s)
	}
	return out
}

// isSubsequence says whether every byte of a appears in b in order: b is a
// with bytes only inserted.
func isSubsequence(a, b []byte) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestSetupAddsTheEntryAndKeepsEveryOtherByte(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		t.Run(string(s.client), func(t *testing.T) {
			t.Parallel()
			path := copyToTemp(t, s.file)
			ch, err := Plan(s.client, path, Options{Executable: testExe, ReadOnly: true, Toolsets: []string{"issues", "pulls"}})
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if ch.Status != Added {
				t.Errorf("status = %q, want %q", ch.Status, Added)
			}
			if !isSubsequence(ch.Before, ch.After) {
				t.Errorf("the edit changed or removed existing bytes, want insertions only:\n%s", ch.Diff())
			}
			for _, k := range s.keep {
				if !contains(string(ch.After), k) {
					t.Errorf("the result lost %q", k)
				}
			}
			entry := entryOf(t, s.client, ch.After, "ghgate")
			if got := entry["command"]; got != testExe {
				t.Errorf("command = %v, want %s", got, testExe)
			}
			if diff := cmp.Diff([]string{"serve", "--toolsets", "issues,pulls", "--read-only"}, argsOf(entry)); diff != "" {
				t.Errorf("args mismatch (-want +got):\n%s", diff)
			}
			wantType := specs[s.client].typeStdio
			// Only VS Code and Claude Code carry a type, stdio.
			if got, ok := entry["type"]; wantType && got != "stdio" {
				t.Errorf("type = %v, want stdio for %s", got, s.client)
			} else if !wantType && ok {
				t.Errorf("type = %v, want none for %s", got, s.client)
			}
			if env, ok := entry["env"]; ok {
				t.Errorf("env = %v, want none without a token variable", env)
			}
		})
	}
}

func TestSetupTwiceSaysUnchangedAndWritesNothing(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		t.Run(string(s.client), func(t *testing.T) {
			t.Parallel()
			path := copyToTemp(t, s.file)
			o := Options{Executable: testExe, TokenVar: "GITHUB_TOKEN"}
			first, err := Plan(s.client, path, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := first.Write(time.Unix(0, 0), 0o600); err != nil {
				t.Fatal(err)
			}
			written, _ := os.ReadFile(path)
			second, err := Plan(s.client, path, o)
			if err != nil {
				t.Fatal(err)
			}
			if second.Status != Unchanged {
				t.Fatalf("second run status = %q, want %q; diff:\n%s", second.Status, Unchanged, second.Diff())
			}
			if err := second.Write(time.Unix(3600, 0), 0o600); err != nil {
				t.Fatal(err)
			}
			if second.Backup != "" {
				t.Errorf("unchanged run made backup %s, want none", second.Backup)
			}
			if after, _ := os.ReadFile(path); string(after) != string(written) {
				t.Errorf("unchanged run rewrote the file")
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 2 {
				t.Errorf("directory holds %d files, want 2 (the file and the first run's backup)", len(entries))
			}
		})
	}
}

func TestSetupCreatesAMissingFileAndItsDirectories(t *testing.T) {
	t.Parallel()
	for _, c := range Clients() {
		path := filepath.Join(t.TempDir(), "a", "b", "config")
		ch, err := Plan(c, path, Options{Executable: testExe})
		if err != nil {
			t.Fatalf("%s: Plan: %v", c, err)
		}
		if ch.Status != Added {
			t.Errorf("%s: status = %q, want added", c, ch.Status)
		}
		if err := ch.Write(time.Now(), 0o600); err != nil {
			t.Fatalf("%s: Write: %v", c, err)
		}
		if ch.Backup != "" {
			t.Errorf("%s: backup %q for a new file, want none", c, ch.Backup)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if got := info.Mode().Perm(); got != 0o600 {
			t.Errorf("%s: mode = %v, want 0600", c, got)
		}
		content, _ := os.ReadFile(path)
		if got := argsOf(entryOf(t, c, content, "ghgate")); !slices.Equal(got, []string{"serve"}) {
			t.Errorf("%s: args = %q, want [serve]", c, got)
		}
	}
}

func TestMalformedFileIsRefusedUntouched(t *testing.T) {
	t.Parallel()
	cases := []struct {
		client  Client
		content string
		want    string
	}{
		{Cursor, string(readTestdata(t, "broken.json")), "not valid JSON"},
		{Codex, string(readTestdata(t, "broken.toml")), "not valid TOML"},
		{VSCode, `["servers"]`, "top level is not a JSON object"},
		{ClaudeDesktop, `{"mcpServers": []}`, `"mcpServers" is not an object`},
		{Codex, "mcp_servers = 3\n", "mcp_servers is not a table"},
		{Codex, "[mcp_servers]\nghgate = { command = \"x\" }\n", "without its own [mcp_servers.ghgate] table"},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Plan(tc.client, path, Options{Executable: testExe})
		if err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error = %v, want one saying %q", tc.client, tc.content, err, tc.want)
		}
		if err != nil && !contains(err.Error(), "nothing was written") {
			t.Errorf("%s: error %q does not say nothing was written", tc.client, err)
		}
		if got, _ := os.ReadFile(path); string(got) != tc.content {
			t.Errorf("%s: the file changed", tc.client)
		}
	}
}

func TestUpdateKeepsTheEntrysOwnKeysAndTheRest(t *testing.T) {
	t.Parallel()
	path := copyToTemp(t, "existing.json")
	ch, err := Plan(Cursor, path, Options{Executable: testExe, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Status != Updated {
		t.Errorf("status = %q, want updated", ch.Status)
	}
	for _, k := range []string{"// managed by hand\n", `"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}`} {
		if !contains(string(ch.After), k) {
			t.Errorf("the result lost %q:\n%s", k, ch.After)
		}
	}
	entry := entryOf(t, Cursor, ch.After, "ghgate")
	if got := entry["disabled"]; got != false {
		t.Errorf("disabled = %v, want false carried over", got)
	}
	if got := argsOf(entry); !slices.Equal(got, []string{"serve", "--read-only"}) {
		t.Errorf("args = %q, want [serve --read-only]", got)
	}
}

func TestCodexUpdateReplacesOnlyTheEntrysTables(t *testing.T) {
	t.Parallel()
	path := copyToTemp(t, "codex-existing.toml")
	ch, err := Plan(Codex, path, Options{Executable: testExe, TokenVar: "GH_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Status != Updated {
		t.Errorf("status = %q, want updated", ch.Status)
	}
	for _, k := range []string{"model = \"gpt-5-codex\"\n\n[mcp_servers.ghgate]\n", "\n# search the web\n[mcp_servers.search]\ncommand = \"uvx\"\nargs = [\"mcp-search\"]\n"} {
		if !contains(string(ch.After), k) {
			t.Errorf("the result lost %q:\n%s", k, ch.After)
		}
	}
	if n := strings.Count(string(ch.After), "[mcp_servers.ghgate"); n != 2 {
		t.Errorf("[mcp_servers.ghgate…] headers = %d, want 2 (the table and its env):\n%s", n, ch.After)
	}
	entry := entryOf(t, Codex, ch.After, "ghgate")
	if got := entry["command"]; got != testExe {
		t.Errorf("command = %v, want %s", got, testExe)
	}
	if got := entry["startup_timeout_sec"]; got != int64(30) {
		t.Errorf("startup_timeout_sec = %v, want 30 carried over", got)
	}
	env, _ := entry["env"].(map[string]any)
	if got := env["GHGATE_LOG"]; got != "debug" {
		t.Errorf("env.GHGATE_LOG = %v, want debug carried over", got)
	}
	if got, _ := entry["env_vars"].([]any); !slices.Equal(got, []any{"GH_TOKEN"}) {
		t.Errorf("env_vars = %v, want [GH_TOKEN]", got)
	}
}

func TestTokenIsNamedNeverCopied(t *testing.T) {
	t.Parallel()
	wantEnv := map[Client]map[string]any{
		VSCode:   {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"},
		Cursor:   {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"},
		Windsurf: {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"},
		Gemini:   {"GITHUB_TOKEN": "${GITHUB_TOKEN}"},
	}
	for _, c := range Clients() {
		ch, err := Plan(c, filepath.Join(t.TempDir(), "f"), Options{Executable: testExe, TokenVar: "GITHUB_TOKEN"})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		entry := entryOf(t, c, ch.After, "ghgate")
		got, _ := entry["env"].(map[string]any)
		if diff := cmp.Diff(wantEnv[c], got, cmp.Comparer(func(a, b map[string]any) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
			t.Errorf("%s: env mismatch (-want +got):\n%s", c, diff)
		}
		vars, _ := entry["env_vars"].([]any)
		if wantVars := c == Codex; (len(vars) == 1 && vars[0] == "GITHUB_TOKEN") != wantVars {
			t.Errorf("%s: env_vars = %v, want [GITHUB_TOKEN] only for Codex", c, vars)
		}
		// With --config the file is the token's source: no variable named.
		ch, err = Plan(c, filepath.Join(t.TempDir(), "f"), Options{Executable: testExe, TokenVar: "GITHUB_TOKEN", Config: "/etc/ghgate.toml"})
		if err != nil {
			t.Fatal(err)
		}
		if contains(string(ch.After), "GITHUB_TOKEN") {
			t.Errorf("%s with --config: the entry names GITHUB_TOKEN, want the config file alone:\n%s", c, ch.After)
		}
	}
}

func TestSocketEntryRunsConnect(t *testing.T) {
	t.Parallel()
	ch, err := Plan(ClaudeDesktop, filepath.Join(t.TempDir(), "f"), Options{Executable: testExe, Socket: "/run/ghgate/ghgate.sock", TokenVar: "GITHUB_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	entry := entryOf(t, ClaudeDesktop, ch.After, "ghgate")
	if got := argsOf(entry); !slices.Equal(got, []string{"connect", "--socket", "/run/ghgate/ghgate.sock"}) {
		t.Errorf("args = %q, want connect --socket /run/ghgate/ghgate.sock", got)
	}
	_, err = Plan(ClaudeDesktop, filepath.Join(t.TempDir(), "f"), Options{Executable: testExe, Socket: "/s", ReadOnly: true})
	if err == nil || !contains(err.Error(), "--socket") {
		t.Errorf("--socket with --read-only: error = %v, want a refusal naming --socket", err)
	}
}

func TestWriteKeepsModeAndBacksUp(t *testing.T) {
	t.Parallel()
	path := copyToTemp(t, "windsurf.json")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	ch, err := Plan(Windsurf, path, Options{Executable: testExe})
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Write(time.Date(2026, 12, 6, 20, 30, 5, 0, time.UTC), 0o600); err != nil {
		t.Fatal(err)
	}
	if want := path + ".bak-20261206-203005"; ch.Backup != want {
		t.Errorf("backup = %q, want %q", ch.Backup, want)
	}
	if got, _ := os.ReadFile(ch.Backup); string(got) != string(before) {
		t.Errorf("the backup differs from the original")
	}
	info, _ := os.Stat(path)
	if got := info.Mode().Perm(); got != 0o640 {
		t.Errorf("mode after write = %v, want 0640 kept", got)
	}
}

func TestWriteFollowsASymlinkedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := copyToTemp(t, "gemini.json")
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	ch, err := Plan(Gemini, link, Options{Executable: testExe})
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Write(time.Now(), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil {
		t.Errorf("Lstat of the symlink: %v", err)
	} else if info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s has mode %v, want the symlink kept (not replaced by a file)", link, info.Mode())
	}
	content, _ := os.ReadFile(target)
	entryOf(t, Gemini, content, "ghgate")
}

func TestInsertIntoCompactAndEmptyObjects(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"{}",
		"// nothing yet\n{}\n",
		`{"theme": "dark"}`,
		`{"mcpServers": {}}`,
		"{\n  \"mcpServers\": {\n    // none yet\n  }\n}\n",
		"{\n  \"mcpServers\": {\"a\": {\"command\": \"a\"}}\n}\n",
		"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"},\n  },\n}\n",
	} {
		after, existed, changed, err := upsertJSON([]byte(src), "mcpServers", "ghgate", jsonShape(Cursor, Entry{Command: testExe, Args: []string{"serve"}}))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if existed {
			t.Errorf("%q: existed = true, want false (added)", src)
			continue
		}
		if !changed {
			t.Errorf("%q: changed = false, want true (added)", src)
			continue
		}
		if !isSubsequence([]byte(src), after) {
			t.Errorf("%q: existing bytes changed:\n%s", src, after)
		}
		if got := entryOf(t, Cursor, after, "ghgate")["command"]; got != testExe {
			t.Errorf("%q: command = %v, want %s\n%s", src, got, testExe, after)
		}
	}
}

func TestTokenAdviceSaysWhereTheTokenComesFrom(t *testing.T) {
	t.Parallel()
	cases := []struct {
		client    Client
		o         Options
		hasToken  bool
		want      string
		forbidden string
	}{
		{ClaudeDesktop, Options{}, false, "--config FILE", ""},
		{Zed, Options{TokenVar: "GITHUB_TOKEN"}, false, "--config FILE", ""},
		{ClaudeCode, Options{}, false, "GITHUB_TOKEN or GH_TOKEN", ""},
		{VSCode, Options{TokenVar: "GH_TOKEN"}, false, "passes GH_TOKEN", ""},
		{Gemini, Options{}, false, "only when the entry names it", ""},
		{ClaudeDesktop, Options{Config: "/c.toml"}, true, "from `token` in /c.toml", ""},
		{ClaudeDesktop, Options{Config: "/c.toml"}, false, "has no `token` key", ""},
		{Codex, Options{Socket: "/s.sock", TokenVar: "GITHUB_TOKEN"}, false, "broker", "GITHUB_TOKEN"},
	}
	for _, tc := range cases {
		tc.o.Executable = testExe
		got := TokenAdvice(tc.client, tc.o, BuildEntry(tc.client, tc.o), tc.hasToken)
		if !contains(got, tc.want) {
			t.Errorf("%s %+v: advice %q does not say %q", tc.client, tc.o, got, tc.want)
		}
		if tc.forbidden != "" && contains(got, tc.forbidden) {
			t.Errorf("%s: advice %q mentions %q", tc.client, got, tc.forbidden)
		}
	}
}

func TestWindowsLineEndingsAndByteOrderMarkAreKept(t *testing.T) {
	t.Parallel()
	cases := []struct {
		client Client
		src    string
	}{
		{Cursor, strings.ReplaceAll(string(readTestdata(t, "cursor.json")), "\n", "\r\n")},
		{Zed, strings.ReplaceAll(string(readTestdata(t, "zed.json")), "\n", "\r\n")},
		{Codex, strings.ReplaceAll(string(readTestdata(t, "codex.toml")), "\n", "\r\n")},
		{Codex, strings.ReplaceAll(string(readTestdata(t, "codex-existing.toml")), "\n", "\r\n")},
		{ClaudeDesktop, "\xef\xbb\xbf" + string(readTestdata(t, "claude-desktop.json"))},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
			t.Fatal(err)
		}
		ch, err := Plan(tc.client, path, Options{Executable: testExe})
		if err != nil {
			t.Fatalf("%s: %v", tc.client, err)
		}
		after := string(ch.After)
		if strings.Contains(tc.src, "\r\n") && strings.Count(after, "\n") != strings.Count(after, "\r\n") {
			t.Errorf("%s: the result mixes LF into a CRLF file:\n%q", tc.client, after)
		}
		if strings.HasPrefix(tc.src, "\xef\xbb\xbf") && !strings.HasPrefix(after, "\xef\xbb\xbf") {
			t.Errorf("%s: the byte order mark was dropped", tc.client)
		}
		entryOf(t, tc.client, []byte(strings.TrimPrefix(after, "\xef\xbb\xbf")), "ghgate")
		if err := ch.Write(time.Now(), 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := Plan(tc.client, path, Options{Executable: testExe})
		if err != nil {
			t.Fatalf("%s: second run: %v", tc.client, err)
		}
		if again.Status != Unchanged {
			t.Errorf("%s: second run status = %q, want unchanged", tc.client, again.Status)
		}
	}
}
