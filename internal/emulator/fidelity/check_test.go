package fidelity

import "fmt"

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
