package issues_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
		t.Fatalf("cold create failed: %s", res.JSON)
	}
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("cold create: upstream calls %v, want 2 (the preflight and the POST)", calls)
	}
	if res := create("second", "BUG", "priority: high"); res.IsError {
		t.Fatalf("warm create failed: %s", res.JSON)
	}
	if calls, want := env.Upstream(), []string{"POST /api/v3/repos/acme/widgets/issues"}; !slices.Equal(calls, want) {
		t.Fatalf("warm create: upstream calls %q, want the POST alone %q", calls, want)
	}
	// An unknown name is never trusted: it is asked about, and refused.
	if !contracttest.Code(t, "unknown label", create("third", "bug", "no such label").Envelope(t), contract.CodeLabelNotFound) {
		t.FailNow()
	}
	calls := env.Upstream()
	if len(calls) == 0 {
		t.Fatalf("an unknown label: no upstream calls, want it checked by POST /api/graphql")
	}
	if calls[0] != "POST /api/graphql" {
		t.Fatalf("an unknown label: first upstream call %q, want the check POST /api/graphql: %v", calls[0], calls)
	}
	for _, c := range calls {
		if c == "POST /api/v3/repos/acme/widgets/issues" {
			t.Fatalf("an issue was created with an unknown label, want none: %v", calls)
		}
	}
	// After the trust window, names are confirmed again.
	now = now.Add(6 * time.Minute)
	if res := create("fourth", "bug"); res.IsError {
		t.Fatalf("create after the trust window failed: %s", res.JSON)
	}
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("expired names: upstream calls %v, want 2 (confirmed again, then the POST)", calls)
	}
}

func TestListedNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, kind := range []string{"labels", "milestones"} {
		if res := env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: issues.MetadataKind(kind)}); res.IsError {
			t.Fatalf("listing %s failed: %s", kind, res.JSON)
		}
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "after listing",
		Labels: []string{"bug", "enhancement"}, Milestone: 2})
	if res.IsError {
		t.Fatalf("create after listing failed: %s", res.JSON)
	}
	if calls := env.Upstream(); len(calls) != 1 {
		t.Fatalf("a create naming listed values: upstream calls %v, want the POST alone", calls)
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
	if !contracttest.Envelope(t, "first attempt", e, contract.CodeUpstreamUnavailable, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	env.Upstream()
	var out issues.CreateIssueOut
	res := env.Call(t, toolkit.NameCreateIssue, in)
	if res.IsError {
		t.Fatalf("the repeat failed: %s", res.JSON)
	}
	res.Decode(t, &out)
	calls := env.Upstream()
	// The repeat looks for the issue, then creates it.
	if len(calls) < 2 {
		t.Fatalf("the repeat: upstream calls %v, want at least a look and the create", calls)
	}
	if last := calls[len(calls)-1]; last != "POST /api/v3/repos/acme/widgets/issues" {
		t.Fatalf("the repeat: last upstream call %q, want the create: %v", last, calls)
	}
	if calls[0] == calls[len(calls)-1] {
		t.Fatalf("the repeat: first upstream call %q is the create, want a look first: %v", calls[0], calls)
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
	if n != 1 {
		t.Fatalf("%d issues titled %q, want 1", n, in.Title)
	}
	if out.Issue.Number == 0 {
		t.Fatalf("the repeat: issue.number = 0, want the created issue's")
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
		t.Fatal("the seed has no issue labelled bug and priority: high, want one")
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Seen names", Labels: []string{"Bug", "priority: high"}})
	if res.IsError {
		t.Fatalf("create naming labels a search showed failed: %s", res.JSON)
	}
	if calls, want := env.Upstream(), []string{"POST /api/v3/repos/acme/widgets/issues"}; !slices.Equal(calls, want) {
		t.Fatalf("a create naming labels a search showed: upstream calls %q, want the POST alone %q", calls, want)
	}
	var out issues.CreateIssueOut
	res.Decode(t, &out)
	if want := []string{"bug", "priority: high"}; !slices.Equal(out.Issue.Labels, want) {
		t.Fatalf("labels = %q, want %q, spelled as the repository does", out.Issue.Labels, want)
	}

	// get_issue confirms the labels of the issue it read.
	other := servertest.Start(t, servertest.Options{})
	var got issues.GetIssueOut
	other.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(found.Items[0].Number)}).Decode(t, &got)
	other.Upstream()
	if res := other.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Read names", Labels: got.Issue.Labels}); res.IsError {
		t.Fatalf("create naming labels get_issue showed failed: %s", res.JSON)
	}
	if calls := other.Upstream(); len(calls) != 1 {
		t.Fatalf("a create naming labels get_issue showed: upstream calls %v, want the POST alone", calls)
	}
	if !contracttest.Code(t, "an unseen, unknown label", other.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Unseen", Labels: []string{"bugg"}}).Envelope(t), contract.CodeLabelNotFound) {
		t.FailNow()
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
		t.Fatalf("first attempt: settlement = %q (%s), want %q", e.Settlement, e.Code, contract.Indeterminate)
	}
	var out issues.CreateIssueOut
	res := env.Call(t, toolkit.NameCreateIssue, in)
	if res.IsError {
		t.Fatalf("the repeated create failed: %s", res.JSON)
	}
	res.Decode(t, &out)
	if out.Replayed {
		t.Errorf("the repeat: Replayed = true, want false")
	}
	if out.Issue.Number == earlier {
		t.Fatalf("the repeat returned #%d, the issue opened earlier without the key; want a new issue", out.Issue.Number)
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
		t.Fatalf("first keyed comment: settlement = %q (%s), want %q", e.Settlement, e.Code, contract.Indeterminate)
	}
	var again issues.AddCommentOut
	res = env.Call(t, toolkit.NameAddComment, comment)
	if res.IsError {
		t.Fatalf("the repeated comment failed: %s", res.JSON)
	}
	res.Decode(t, &again)
	if again.Replayed {
		t.Errorf("the repeated comment: Replayed = true, want false")
	}
	if again.Comment.ID == first.Comment.ID {
		t.Errorf("the repeat returned comment %d, posted earlier without the key; want a new comment", again.Comment.ID)
	}
}
