package issues_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func TestSearchIssuesPagesWithSignedCursors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	args := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 50}
	var seen = map[int]bool{}
	// Plain filters on one repository are listed, not searched: the list
	// endpoint counts nothing, so the count comes from the emulator.
	total := 0
	st := env.Emu.Emu.State()
	st.RLock()
	for _, is := range st.Repo("acme", "widgets").Issues {
		if !is.IsPull && !is.Deleted {
			total++
		}
	}
	st.RUnlock()
	for page := 0; page < 10; page++ {
		var out issues.SearchIssuesOut
		res := env.Call(t, toolkit.NameSearchIssues, args)
		if res.IsError {
			t.Fatalf("page %d: got an error, want a page: %s", page, res.JSON)
		}
		res.Decode(t, &out)
		if out.Source != issues.SourceList {
			t.Fatalf("page %d answered by %q, want the list endpoint", page, out.Source)
		}
		for _, is := range out.Items {
			if is.IsPR {
				t.Fatalf("#%d: is_pr = true, want only issues in an issues-only search", is.Number)
			}
			if seen[is.Number] {
				t.Fatalf("#%d seen twice, want each issue once over the pages", is.Number)
			}
			seen[is.Number] = true
			if is.Body != "" {
				t.Fatalf("summary row #%d: body = %q, want none", is.Number, is.Body)
			}
		}
		if !out.HasMore {
			break
		}
		args.Cursor = out.NextCursor
	}
	if total < emulator.DemoWidgetsIssueCount-20 {
		t.Fatalf("seed issues = %d, want at least %d", total, emulator.DemoWidgetsIssueCount-20)
	}
	if len(seen) != total {
		t.Fatalf("saw %d issues over the pages, want all %d", len(seen), total)
	}

	// detail does not decide the rows, so a page may be read at another.
	first := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 5}
	var p1 issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, first).Decode(t, &p1)
	first.Cursor, first.Detail = p1.NextCursor, "full"
	if res := env.Call(t, toolkit.NameSearchIssues, first); res.IsError {
		t.Fatalf("the next page at detail full: got an error, want the page: %s", res.JSON)
	}

	// A cursor presented with other filters is refused with a restart repair.
	args.State = "open"
	e := env.Call(t, toolkit.NameSearchIssues, args).Envelope(t)
	contracttest.Code(t, "", e, contract.CodeCursorInvalid)
	contracttest.MustRepair(t, "", e.Repair, toolkit.NameSearchIssues)
}

func TestSearchSummaryIsSubsetOfFull(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var sum, full issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: 30}).Decode(t, &sum)
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: 30, Detail: "full"}).Decode(t, &full)
	if len(sum.Items) == 0 {
		t.Fatalf("summary rows = 0, want some")
	}
	if len(sum.Items) != len(full.Items) {
		t.Fatalf("summary rows = %d, want full's %d", len(sum.Items), len(full.Items))
	}
	// The fields a summary row shares with a full one.
	type shared struct {
		Number       int
		Title, State string
		Labels       string
	}
	for i := range sum.Items {
		s, f := sum.Items[i], full.Items[i]
		if diff := cmp.Diff(shared{f.Number, f.Title, f.State, strings.Join(f.Labels, ",")},
			shared{s.Number, s.Title, s.State, strings.Join(s.Labels, ",")}); diff != "" {
			t.Fatalf("row %d: summary is not a subset of full (-full +summary):\n%s", i, diff)
		}
		if f.Version == "" {
			t.Fatalf("full row #%d: version is empty, want one", f.Number)
		}
		if f.Author == "" {
			t.Fatalf("full row #%d: author is empty, want one", f.Number)
		}
	}
}

func TestGetIssueSanitizesTheHostileIssue(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var out issues.GetIssueOut
	res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoHostileIssue})
	res.Decode(t, &out)
	body := out.Issue.Body
	for _, bad := range []string{"\u200b", "\u202e", "\u2066", "<!--", "\U000E0041"} {
		if strings.Contains(body, bad) {
			t.Errorf("body holds %q, want it removed", bad)
		}
	}
	for _, good := range []string{"a<b", "&&", "```"} {
		if !strings.Contains(body, good) {
			t.Errorf("body lacks %q, want it kept", good)
		}
	}
	san := out.Issue.Sanitized
	if san == nil {
		t.Fatalf("sanitized = nil, want the removals counted")
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"zero_width", san.ZeroWidth}, {"bidi_controls", san.Bidi}, {"html_comments", san.HTMLComments}, {"tag_characters", san.Tags}} {
		if c.n == 0 {
			t.Errorf("sanitized.%s = 0, want the removals counted: %+v", c.name, *san)
		}
	}
	if !strings.Contains(string(res.JSON), "a<b && ") {
		t.Fatalf("wire form = %s, want \"a<b && \" unescaped", res.JSON)
	}
}

