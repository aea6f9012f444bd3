package issues_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
			t.Fatalf("page %d: %s", page, res.JSON)
		}
		res.Decode(t, &out)
		if out.Source != issues.SourceList {
			t.Fatalf("page %d answered by %q, want the list endpoint", page, out.Source)
		}
		for _, is := range out.Items {
			if is.IsPR {
				t.Fatalf("a pull request in an issues-only search: #%d", is.Number)
			}
			if seen[is.Number] {
				t.Fatalf("#%d seen twice", is.Number)
			}
			seen[is.Number] = true
			if is.Body != "" {
				t.Fatalf("summary row carries a body: %+v", is)
			}
		}
		if !out.HasMore {
			break
		}
		args.Cursor = out.NextCursor
	}
	if len(seen) != total || total < emulator.DemoWidgetsIssueCount-20 {
		t.Fatalf("saw %d of %d issues", len(seen), total)
	}

	// detail does not decide the rows, so a page may be read at another.
	first := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 5}
	var p1 issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, first).Decode(t, &p1)
	first.Cursor, first.Detail = p1.NextCursor, "full"
	if res := env.Call(t, toolkit.NameSearchIssues, first); res.IsError {
		t.Fatalf("the next page at detail full: %s", res.JSON)
	}

	// A cursor presented with other filters is refused with a restart repair.
	args.State = "open"
	e := env.Call(t, toolkit.NameSearchIssues, args).Envelope(t)
	if e.Code != contract.CodeCursorInvalid || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("mismatched cursor: %+v", e)
	}
}

func TestSearchSummaryIsSubsetOfFull(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var sum, full issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: 30}).Decode(t, &sum)
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", PageSize: 30, Detail: "full"}).Decode(t, &full)
	if len(sum.Items) != len(full.Items) || len(sum.Items) == 0 {
		t.Fatalf("rows differ: %d vs %d", len(sum.Items), len(full.Items))
	}
	for i := range sum.Items {
		s, f := sum.Items[i], full.Items[i]
		if s.Number != f.Number || s.Title != f.Title || s.State != f.State || strings.Join(s.Labels, ",") != strings.Join(f.Labels, ",") {
			t.Fatalf("row %d: summary %+v is not a subset of full %+v", i, s, f)
		}
		if f.Version == "" || f.Author == "" {
			t.Fatalf("full row lacks full fields: %+v", f)
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
			t.Errorf("body still holds %q", bad)
		}
	}
	for _, good := range []string{"a<b", "&&", "```"} {
		if !strings.Contains(body, good) {
			t.Errorf("body lost %q", good)
		}
	}
	if out.Issue.Sanitized == nil || out.Issue.Sanitized.ZeroWidth == 0 || out.Issue.Sanitized.Bidi == 0 ||
		out.Issue.Sanitized.HTMLComments == 0 || out.Issue.Sanitized.Tags == 0 {
		t.Fatalf("removals not counted: %+v", out.Issue.Sanitized)
	}
	if !strings.Contains(string(res.JSON), "a<b && ") {
		t.Fatal("the wire form escaped HTML")
	}
}

func TestGetIssueCommentsAndRelations(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var out issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue}).Decode(t, &out)
	if out.Relations == nil || out.Relations.SubIssues < 3 || out.Issue.Version == "" {
		t.Fatalf("parent issue: %+v", out)
	}
	env.Upstream()
	var many issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue}).Decode(t, &many)
	if calls := env.Upstream(); len(calls) != 2 {
		t.Fatalf("get_issue with comments made %d upstream calls: %v", len(calls), calls)
	}
	if len(many.Comments) == 0 {
		t.Fatal("no comments")
	}
	// A cursor that does not open is refused, naming the argument that
	// carried it.
	e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		CommentsCursor: "not-a-cursor"}).Envelope(t)
	if e.Code != contract.CodeCursorInvalid || e.Details == nil || e.Details.Field != "comments_cursor" || e.Repair == nil {
		t.Fatalf("a cursor from another issue: %+v", e)
	}
	e = env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("missing issue: %+v", e)
	}
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
			t.Fatal(string(res.JSON))
		}
		res.Decode(t, &out)
		return out
	}
	prs := search(issues.SearchIssuesIn{Query: "is:pr", State: "all"})
	if len(prs.Items) == 0 {
		t.Fatal("is:pr found nothing")
	}
	for _, is := range prs.Items {
		if !is.IsPR {
			t.Fatalf("is:pr returned issue #%d", is.Number)
		}
	}
	closed := search(issues.SearchIssuesIn{Query: "IS:CLOSED"})
	if len(closed.Items) == 0 {
		t.Fatal("is:closed with the default state found nothing")
	}
	for _, is := range closed.Items {
		if is.State != "closed" || is.IsPR {
			t.Fatalf("is:closed returned #%d (%s, pr %v)", is.Number, is.State, is.IsPR)
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
	if got.Issue.Title != "Hidden title evil <!-- shown -->" || got.Issue.TitleSanitized == nil || *got.Issue.TitleSanitized != want {
		t.Fatalf("get_issue title %q, counted %+v", got.Issue.Title, got.Issue.TitleSanitized)
	}
	var found issues.SearchIssuesOut
	env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "evil"}).Decode(t, &found)
	for _, is := range found.Items {
		if is.Number == n {
			if is.Title != got.Issue.Title || is.TitleSanitized == nil || *is.TitleSanitized != want {
				t.Fatalf("summary row %q, counted %+v", is.Title, is.TitleSanitized)
			}
			return
		}
	}
	t.Fatalf("#%d not found by search: %+v", n, found.Items)
}
