package issues

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

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
		if p.issuesOnly == c.prs || !p.opts.Since.Equal(c.want.Since) || p.opts.State != c.want.State || !slices.Equal(p.opts.Labels, c.want.Labels) ||
			p.opts.Assignee != c.want.Assignee || p.opts.Creator != c.want.Creator || p.opts.Mentioned != c.want.Mentioned ||
			p.opts.Milestone != c.want.Milestone || p.opts.Type != c.want.Type || p.opts.Sort != c.want.Sort ||
			p.opts.Direction != c.want.Direction || p.opts.PerPage != c.want.PerPage {
			t.Errorf("%+v:\n got %+v (issues only %v)\nwant %+v (pull requests %v)", c.in, p.opts, p.issuesOnly, c.want, c.prs)
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
		t.Fatal(err)
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
		if !errors.As(err, &e) || e.Code != contract.CodeCursorInvalid || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
			t.Fatalf("a %s cursor on the %s path: %v", other, own, err)
		}
		restart, ok := e.Repair.Arguments.(SearchIssuesIn)
		if want := in; !ok || restart.Cursor != "" || restart.Query != want.Query || !slices.Equal(restart.Labels, want.Labels) {
			t.Fatalf("the repair must start the same listing again without a cursor: %+v", e.Repair.Arguments)
		}
	}
}
