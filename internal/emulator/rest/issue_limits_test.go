package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// GitHub refuses an issue title over 256 characters and a body over 65,536
// (characters, not bytes) with a 422 naming the field.
func TestIssueTextLimits(t *testing.T) {
	base := serveDemo(t)
	post := func(method, path string, v any) (int, string) {
		t.Helper()
		r := send(t, method, base+path, emulator.DemoTokenAlice, v)
		var e struct {
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		}
		_ = json.Unmarshal(r.body, &e)
		field := ""
		if len(e.Errors) > 0 {
			field = e.Errors[0].Field
		}
		return r.status, field
	}
	cases := []struct {
		method, path string
		body         map[string]string
		status       int
		field        string
	}{
		{"POST", "/repos/acme/widgets/issues", map[string]string{"title": strings.Repeat("t", 257)}, 422, "title"},
		{"POST", "/repos/acme/widgets/issues", map[string]string{"title": "ok", "body": strings.Repeat("b", 65537)}, 422, "body"},
		{"PATCH", "/repos/acme/widgets/issues/1", map[string]string{"body": strings.Repeat("b", 65537)}, 422, "body"},
		{"POST", "/repos/acme/widgets/issues/1/comments", map[string]string{"body": strings.Repeat("b", 65537)}, 422, "body"},
		// 65,536 three-byte characters are within the limit.
		{"POST", "/repos/acme/widgets/issues", map[string]string{"title": strings.Repeat("é", 256), "body": strings.Repeat("€", 65536)}, 201, ""},
	}
	for _, tc := range cases {
		status, field := post(tc.method, tc.path, tc.body)
		if status != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, status, tc.status)
		}
		if field != tc.field {
			t.Errorf("%s %s: error field %q, want %q", tc.method, tc.path, field, tc.field)
		}
	}
}
