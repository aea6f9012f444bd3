package rest_test

import (
	"fmt"
	"strings"
	"testing"
)

// fmtStrPtr prints an optional JSON string as its value or null.
func fmtStrPtr(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// fmtBoolPtr prints an optional JSON boolean as its value or null.
func fmtBoolPtr(p *bool) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// fmtIntPtr prints an optional JSON number as its value or null.
func fmtIntPtr(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// checkReply reports, one fact each, a reply whose status is not status or
// whose body does not contain msg ("" matches any body).
func checkReply(t *testing.T, what string, r reply, status int, msg string) {
	t.Helper()
	if r.status != status {
		t.Errorf("%s: status %d, want %d (body %s)", what, r.status, status, r.body)
	}
	if !strings.Contains(string(r.body), msg) {
		t.Errorf("%s: body %s, want one saying %q", what, r.body, msg)
	}
}

// fmtInt64Ptr prints an optional JSON id as its value or null.
func fmtInt64Ptr(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// fullNames lists the full_name of each repository in order.
func fullNames(rs []struct {
	FullName string `json:"full_name"`
}) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.FullName)
	}
	return out
}
