package github

import "testing"

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
