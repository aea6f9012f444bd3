package credentials_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/credentials"
)

// checkLoad reports, one message per condition, where a Load differs from
// the token and the kind of place wanted. It never prints a token.
func checkLoad(t *testing.T, what, tok string, loc credentials.Location, err error, want string, kind credentials.LocationKind) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	if tok != want {
		t.Errorf("%s: token differs from the one saved", what)
	}
	if loc.Kind != kind {
		t.Errorf("%s: location kind = %s, want %s (%s)", what, loc.Kind, kind, loc)
	}
}

// wantRemoved stops the test unless a Delete returned no error and removed
// one entry, from the kind of place given.
func wantRemoved(t *testing.T, removed []credentials.Location, err error, kind credentials.LocationKind) {
	t.Helper()
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if len(removed) != 1 {
		t.Fatalf("Delete removed %v, want one entry", removed)
	}
	if removed[0].Kind != kind {
		t.Fatalf("Delete removed from %s, want %s", removed[0].Kind, kind)
	}
}
