package github

import (
	"context"
	"strings"
	"testing"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A name GitHub would not accept is refused by the one name check before
// any request, whichever method it is given to, and a write so refused is
// settled not started.
func TestNamesAreCheckedBeforeAnyPath(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenBob)
	ctx := context.Background()
	const badRepo = "widgets/issues/2?"
	reads := map[string]func() error{
		"ListLabels": func() error { _, _, err := c.ListLabels(ctx, owner, badRepo, gh.ListOptions{}); return err },
		"GetIssueRecord": func() error {
			_, _, err := c.GetIssueRecord(ctx, owner, badRepo, 1)
			return err
		},
		"ListTimeline": func() error { _, _, err := c.ListTimeline(ctx, owner, badRepo, 1, gh.ListOptions{}); return err },
		"GetFile":      func() error { _, _, err := c.GetFile(ctx, "../"+owner, repo, "README.md"); return err },
		"ListOrgRepos": func() error { _, _, err := c.ListOrgRepos(ctx, "acme/../x", gh.ListOptions{}); return err },
	}
	for name, call := range reads {
		if e := asError(t, call()); e.Code != InvalidArgument {
			t.Errorf("%s: code %s, want %s", name, e.Code, InvalidArgument)
		}
	}
	writes := map[string]func() (Settlement, error){
		"AddBlockedBy": func() (Settlement, error) { return c.AddBlockedBy(ctx, owner, badRepo, 1, 2) },
		"AddSubIssue": func() (Settlement, error) {
			_, s, err := c.AddSubIssue(ctx, owner, badRepo, 1, 2)
			return s, err
		},
		"DeleteComment": func() (Settlement, error) { return c.DeleteComment(ctx, "-acme", repo, 1) },
	}
	for name, call := range writes {
		s, err := call()
		wantRefusal(t, name, s, asError(t, err), NotStarted, InvalidArgument)
	}
	if n := em.total(); n != 0 {
		t.Fatalf("%d requests reached the emulator; refused names must send none", n)
	}
}

// Segments are escaped one by one: a label name with a slash stays one
// segment, and a file path keeps its slashes.
func TestRepoRefPaths(t *testing.T) {
	r, err := refRepo("acme", "widgets", false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.path("issues", 3, "labels", "area/ui: x"), "repos/acme/widgets/issues/3/labels/area%2Fui:%20x"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
	if got, want := r.filePath(".github/ISSUE_TEMPLATE/bug report.md"), "repos/acme/widgets/contents/.github/ISSUE_TEMPLATE/bug%20report.md"; got != want {
		t.Errorf("filePath %q, want %q", got, want)
	}
}

// CheckOwner takes the logins GitHub gives, a managed user's included
// (HANDLE_SHORTCODE, and the setup user's SHORTCODE_admin), and nothing
// that could change a path or that GitHub would not give.
func TestCheckOwnerTakesGitHubsLogins(t *testing.T) {
	long := strings.Repeat("a", 39)
	for _, name := range []string{"a", "octo-cat", "Octo-Cat-42", "mona-cat_octo", "mona_OCTO1", "octo_admin", long, long[:34] + "_octo"} {
		if err := CheckOwner(name); err != nil {
			t.Errorf("CheckOwner(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range []string{"", "-acme", "_octo", "mona_", "mona_octo_x", "mona_oc-to", "mona__octo", "a.b", "a/b", "a%2fb", "acme ", "ac me",
		long + "b", long[:35] + "_octo"} {
		if err := CheckOwner(name); err == nil {
			t.Errorf("CheckOwner(%q) = nil, want refused", name)
		}
	}
}
