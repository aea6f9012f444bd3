package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/zalando/go-keyring"
)

// serve takes the first token of: GITHUB_TOKEN/GH_TOKEN, the config
// file's token, ghgate's keyring entry, ghgate's file, gh's hosts.yml,
// gh's keyring entry. Each source is removed in turn so the next wins;
// the start log names each and never holds the token.
func TestServeTokenDiscoveryOrder(t *testing.T) {
	const host = "discovery.example.com"
	home := t.TempDir()
	ghDir := filepath.Join(home, "gh")
	env := map[string]string{"HOME": home, "GH_CONFIG_DIR": ghDir, "GITHUB_TOKEN": "ghp_FROMENV1", "GH_TOKEN": "ghp_FROMENV2"}
	getenv := func(k string) string { return env[k] }
	args := []string{"--github-url", "https://" + host + "/api/v3"}
	config := "token = \"ghp_FROMCONFIG\"\n"

	if err := keyring.Set(credentials.KeyringService(host), "", "gho_GHGATEKEYRING"); err != nil {
		t.Fatal(err)
	}
	file := credentials.DefaultFile(getenv)
	if _, _, err := (credentials.Store{File: file}).Save(host, "alice", "gho_GHGATEFILE"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ghDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hostsYML := filepath.Join(ghDir, "hosts.yml")
	if err := os.WriteFile(hostsYML, []byte(host+":\n    user: monalisa\n    oauth_token: gho_GHHOSTS\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := keyring.Set(credentials.GHKeyringService(host), "monalisa", "gho_GHKEYRING"); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		want, source string
		remove       func()
	}{
		{"ghp_FROMENV1", "GITHUB_TOKEN in the environment", func() { delete(env, "GITHUB_TOKEN") }},
		{"ghp_FROMENV2", "GH_TOKEN in the environment", func() { delete(env, "GH_TOKEN") }},
		{"ghp_FROMCONFIG", "the config file's token", func() { config = "" }},
		{"gho_GHGATEKEYRING", "ghgate's OS keyring entry (service ghgate:" + host + ")", func() { _ = keyring.Delete(credentials.KeyringService(host), "") }},
		{"gho_GHGATEFILE", "ghgate's credentials file " + file, func() { _ = os.Remove(file) }},
		{"gho_GHHOSTS", "gh's " + hostsYML, func() {
			_ = os.WriteFile(hostsYML, []byte(host+":\n    user: monalisa\n"), 0o600)
		}},
		{"gho_GHKEYRING", "gh's OS keyring entry (service gh:" + host + ")", func() { _ = keyring.Delete(credentials.GHKeyringService(host), "monalisa") }},
		{"", "", nil},
	}
	for _, st := range steps {
		cfg, err := parseServe(t, args, config, env)
		if err != nil {
			t.Fatalf("want %s: %v", st.source, err)
		}
		if cfg.Token != st.want {
			t.Errorf("token from %q, want the one from %s", cfg.TokenSource, st.source)
		}
		if !strings.Contains(cfg.TokenSource, st.source) {
			t.Errorf("source = %q, want it to name %q", cfg.TokenSource, st.source)
		}
		var logged bytes.Buffer
		logTokenSource(slog.New(slog.NewTextHandler(&logged, nil)), cfg)
		switch {
		case st.want == "" && !strings.Contains(logged.String(), "ghgate auth login"):
			t.Errorf("no token: start log %q does not say to run ghgate auth login", logged.String())
		case st.want != "" && !strings.Contains(logged.String(), st.source):
			t.Errorf("start log %q does not name %s", logged.String(), st.source)
		case st.want != "" && strings.Contains(logged.String(), st.want):
			t.Errorf("start log holds the token from %s", st.source)
		}
		if st.remove != nil {
			st.remove()
		}
	}
}