func TestGetIssueCommentsAndRelations(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var out issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue}).Decode(t, &out)
	if out.Relations == nil {
		t.Fatalf("parent issue: relations = nil, want its sub-issues counted")
	}
	if out.Relations.SubIssues < 3 {
		t.Errorf("parent issue: relations.sub_issues = %d, want 3 or more", out.Relations.SubIssues)
	}
	if out.Issue.Version == "" {
		t.Errorf("parent issue: version is empty, want one")
	}
	env.Upstream()
	var many issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue}).Decode(t, &many)
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("get_issue with comments: upstream calls = %v (%d), want 2", calls, len(calls))
	}
	if len(many.Comments) == 0 {
		t.Fatalf("#%d: comments = 0, want some", emulator.DemoManyCommentsIssue)
	}
	// A cursor that does not open is refused, naming the argument that
	// carried it.
	e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		CommentsCursor: "not-a-cursor"}).Envelope(t)
	contracttest.Code(t, "", e, contract.CodeCursorInvalid)
	contracttest.Field(t, "", e, "comments_cursor")
	if e.Repair == nil {
		t.Errorf("a cursor that does not open: repair = nil, want one")
	}
	e = env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue}).Envelope(t)
	contracttest.Code(t, "", e, contract.CodeIssueNotFound)
	contracttest.MustRepair(t, "", e.Repair, toolkit.NameSearchIssues)
}

// Qualifiers in the query text win over the defaults they contradict: a
// query asking for pull requests gets them, and one naming a state is not
// narrowed to open issues as well.
func TestSearchQueryQualifiersOverrideDefaults(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	search := func(in issues.SearchIssuesIn) issues.SearchIssuesOut {
		t.Helper()
		in.Owner, in.Repo, in.PageSize = "acme", "widgets", 100
		var out issues.SearchIssuesOut
		res := env.Call(t, toolkit.NameSearchIssues, in)
		if res.IsError {
			t.Fatalf("search %+v: got an error, want a page: %s", in, res.JSON)
		}
		res.Decode(t, &out)
		return out
	}
	prs := search(issues.SearchIssuesIn{Query: "is:pr", State: "all"})
	if len(prs.Items) == 0 {
		t.Fatalf("is:pr: 0 rows, want some")
	}
	for _, is := range prs.Items {
		if !is.IsPR {
			t.Fatalf("is:pr: #%d has is_pr = false, want only pull requests", is.Number)
		}
	}
	closed := search(issues.SearchIssuesIn{Query: "IS:CLOSED"})
	if len(closed.Items) == 0 {
		t.Fatalf("is:closed with the default state: 0 rows, want some")
	}
	for _, is := range closed.Items {
		if is.State != "closed" {
			t.Fatalf("is:closed: #%d state = %q, want closed", is.Number, is.State)
		}
		if is.IsPR {
			t.Fatalf("is:closed: #%d is_pr = true, want only issues", is.Number)
		}
	}
}

// A title's hidden characters are removed and counted in summary rows and
// in full, the same way, so summary stays a subset of full.
func TestTitleSanitizingIsCounted(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Hidden\u200b title \u202eevil <!-- shown -->"})
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n)}).Decode(t, &got)
	want := contract.Removed{ZeroWidth: 1, Bidi: 1}
	if wantTitle := "Hidden title evil <!-- shown -->"; got.Issue.Title != wantTitle {
		t.Errorf("get_issue title = %q, want %q", got.Issue.Title, wantTitle)
	}
	if diff := cmp.Diff(&want, got.Issue.TitleSanitized); diff != "" {
		t.Errorf("get_issue title_sanitized mismatch (-want +got):\n%s", diff)
	}
	var found issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "evil"}).Decode(t, &found)
	for _, is := range found.Items {
		if is.Number == n {
			if is.Title != got.Issue.Title {
				t.Errorf("summary row title = %q, want get_issue's %q", is.Title, got.Issue.Title)
			}
			if diff := cmp.Diff(&want, is.TitleSanitized); diff != "" {
				t.Errorf("summary row title_sanitized mismatch (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Fatalf("search for evil = %+v, want #%d among the rows", found.Items, n)
}
