package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// `ghgate emulator --coverage` prints the coverage statement and exits
// without serving: the same text as docs/emulator-coverage.md.
func TestEmulatorCoverageFlag(t *testing.T) {
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"emulator", "--coverage", "--listen", "0.0.0.0:80"}) // never listened on
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/emulator-coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "# What the emulator serves") {
		t.Errorf("--coverage output starts %q, want %q", out.String()[:min(out.Len(), 40)], "# What the emulator serves")
	}
	if out.String() != string(doc) {
		t.Errorf("--coverage printed %d bytes, docs/emulator-coverage.md holds %d; want them equal:\n%s", out.Len(), len(doc), out.String()[:min(out.Len(), 400)])
	}
}
