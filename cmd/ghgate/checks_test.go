package main

import (
	"net/http"
	"strings"
	"testing"
)

// wantErrorSaying reports a failure unless err is non-nil and its text
// contains each of subs, one message per missing piece.
func wantErrorSaying(t *testing.T, what string, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: error = nil, want one saying %q", what, subs)
		return
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error = %v, want one saying %q", what, err, s)
		}
	}
}

// wantUnauthorized reports a failure unless a call was refused with 401 and
// the given WWW-Authenticate header; it says whether both held.
func wantUnauthorized(t *testing.T, what string, status int, header, wantHeader string) bool {
	t.Helper()
	ok := true
	if status != http.StatusUnauthorized {
		t.Errorf("%s: status = %d, want 401", what, status)
		ok = false
	}
	if header != wantHeader {
		t.Errorf("%s: WWW-Authenticate = %q, want %q", what, header, wantHeader)
		ok = false
	}
	return ok
}
