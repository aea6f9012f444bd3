package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gen-docs writes a completion per shell and a man page per command, dated
// by SOURCE_DATE_EPOCH, and the same bytes each time.
func TestGenDocs(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200") // 2025-12-01
	a, b := t.TempDir(), t.TempDir()
	if err := genDocs(newRootCommand(), a); err != nil {
		t.Fatal(err)
	}
	if err := genDocs(newRootCommand(), b); err != nil {
		t.Fatal(err)
	}
	read := func(dir, rel string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != readOther(t, b, rel) {
			t.Errorf("%s differs between two runs", rel)
		}
		return string(data)
	}
	for shell, marker := range map[string]string{"bash": "__start_ghgate", "zsh": "#compdef ghgate", "fish": "complete -c ghgate"} {
		if got := read(a, "completions/ghgate."+shell); !strings.Contains(got, marker) {
			t.Errorf("%s completion lacks %q", shell, marker)
		}
	}
	for _, sub := range []string{"serve", "broker", "connect", "doctor", "version", "healthcheck", "completion"} {
		page := read(a, "man/ghgate-"+sub+".1")
		if !strings.Contains(page, `.TH "GHGATE" "1" "Dec 2025"`) {
			t.Errorf("ghgate-%s.1: no header dated by SOURCE_DATE_EPOCH:\n%.200s", sub, page)
		}
	}
	if page := read(a, "man/ghgate-serve.1"); !strings.Contains(page, "auth") {
		t.Error("ghgate-serve.1 does not document --auth")
	}
	// The build step itself is not documented as a command users have.
	if _, err := os.Stat(filepath.Join(a, "man", "ghgate-gen-docs.1")); err == nil {
		t.Error("the hidden gen-docs command got a man page")
	}
}

func readOther(t *testing.T, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
