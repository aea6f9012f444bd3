package outbound

import "testing"

// checkUnchanged reports, one message per condition, where Apply changed
// the text, counted a rewrite or found a secret. sec may be nil where the
// caller does not look at it.
func checkUnchanged(t *testing.T, what, out, want string, counts Counts, sec *Secret) {
	t.Helper()
	if out != want {
		t.Errorf("%s: Apply = %q, want %q unchanged", what, out, want)
	}
	if !counts.Zero() {
		t.Errorf("%s: counts = %+v, want none", what, counts)
	}
	if sec != nil {
		t.Errorf("%s: found %s at %d, want no secret", what, sec.Kind, sec.Offset)
	}
}
