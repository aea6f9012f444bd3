package fidelity

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// GET /repos/{owner}/{repo}/issues/{number}/comments takes since, "only
// show results that were last updated after the given time" (ISO 8601):
// a comment updated at that very second is kept, as GitHub keeps it, and
// an edit brings an old comment back in.
func TestListIssueCommentsSince(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const path = "/repos/acme/widgets/issues/1/comments"
	authors := func(since string) []string {
		t.Helper()
		res := w.do(t, "GET", path+"?since="+since, tokCarol, nil)
		if res.Status != 200 {
			t.Fatalf("since %s: %d %s", since, res.Status, res.Body)
		}
		var list []struct {
			ID   int64 `json:"id"`
			User struct {
				Login string `json:"login"`
			} `json:"user"`
		}
		res.JSON(t, &list)
		var out []string
		for _, c := range list {
			out = append(out, c.User.Login)
		}
		return out
	}
	// bob commented at 2025-01-08T01:00:00Z (epoch + 40h), carol an hour later.
	for since, want := range map[string][]string{
		"2025-01-08T01:00:00Z":        {"bob", "carol"},
		"2025-01-08T01:00:01Z":        {"carol"},
		"2025-01-08T02:00:00Z":        {"carol"},
		"2025-01-08T03:00:00%2B01:00": {"carol"},
		"2025-01-08T02:00:01Z":        nil,
	} {
		if got := authors(since); !slices.Equal(got, want) {
			t.Errorf("since %s: %q, want %q", since, got, want)
		}
	}
	var first []struct {
		ID int64 `json:"id"`
	}
	w.do(t, "GET", path, tokCarol, nil).JSON(t, &first)
	if res := w.do(t, "PATCH", "/repos/acme/widgets/issues/comments/"+strconv.FormatInt(first[0].ID, 10), tokBob, map[string]any{"body": "Reproduced again."}); res.Status != 200 {
		t.Fatalf("edit: status %d, want %d: %s", res.Status, 200, res.Body)
	}
	if got := authors("2025-01-08T02:00:01Z"); !slices.Equal(got, []string{"bob"}) {
		t.Errorf("since after both, once bob's is edited: %q", got)
	}
}
