package issues_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func TestConfirmedNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	now := time.Now()
	env.Stack.Service.Now = func() time.Time { return now }
	create := func(title string, labels ...string) servertest.Result {
		return env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: title, Labels: labels, Milestone: 1})
	}
	env.Upstream()
	if res := create("first", "bug", "Priority: High"); res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("cold create: %v", calls)
	}
	if res := create("second", "BUG", "priority: high"); res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 1 || calls[0] != "POST /api/v3/repos/acme/widgets/issues" {
		t.Fatalf("warm create should be the POST alone: %v", calls)
	}
	// An unknown name is never trusted: it is asked about, and refused.
	if e := create("third", "bug", "no such label").Envelope(t); e.Code != contract.CodeLabelNotFound {
		t.Fatalf("unknown label: %+v", e)
	}
	calls := env.Upstream()
	if len(calls) == 0 || calls[0] != "POST /api/graphql" {
		t.Fatalf("an unknown label must be checked: %v", calls)
	}
	for _, c := range calls {
		if c == "POST /api/v3/repos/acme/widgets/issues" {
			t.Fatalf("an issue was created with an unknown label: %v", calls)
		}
	}
	// After the trust window, names are confirmed again.
	now = now.Add(6 * time.Minute)
	if res := create("fourth", "bug"); res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("expired names must be confirmed again: %v", calls)
	}
}

func TestListedNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, kind := range []string{"labels", "milestones"} {
		if res := env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: issues.MetadataKind(kind)}); res.IsError {
			t.Fatal(string(res.JSON))
		}
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "after listing",
		Labels: []string{"bug", "enhancement"}, Milestone: 2})
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 1 {
		t.Fatalf("a create naming listed values should be the POST alone: %v", calls)
	}
}

// A server error on a create cannot prove nothing was written (a proxy's
// 502 may come after GitHub applied it): the key stays pending and the
// repeat looks for the issue before creating.
func TestCreateAfterServerErrorLooksBeforeWriting(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1}); err != nil {
		t.Fatal(err)
	}
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Import drops the last row", IdempotencyKey: "k-502"}
	e := env.Call(t, toolkit.NameCreateIssue, in).Envelope(t)
	if e.Code != contract.CodeUpstreamUnavailable || e.Settlement != contract.NoRemoteSuccessKnown {
		t.Fatalf("first attempt: %+v", e)
	}
	env.Upstream()
	var out issues.CreateIssueOut
	res := env.Call(t, toolkit.NameCreateIssue, in)
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	res.Decode(t, &out)
	calls := env.Upstream()
	if len(calls) < 2 || calls[len(calls)-1] != "POST /api/v3/repos/acme/widgets/issues" || calls[0] == calls[len(calls)-1] {
		t.Fatalf("the repeat should look for the issue, then create it: %v", calls)
	}
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	n := 0
	for _, is := range st.Repo("acme", "widgets").Issues {
		if is.Title == in.Title {
			n++
		}
	}
	if n != 1 || out.Issue.Number == 0 {
		t.Fatalf("%d issues titled %q", n, in.Title)
	}
}

// Labels seen on issues a search or a read returned exist in the
// repository, so a create naming them is the POST alone; a label not seen
// is still checked before writing.
func TestSeenNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var found issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"bug", "priority: high"}, State: "all"}).Decode(t, &found)
	if len(found.Items) == 0 {
		t.Fatal("the seed has no issue labelled bug and priority: high")
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Seen names", Labels: []string{"Bug", "priority: high"}})
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 1 || calls[0] != "POST /api/v3/repos/acme/widgets/issues" {
		t.Fatalf("a create naming labels a search showed should be the POST alone: %v", calls)
	}
	var out issues.CreateIssueOut
	res.Decode(t, &out)
	if !slices.Equal(out.Issue.Labels, []string{"bug", "priority: high"}) {
		t.Fatalf("labels not spelled as the repository does: %v", out.Issue.Labels)
	}

	// get_issue confirms the labels of the issue it read.
	other := servertest.Start(t, servertest.Options{})
	var got issues.GetIssueOut
	other.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(found.Items[0].Number)}).Decode(t, &got)
	other.Upstream()
	if res := other.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Read names", Labels: got.Issue.Labels}); res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := other.Upstream(); len(calls) != 1 {
		t.Fatalf("a create naming labels get_issue showed should be the POST alone: %v", calls)
	}
	if e := other.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Unseen", Labels: []string{"bugg"}}).Envelope(t); e.Code != contract.CodeLabelNotFound {
		t.Fatalf("an unseen, unknown label must be refused: %+v", e)
	}
}

// The look for a lost create opens at the attempt's time on GitHub's clock
// (known from its Date headers), less a second or two: an identical issue
// the same user opened earlier without the key is not taken for this
// request's, and the create goes ahead.
func TestLostCreateIsNotAnEarlierIdenticalIssue(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Same title", Body: "B"}
	earlier := ciNewIssue(t, env, in)
	// The keyed attempt comes 10 s later by this host's clock (the store's
	// clock dates the key's reservation).
	later, err := store.Open(context.Background(), "", store.WithClock(func() time.Time { return time.Now().Add(10 * time.Second) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = later.Close() })
	env.Stack.Service.Store = later
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultDropBefore, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1}); err != nil {
		t.Fatal(err)
	}
	in.IdempotencyKey = "k-same-title"
	if e := env.Call(t, toolkit.NameCreateIssue, in).Envelope(t); e.Settlement != contract.Indeterminate {
		t.Fatalf("first attempt: %+v", e)
	}
	var out issues.CreateIssueOut
	res := env.Call(t, toolkit.NameCreateIssue, in)
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	res.Decode(t, &out)
	if out.Replayed || out.Issue.Number == earlier {
		t.Fatalf("the repeat returned #%d (replayed %v), the issue opened earlier without the key", out.Issue.Number, out.Replayed)
	}

	// The same for a comment.
	env.Stack.Service.Store = env.Stack.Store
	comment := issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(earlier), Body: "Same comment"}
	var first issues.AddCommentOut
	env.Call(t, toolkit.NameAddComment, comment).Decode(t, &first)
	env.Stack.Service.Store = later
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultDropBefore, Method: "POST", Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", earlier), Times: 1}); err != nil {
		t.Fatal(err)
	}
	comment.IdempotencyKey = "k-same-comment"
	if e := env.Call(t, toolkit.NameAddComment, comment).Envelope(t); e.Settlement != contract.Indeterminate {
		t.Fatalf("first keyed comment: %+v", e)
	}
	var again issues.AddCommentOut
	res = env.Call(t, toolkit.NameAddComment, comment)
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	res.Decode(t, &again)
	if again.Replayed || again.Comment.ID == first.Comment.ID {
		t.Fatalf("the repeat returned comment %d (replayed %v), posted earlier without the key", again.Comment.ID, again.Replayed)
	}
}
