package fidelity

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// crossRefItem is what a test reads of a cross-referenced timeline event.
type crossRefItem struct {
	Event string `json:"event"`
	ID    *int64 `json:"id"`
	Actor struct {
		Login string `json:"login"`
	} `json:"actor"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Source    *struct {
		Type  string `json:"type"`
		Issue *struct {
			Number        int             `json:"number"`
			RepositoryURL string          `json:"repository_url"`
			PullRequest   *map[string]any `json:"pull_request"`
			Repository    struct {
				FullName string `json:"full_name"`
			} `json:"repository"`
		} `json:"issue"`
	} `json:"source"`
}

// crossRefsOn reads an issue's timeline through the validating harness and
// returns its cross-referenced events as "owner/repo#N by login" (with
// " (pull request)" for a pull request source).
func crossRefsOn(t *testing.T, srv *emulatortest.Server, repo string, n int, token string) []string {
	t.Helper()
	res := srv.Do(t, "GET", fmt.Sprintf("/repos/%s/issues/%d/timeline?per_page=100", repo, n), token, nil)
	if res.Status != 200 {
		t.Fatalf("GET %s#%d timeline: %d %s", repo, n, res.Status, res.Body)
	}
	var items []crossRefItem
	res.JSON(t, &items)
	var out []string
	for _, it := range items {
		if it.Event != "cross-referenced" {
			continue
		}
		if it.Source == nil || it.Source.Issue == nil {
			t.Fatalf("%s#%d: cross-referenced event without a source issue, want one: %+v", repo, n, it)
		}
		if it.Source.Type != "issue" {
			t.Fatalf("%s#%d: cross-referenced source type %q, want %q", repo, n, it.Source.Type, "issue")
		}
		if it.ID != nil {
			t.Errorf("%s#%d: cross-referenced event id %d, want null", repo, n, *it.ID)
		}
		if it.CreatedAt == "" {
			t.Errorf("%s#%d: cross-referenced event without created_at, want one", repo, n)
		}
		if it.UpdatedAt != it.CreatedAt {
			t.Errorf("%s#%d: cross-referenced updated_at %q, want created_at %q", repo, n, it.UpdatedAt, it.CreatedAt)
		}
		is := it.Source.Issue
		if !strings.HasSuffix(is.RepositoryURL, "/repos/"+is.Repository.FullName) {
			t.Errorf("%s#%d: source repository_url %q names another repository than %q", repo, n, is.RepositoryURL, is.Repository.FullName)
		}
		s := fmt.Sprintf("%s#%d by %s", is.Repository.FullName, is.Number, it.Actor.Login)
		if is.PullRequest != nil {
			s += " (pull request)"
		}
		out = append(out, s)
	}
	return out
}

// Mentions in bodies and comments written through the REST API record
// cross-referenced events on the issues mentioned, once per source, and the
// events validate against timeline-cross-referenced-event.
func TestCrossReferencedEvents(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const repo = "/repos/acme/widgets"
	refs := func(n int, token string) []string { return crossRefsOn(t, w.srv, "acme/widgets", n, token) }

	host := strings.TrimPrefix(w.srv.URL, "http://")
	created := w.do(t, "POST", repo+"/issues", tokBob, map[string]any{"title": "Gears again",
		"body": "Follows #2 and acme/widgets#3, see https://github.com/acme/widgets/issues/4 and http://" + host + "/acme/widgets/issues/8.\n\n" +
			"Not `#5`, not #999, not itself (#36).\n\n```\n#6\n```\n"})
	if created.Status != 201 {
		t.Fatalf("create: status %d, want %d: %s", created.Status, 201, created.Body)
	}
	for _, n := range []int{2, 3, 4, 8} {
		if got := refs(n, tokCarol); !slices.Equal(got, []string{"acme/widgets#36 by bob"}) {
			t.Errorf("#%d: %v, want one cross-reference from #36", n, got)
		}
	}
	for _, n := range []int{5, 6, 36} {
		if got := refs(n, tokCarol); len(got) != 0 {
			t.Errorf("#%d: %v, want none", n, got)
		}
	}

	// A comment repeating #2 adds nothing there; its new mention counts.
	c := w.do(t, "POST", repo+"/issues/36/comments", tokCarol, map[string]any{"body": "Same as #2? Maybe #10 too."})
	if c.Status != 201 {
		t.Fatalf("comment: status %d, want %d: %s", c.Status, 201, c.Body)
	}
	if got := refs(2, tokCarol); len(got) != 1 {
		t.Errorf("#2 after a repeated mention: %v, want exactly 1", got)
	}
	if got := refs(10, tokCarol); !slices.Equal(got, []string{"acme/widgets#36 by carol"}) {
		t.Errorf("#10 from the comment = %v, want %v", got, []string{"acme/widgets#36 by carol"})
	}

	// Body and comment edits that add a mention record it.
	if res := w.do(t, "PATCH", repo+"/issues/36", tokBob, map[string]any{"body": "Now about #12."}); res.Status != 200 {
		t.Fatalf("edit: status %d, want %d: %s", res.Status, 200, res.Body)
	}
	var cm struct {
		ID int64 `json:"id"`
	}
	c.JSON(t, &cm)
	if res := w.do(t, "PATCH", fmt.Sprintf("%s/issues/comments/%d", repo, cm.ID), tokCarol, map[string]any{"body": "And #13."}); res.Status != 200 {
		t.Fatalf("comment edit: status %d, want %d: %s", res.Status, 200, res.Body)
	}
	if got := refs(12, tokCarol); !slices.Equal(got, []string{"acme/widgets#36 by bob"}) {
		t.Errorf("#12 from the body edit = %v, want %v", got, []string{"acme/widgets#36 by bob"})
	}
	if got := refs(13, tokCarol); !slices.Equal(got, []string{"acme/widgets#36 by carol"}) {
		t.Errorf("#13 from the comment edit = %v, want %v", got, []string{"acme/widgets#36 by carol"})
	}

	// A pull request's mention carries pull_request in its source.
	w.do(t, "POST", repo+"/issues/7/comments", tokBob, map[string]any{"body": "This fixes #11."})
	if got := refs(11, tokCarol); !slices.Equal(got, []string{"acme/widgets#7 by bob (pull request)"}) {
		t.Errorf("#11 from pull request #7 = %v, want %v", got, []string{"acme/widgets#7 by bob (pull request)"})
	}

	// A private repository's mention shows only to those who can read it.
	w.do(t, "POST", "/repos/acme/vault/issues", tokAlice, map[string]any{"title": "Key rotation", "body": "Blocks acme/widgets#14."})
	if got := refs(14, tokAlice); !slices.Equal(got, []string{"acme/vault#2 by alice"}) {
		t.Errorf("#14 read by alice = %v, want %v", got, []string{"acme/vault#2 by alice"})
	}
	if got := refs(14, tokCarol); len(got) != 0 {
		t.Errorf("#14 read by carol, who cannot see acme/vault: %v, want none", got)
	}
	// And one cannot mention an issue one cannot see.
	w.do(t, "POST", repo+"/issues", tokCarol, map[string]any{"title": "Peek", "body": "Is acme/vault#1 related?"})
	if got := crossRefsOn(t, w.srv, "acme/vault", 1, tokAlice); len(got) != 0 {
		t.Errorf("acme/vault#1 after carol's mention: %v, want none", got)
	}

	// A deleted source leaves the timelines it mentioned.
	st := w.srv.Emu.State()
	st.Lock()
	st.DeleteIssue(st.Repo("acme", "vault").Issue(2))
	st.Unlock()
	if got := refs(14, tokAlice); len(got) != 0 {
		t.Errorf("#14 after its source was deleted: %v, want none", got)
	}
}

