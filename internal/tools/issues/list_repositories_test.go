package issues_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// repoRow is a repositories row as an agent reads it.
type repoRow struct {
	archived, hasIssues bool
	visibility, branch  string
	openIssues          int
}

// ownerWorld gives the demo world the repositories an owner listing must
// tell apart: acme's archived legacy, quiet with its issues turned off,
// and counts with two open issues, a closed one and an open pull request;
// alice's archived, public dotfiles beside her private notes. It returns
// how many open issues, pull requests left out, acme/widgets holds.
func ownerWorld(t *testing.T, env *servertest.Env) (widgetsOpen int) {
	t.Helper()
	withState(env, func(s *emulator.State) {
		acme, alice := s.Account(emulator.DemoOrg), s.Account("alice")
		now := s.Now()
		s.AddRepo(acme, "legacy", "", false, now).Archived = true
		s.AddRepo(acme, "quiet", "", false, now).IssuesDisabled = true
		counts := s.AddRepo(acme, "counts", "", false, now)
		s.AddIssue(counts, alice, "open one", nil, false, now)
		s.AddIssue(counts, alice, "open two", nil, false, now)
		s.Close(s.AddIssue(counts, alice, "closed", nil, false, now), alice, "completed")
		s.AddIssue(counts, alice, "an open pull request", nil, true, now)
		s.AddRepo(alice, "dotfiles", "", false, now).Archived = true

		openPulls := 0
		for _, is := range widgets(env).Issues {
			switch {
			case is.Deleted || is.State != "open":
			case is.IsPull:
				openPulls++
			default:
				widgetsOpen++
			}
		}
		if openPulls == 0 || widgetsOpen == 0 {
			t.Fatalf("acme/widgets should hold open issues and open pull requests: %d, %d", widgetsOpen, openPulls)
		}
	})
	return widgetsOpen
}

// listRepos lists owner's repositories page by page (page_size size),
// checking each page came from one GraphQL request, and returns the rows
// by name in the order they came.
func listRepos(t *testing.T, env *servertest.Env, owner string, size int) ([]string, map[string]repoRow, int) {
	t.Helper()
	args := issues.ListRepoMetadataIn{Owner: owner, Kind: "repositories", PageSize: toolkit.PageSize(size)}
	var names []string
	rows := map[string]repoRow{}
	pages := 0
	env.Upstream()
	for {
		pages++
		res := env.Call(t, toolkit.NameListRepoMetadata, args)
		if res.IsError {
			t.Fatalf("%s page %d: %s", owner, pages, res.JSON)
		}
		var out issues.ListRepoMetadataOut
		res.Decode(t, &out)
		wantUpstream(t, env, "POST /api/graphql")
		if out.Kind != "repositories" || len(out.Items) > size {
			t.Fatalf("%s page %d: %s", owner, pages, res.JSON)
		}
		for _, it := range out.Items {
			if it.Archived == nil || it.HasIssues == nil || it.OpenIssues == nil {
				t.Fatalf("row without archived, has_issues or open_issues: %s", res.JSON)
			}
			names = append(names, it.Name)
			rows[it.Name] = repoRow{archived: *it.Archived, hasIssues: *it.HasIssues, visibility: it.Visibility,
				branch: it.DefaultBranch, openIssues: *it.OpenIssues}
		}
		if !out.HasMore {
			return names, rows, pages
		}
		if pages > 10 {
			t.Fatalf("%s: more than 10 pages", owner)
		}
		args.Cursor = out.NextCursor
	}
}

func TestListRepositoriesOfAnOrganization(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	widgetsOpen := ownerWorld(t, env)

	names, rows, _ := listRepos(t, env, "acme", 100)
	if want := []string{"counts", "gadgets", "legacy", "quiet", "widgets"}; !slices.Equal(names, want) {
		t.Fatalf("acme's repositories: %q, want %q (name order)", names, want)
	}
	want := map[string]repoRow{
		"counts":  {hasIssues: true, visibility: "public", branch: "main", openIssues: 2},
		"gadgets": {hasIssues: true, visibility: "private", branch: "main", openIssues: rows["gadgets"].openIssues},
		"legacy":  {archived: true, hasIssues: true, visibility: "public", branch: "main"},
		"quiet":   {visibility: "public", branch: "main"},
		"widgets": {hasIssues: true, visibility: "public", branch: "main", openIssues: widgetsOpen},
	}
	for name, w := range want {
		if rows[name] != w {
			t.Errorf("%s: %+v, want %+v", name, rows[name], w)
		}
	}
	if rows["gadgets"].openIssues == 0 {
		t.Errorf("gadgets' open issues not counted: %+v", rows["gadgets"])
	}

	// dave cannot see the private gadgets: it is not listed, nor counted.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	ownerWorld(t, dave)
	names, _, _ = listRepos(t, dave, "acme", 100)
	if want := []string{"counts", "legacy", "quiet", "widgets"}; !slices.Equal(names, want) {
		t.Fatalf("dave's list of acme: %q, want %q", names, want)
	}
}

