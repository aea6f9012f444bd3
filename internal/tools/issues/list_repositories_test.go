package issues_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
		if widgetsOpen == 0 {
			t.Fatalf("acme/widgets open issues = 0, want some")
		}
		if openPulls == 0 {
			t.Fatalf("acme/widgets open pull requests = 0, want some")
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
			t.Fatalf("%s page %d: got an error, want a page: %s", owner, pages, res.JSON)
		}
		var out issues.ListRepoMetadataOut
		res.Decode(t, &out)
		wantUpstream(t, env, "POST /api/graphql")
		if out.Kind != "repositories" {
			t.Fatalf("%s page %d: kind = %q, want repositories", owner, pages, out.Kind)
		}
		if len(out.Items) > size {
			t.Fatalf("%s page %d: %d items, want at most %d: %s", owner, pages, len(out.Items), size, res.JSON)
		}
		for _, it := range out.Items {
			if it.Archived == nil {
				t.Fatalf("%s: archived = nil, want a value: %s", it.Name, res.JSON)
			}
			if it.HasIssues == nil {
				t.Fatalf("%s: has_issues = nil, want a value: %s", it.Name, res.JSON)
			}
			if it.OpenIssues == nil {
				t.Fatalf("%s: open_issues = nil, want a count: %s", it.Name, res.JSON)
			}
			names = append(names, it.Name)
			rows[it.Name] = repoRow{archived: *it.Archived, hasIssues: *it.HasIssues, visibility: it.Visibility,
				branch: it.DefaultBranch, openIssues: *it.OpenIssues}
		}
		if !out.HasMore {
			return names, rows, pages
		}
		if pages > 10 {
			t.Fatalf("%s: %d pages and more, want at most 10", owner, pages)
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
		if diff := cmp.Diff(w, rows[name], cmp.AllowUnexported(repoRow{})); diff != "" {
			t.Errorf("%s row mismatch (-want +got):\n%s", name, diff)
		}
	}
	if rows["gadgets"].openIssues == 0 {
		t.Errorf("gadgets' open issues = 0, want them counted: %+v", rows["gadgets"])
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
	if want := []string{"dotfiles", "notes"}; !slices.Equal(names, want) {
		t.Fatalf("alice's repositories = %q, want %q", names, want)
	}
	d := rows["dotfiles"]
	if !d.archived {
		t.Errorf("dotfiles: archived = false, want true")
	}
	if d.visibility != "public" {
		t.Errorf("dotfiles: visibility = %q, want public", d.visibility)
	}
	n := rows["notes"]
	if n.archived {
		t.Errorf("notes: archived = true, want false")
	}
	if n.visibility != "private" {
		t.Errorf("notes: visibility = %q, want private", n.visibility)
	}
	if n.openIssues == 0 {
		t.Errorf("notes: open issues = 0, want some")
	}
	if !n.hasIssues {
		t.Errorf("notes: has_issues = false, want true")
	}
	// alice's notes are private: dave sees the public dotfiles alone.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	ownerWorld(t, dave)
	if names, _, _ := listRepos(t, dave, "alice", 100); !slices.Equal(names, []string{"dotfiles"}) {
		t.Fatalf("dave's list of alice = %q, want [\"dotfiles\"]", names)
	}
}

// Two to a page: every repository once, in order, each page one request,
// and the cursor holds to its owner and page size.
func TestListRepositoriesPages(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ownerWorld(t, env)
	names, _, pages := listRepos(t, env, "acme", 2)
	if want := []string{"counts", "gadgets", "legacy", "quiet", "widgets"}; !slices.Equal(names, want) {
		t.Fatalf("over pages of two: %q, want %q", names, want)
	}
	if pages != 3 {
		t.Fatalf("over pages of two: %d pages, want 3", pages)
	}

	var first issues.ListRepoMetadataOut
	env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Kind: "repositories", PageSize: 2}).Decode(t, &first)
	if !first.HasMore {
		t.Fatalf("first page of two: has_more = false, want true")
	}
	if first.NextCursor == "" {
		t.Fatalf("first page of two: next_cursor is empty, want one")
	}
	for _, other := range []issues.ListRepoMetadataIn{
		{Owner: "alice", Kind: "repositories", PageSize: 2, Cursor: first.NextCursor},
		{Owner: "acme", Kind: "repositories", PageSize: 3, Cursor: first.NextCursor},
		{Owner: "acme", Repo: "widgets", Kind: "labels", PageSize: 2, Cursor: first.NextCursor},
	} {
		e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, other), false)
		if e.Code != contract.CodeCursorInvalid {
			t.Errorf("cursor reused for %+v: code = %q, want %q", other, e.Code, contract.CodeCursorInvalid)
		}
		if e.Repair == nil {
			t.Errorf("cursor reused for %+v: repair = nil, want one", other)
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
	if !slices.Equal(names, []string{"widgets"}) {
		t.Errorf("acme within a grant without gadgets = %q, want [\"widgets\"]", names)
	}
	if out.Withheld != 1 {
		t.Errorf("withheld = %d, want 1 (gadgets)", out.Withheld)
	}
}

func TestListRepositoriesErrors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})

	// An owner that is not there: not_found naming it, with a search that
	// finds the right name.
	e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "nobody-here", Kind: "repositories"}), false)
	contracttest.Code(t, "", e, contract.CodeNotFound)
	contracttest.Field(t, "", e, "owner")
	if !strings.Contains(e.Message, "nobody-here") {
		t.Errorf("missing owner: message = %q, want one naming nobody-here", e.Message)
	}
	if e.Repair == nil {
		t.Fatalf("missing owner: repair = nil, want a call to %s: %+v", toolkit.NameSearchIssues, e)
	}
	if e.Repair.Tool != toolkit.NameSearchIssues {
		t.Errorf("missing owner: repair.tool = %q, want %q", e.Repair.Tool, toolkit.NameSearchIssues)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("missing owner's repair: got an error, want success: %s", res.JSON)
	}

	// repositories with a repo: refused (it would not narrow the list),
	// with the call without it.
	env.Upstream()
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "repositories"}), false)
	contracttest.Code(t, "", e, contract.CodeInvalidField)
	contracttest.Field(t, "", e, "repo")
	if e.Repair == nil {
		t.Fatalf("repositories with repo: repair = nil, want the call without repo: %+v", e)
	}
	raw, _ := json.Marshal(e.Repair.Arguments)
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		t.Fatalf("repositories with repo: repair arguments %s: %v", raw, err)
	}
	if want := map[string]any{"owner": "acme", "kind": "repositories"}; !maps.Equal(args, want) {
		t.Fatalf("repositories with repo: repair arguments = %v, want %v", args, want)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("repositories with repo: repair: got an error, want success: %s", res.JSON)
	}

	// Every other kind without a repo: refused naming repo, before any
	// request.
	for _, kind := range []string{"labels", "milestones", "assignees", "issue_types", "templates"} {
		env.Upstream()
		e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, `{"owner":"acme","kind":"`+kind+`"}`), false)
		contracttest.Code(t, "", e, contract.CodeInvalidField)
		contracttest.Field(t, "", e, "repo")
		if e.Repair == nil {
			t.Errorf("%s without repo: repair = nil, want one", kind)
		}
		wantUpstream(t, env)
	}
}