// The demo seed's pull requests that fix an issue show on its timeline as
// cross-references, which is what linked pull requests are read from.
func TestDemoSeedCrossReferences(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{Seed: "demo", Now: emulator.DemoNow})
	widgets := emulator.DemoOrg + "/" + emulator.DemoWidgetsRepo
	for issue, pr := range map[int]int{145: 146, 89: 96, 48: 49} {
		got := crossRefsOn(t, srv, widgets, issue, emulator.DemoTokenCarol)
		if !slices.ContainsFunc(got, func(s string) bool {
			return strings.HasPrefix(s, fmt.Sprintf("%s#%d by ", widgets, pr)) && strings.HasSuffix(s, " (pull request)")
		}) {
			t.Errorf("%s#%d timeline cross-references %v, want pull request #%d", widgets, issue, got, pr)
		}
	}
	// The duplicate's closing comment ("Duplicate of #9") references #9.
	if got := crossRefsOn(t, srv, widgets, emulator.DemoManyCommentsIssue, emulator.DemoTokenCarol); !slices.ContainsFunc(got, func(s string) bool {
		return strings.HasPrefix(s, fmt.Sprintf("%s#%d by ", widgets, emulator.DemoDuplicateIssue))
	}) {
		t.Errorf("#%d cross-references %v, want one from duplicate #%d", emulator.DemoManyCommentsIssue, got, emulator.DemoDuplicateIssue)
	}
	// alice/notes#2 mentions acme/widgets#31: alice sees it, dave does not.
	notes := emulator.DemoNotesOwner + "/" + emulator.DemoNotesRepo + "#2 by alice"
	if got := crossRefsOn(t, srv, widgets, emulator.DemoLockedIssue, emulator.DemoTokenAlice); !slices.Contains(got, notes) {
		t.Errorf("#%d read by alice: %v, want %s", emulator.DemoLockedIssue, got, notes)
	}
	if got := crossRefsOn(t, srv, widgets, emulator.DemoLockedIssue, emulator.DemoTokenDave); slices.Contains(got, notes) {
		t.Errorf("#%d read by dave shows the private %s", emulator.DemoLockedIssue, notes)
	}
}
