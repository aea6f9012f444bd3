package issues_test

import (
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// A managed user of an Enterprise Managed Users enterprise has a login
// with an underscore and the enterprise's short code (mona_octo): the
// tools act on that user's repositories and search by that user, as on
// anyone's.
func TestManagedUsersRepositories(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	withState(env, func(s *emulator.State) {
		mona := s.AddAccount("mona_octo", "Mona", false, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC))
		s.AddRepo(mona, "notes", "", false, time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC))
		s.Token(emulator.DemoTokenAlice).Perms["mona_octo/notes"] = emulator.PermWrite
	})
	created := servertest.CallOK[issues.CreateIssueOut](t, env, toolkit.NameCreateIssue,
		issues.CreateIssueIn{Owner: "mona_octo", Repo: "notes", Title: "Export drops the last row"})
	if created.Issue.Number != 1 {
		t.Fatalf("created issue %d, want 1", created.Issue.Number)
	}
	got := servertest.CallOK[issues.GetIssueOut](t, env, toolkit.NameGetIssue,
		issues.GetIssueIn{Owner: "mona_octo", Repo: "notes", IssueNumber: 1})
	if got.Issue.Title != "Export drops the last row" {
		t.Errorf("get_issue title %q, want the created one", got.Issue.Title)
	}
	found := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues,
		issues.SearchIssuesIn{Owner: "mona_octo", Query: "export"})
	if len(found.Items) != 1 || found.Items[0].Number != 1 {
		t.Errorf("search in mona_octo's repositories: %+v, want issue 1", found.Items)
	}
}
