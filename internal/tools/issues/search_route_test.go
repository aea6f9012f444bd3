package issues_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// An hour of lag: far longer than any test runs, so whatever search
// misses it misses for the whole test, on any machine.
const testSearchLag = time.Hour

// An agent that labels issues and lists them by that label to check its
// work sees every one: a plain listing reads the issues, not the lagging
// search index, which at that moment finds none of them.
func TestLabelledIssuesAreListedAtOnceDespiteSearchLag(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{SearchLag: testSearchLag}})
	var open issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: 5}).Decode(t, &open)
	if len(open.Items) != 5 {
		t.Fatalf("open issues to label = %d, want 5", len(open.Items))
	}
	var labelled []int
	for _, is := range open.Items {
		res := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(is.Number),
			IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"checked-by-agent"}, CreateMissing: issues.CreateMissing{On: true}}}})
		if res.IsError {
			t.Fatalf("label #%d: got an error, want success: %s", is.Number, res.JSON)
		}
		labelled = append(labelled, is.Number)
	}

	var listed issues.SearchIssuesOut
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"checked-by-agent"}})
	if res.IsError {
		t.Fatalf("list by label: got an error, want a page: %s", res.JSON)
	}
	res.Decode(t, &listed)
	var got []int
	for _, is := range listed.Items {
		got = append(got, is.Number)
	}
	slices.Sort(got)
	slices.Sort(labelled)
	if listed.Source != issues.SourceList {
		t.Errorf("list by label: source = %q, want %q", listed.Source, issues.SourceList)
	}
	if !slices.Equal(got, labelled) {
		t.Errorf("list by label: rows = %v, want %v", got, labelled)
	}
	if listed.TotalCount != 5 {
		t.Errorf("list by label: total_count = %d, want 5", listed.TotalCount)
	}
	if listed.HasMore {
		t.Errorf("list by label: has_more = true, want false")
	}
	if len(listed.Notes) != 0 {
		t.Errorf("list by label: notes = %q, want none (search's caveat does not apply)", listed.Notes)
	}

	// The same label across the owner's repositories needs search, whose
	// index has not caught up: the contrast the list path exists for.
	var searched issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Labels: []string{"checked-by-agent"}}).Decode(t, &searched)
	if searched.Source != issues.SourceSearch {
		t.Errorf("owner-wide search: source = %q, want %q", searched.Source, issues.SourceSearch)
	}
	if len(searched.Items) != 0 {
		t.Errorf("owner-wide search right after the writes: %d rows, want none (the index lags)", len(searched.Items))
	}
}

// A text search right after a create misses the new issue, and says why;
// reading it back (get_issue) and a plain listing find it.
func TestTextSearchRightAfterCreateMissesItAndSaysWhy(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{SearchLag: testSearchLag}})
	var created issues.CreateIssueOut
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Flux capacitor overheats"})
	if res.IsError {
		t.Fatalf("create: got an error, want the issue: %s", res.JSON)
	}
	res.Decode(t, &created)

	var found issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "capacitor"}).Decode(t, &found)
	if found.Source != issues.SourceSearch {
		t.Errorf("text search: source = %q, want %q", found.Source, issues.SourceSearch)
	}
	if len(found.Items) != 0 {
		t.Errorf("text search: %d rows, want none yet", len(found.Items))
	}
	if len(found.Notes) == 0 {
		t.Errorf("text search: notes are empty, want the first saying it can trail writes")
	} else if !strings.Contains(found.Notes[0], "trail writes") {
		t.Errorf("text search: notes[0] = %q, want one saying it can trail writes", found.Notes[0])
	}

	number := created.Issue.Number
	if res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(number)}); res.IsError {
		t.Fatalf("get_issue right after the create: got an error, want the issue: %s", res.JSON)
	}
	var newest issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Sort: "created", PageSize: 1}).Decode(t, &newest)
	if newest.Source != issues.SourceList {
		t.Errorf("newest-first listing: source = %q, want %q", newest.Source, issues.SourceList)
	}
	if len(newest.Items) != 1 {
		t.Fatalf("newest-first listing: %d rows, want 1: %+v", len(newest.Items), newest.Items)
	}
	if got := newest.Items[0].Number; got != number {
		t.Errorf("newest-first listing: #%d, want #%d", got, number)
	}
}

