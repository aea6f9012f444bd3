package fidelity

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A page number near the integer limit is a page past the end: an empty
// list (a 422 for search, past its 1,000-result window), never a 500 from
// an overflowing offset.
func TestHugePageNumbers(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	for _, page := range []string{"922337203685477581", "9223372036854775807"} {
		res := w.do(t, "GET", "/repos/acme/widgets/issues?per_page=100&page="+page, tokCarol, nil)
		if res.Status != http.StatusOK {
			t.Errorf("issues page %s: status %d, want %d: %s", page, res.Status, http.StatusOK, res.Body)
		} else if got := strings.TrimSpace(string(res.Body)); got != "[]" {
			t.Errorf("issues page %s: body %s, want []", page, got)
		}
		res = w.do(t, "GET", "/search/issues?q=repo:acme/widgets&per_page=100&page="+page, tokCarol, nil)
		if res.Status != http.StatusUnprocessableEntity {
			t.Errorf("search page %s: %d %s", page, res.Status, res.Body)
		}
	}
	// The last page inside the window is still served.
	if res := w.do(t, "GET", "/search/issues?q=repo:acme/widgets&per_page=30&page=34", tokCarol, nil); res.Status != http.StatusOK {
		t.Errorf("search page 34 of 30: status %d, want %d", res.Status, http.StatusOK)
	}
}

// Sub-issues follow the rules GitHub documents: sub_issue_id "must belong
// to the same repository owner as the parent issue"; a parent takes up to
// 100 sub-issues; nesting goes up to eight levels.
func TestSubIssueRules(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	st := w.srv.Emu.State()
	st.Lock()
	notes := st.Repo("alice", "notes").Issue(1)
	widgets := st.Repo("acme", "widgets")
	alice := st.Account("alice")
	var extra []int64
	for i := 0; i < 110; i++ {
		extra = append(extra, st.AddIssue(widgets, alice, "Chain link", nil, false, epoch).ID)
	}
	st.Unlock()

	res := w.do(t, "POST", "/repos/acme/widgets/issues/1/sub_issues", tokAlice, map[string]any{"sub_issue_id": notes.ID})
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("sub-issue from another owner: status %d, want %d: %s", res.Status, http.StatusUnprocessableEntity, res.Body)
	}

	// A chain 36 -> 37 -> ... : links up to eight levels below the root
	// are accepted, the ninth is refused.
	for i := 1; i <= 9; i++ {
		parent := 35 + i // numbers 36.. are the extra issues
		res := w.do(t, "POST", "/repos/acme/widgets/issues/"+strconv.Itoa(parent)+"/sub_issues", tokAlice, map[string]any{"sub_issue_id": extra[i]})
		want := http.StatusCreated
		if i == 9 {
			want = http.StatusUnprocessableEntity
		}
		if res.Status != want {
			t.Fatalf("nesting level %d: %d, want %d: %s", i, res.Status, want, res.Body)
		}
	}

	// Issue 2 takes 100 sub-issues; the 101st is refused.
	for i := 10; i < 111; i++ {
		res := w.do(t, "POST", "/repos/acme/widgets/issues/2/sub_issues", tokAlice, map[string]any{"sub_issue_id": extra[i-1]})
		want := http.StatusCreated
		if i == 110 {
			want = http.StatusUnprocessableEntity
		}
		if res.Status != want {
			t.Fatalf("sub-issue %d of issue 2: %d, want %d: %s", i-9, res.Status, want, res.Body)
		}
	}
}

// Label descriptions are "100 characters or fewer".
func TestLabelDescriptionLimit(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	long := strings.Repeat("é", 101)
	res := w.do(t, "POST", "/repos/acme/widgets/labels", tokBob, map[string]any{"name": "verbose", "description": long})
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("create with a 101-character description: status %d, want %d: %s", res.Status, http.StatusUnprocessableEntity, res.Body)
	}
	res = w.do(t, "PATCH", "/repos/acme/widgets/labels/bug", tokBob, map[string]any{"description": long, "color": "000000"})
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("update with a 101-character description: status %d, want %d: %s", res.Status, http.StatusUnprocessableEntity, res.Body)
	}
	var l struct {
		Color string `json:"color"`
	}
	w.do(t, "GET", "/repos/acme/widgets/labels/bug", tokBob, nil).JSON(t, &l)
	if l.Color != "d73a4a" {
		t.Errorf("a refused update changed the color to %s", l.Color)
	}
	if res := w.do(t, "POST", "/repos/acme/widgets/labels", tokBob, map[string]any{"name": "terse", "description": strings.Repeat("é", 100)}); res.Status != http.StatusCreated {
		t.Fatalf("create with a 100-character description: status %d, want %d: %s", res.Status, http.StatusCreated, res.Body)
	}
}
