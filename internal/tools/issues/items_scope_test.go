package issues_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Under the creator scope, an allowed issue's sub-issues opened by others
// keep their rows (number, state) but not their titles.
func TestIssueItemsWithholdOthersTitlesUnderCreatorScope(t *testing.T) {
	t.Parallel()
	open := servertest.Start(t, servertest.Options{})
	var all issues.ListIssueItemsOut
	open.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "sub_issues"}).Decode(t, &all)

	var parent issues.GetIssueOut
	open.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue}).Decode(t, &parent)
	scoped := servertest.Start(t, servertest.Options{AllowedIssueCreator: parent.Issue.Author})
	var got issues.ListIssueItemsOut
	res := scoped.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "sub_issues"})
	if res.IsError {
		t.Fatalf("sub_issues under the scope failed: %s", res.JSON)
	}
	res.Decode(t, &got)
	if len(all.Items) == 0 {
		t.Fatalf("sub-issues of #%d without the scope: none, want some", emulator.DemoParentIssue)
	}
	if len(got.Items) != len(all.Items) {
		t.Fatalf("rows under the scope = %d, want the %d without it", len(got.Items), len(all.Items))
	}
	st := scoped.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	withheld := 0
	for i, row := range got.Items {
		is := st.Repo("acme", "widgets").Issue(row.Number)
		mine := is.User.Login == parent.Issue.Author
		switch {
		case mine && row.Title != all.Items[i].Title:
			t.Errorf("#%d is the allowed user's: title = %q, want %q", row.Number, row.Title, all.Items[i].Title)
		case !mine && row.Title != "":
			t.Errorf("#%d is another user's: title = %q, want it withheld (empty)", row.Number, row.Title)
		case !mine:
			withheld++
		}
	}
	if withheld > 0 {
		// Withheld titles are said.
		if !got.Truncated {
			t.Fatalf("%d titles withheld: truncated = false, want true", withheld)
		}
		if got.TruncationHint == "" {
			t.Fatalf("%d titles withheld: truncation_hint is empty, want it to say so", withheld)
		}
	}
	if withheld == 0 {
		t.Fatal("the seeded tree has no sub-issue by another user; the test shows nothing")
	}
}
