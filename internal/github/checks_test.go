package github

import (
	"testing"

	gh "github.com/google/go-github/v88/github"
)

// wantRefusal reports, one message per condition, where a call's
// settlement s and its error e differ from the settlement and code
// wanted.
func wantRefusal(t testing.TB, what string, s Settlement, e *Error, settlement Settlement, code Code) {
	t.Helper()
	if s != settlement {
		t.Errorf("%s: settlement = %q, want %q", what, s, settlement)
	}
	if e.Code != code {
		t.Errorf("%s: error code = %q, want %q (%v)", what, e.Code, code, e)
	}
}

// wantWritten stops the test unless a write returned no error and settled
// remote_success_known.
func wantWritten(t testing.TB, what string, s Settlement, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if s != RemoteSuccessKnown {
		t.Fatalf("%s: settlement = %q, want %q", what, s, RemoteSuccessKnown)
	}
}

// wantIssue stops the test unless a GetIssue returned no error, the title
// given, and came from the cache or not as cached says.
func wantIssue(t testing.TB, what string, is *gh.Issue, m Meta, err error, cached bool, title string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if m.Cached != cached {
		t.Fatalf("%s: Cached = %v, want %v", what, m.Cached, cached)
	}
	if got := is.GetTitle(); got != title {
		t.Fatalf("%s: title = %q, want %q", what, got, title)
	}
}

// wantNumber stops the test unless a GetIssue returned no error and the
// issue numbered n.
func wantNumber(t testing.TB, what string, is *gh.Issue, err error, n int) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := is.GetNumber(); got != n {
		t.Fatalf("%s: issue #%d, want #%d", what, got, n)
	}
}
