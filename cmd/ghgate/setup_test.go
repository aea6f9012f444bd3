package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// runSetupCommand runs `ghgate setup ARGS…` through the real command tree.
func runSetupCommand(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"setup"}, args...))
	err := root.Execute()
	return out.String(), err
}

// serverEntry reads key.name from a JSON-with-comments file.
func serverEntry(t *testing.T, path, key, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	std, err := hujson.Standardize(raw)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	var doc map[string]map[string]map[string]any
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	e, ok := doc[key][name]
	if !ok {
		t.Fatalf("%s has no %s.%s:\n%s", path, key, name, raw)
	}
	return e
}

func stringsOf(v any) []string {
	var out []string
	for _, a := range v.([]any) {
		out = append(out, a.(string))
	}
	return out
}

func copySample(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "clientsetup", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func filesIn(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestSetupCommandWritesTheEntryThenSaysUnchanged(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nested", "mcp.json")
	out, err := runSetupCommand(t, "cursor", "--file", path, "--read-only", "--toolsets", "issues", "--name", "gh")
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	if want := `added "gh" in ` + path; !strings.Contains(out, want) {
		t.Errorf("output %q does not say %q", out, want)
	}
	exe, err := ghgateExecutable()
	if err != nil {
		t.Fatal(err)
	}
	entry := serverEntry(t, path, "mcpServers", "gh")
	if got := entry["command"]; got != exe {
		t.Errorf("command = %v, want this binary %s", got, exe)
	}
	if got := stringsOf(entry["args"]); !slices.Equal(got, []string{"serve", "--toolsets", "issues", "--read-only"}) {
		t.Errorf("args = %q, want serve --toolsets issues --read-only", got)
	}
	before, _ := os.ReadFile(path)
	out, err = runSetupCommand(t, "cursor", "--file", path, "--read-only", "--toolsets", "issues", "--name", "gh")
	if err != nil {
		t.Fatalf("second setup: %v", err)
	}
	if !strings.HasPrefix(out, "unchanged: ") {
		t.Errorf("second run output = %q, want it to start with unchanged", out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the second run rewrote the file")
	}
	if n := filesIn(t, filepath.Dir(path)); n != 1 {
		t.Errorf("directory holds %d files after an unchanged run, want 1 (no backup)", n)
	}
}

func TestSetupPrintWritesNothing(t *testing.T) {
	t.Parallel()
	path := copySample(t, "zed.json")
	before, _ := os.ReadFile(path)
	out, err := runSetupCommand(t, "zed", "--print", "--file", path)
	if err != nil {
		t.Fatalf("setup --print: %v", err)
	}
	for _, want := range []string{`would add "ghgate" in ` + path, `+    "ghgate": {`, `+      "args": ["serve"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not show %q:\n%s", want, out)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("--print changed the file")
	}
	if n := filesIn(t, filepath.Dir(path)); n != 1 {
		t.Errorf("directory holds %d files after --print, want 1", n)
	}
}

func TestSetupRefusesAMalformedFileUntouched(t *testing.T) {
	t.Parallel()
	path := copySample(t, "broken.json")
	before, _ := os.ReadFile(path)
	_, err := runSetupCommand(t, "vscode", "--file", path)
	wantErrorSaying(t, "setup on a malformed file", err, "not valid JSON", "nothing was written")
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the malformed file changed")
	}
	if n := filesIn(t, filepath.Dir(path)); n != 1 {
		t.Errorf("directory holds %d files, want 1 (no backup)", n)
	}
}

func TestSetupNeverWritesTheTokenValue(t *testing.T) {
	t.Parallel()
	const secret = "ghp_setupTestSecretValue0123456789"
	getenv := func(k string) string {
		if k == "GITHUB_TOKEN" {
			return secret
		}
		return ""
	}
	for _, c := range []string{"claude-code", "claude-desktop", "vscode", "cursor", "codex", "gemini", "zed", "windsurf"} {
		path := filepath.Join(t.TempDir(), "config")
		var out bytes.Buffer
		if err := runSetup(&out, c, setupFlags{file: path, name: "ghgate"}, getenv); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		content, _ := os.ReadFile(path)
		if bytes.Contains(content, []byte(secret)) {
			t.Errorf("%s: the file holds the token's value", c)
		}
		if strings.Contains(out.String(), secret) {
			t.Errorf("%s: the output holds the token's value", c)
		}
		if !strings.Contains(out.String(), "token: ") {
			t.Errorf("%s: output %q does not say where the token comes from", c, out.String())
		}
	}
}

func TestSetupConfigAndSocketArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config := filepath.Join(dir, "ghgate.toml")
	if err := os.WriteFile(config, []byte("token = \"ghp_fromTheConfigFile\"\nread_only = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "claude_desktop_config.json")
	out, err := runSetupCommand(t, "claude-desktop", "--file", path, "--config", config)
	if err != nil {
		t.Fatalf("setup --config: %v", err)
	}
	if got := stringsOf(serverEntry(t, path, "mcpServers", "ghgate")["args"]); !slices.Equal(got, []string{"serve", "--config", config}) {
		t.Errorf("args = %q, want serve --config %s", got, config)
	}
	if want := "token: from `token` in " + config; !strings.Contains(out, want) {
		t.Errorf("output %q does not say %q", out, want)
	}
	if strings.Contains(out, "ghp_fromTheConfigFile") {
		t.Error("the output holds the config file's token")
	}

	sockFile := filepath.Join(dir, "codex.toml")
	if _, err := runSetupCommand(t, "codex", "--file", sockFile, "--socket", "/run/ghgate/ghgate.sock"); err != nil {
		t.Fatalf("setup --socket: %v", err)
	}
	content, _ := os.ReadFile(sockFile)
	if want := `args = ["connect", "--socket", "/run/ghgate/ghgate.sock"]`; !strings.Contains(string(content), want) {
		t.Errorf("codex file lacks %q:\n%s", want, content)
	}

	if _, err := runSetupCommand(t, "cursor", "--file", path, "--config", filepath.Join(dir, "missing.toml")); err == nil {
		t.Error("a --config file that does not exist was accepted")
	}
	_, err = runSetupCommand(t, "cursor", "--file", path, "--socket", "/s", "--read-only")
	wantErrorSaying(t, "--socket with --read-only", err, "--socket")
}

func TestSetupRefusesUnknownNames(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"emacs", "--file", path}, `unknown client "emacs"`},
		{[]string{"cursor", "--file", path, "--toolsets", "isues"}, "--toolsets: unknown toolset"},
		{[]string{"zed", "--file", path, "--scope", "project"}, "Zed has no project scope"},
	}
	for _, tc := range cases {
		_, err := runSetupCommand(t, tc.args...)
		wantErrorSaying(t, "setup "+strings.Join(tc.args, " "), err, tc.want)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a refused setup wrote its file")
	}
}
