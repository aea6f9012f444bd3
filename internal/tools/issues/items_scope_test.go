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
		t.Fatal(string(res.JSON))
	}
	res.Decode(t, &got)
	if len(got.Items) != len(all.Items) || len(all.Items) == 0 {
		t.Fatalf("rows changed under the scope: %d vs %d", len(got.Items), len(all.Items))
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
			t.Errorf("#%d is the allowed user's, its title should show", row.Number)
		case !mine && row.Title != "":
			t.Errorf("#%d is another user's, its title should be withheld", row.Number)
		case !mine:
			withheld++
		}
	}
	if withheld > 0 && (!got.Truncated || got.TruncationHint == "") {
		t.Fatal("withheld titles are not said")
	}
	if withheld == 0 {
		t.Fatal("the seeded tree has no sub-issue by another user; the test shows nothing")
	}
}
