package issues_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// A pull request's timeline answers "was it merged?" and "was anything
// pushed after the approval?" in its rows: its commits (short sha, first
// message line, git author), a force push, review requests, the approval
// (the reviewer, its state, the head it reviewed), a push after it, and
// the merge (by whom, its commit) before the close, in the order they
// happened.
func TestListIssueItemsPullRequestTimeline(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var n int
	var rewritten, approvedHead, late, merge string
	withState(env, func(s *emulator.State) {
		r := widgets(env)
		alice, bob := s.Account("alice"), s.Account("bob")
		is := s.AddIssue(r, bob, "Cap the gear ratio", nil, true, s.Now())
		n = is.Number
		ratio := "const MaxRatio = 9\n"
		s.Push(is, bob, s.Now(), "Cap the ratio", map[string]*string{"gears/ratio.go": &ratio})
		// bob rewrites the branch: a commit beside it, force-pushed.
		squashed := s.Commit(r, "scratch", bob, s.Now(), "Cap the gear\u200b ratio at 9:1\n\nThe rattle starts above it.", map[string]*string{"gears/ratio.go": &ratio})
		s.MoveBranch(r, is.Pull.HeadRef, squashed, bob)
		rewritten = squashed.SHA
		s.RequestReviews(is, bob, []*state.Account{alice}, []*state.Team{s.FindTeam("acme", "maintainers")})
		rv := s.AddReview(is, alice, "APPROVED", "Ship it.", s.Now())
		approvedHead = rv.Commit.SHA
		note := "9:1 at most.\n"
		late = s.Push(is, bob, s.Now(), "Note the cap", map[string]*string{"gears/NOTES.md": &note}).SHA
		merge = s.MergePull(is, alice).SHA
	})
	out := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: numberOf(n), Collection: "timeline", PageSize: 100})
	var got []string
	for _, it := range out.Items {
		got = append(got, it.Event)
	}
	want := []string{"head_ref_force_pushed", "committed", "review_requested", "review_requested", "reviewed", "committed", "merged", "closed"}
	if !slices.Equal(got, want) {
		t.Fatalf("timeline events = %v, want %v (the commits the force push dropped left out)", got, want)
	}
	rows := out.Items
	f := rows[0]
	wantRowField(t, "force push row", "actor", f.Actor, "bob")
	wantRowAt(t, "force push row", f)
	// The commit, its first line without the hidden character, its git
	// author and date, and no actor.
	c := rows[1]
	wantRowField(t, "committed row", "commit", c.Commit, rewritten[:7])
	wantRowField(t, "committed row", "message", c.Message, "Cap the gear ratio at 9:1")
	wantRowField(t, "committed row", "author", c.Author, "Bob Brennan")
	wantRowAt(t, "committed row", c)
	wantRowField(t, "committed row", "actor", c.Actor, "")
	wantRowField(t, "review request row", "actor", rows[2].Actor, "bob")
	wantRowField(t, "review request row", "reviewer", rows[2].Reviewer, "alice")
	wantRowField(t, "team review request row", "reviewer", rows[3].Reviewer, "acme/maintainers")
	r := rows[4]
	wantRowField(t, "review row", "actor", r.Actor, "alice")
	wantRowField(t, "review row", "state", r.State, "approved")
	wantRowField(t, "review row", "commit", r.Commit, approvedHead[:7])
	wantRowAt(t, "review row", r)
	wantRowField(t, "review row", "body", r.Body, "")
	// Pushed after the approval: a commit row after the review row, on a
	// head other than the one approved.
	p := rows[5]
	wantRowField(t, "push after the approval", "commit", p.Commit, late[:7])
	if p.Commit == r.Commit {
		t.Errorf("push after the approval: commit = %q, want another than the approved head", p.Commit)
	}
	wantRowField(t, "push after the approval", "message", p.Message, "Note the cap")
	m := rows[6]
	wantRowField(t, "merged row", "actor", m.Actor, "alice")
	wantRowField(t, "merged row", "commit", m.Commit, merge[:7])
	wantRowAt(t, "merged row", m)
}

// wantRowField checks one string field of a timeline row.
func wantRowField(t *testing.T, row, field, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: %s = %q, want %q", row, field, got, want)
	}
}

// wantRowAt checks a timeline row carries its time.
func wantRowAt(t *testing.T, row string, it issues.IssueItem) {
	t.Helper()
	if it.At == "" {
		t.Errorf("%s: at is empty, want a time: %+v", row, it)
	}
}

func numberOf(n int) toolkit.IssueNumber { return toolkit.IssueNumber(n) }
