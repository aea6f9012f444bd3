package issues_test

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// fullList is every issue and pull request of acme/widgets in the order
// the list path lists them (state all, newest first), decoded whole by
// go-github.
func fullList(t *testing.T, env *servertest.Env) []*gh.Issue {
	t.Helper()
	var all []*gh.Issue
	for page := 1; page > 0; {
		list, m, err := env.Stack.GitHub.ListIssues(context.Background(), emulator.DemoOrg, emulator.DemoWidgetsRepo,
			github.ListIssuesOptions{State: "all", Sort: "created", Direction: "desc", Page: page, PerPage: 100})
		if err != nil {
			t.Fatalf("list issues, page %d: %v", page, err)
		}
		all, page = append(all, list...), m.NextPage
	}
	return all
}

// goGitHubView is a row as the list path built it from go-github's whole
// Issue before rows were decoded slim: the reference the rows must match.
func goGitHubView(is *gh.Issue, detail issues.Detail) issueview.Issue {
	v := issueview.Issue{Number: is.GetNumber(), State: is.GetState(), Labels: []string{}, Assignees: []string{},
		Comments: is.GetComments(), IsPR: is.IsPullRequest()}
	for _, l := range is.Labels {
		v.Labels = append(v.Labels, l.GetName())
	}
	for _, a := range is.Assignees {
		v.Assignees = append(v.Assignees, a.GetLogin())
	}
	if u := is.GetUpdatedAt(); !u.IsZero() {
		v.Updated = u.UTC().Format("2006-01-02")
	}
	title, removed := contract.SanitizeText(is.GetTitle())
	v.Title = title
	if removed.Any() {
		v.TitleSanitized = &removed
	}
	if m := is.Milestone; m != nil {
		v.Milestone = &issueview.MilestoneRef{Number: m.GetNumber(), Title: m.GetTitle()}
	}
	if is.Type != nil {
		v.Type = is.Type.GetName()
	}
	if detail != issues.Full {
		return v
	}
	body, removedBody := contract.Sanitize(is.GetBody())
	v.Body = body
	if removedBody.Any() {
		v.Sanitized = &removedBody
	}
	stamp := func(ts *gh.Timestamp) string {
		if ts == nil || ts.IsZero() {
			return ""
		}
		return ts.UTC().Format("2006-01-02T15:04:05Z07:00")
	}
	v.Author, v.StateReason, v.Locked, v.LockReason = is.GetUser().GetLogin(), is.GetStateReason(), is.GetLocked(), is.GetActiveLockReason()
	v.CreatedAt, v.UpdatedAt, v.ClosedAt, v.URL = stamp(is.CreatedAt), stamp(is.UpdatedAt), stamp(is.ClosedAt), is.GetHTMLURL()
	v.Version = issues.IssueVersion(is)
	return v
}

// walk lists in page by page through its cursors and returns the rows and
// the upstream requests each page made.
func walk(t *testing.T, env *servertest.Env, in issues.SearchIssuesIn) (rows []issueview.Issue, reads [][]string) {
	t.Helper()
	env.Answered()
	for calls := 0; ; calls++ {
		if calls > 200 {
			t.Fatalf("%+v: %d pages and more, want at most 200", in, calls)
		}
		out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
		if out.Source != issues.SourceList {
			t.Fatalf("%+v: source = %q, want %q", in, out.Source, issues.SourceList)
		}
		rows, reads = append(rows, out.Items...), append(reads, env.Answered())
		if !out.HasMore {
			return rows, reads
		}
		in.Cursor = out.NextCursor
	}
}

// referenceRows is the reference rows of all at detail, pull requests
// dropped unless prs.
func referenceRows(all []*gh.Issue, detail issues.Detail, prs bool) []issueview.Issue {
	var out []issueview.Issue
	for _, is := range all {
		if prs || !is.IsPullRequest() {
			out = append(out, goGitHubView(is, detail))
		}
	}
	return out
}

func rowJSON(t *testing.T, v issueview.Issue) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal row #%d: %v", v.Number, err)
	}
	return string(b)
}

