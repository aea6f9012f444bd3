package fidelity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// loginField is a user as REST answers name one: actor, user, requester.
type loginField = struct {
	Login string `json:"login"`
}

// loginOf is the login of an optional user, or "<nil>" when it is absent.
func loginOf(u *loginField) string {
	if u == nil {
		return "<nil>"
	}
	return u.Login
}

// strOf prints an optional JSON string as its quoted value or null.
func strOf(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// checkResponse reports, one fact each, a response whose status is not
// status or whose body does not contain msg ("" matches any body).
func checkResponse(t *testing.T, what string, res *emulatortest.Response, status int, msg string) {
	t.Helper()
	checkAnswer(t, what, res.Status, string(res.Body), status, msg)
}

// checkAnswer is checkResponse for an answer already read into a status
// and a body.
func checkAnswer(t *testing.T, what string, gotStatus int, body string, status int, msg string) {
	t.Helper()
	if gotStatus != status {
		t.Errorf("%s: status %d, want %d: %s", what, gotStatus, status, body)
	}
	if !strings.Contains(body, msg) {
		t.Errorf("%s: body %s, want one saying %q", what, body, msg)
	}
}
