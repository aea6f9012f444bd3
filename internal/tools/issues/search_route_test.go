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
		t.Fatalf("want 5 open issues to label, got %d", len(open.Items))
	}
	var labelled []int
	for _, is := range open.Items {
		res := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(is.Number),
			IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"checked-by-agent"}, CreateMissing: issues.CreateMissing{On: true}}}})
		if res.IsError {
			t.Fatalf("label #%d: %s", is.Number, res.JSON)
		}
		labelled = append(labelled, is.Number)
	}

	var listed issues.SearchIssuesOut
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"checked-by-agent"}})
	if res.IsError {
		t.Fatalf("list by label: %s", res.JSON)
	}
	res.Decode(t, &listed)
	var got []int
	for _, is := range listed.Items {
		got = append(got, is.Number)
	}
	slices.Sort(got)
	slices.Sort(labelled)
	if listed.Source != issues.SourceList || !slices.Equal(got, labelled) || listed.TotalCount != 5 || listed.HasMore {
		t.Fatalf("list by label: source %q, rows %v (total %d), want list and %v", listed.Source, got, listed.TotalCount, labelled)
	}
	if len(listed.Notes) != 0 {
		t.Fatalf("a listing carries search's caveat: %v", listed.Notes)
	}

	// The same label across the owner's repositories needs search, whose
	// index has not caught up: the contrast the list path exists for.
	var searched issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Labels: []string{"checked-by-agent"}}).Decode(t, &searched)
	if searched.Source != issues.SourceSearch || len(searched.Items) != 0 {
		t.Fatalf("owner-wide search right after the writes: source %q, %d rows; want search and none (the index lags)", searched.Source, len(searched.Items))
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
		t.Fatalf("create: %s", res.JSON)
	}
	res.Decode(t, &created)

	var found issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "capacitor"}).Decode(t, &found)
	if found.Source != issues.SourceSearch || len(found.Items) != 0 {
		t.Fatalf("text search: source %q, %d rows; want search and none yet", found.Source, len(found.Items))
	}
	if len(found.Notes) == 0 || !strings.Contains(found.Notes[0], "trail writes") {
		t.Fatalf("the search result must say it can trail recent writes: %v", found.Notes)
	}

	number := created.Issue.Number
	if res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(number)}); res.IsError {
		t.Fatalf("get_issue right after the create: %s", res.JSON)
	}
	var newest issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Sort: "created", PageSize: 1}).Decode(t, &newest)
	if newest.Source != issues.SourceList || len(newest.Items) != 1 || newest.Items[0].Number != number {
		t.Fatalf("newest-first listing: source %q, rows %+v; want list and #%d", newest.Source, newest.Items, number)
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
					t.Fatalf("listing %d (%+v): %s", calls, args, res.JSON)
				}
				var out issues.SearchIssuesOut
				res.Decode(t, &out)
				if out.Source != issues.SourceList {
					t.Fatalf("listing %d (%+v) went to %q", calls, args, out.Source)
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
		t.Fatalf("first round spent %d of core for %d upstream reads in all", firstRound, len(upstream))
	}
	if spent := coreUsed() - base; spent != firstRound {
		t.Fatalf("core budget: %d spent after the first round, %d after all %d listings; repeats must be 304s", firstRound, spent, calls)
	}
	if used := rateUsed(t, env, "search"); used != 0 {
		t.Fatalf("plain listings spent %d of the search budget", used)
	}
	for _, req := range upstream {
		if strings.HasPrefix(req, "GET /search/") {
			t.Fatalf("a plain listing reached search: %s", req)
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
		t.Fatalf("no %s budget in /rate_limit", resource)
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
	if whole.Truncated || whole.TotalCount < 4 {
		t.Fatalf("the search in full: %d matches, truncated %v", whole.TotalCount, whole.Truncated)
	}
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultSearchTimeout, Method: "GET", Path: "/search/issues", Times: 1}); err != nil {
		t.Fatal(err)
	}
	var partial issues.SearchIssuesOut
	args.Sort = "created" // another URL: not answered from the cache
	env.Call(t, toolkit.NameSearchIssues, args).Decode(t, &partial)
	if partial.Source != issues.SourceSearch || !partial.Truncated || !strings.Contains(partial.TruncationHint, "timed out") ||
		len(partial.Items) >= len(whole.Items) {
		t.Fatalf("a timed-out search: source %q, %d of %d rows, truncated %v (%q)", partial.Source, len(partial.Items), len(whole.Items),
			partial.Truncated, partial.TruncationHint)
	}
}
