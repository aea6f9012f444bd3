package permissions_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/permissions"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// TestEveryToolHasARow: a tool cannot be added to the registry without a
// row, a row cannot outlive its tool, a write tool's row names what its
// writes need and a read tool's names no write.
func TestEveryToolHasARow(t *testing.T) {
	served := map[string]tooldef.Mode{}
	for _, sp := range tools.All(&toolkit.Service{}) {
		served[sp.ToolName()] = sp.ToolMode()
	}
	for name, mode := range served {
		read, ok := permissions.For(name, false)
		if !ok {
			t.Errorf("%s has no row in the permissions table", name)
			continue
		}
		write, _ := permissions.For(name, true)
		if read[permissions.Metadata] != permissions.Read {
			t.Errorf("%s: metadata = %q, want read (every token holds it)", name, read[permissions.Metadata])
		}
		grows := !maps.Equal(read, write)
		switch {
		case mode == tooldef.Write && !grows:
			t.Errorf("%s writes, but its write set %v adds nothing to its reads", name, write)
		case mode == tooldef.Read && grows:
			t.Errorf("%s only reads, but its write set %v adds to its reads %v", name, write, read)
		}
		for perm, level := range write {
			if mode == tooldef.Read && level != permissions.Read {
				t.Errorf("%s only reads, but needs %s=%s", name, perm, level)
			}
		}
	}
	for _, name := range permissions.Tools() {
		if _, ok := served[name]; !ok {
			t.Errorf("the permissions table has a row for %s, which no toolset serves", name)
		}
	}
}

// TestForIsACopy: a caller may change what For returns without changing
// the table.
func TestForIsACopy(t *testing.T) {
	s, _ := permissions.For("github_add_comment", true)
	s["administration"] = permissions.Write
	again, _ := permissions.For("github_add_comment", true)
	if _, ok := again["administration"]; ok {
		t.Errorf("For returned the table's own map: %v", again)
	}
}

func TestForAndMode(t *testing.T) {
	got, ok := permissions.For("github_add_comment", true)
	want := permissions.Set{"metadata": "read", "issues": "write"}
	if !ok {
		t.Errorf("For(add_comment, write) ok = false, want true")
	}
	if !maps.Equal(got, want) {
		t.Errorf("For(add_comment, write) = %v, want %v", got, want)
	}
	got, _ = permissions.For("github_add_comment", false)
	if want := (permissions.Set{"metadata": "read", "issues": "read"}); !maps.Equal(got, want) {
		t.Errorf("For(add_comment, read) = %v, want %v", got, want)
	}
	if _, ok := permissions.For("upstream_get_me", false); ok {
		t.Error("For knows a tool no row names")
	}

	read, write := permissions.Mode(false), permissions.Mode(true)
	for _, name := range permissions.Tools() {
		r, _ := permissions.For(name, false)
		w, _ := permissions.For(name, true)
		for perm, level := range r {
			if !permissions.Covers(read[perm], level) {
				t.Errorf("Mode(read) %v does not cover %s's %s=%s", read, name, perm, level)
			}
		}
		for perm, level := range w {
			if !permissions.Covers(write[perm], level) {
				t.Errorf("Mode(write) %v does not cover %s's %s=%s", write, name, perm, level)
			}
		}
	}
	for perm, level := range read {
		if level != permissions.Read {
			t.Errorf("Mode(read) asks %s=%s", perm, level)
		}
	}
}

func TestWithin(t *testing.T) {
	need := permissions.Set{"metadata": "read", "issues": "write", "organization_projects": "write", "contents": "read"}
	have := permissions.Set{"metadata": "read", "issues": "read", "contents": "write", "actions": "write"}
	got := need.Within(have)
	want := permissions.Set{"metadata": "read", "issues": "read", "contents": "read"}
	if !maps.Equal(got, want) {
		t.Errorf("Within = %v, want %v", got, want)
	}
	if s := want.String(); s != "contents=read,issues=read,metadata=read" {
		t.Errorf("String = %q, want %q", s, "contents=read,issues=read,metadata=read")
	}
	for _, c := range []struct {
		level, need string
		want        bool
	}{{"write", "read", true}, {"read", "write", false}, {"admin", "write", true}, {"", "read", false}, {"bogus", "read", false}} {
		if got := permissions.Covers(c.level, c.need); got != c.want {
			t.Errorf("Covers(%q, %q) = %v, want %v", c.level, c.need, got, c.want)
		}
	}
	if !slices.IsSorted(permissions.Tools()) {
		t.Error("Tools is not sorted")
	}
}
