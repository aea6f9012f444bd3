package caller

import (
	"context"
	"testing"
)

func TestFromWithoutIdentityIsTheLocalUserReadingAnything(t *testing.T) {
	id := From(context.Background())
	if id.ID != "" {
		t.Errorf("ID = %q, want empty", id.ID)
	}
	if !id.CanRead("acme", "widgets") {
		t.Error("CanRead(acme, widgets) = false, want true with no grant attached")
	}
}

func TestWithCarriesIDAndGrant(t *testing.T) {
	ctx := With(context.Background(), Identity{ID: "http:release-agent",
		Readable: func(owner, repo string) bool { return owner == "acme" && repo == "widgets" }})
	if got := ID(ctx); got != "http:release-agent" {
		t.Errorf("ID = %q, want http:release-agent", got)
	}
	if !From(ctx).CanRead("acme", "widgets") {
		t.Error("CanRead(acme, widgets) = false, want true")
	}
	if From(ctx).CanRead("acme", "gadgets") {
		t.Error("CanRead(acme, gadgets) = true, want false")
	}
}
