package rest_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// An organization's repository listing is ordered as GitHub documents it:
// newest first by default (a user's listing, by name); sort picks
// created, updated, pushed or full_name, ascending by default only for
// full_name, and direction overrides either.
func TestOwnerRepoListingOrder(t *testing.T) {
	base := serveDemo(t)
	type repo struct {
		FullName  string `json:"full_name"`
		CreatedAt string `json:"created_at"`
	}
	list := func(path string) []repo {
		r := get(t, base+"/api/v3"+path, emulator.DemoTokenAlice)
		if r.status != 200 {
			t.Fatalf("GET %s: %d %s", path, r.status, r.body)
		}
		var out []repo
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		if len(out) < 2 {
			t.Fatalf("GET %s: %d repositories; the order needs two", path, len(out))
		}
		return out
	}
	byName := func(a, b repo) int { return strings.Compare(strings.ToLower(a.FullName), strings.ToLower(b.FullName)) }
	byCreated := func(a, b repo) int { return strings.Compare(a.CreatedAt, b.CreatedAt) }
	desc := func(f func(a, b repo) int) func(a, b repo) int { return func(a, b repo) int { return f(b, a) } }
	for _, tc := range []struct {
		path  string
		order func(a, b repo) int
	}{
		{"/orgs/acme/repos", desc(byCreated)},
		{"/orgs/acme/repos?sort=created&direction=asc", byCreated},
		{"/orgs/acme/repos?sort=full_name", byName},
		{"/orgs/acme/repos?sort=full_name&direction=desc", desc(byName)},
	} {
		got := list(tc.path)
		if !slices.IsSortedFunc(got, tc.order) {
			t.Errorf("GET %s: %v, want them in the order asked for", tc.path, got)
		}
	}
	// The two orders differ on acme's repositories, so a listing that
	// ignored sort would fail one of the checks above.
	created := list("/orgs/acme/repos?sort=created&direction=asc")
	if slices.IsSortedFunc(created, byName) && slices.IsSortedFunc(created, desc(byName)) {
		t.Fatalf("acme's repositories by creation %v are also sorted by name both ways, want orders that differ", created)
	}
}