// With search's budget at 30 a minute, 200 plain listings all succeed:
// none touches search, and the core budget pays only for the first read
// of each page; every repeat is answered 304.
func TestPlainListingsSpareSearchAndRereadFree(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{SearchLimit: 30}})
	listings := []issues.SearchIssuesIn{
		{Owner: "acme", Repo: "widgets"},
		{Owner: "acme", Repo: "widgets", State: "closed"},
		{Owner: "acme", Repo: "widgets", Labels: []string{"bug"}},
		{Owner: "acme", Repo: "widgets", State: "all", PageSize: 50, Sort: "updated"},
		{Owner: "acme", Repo: "widgets", Assignee: "none", Query: "is:open no:milestone"},
		{Owner: "acme", Repo: "gadgets", Author: "alice"},
	}
	calls, firstRound := 0, 0
	coreUsed := func() int { return rateUsed(t, env, "core") }
	base := coreUsed()
	for round := 0; calls < 200; round++ {
		for _, args := range listings {
			for page := 0; page < 3 && calls < 200; page++ {
				calls++
				res := env.Call(t, toolkit.NameSearchIssues, args)
				if res.IsError {
					t.Fatalf("listing %d (%+v): got an error, want a page: %s", calls, args, res.JSON)
				}
				var out issues.SearchIssuesOut
				res.Decode(t, &out)
				if out.Source != issues.SourceList {
					t.Fatalf("listing %d (%+v): source = %q, want %q", calls, args, out.Source, issues.SourceList)
				}
				if !out.HasMore {
					break
				}
				args.Cursor = out.NextCursor
			}
		}
		if round == 0 {
			firstRound = coreUsed() - base
		}
	}
	upstream := env.Upstream()
	if firstRound == 0 || firstRound >= len(upstream) {
		t.Fatalf("first round spent %d of core, want 1..%d (fewer than the %d upstream reads in all)", firstRound, len(upstream)-1, len(upstream))
	}
	if spent := coreUsed() - base; spent != firstRound {
		t.Fatalf("core spent after all %d listings = %d, want the first round's %d (repeats are 304s)", calls, spent, firstRound)
	}
	if used := rateUsed(t, env, "search"); used != 0 {
		t.Fatalf("search budget spent by plain listings = %d, want 0", used)
	}
	for _, req := range upstream {
		if strings.HasPrefix(req, "GET /search/") {
			t.Fatalf("upstream call %s, want no plain listing to reach search", req)
		}
	}
}

// rateUsed reads how much of resource the token has spent (reading the
// budget is free).
func rateUsed(t *testing.T, env *servertest.Env, resource string) int {
	t.Helper()
	var rl struct {
		Resources map[string]struct {
			Used int `json:"used"`
		} `json:"resources"`
	}
	env.Emu.Do(t, "GET", "/rate_limit", emulator.DemoTokenAlice, nil).JSON(t, &rl)
	r, ok := rl.Resources[resource]
	if !ok {
		t.Fatalf("/rate_limit resources = %v, want a %s budget", rl.Resources, resource)
	}
	return r.Used
}

// When GitHub's search runs out of time it answers what it found with
// incomplete_results; the result says the rows are partial and how to
// get the rest. A plain listing has no such limit.
func TestSearchThatTimesOutSaysItIsPartial(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	args := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "comments:>=0", State: "all", PageSize: 100}
	var whole issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, args).Decode(t, &whole)
	if whole.Truncated {
		t.Fatalf("the search in full: truncated = true, want false")
	}
	if whole.TotalCount < 4 {
		t.Fatalf("the search in full: total_count = %d, want 4 or more", whole.TotalCount)
	}
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultSearchTimeout, Method: "GET", Path: "/search/issues", Times: 1}); err != nil {
		t.Fatalf("add fault: %v", err)
	}
	var partial issues.SearchIssuesOut
	args.Sort = "created" // another URL: not answered from the cache
	env.Call(t, toolkit.NameSearchIssues, args).Decode(t, &partial)
	if partial.Source != issues.SourceSearch {
		t.Errorf("a timed-out search: source = %q, want %q", partial.Source, issues.SourceSearch)
	}
	if !partial.Truncated {
		t.Errorf("a timed-out search: truncated = false, want true")
	}
	if !strings.Contains(partial.TruncationHint, "timed out") {
		t.Errorf("a timed-out search: truncation_hint = %q, want one saying timed out", partial.TruncationHint)
	}
	if len(partial.Items) >= len(whole.Items) {
		t.Errorf("a timed-out search: %d rows, want fewer than the full search's %d", len(partial.Items), len(whole.Items))
	}
}
