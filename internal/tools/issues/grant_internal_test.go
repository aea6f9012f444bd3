package issues

import (
	"context"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
)

func TestGrantKeepsOnlyReadableRepositories(t *testing.T) {
	t.Parallel()
	ctx := caller.With(context.Background(), caller.Identity{ID: "http:w",
		Readable: func(owner, repo string) bool { return owner == "acme" && repo == "widgets" }})
	g := newGrant(ctx, "acme", "widgets")
	for _, c := range []struct {
		full string
		keep bool
	}{
		{"", true}, // the call's own repository
		{"acme/widgets", true},
		{"acme/gadgets", false},
		{"gadgets", false}, // no owner/name: no repository to read
		{"/widgets", false},
		{"acme/", false},
	} {
		if got := g.keeps(c.full); got != c.keep {
			t.Errorf("keeps(%q) = %v, want %v", c.full, got, c.keep)
		}
	}
	if g.withheld != 4 {
		t.Errorf("withheld = %d, want 4", g.withheld)
	}
	if g.hint() == "" {
		t.Error("hint is empty with rows withheld, want it to say so")
	}
}

func TestGrantWithoutAGrantKeepsEveryRow(t *testing.T) {
	t.Parallel()
	g := newGrant(context.Background(), "acme", "widgets")
	if !g.keeps("alice/notes") {
		t.Error("keeps(alice/notes) = false without a grant, want true")
	}
	if g.hint() != "" {
		t.Errorf("hint = %q with nothing withheld, want empty", g.hint())
	}
}
