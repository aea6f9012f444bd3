//go:build conformance

package main

import (
	"testing"

	"github.com/ghgate/ghgate/internal/server"
)

// In the test-only build the flag exists, hidden, and the fixtures are
// added only when it is given.
func TestConformanceFixturesOnlyWithTheFlag(t *testing.T) {
	cmd := newServeCommand()
	f := cmd.Flags().Lookup("conformance-fixtures")
	if f == nil {
		t.Fatalf("--conformance-fixtures: no such flag, want a hidden one")
	}
	if !f.Hidden {
		t.Fatalf("--conformance-fixtures: Hidden = false, want true")
	}
	var o server.StackOptions
	fixtureStack(&o)
	if len(o.Extra) != 0 {
		t.Fatalf("without the flag: %d extra fixtures, want 0", len(o.Extra))
	}
	if o.Register != nil {
		t.Fatal("without the flag: Register set, want nil")
	}
	if err := cmd.Flags().Set("conformance-fixtures", "true"); err != nil {
		t.Fatal(err)
	}
	fixtureStack(&o)
	if len(o.Extra) == 0 {
		t.Fatal("with the flag: 0 extra fixtures, want some")
	}
	if o.Register == nil {
		t.Fatal("with the flag: Register nil, want set")
	}
}
