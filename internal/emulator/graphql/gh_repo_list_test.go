package graphql_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// ghRepoListOwner is gh's RepositoryList query (pkg/cmd/repo/list/http.go)
// for `gh repo list OWNER`, with its default fields (visibility included,
// as on github.com).
const ghRepoListOwner = `query RepositoryList($perPage:Int!,$endCursor:String,$privacy:RepositoryPrivacy,$fork:Boolean,$owner:String!) {
		repositoryOwner(login: $owner) {
			login
			repositories(first: $perPage, after: $endCursor, privacy: $privacy, isFork: $fork, ownerAffiliations: OWNER, orderBy: { field: PUSHED_AT, direction: DESC }) {
				nodes{nameWithOwner,description,isPrivate,isFork,isArchived,createdAt,pushedAt,visibility}
				totalCount
				pageInfo{hasNextPage,endCursor}
			}
		}
	}`

// ghRepoListViewer is the same query for `gh repo list` without an owner.
const ghRepoListViewer = `query RepositoryList($perPage:Int!,$endCursor:String,$privacy:RepositoryPrivacy,$fork:Boolean) {
		repositoryOwner: viewer {
			login
			repositories(first: $perPage, after: $endCursor, privacy: $privacy, isFork: $fork, ownerAffiliations: OWNER, orderBy: { field: PUSHED_AT, direction: DESC }) {
				nodes{nameWithOwner,description,isPrivate,isFork,isArchived,createdAt,pushedAt,visibility}
				totalCount
				pageInfo{hasNextPage,endCursor}
			}
		}
	}`