// The rows a listing returns are the rows go-github's whole decode made,
// field by field, at summary and at full, with pull requests dropped or
// kept, over several pages of a repository that mixes them in (14 pull
// requests among acme/widgets' 160, one issue locked).
func TestListingRowsMatchTheFullDecode(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	if res := env.Emu.Do(t, "PUT", "/repos/acme/widgets/issues/2/lock", emulator.DemoTokenAlice,
		map[string]string{"lock_reason": "resolved"}); res.Status != 204 {
		t.Fatalf("lock #2: status %d, want 204", res.Status)
	}
	all := fullList(t, env)
	for _, detail := range []issues.Detail{issues.Summary, issues.Full} {
		for _, prs := range []bool{false, true} {
			in := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 30, Detail: detail, IncludePRs: prs}
			got, _ := walk(t, env, in)
			want := referenceRows(all, detail, prs)
			if len(got) != len(want) {
				t.Errorf("detail %s, include_prs %v: %d rows, want %d", detail, prs, len(got), len(want))
				continue
			}
			for i := range want {
				if g, w := rowJSON(t, got[i]), rowJSON(t, want[i]); g != w {
					t.Errorf("detail %s, include_prs %v, row %d:\n got %s\nwant %s", detail, prs, i, g, w)
				}
			}
		}
	}
}

// Walking a listing through its cursors returns every issue once, in
// order, whatever the page size, and every upstream read asks for the
// page size listBucket picks: a multiple of page_size that holds the page
// and half as much again for pull requests where one does, else the
// smallest that holds it, and 100 for reading on.
func TestListingWalksEveryIssueOnceAtAnyPageSize(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var want []int
	for _, is := range fullList(t, env) {
		if !is.IsPullRequest() && is.GetState() == "open" {
			want = append(want, is.GetNumber())
		}
	}
	for _, c := range []struct {
		size  int
		first string // the first page's upstream per_page
	}{{1, "10"}, {10, "20"}, {30, "50"}, {100, "100"}} {
		rows, reads := walk(t, env, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: toolkit.PageSize(c.size)})
		var got []int
		for _, r := range rows {
			got = append(got, r.Number)
		}
		if !slices.Equal(got, want) {
			t.Errorf("page size %d: %d issues %v\nwant %d %v", c.size, len(got), got, len(want), want)
		}
		pages := map[string]int{}
		for p, page := range reads {
			for i, req := range page {
				per := perPage(t, req)
				pages[per]++
				switch {
				case p == 0 && i == 0 && per != c.first:
					t.Errorf("page size %d: first read %q has per_page %s, want %s", c.size, req, per, c.first)
				case i > 0 && per != "100":
					t.Errorf("page size %d, page %d: reading on with %q has per_page %s, want 100", c.size, p+1, req, per)
				}
			}
		}
		t.Logf("page size %d: %d pages, upstream reads by per_page %v", c.size, len(reads), pages)
	}
}

// perPage is the per_page of an upstream issues list request as
// env.Answered records it.
func perPage(t *testing.T, answered string) string {
	t.Helper()
	f := strings.Fields(answered)
	if len(f) != 3 {
		t.Fatalf("upstream %q: %d fields, want 3", answered, len(f))
	}
	if !strings.Contains(f[1], "/repos/acme/widgets/issues?") {
		t.Fatalf("upstream %q: path %q, want a read of acme/widgets' issue list", answered, f[1])
	}
	u, err := url.Parse(f[1])
	if err != nil {
		t.Fatalf("upstream %q: %v", answered, err)
	}
	return u.Query().Get("per_page")
}

// A cursor minted when every upstream read was 100 rows holds a row
// position, as today's do: it reads on from that row, at any page size
// the cursor was minted for.
func TestListingCursorOfHundredRowReadsStillWorks(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	all := fullList(t, env)
	for _, size := range []int{10, 30} {
		in := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: toolkit.PageSize(size)}
		// The old code's cursor after a page that ended where its first
		// 100-row read did.
		in.Cursor = issues.ListCursor(env.Stack.Service.Cursors, in, 101)
		out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
		var want []int
		for _, is := range all[100:] {
			if !is.IsPullRequest() && len(want) < size {
				want = append(want, is.GetNumber())
			}
		}
		var got []int
		for _, r := range out.Items {
			got = append(got, r.Number)
		}
		if !slices.Equal(got, want) {
			t.Errorf("page size %d from row 101: rows = %v, want %v", size, got, want)
		}
	}
}
