package rest_test

import (
	"encoding/json"
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
			t.Fatalf("GET %s: %d %s", root, r.status, r.body)
		}
		if got := r.header.Get("X-OAuth-Scopes"); got != "repo, read:org, project" {
			t.Errorf("GET %s: X-OAuth-Scopes %q", root, got)
		}
		if v, ok := r.header["X-Accepted-Oauth-Scopes"]; !ok || len(v) != 1 || v[0] != "" {
			t.Errorf("GET %s: X-Accepted-OAuth-Scopes %q, want present and empty", root, v)
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
			t.Errorf("GET %s: current_user_url %q", root, doc["current_user_url"])
		}
	}
	if r := get(t, base+"/", "emu-invalid"); r.status != 401 || r.header.Get("X-OAuth-Scopes") != "" {
		t.Errorf("GET / with a bad token: %d, X-OAuth-Scopes %q", r.status, r.header.Get("X-OAuth-Scopes"))
	}
}
