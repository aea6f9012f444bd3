package rest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// GitHub's CLI reads a token's scopes from the X-OAuth-Scopes header of
// GET / (`gh auth status`), at the root and under the /api/v3 prefix.
func TestRootReportsScopes(t *testing.T) {
	base := serveDemo(t)
	for _, root := range []string{base + "/", base + "/api/v3", base + "/api/v3/"} {
		r := get(t, root, emulator.DemoTokenAlice)
		if r.status != 200 {
			t.Fatalf("GET %s: status %d, want 200: %s", root, r.status, r.body)
		}
		if got := r.header.Get("X-OAuth-Scopes"); got != "repo, read:org, project" {
			t.Errorf("GET %s: X-OAuth-Scopes %q, want %q", root, got, "repo, read:org, project")
		}
		if v, ok := r.header["X-Accepted-Oauth-Scopes"]; !ok {
			t.Errorf("GET %s: no X-Accepted-OAuth-Scopes header, want one present and empty", root)
		} else if !slices.Equal(v, []string{""}) {
			t.Errorf("GET %s: X-Accepted-OAuth-Scopes %q, want one empty value", root, v)
		}
		var doc map[string]string
		if err := json.Unmarshal(r.body, &doc); err != nil {
			t.Fatalf("GET %s: %v", root, err)
		}
		prefix := base
		if root != base+"/" {
			prefix += "/api/v3"
		}
		if doc["current_user_url"] != prefix+"/user" {
			t.Errorf("GET %s: current_user_url %q, want %q", root, doc["current_user_url"], prefix+"/user")
		}
	}
	r := get(t, base+"/", "emu-invalid")
	if r.status != 401 {
		t.Errorf("GET / with a bad token: status %d, want 401", r.status)
	}
	if got := r.header.Get("X-OAuth-Scopes"); got != "" {
		t.Errorf("GET / with a bad token: X-OAuth-Scopes %q, want none", got)
	}
}
