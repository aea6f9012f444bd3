package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The command prints one verdict line per gate and fails when a gate does;
// the accounts here are the host's, so only the shape is checked (the
// verdicts are in internal/doctor's tests and the OS-user tests).
func TestDoctorCommandPrintsGatesAndFails(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "broker.toml")
	body := `[listen]
socket = "` + filepath.Join(dir, "ghgate.sock") + `"
group = "ghgate-doctor-test-no-such-group"
[secrets]
file = "` + filepath.Join(dir, "secrets.toml") + `"
[[route]]
owner = "*"
read = "r"
`
	if err := os.WriteFile(cfg, []byte(body), 0o640); err != nil {
		t.Fatal(err)
	}
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"doctor", "--config", cfg, "--service-user", "ghgate-doctor-test-no-such-user"})
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "gates failed") {
		t.Fatalf("doctor error = %v, want one saying %q\n%s", err, "gates failed", out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 5 {
		t.Fatalf("doctor printed %d lines, want at least 5 gates:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		v := strings.Fields(l)[0]
		if v != "PASS" && v != "WARN" && v != "FAIL" {
			t.Errorf("line without a verdict: %q", l)
		}
	}
	for _, want := range []string{"FAIL  service user", "FAIL  bridge group", "FAIL  secrets file"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDoctorCommandNeedsConfig(t *testing.T) {
	cmd := newRootCommand()
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetArgs([]string{"doctor"})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "config") {
		t.Fatalf("doctor without --config: error = %v, want one saying %q", err, "config")
	}
}
