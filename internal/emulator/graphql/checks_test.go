package graphql_test

import (
	"strings"
	"testing"
)

// wantErr is the one error a GraphQL response must carry: its type when
// Type is set, its whole message when Message is set, and each of
// Contains somewhere in the message.
type wantErr struct {
	Type     string
	Message  string
	Contains []string
}

// checkOneError reports, one message per condition, unless errs is
// exactly one error matching want. It returns whether errs held exactly
// one error, so a caller that relies on it can stop.
func checkOneError(t *testing.T, what string, errs []respError, want wantErr) bool {
	t.Helper()
	if len(errs) != 1 {
		t.Errorf("%s: %d errors %+v, want 1", what, len(errs), errs)
		return false
	}
	e := errs[0]
	if want.Type != "" && e.Type != want.Type {
		t.Errorf("%s: error type = %q, want %q (message %q)", what, e.Type, want.Type, e.Message)
	}
	if want.Message != "" && e.Message != want.Message {
		t.Errorf("%s: error message = %q, want %q", what, e.Message, want.Message)
	}
	for _, s := range want.Contains {
		if !strings.Contains(e.Message, s) {
			t.Errorf("%s: error message = %q, want one containing %q", what, e.Message, s)
		}
	}
	return true
}

// checkData reports unless the response's data is exactly want.
func checkData(t *testing.T, what string, res gqlResult, want string) {
	t.Helper()
	if got := string(res.Data); got != want {
		t.Errorf("%s: data = %s, want %s", what, got, want)
	}
}

// deref is what p points at, or nil, for a failure message.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// checkNoData reports if the response has a "data" key at all.
func checkNoData(t *testing.T, what string, res gqlResult) {
	t.Helper()
	if res.HasData {
		t.Errorf("%s: response has data %s, want no data key", what, res.Data)
	}
}

// checkStatus reports unless the response's HTTP status is want.
func checkStatus(t *testing.T, what string, res gqlResult, want int) {
	t.Helper()
	if res.Status != want {
		t.Errorf("%s: status = %d, want %d\n%s", what, res.Status, want, res.raw)
	}
}

// checkFirstError reports unless errs has an error and the first is of
// type typ.
func checkFirstError(t *testing.T, what string, errs []respError, typ string) {
	t.Helper()
	if len(errs) == 0 {
		t.Errorf("%s: no errors, want a %s", what, typ)
		return
	}
	if errs[0].Type != typ {
		t.Errorf("%s: first error type = %q, want %q (message %q)", what, errs[0].Type, typ, errs[0].Message)
	}
}

// checkOneErrorText reports unless errs is exactly one error whose type
// and message read want, as "TYPE: message".
func checkOneErrorText(t *testing.T, what string, errs []respError, want string) {
	t.Helper()
	if len(errs) != 1 {
		t.Errorf("%s: %d errors %+v, want 1: %q", what, len(errs), errs, want)
		return
	}
	if got := errs[0].Type + ": " + errs[0].Message; got != want {
		t.Errorf("%s: error = %q, want %q", what, got, want)
	}
}
