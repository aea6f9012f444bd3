package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/clientsetup"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tailscale/hujson"
)

// serversKey is where each client keeps its MCP servers, as the client
// itself reads its file (independently of clientsetup's own table).
var serversKey = map[string]string{
	"claude-code": "mcpServers", "claude-desktop": "mcpServers", "vscode": "servers", "cursor": "mcpServers",
	"codex": "mcp_servers", "gemini": "mcpServers", "zed": "context_servers", "windsurf": "mcpServers",
}

// A new user's first run, with the built binary and nothing else: sign
// in with `ghgate auth login` through the emulator's device flow (alice
// enters the code; no keyring answers here, so the token lands in the
// 0600 file), then `ghgate setup CLIENT` for every client, and each
// entry started as its client starts it (the command and arguments it
// wrote, an environment without any token): it lists ghgate's tools and
// reads an issue as alice. No entry holds the token.
func TestFromSignInToEveryClientsTools(t *testing.T) {
	t.Parallel()
	bin := ghgateBinary(t)
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	home := t.TempDir()
	env := append(cleanEnv(t), "HOME="+home)

	token := signIn(t, bin, env, srv.URL)

	cfg := filepath.Join(home, "ghgate.toml")
	if err := os.WriteFile(cfg, []byte("github_url = \""+srv.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clients := clientsetup.Clients()
	if len(clients) != len(serversKey) {
		t.Fatalf("setup knows %d clients, this test %d: add the new one to serversKey", len(clients), len(serversKey))
	}
	for _, c := range clients {
		name := string(c)
		file := filepath.Join(home, name, "mcp.json")
		if name == "codex" {
			file = filepath.Join(home, name, "config.toml")
		}
		setup := exec.Command(bin, "setup", name, "--file", file, "--config", cfg)
		setup.Env = env
		if out, err := setup.CombinedOutput(); err != nil {
			t.Fatalf("ghgate setup %s: %v\n%s", name, err, out)
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), token) {
			t.Errorf("%s: %s holds the token", name, file)
		}
		command, args := launchOf(t, name, raw)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			listAndRead(t, command, args, env)
		})
	}
}

// signIn runs `ghgate auth login` against the emulator, enters the code
// it shows as alice, and returns the token it stored.
func signIn(t *testing.T, bin string, env []string, base string) string {
	t.Helper()
	login := exec.Command(bin, "auth", "login", "--hostname", base, "--client-id", emulator.DeviceFlowClientID)
	login.Env = env
	out, err := login.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	login.Stderr = login.Stdout
	if err := login.Start(); err != nil {
		t.Fatal(err)
	}
	done := watch(login)
	t.Cleanup(func() { done.stop(login, os.Kill) })
	var shown strings.Builder
	sc := bufio.NewScanner(out)
	approved := false
	for sc.Scan() {
		shown.WriteString(sc.Text() + "\n")
		if m := shownCode.FindStringSubmatch(sc.Text()); m != nil && !approved {
			approveAs(t, base, emulator.DemoTokenAlice, m[1])
			approved = true
		}
	}
	if err, ok := done.wait(2 * time.Minute); !ok {
		t.Fatalf("auth login did not end within 2m\n%s", shown.String())
	} else if err != nil {
		t.Fatalf("auth login: %v\n%s", err, shown.String())
	}
	if !approved {
		t.Fatalf("auth login showed no one-time code:\n%s", shown.String())
	}
	file := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "ghgate", "credentials.toml")
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatalf("credentials file %s: %v (no keyring answers here)\n%s", file, err, shown.String())
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file %s: mode = %v, want 0600\n%s", file, fi.Mode().Perm(), shown.String())
	}
	var stored struct {
		Hosts map[string]struct {
			Token string `toml:"oauth_token"`
		} `toml:"hosts"`
	}
	raw, _ := os.ReadFile(file)
	if _, err := toml.Decode(string(raw), &stored); err != nil {
		t.Fatalf("credentials file: %v", err)
	}
	for _, h := range stored.Hosts {
		if h.Token != "" {
			if strings.Contains(shown.String(), h.Token) {
				t.Error("auth login printed the token")
			}
			return h.Token
		}
	}
	t.Fatalf("no token in %s:\n%s", file, raw)
	return ""
}

// launchOf reads the entry "ghgate" back from a client's file as that
// client would, and returns the command and arguments it starts.
func launchOf(t *testing.T, client string, raw []byte) (string, []string) {
	t.Helper()
	var doc map[string]any
	if client == "codex" {
		if _, err := toml.Decode(string(raw), &doc); err != nil {
			t.Fatalf("%s: %v", client, err)
		}
	} else {
		std, err := hujson.Standardize(raw)
		if err != nil {
			t.Fatalf("%s: %v", client, err)
		}
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatalf("%s: %v", client, err)
		}
	}
	servers, _ := doc[serversKey[client]].(map[string]any)
	entry, _ := servers["ghgate"].(map[string]any)
	if entry == nil {
		t.Fatalf("%s: no %s.ghgate in\n%s", client, serversKey[client], raw)
	}
	command, _ := entry["command"].(string)
	var args []string
	list, _ := entry["args"].([]any)
	for _, a := range list {
		s, _ := a.(string)
		args = append(args, s)
	}
	if command == "" {
		t.Fatalf("%s: entry %v has no command", client, entry)
	}
	return command, args
}

// listAndRead starts the server as a client would and uses it.
func listAndRead(t *testing.T, command string, args, env []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(command, args...)
	cmd.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "first-run", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%s %q: %v", command, args, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(tools.Tools) == 0 {
		t.Fatal("tools/list: no tools")
	}
	isErr, out := callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if isErr {
		t.Fatalf("github_get_issue with the signed-in token failed: %v", out)
	}
}

func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as for a child
		}
	}
	return v
}
