package issues

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Plain filters on one repository are listed; text, qualifiers the list
// endpoint has no filter for, two values for one filter, no_labels, @me
// and searches wider than a repository go to search.
func TestSearchRoutesPlainFiltersToTheListEndpoint(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)
	repo := func(in SearchIssuesIn) SearchIssuesIn {
		in.Owner, in.Repo, in.PageSize = "acme", "widgets", 30
		return in
	}
	listed := []struct {
		in   SearchIssuesIn
		want github.ListIssuesOptions
		prs  bool
	}{
		{repo(SearchIssuesIn{}), github.ListIssuesOptions{State: "open", Sort: "created", Direction: "desc", PerPage: 30}, false},
		{repo(SearchIssuesIn{State: "all", Labels: []string{"bug", "ui"}, Assignee: "none", Author: "alice", UpdatedAfter: "2026-01-31",
			Sort: "updated", Order: "asc", IncludePRs: true}),
			github.ListIssuesOptions{State: "all", Labels: []string{"bug", "ui"}, Assignee: "none", Creator: "alice", Since: since,
				Sort: "updated", Direction: "asc", PerPage: 30}, true},
		{repo(SearchIssuesIn{Query: "is:closed label:bug mentions:bob type:Bug no:milestone is:issue", IncludePRs: true}),
			github.ListIssuesOptions{State: "closed", Labels: []string{"bug"}, Mentioned: "bob", Type: "Bug", Milestone: "none",
				Sort: "created", Direction: "desc", PerPage: 30}, false},
		{repo(SearchIssuesIn{Query: "assignee:bob", Assignee: "bob", State: "open"}),
			github.ListIssuesOptions{State: "open", Assignee: "bob", Sort: "created", Direction: "desc", PerPage: 30}, false},
	}
	for _, c := range listed {
		p, ok := c.in.listPlan()
		if !ok {
			t.Errorf("%+v: sent to search, want the list endpoint", c.in)
			continue
		}
		if p.issuesOnly == c.prs {
			t.Errorf("%+v: issues only = %v, want %v", c.in, p.issuesOnly, !c.prs)
		}
		// The page is the cursor's to set; every other option is the plan's.
		if diff := cmp.Diff(c.want, p.opts, cmpopts.IgnoreFields(github.ListIssuesOptions{}, "Page"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%+v: list options mismatch (-want +got):\n%s", c.in, diff)
		}
	}
	searched := []SearchIssuesIn{
		{Owner: "acme"},
		{},
		repo(SearchIssuesIn{Query: "crash"}),
		repo(SearchIssuesIn{Query: "label:bug crash"}),
		repo(SearchIssuesIn{Query: `label:"needs triage"`}),
		repo(SearchIssuesIn{Query: "-label:bug"}),
		repo(SearchIssuesIn{Query: "label:bug,ui"}),
		repo(SearchIssuesIn{Query: "comments:>5"}),
		repo(SearchIssuesIn{Query: "milestone:v1"}),
		repo(SearchIssuesIn{Query: "is:pr"}),
		repo(SearchIssuesIn{Query: "is:closed", State: "open"}),
		repo(SearchIssuesIn{Query: "assignee:carol", Assignee: "bob"}),
		repo(SearchIssuesIn{Query: "mentions:@me"}),
		repo(SearchIssuesIn{NoLabels: true}),
		repo(SearchIssuesIn{Author: "@me"}),
		repo(SearchIssuesIn{Assignee: "@me"}),
		repo(SearchIssuesIn{Author: "app/dependabot"}),
	}
	for _, in := range searched {
		if p, ok := in.listPlan(); ok {
			t.Errorf("%+v: listed as %+v, want search", in, p.opts)
		}
	}
}

// A cursor minted on one path is refused on the other, with the call that
// starts the listing again: a list cursor holds a row index, a search
// cursor a page number, and neither means anything to the other.
func TestCursorFromOnePathIsRefusedOnTheOther(t *testing.T) {
	t.Parallel()
	cursors, err := contract.NewCursors([]byte("0123456789abcdef0123456789abcdef"), nil)
	if err != nil {
		t.Fatalf("new cursors: %v", err)
	}
	tools := &Tools{&toolkit.Service{Cursors: cursors}}
	for _, in := range []SearchIssuesIn{
		{Owner: "acme", Repo: "widgets", Labels: []string{"bug"}, PageSize: 30}, // listed
		{Owner: "acme", Repo: "widgets", Query: "crash", PageSize: 30},          // searched
	} {
		_, listed := in.listPlan()
		own, other := SourceSearch, SourceList
		if listed {
			own, other = SourceList, SourceSearch
		}
		filters := searchFilters{in.Query, string(in.State), in.Assignee, in.Author, in.UpdatedAfter, string(in.Sort), string(in.Order),
			in.Labels, in.NoLabels, in.IncludePRs, int(in.PageSize), string(other)}
		in.Cursor = cursors.Mint(toolkit.NameSearchIssues, "acme/widgets", filters, "2")
		_, err := tools.searchIssues(context.Background(), in)
		var e *contract.Error
		if !errors.As(err, &e) {
			t.Fatalf("a %s cursor on the %s path: error = %v, want a contract error", other, own, err)
		}
		if e.Code != contract.CodeCursorInvalid {
			t.Fatalf("a %s cursor on the %s path: code = %q, want %q", other, own, e.Code, contract.CodeCursorInvalid)
		}
		if e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
			t.Fatalf("a %s cursor on the %s path: repair = %+v, want a call to %s", other, own, e.Repair, toolkit.NameSearchIssues)
		}
		// The repair starts the same listing again, without a cursor.
		restart, ok := e.Repair.Arguments.(SearchIssuesIn)
		if !ok {
			t.Fatalf("repair arguments = %T, want SearchIssuesIn", e.Repair.Arguments)
		}
		if restart.Cursor != "" {
			t.Errorf("repair cursor = %q, want none", restart.Cursor)
		}
		if restart.Query != in.Query {
			t.Errorf("repair query = %q, want %q", restart.Query, in.Query)
		}
		if !slices.Equal(restart.Labels, in.Labels) {
			t.Errorf("repair labels = %q, want %q", restart.Labels, in.Labels)
		}
	}
}