type ghRepoListResult struct {
	RepositoryOwner *struct {
		Login        string
		Repositories struct {
			Nodes []struct {
				NameWithOwner, Visibility string
				Description               *string
				IsPrivate, IsFork         bool
				IsArchived                bool
				CreatedAt                 time.Time
				PushedAt                  *time.Time
			}
			TotalCount int
			PageInfo   struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
}

func (d ghRepoListResult) names() []string {
	var out []string
	for _, n := range d.RepositoryOwner.Repositories.Nodes {
		out = append(out, n.NameWithOwner)
	}
	return out
}

func testGraphQLGhRepoList(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	// The vault was pushed to last, so it leads PUSHED_AT DESC.
	st.Repo("acme", "vault").UpdatedAt = gqlEpoch.Add(30 * time.Hour)
	st.Unlock()

	list := func(token string, vars map[string]any) ghRepoListResult {
		t.Helper()
		var d ghRepoListResult
		doc := ghRepoListViewer
		if vars["owner"] != nil {
			doc = ghRepoListOwner
		}
		w.query(token, doc, vars).ok(t, &d)
		return d
	}

	d := list("emu-alice", map[string]any{"perPage": 30, "owner": "acme"})
	if d.RepositoryOwner.Login != "acme" {
		t.Errorf("alice's list of acme: owner login = %q, want acme", d.RepositoryOwner.Login)
	}
	if want := []string{"acme/vault", "acme/widgets"}; !reflect.DeepEqual(d.names(), want) {
		t.Errorf("alice's list of acme = %v, want %v", d.names(), want)
	}
	if got := d.RepositoryOwner.Repositories.TotalCount; got != 2 {
		t.Errorf("alice's list of acme: totalCount = %d, want 2", got)
	}
	if d.RepositoryOwner.Repositories.PageInfo.HasNextPage {
		t.Errorf("alice's list of acme: hasNextPage = true, want false")
	}
	for _, n := range d.RepositoryOwner.Repositories.Nodes {
		private := n.NameWithOwner == "acme/vault"
		wantVis := map[bool]string{true: "PRIVATE", false: "PUBLIC"}[private]
		if n.IsPrivate != private {
			t.Errorf("%s: isPrivate = %v, want %v", n.NameWithOwner, n.IsPrivate, private)
		}
		if n.Visibility != wantVis {
			t.Errorf("%s: visibility = %s, want %s", n.NameWithOwner, n.Visibility, wantVis)
		}
		if n.IsFork {
			t.Errorf("%s: isFork = true, want false", n.NameWithOwner)
		}
		if n.IsArchived {
			t.Errorf("%s: isArchived = true, want false", n.NameWithOwner)
		}
		if n.PushedAt == nil {
			t.Errorf("%s: pushedAt = null, want a time", n.NameWithOwner)
		}
		if !n.CreatedAt.Equal(gqlEpoch) {
			t.Errorf("%s: createdAt = %v, want %v", n.NameWithOwner, n.CreatedAt, gqlEpoch)
		}
	}

	// One per page, as gh pages on endCursor.
	first := list("emu-alice", map[string]any{"perPage": 1, "owner": "acme"})
	next := list("emu-alice", map[string]any{"perPage": 1, "owner": "acme", "endCursor": first.RepositoryOwner.Repositories.PageInfo.EndCursor})
	if want := []string{"acme/vault"}; !reflect.DeepEqual(first.names(), want) {
		t.Errorf("first page = %v, want %v", first.names(), want)
	}
	if !first.RepositoryOwner.Repositories.PageInfo.HasNextPage {
		t.Errorf("first page: hasNextPage = false, want true")
	}
	if want := []string{"acme/widgets"}; !reflect.DeepEqual(next.names(), want) {
		t.Errorf("second page = %v, want %v", next.names(), want)
	}
	if next.RepositoryOwner.Repositories.PageInfo.HasNextPage {
		t.Errorf("second page: hasNextPage = true, want false")
	}

	for _, tc := range []struct {
		token string
		vars  map[string]any
		want  []string
	}{
		{"emu-bob", map[string]any{"perPage": 30, "owner": "acme"}, []string{"acme/widgets"}}, // the vault is not bob's to see
		{"emu-alice", map[string]any{"perPage": 30, "owner": "acme", "privacy": "PUBLIC"}, []string{"acme/widgets"}},
		{"emu-alice", map[string]any{"perPage": 30, "owner": "acme", "privacy": "PRIVATE"}, []string{"acme/vault"}},
		{"emu-alice", map[string]any{"perPage": 30, "owner": "acme", "fork": true}, nil}, // gh repo list --fork
		{"emu-alice", map[string]any{"perPage": 30, "owner": "acme", "fork": false}, []string{"acme/vault", "acme/widgets"}},
		{"emu-alice", map[string]any{"perPage": 30}, nil}, // alice owns no repository
	} {
		d := list(tc.token, tc.vars)
		if !reflect.DeepEqual(d.names(), tc.want) {
			t.Errorf("%s %v: %v, want %v", tc.token, tc.vars, d.names(), tc.want)
		}
		if got := d.RepositoryOwner.Repositories.TotalCount; got != len(tc.want) {
			t.Errorf("%s %v: totalCount = %d, want %d", tc.token, tc.vars, got, len(tc.want))
		}
	}

	// An unknown owner is null without an error; gh then says the handle
	// was not recognized.
	res := w.query("emu-alice", ghRepoListOwner, map[string]any{"perPage": 30, "owner": "nobody"})
	checkData(t, "unknown owner", res, `{"repositoryOwner":null}`)
	if len(res.Errors) != 0 {
		t.Errorf("unknown owner: errors %+v, want none", res.Errors)
	}

	// Without ownerAffiliations a user's list includes the repositories it
	// collaborates on; membership is not modelled and is refused.
	var u struct {
		RepositoryOwner struct {
			Repositories struct {
				Nodes []struct{ NameWithOwner string }
			}
		}
	}
	w.query("emu-alice", `{ repositoryOwner(login: "alice") { repositories(first: 10, orderBy: {field: NAME, direction: ASC}) { nodes { nameWithOwner } } } }`, nil).ok(t, &u)
	if n := u.RepositoryOwner.Repositories.Nodes; len(n) != 1 {
		t.Errorf("alice's repositories = %+v, want 1", n)
	} else if n[0].NameWithOwner != "acme/widgets" {
		t.Errorf("alice's repository = %s, want acme/widgets", n[0].NameWithOwner)
	}
	res = w.query("emu-alice", `{ repositoryOwner(login: "alice") { repositories(first: 10, ownerAffiliations: [ORGANIZATION_MEMBER]) { totalCount } } }`, nil)
	if len(res.Errors) != 1 {
		t.Errorf("ORGANIZATION_MEMBER: errors %+v, want 1", res.Errors)
	}
	checkData(t, "ORGANIZATION_MEMBER", res, `{"repositoryOwner":null}`)
	testOwnerRepositoryFields(t, w)
}

// The fields `gh repo list --json name,isArchived,visibility,hasIssuesEnabled,defaultBranchRef`
// and github_list_repo_metadata's repositories read: archiving and issues
// turned off as set, and a repository's open issues without its pull
// requests, which GitHub counts in pullRequests alone.
func testOwnerRepositoryFields(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	st.Repo("acme", "widgets").Archived = true
	st.Repo("acme", "vault").IssuesDisabled = true
	openIssues, openPulls := 0, 0
	for _, is := range st.Repo("acme", "widgets").Issues {
		switch {
		case is.State != "open":
		case is.IsPull:
			openPulls++
		default:
			openIssues++
		}
	}
	st.Unlock()
	var d struct {
		RepositoryOwner struct {
			Repositories struct {
				Nodes []struct {
					Name, Visibility             string
					IsArchived, HasIssuesEnabled bool
					DefaultBranchRef             *struct{ Name string }
					Issues, PullRequests         struct{ TotalCount int }
				}
			}
		}
	}
	w.query("emu-alice", `{ repositoryOwner(login: "acme") { repositories(first: 10, ownerAffiliations: [OWNER], orderBy: {field: NAME, direction: ASC}) {
		nodes { name isArchived visibility hasIssuesEnabled defaultBranchRef { name } issues(states: [OPEN]) { totalCount } pullRequests(states: [OPEN]) { totalCount } } } } }`, nil).ok(t, &d)
	got := map[string]string{}
	for _, n := range d.RepositoryOwner.Repositories.Nodes {
		branch := "<nil>"
		if n.DefaultBranchRef != nil {
			branch = n.DefaultBranchRef.Name
		}
		got[n.Name] = fmt.Sprintf("%t %s %t %s %d %d", n.IsArchived, n.Visibility, n.HasIssuesEnabled, branch, n.Issues.TotalCount, n.PullRequests.TotalCount)
	}
	want := map[string]string{
		"vault":   "false PRIVATE false main 1 0",
		"widgets": fmt.Sprintf("true PUBLIC true main %d %d", openIssues, openPulls),
	}
	if openPulls == 0 {
		t.Errorf("acme/widgets has no open pull request, want one to count apart")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("owner repository fields mismatch (-want +got):\n%s", diff)
	}
}
