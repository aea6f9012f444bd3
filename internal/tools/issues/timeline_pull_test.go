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
		t.Fatalf("timeline events %v, want %v (the commits the force push dropped left out)", got, want)
	}
	rows := out.Items
	if f := rows[0]; f.Actor != "bob" || f.At == "" {
		t.Errorf("force push row: %+v", f)
	}
	if c := rows[1]; c.Commit != rewritten[:7] || c.Message != "Cap the gear ratio at 9:1" || c.Author != "Bob Brennan" || c.At == "" || c.Actor != "" {
		t.Errorf("committed row: %+v, want commit %s, its first line without the hidden character, its git author and date", c, rewritten[:7])
	}
	if r := rows[2]; r.Actor != "bob" || r.Reviewer != "alice" {
		t.Errorf("review request row: %+v", r)
	}
	if r := rows[3]; r.Reviewer != "acme/maintainers" {
		t.Errorf("team review request row: %+v", r)
	}
	if r := rows[4]; r.Actor != "alice" || r.State != "approved" || r.Commit != approvedHead[:7] || r.At == "" || r.Body != "" {
		t.Errorf("review row: %+v, want alice approving %s", r, approvedHead[:7])
	}
	// Pushed after the approval: a commit row after the review row, on a
	// head other than the one approved.
	if c := rows[5]; c.Commit != late[:7] || c.Commit == rows[4].Commit || c.Message != "Note the cap" {
		t.Errorf("push after the approval: %+v", c)
	}
	if m := rows[6]; m.Actor != "alice" || m.Commit != merge[:7] || m.At == "" {
		t.Errorf("merged row: %+v, want alice and merge commit %s", m, merge[:7])
	}
}

func numberOf(n int) toolkit.IssueNumber { return toolkit.IssueNumber(n) }