func TestListRepositoriesOfAUser(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ownerWorld(t, env)
	// alice's own repositories only: not acme's, on which she collaborates.
	names, rows, _ := listRepos(t, env, "alice", 100)
	if !slices.Equal(names, []string{"dotfiles", "notes"}) {
		t.Fatalf("alice's repositories: %q", names)
	}
	if d := rows["dotfiles"]; !d.archived || d.visibility != "public" {
		t.Errorf("dotfiles: %+v", d)
	}
	if n := rows["notes"]; n.archived || n.visibility != "private" || n.openIssues == 0 || !n.hasIssues {
		t.Errorf("notes: %+v", n)
	}
	// alice's notes are private: dave sees the public dotfiles alone.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	ownerWorld(t, dave)
	if names, _, _ := listRepos(t, dave, "alice", 100); !slices.Equal(names, []string{"dotfiles"}) {
		t.Fatalf("dave's list of alice: %q", names)
	}
}

// Two to a page: every repository once, in order, each page one request,
// and the cursor holds to its owner and page size.
func TestListRepositoriesPages(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ownerWorld(t, env)
	names, _, pages := listRepos(t, env, "acme", 2)
	if want := []string{"counts", "gadgets", "legacy", "quiet", "widgets"}; !slices.Equal(names, want) || pages != 3 {
		t.Fatalf("over pages of two: %q in %d pages, want %q in 3", names, pages, want)
	}

	var first issues.ListRepoMetadataOut
	env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Kind: "repositories", PageSize: 2}).Decode(t, &first)
	if !first.HasMore || first.NextCursor == "" {
		t.Fatalf("first page of two: %+v", first)
	}
	for _, other := range []issues.ListRepoMetadataIn{
		{Owner: "alice", Kind: "repositories", PageSize: 2, Cursor: first.NextCursor},
		{Owner: "acme", Kind: "repositories", PageSize: 3, Cursor: first.NextCursor},
		{Owner: "acme", Repo: "widgets", Kind: "labels", PageSize: 2, Cursor: first.NextCursor},
	} {
		e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, other), false)
		if e.Code != contract.CodeCursorInvalid || e.Repair == nil {
			t.Errorf("cursor reused for %+v: %+v", other, e)
		}
	}
}

// A repository outside the client's grant is left out and counted.
func TestListRepositoriesGrant(t *testing.T) {
	t.Parallel()
	id := caller.Identity{ID: "http:agent", Readable: func(owner, repo string) bool { return repo != "gadgets" }}
	env := servertest.Start(t, servertest.Options{Caller: &id})
	var out issues.ListRepoMetadataOut
	env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Kind: "repositories"}).Decode(t, &out)
	var names []string
	for _, it := range out.Items {
		names = append(names, it.Name)
	}
	if !slices.Equal(names, []string{"widgets"}) || out.Withheld != 1 {
		t.Fatalf("acme within a grant without gadgets: %q, withheld %d", names, out.Withheld)
	}
}

func TestListRepositoriesErrors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})

	// An owner that is not there: not_found naming it, with a search that
	// finds the right name.
	e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "nobody-here", Kind: "repositories"}), false)
	if e.Code != contract.CodeNotFound || !strings.Contains(e.Message, "nobody-here") || e.Details == nil || e.Details.Field != "owner" ||
		e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("missing owner: %+v", e)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("missing owner's repair: %s", res.JSON)
	}

	// repositories with a repo: refused (it would not narrow the list),
	// with the call without it.
	env.Upstream()
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "repositories"}), false)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "repo" || e.Repair == nil {
		t.Fatalf("repositories with repo: %+v", e)
	}
	raw, _ := json.Marshal(e.Repair.Arguments)
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil || len(args) != 2 || args["owner"] != "acme" || args["kind"] != "repositories" {
		t.Fatalf("repositories with repo: repair %s", raw)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("repositories with repo: repair failed: %s", res.JSON)
	}

	// Every other kind without a repo: refused naming repo, before any
	// request.
	for _, kind := range []string{"labels", "milestones", "assignees", "issue_types", "templates"} {
		env.Upstream()
		e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, `{"owner":"acme","kind":"`+kind+`"}`), false)
		if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "repo" || e.Repair == nil {
			t.Errorf("%s without repo: %+v", kind, e)
		}
		wantUpstream(t, env)
	}
}
