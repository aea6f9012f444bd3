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
	if f == nil || !f.Hidden {
		t.Fatalf("--conformance-fixtures: %+v, want a hidden flag", f)
	}
	var o server.StackOptions
	fixtureStack(&o)
	if len(o.Extra) != 0 || o.Register != nil {
		t.Fatal("fixtures added without the flag")
	}
	if err := cmd.Flags().Set("conformance-fixtures", "true"); err != nil {
		t.Fatal(err)
	}
	fixtureStack(&o)
	if len(o.Extra) == 0 || o.Register == nil {
		t.Fatal("the flag added no fixtures")
	}
}
