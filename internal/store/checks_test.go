package store

import "testing"

// Checks several store tests share, one message per condition.

// wantOutcome stops the test unless a Reserve or Takeover returned no error
// and the outcome want.
func wantOutcome(t *testing.T, what string, r Reservation, err error, want Outcome) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if r.Outcome != want {
		t.Fatalf("%s: Outcome = %q, want %q (%+v)", what, r.Outcome, want, r)
	}
}

// wantFound stops the test unless a lookup returned no error and found
// (ok) what it should.
func wantFound(t *testing.T, what string, ok bool, err error, want bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if ok != want {
		t.Fatalf("%s: found = %v, want %v", what, ok, want)
	}
}

// wantLease stops the test unless r finds the key in flight (InProgress)
// with its marker live or lapsed as want says.
func wantLease(t *testing.T, what string, r Reservation, live bool) {
	t.Helper()
	if r.Outcome != InProgress {
		t.Fatalf("%s: Outcome = %q, want %q (%+v)", what, r.Outcome, InProgress, r)
	}
	if r.Live != live {
		t.Fatalf("%s: Live = %v, want %v", what, r.Live, live)
	}
}

// wantCompleted stops the test unless Lookup found the key completed, with
// the result and fingerprint given.
func wantCompleted(t *testing.T, e IdempotencyEntry, ok bool, err error, result, fingerprint string) {
	t.Helper()
	wantFound(t, "Lookup", ok, err, true)
	if !e.Complete {
		t.Fatalf("Lookup: Complete = false, want true")
	}
	if string(e.Result) != result {
		t.Fatalf("Lookup: Result = %s, want %s", e.Result, result)
	}
	if e.Fingerprint != fingerprint {
		t.Fatalf("Lookup: Fingerprint = %q, want %q", e.Fingerprint, fingerprint)
	}
}
