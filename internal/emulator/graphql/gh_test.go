package graphql_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Documents GitHub's CLI (v2.83.0) sends, verbatim, with the variables it
// sets, so the emulator is held to what an unmodified gh asks for.

// ghLabelList is gh's label list and label clone query (pkg/cmd/label/http.go)
// with its default fragment.
const ghLabelList = `fragment label on Label{color,description,name}
	query LabelList($owner: String!, $repo: String!, $limit: Int!, $endCursor: String, $query: String, $orderBy: LabelOrder) {
		repository(owner: $owner, name: $repo) {
			labels(first: $limit, after: $endCursor, query: $query, orderBy: $orderBy) {
				totalCount,
				nodes {
					...label
				}
				pageInfo {
					hasNextPage
					endCursor
				}
			}
		}
	}`

func testGraphQLGhLabelList(t *testing.T, w *gqlWorld) {
	list := func(query string, orderBy map[string]string, limit int, after any) ([]string, int, bool) {
		t.Helper()
		var d struct {
			Repository struct {
				Labels struct {
					TotalCount int
					Nodes      []struct{ Name string }
					PageInfo   struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		vars := map[string]any{"owner": "acme", "repo": "widgets", "limit": limit, "query": query, "endCursor": after}
		if orderBy != nil {
			vars["orderBy"] = orderBy
		}
		w.query("emu-carol", ghLabelList, vars).ok(t, &d)
		var names []string
		for _, n := range d.Repository.Labels.Nodes {
			names = append(names, n.Name)
		}
		return names, d.Repository.Labels.TotalCount, d.Repository.Labels.PageInfo.HasNextPage
	}
	created := []string{"bug", "enhancement", "status: triage", "area: part-0", "area: part-1", "area: part-2",
		"area: part-3", "area: part-4", "area: part-5", "area: part-6"}

	// gh's defaults: created, ascending. Without orderBy the schema's
	// default is the same.
	for _, orderBy := range []map[string]string{{"field": "CREATED_AT", "direction": "ASC"}, nil} {
		names, total, next := list("", orderBy, 100, nil)
		if diff := cmp.Diff(created, names); diff != "" {
			t.Errorf("orderBy %v: names mismatch (-want +got):\n%s", orderBy, diff)
		}
		if total != 10 {
			t.Errorf("orderBy %v: totalCount = %d, want 10", orderBy, total)
		}
		if next {
			t.Errorf("orderBy %v: hasNextPage = true, want false", orderBy)
		}
	}
	names, _, _ := list("", map[string]string{"field": "CREATED_AT", "direction": "DESC"}, 3, nil)
	if want := []string{"area: part-6", "area: part-5", "area: part-4"}; !reflect.DeepEqual(names, want) {
		t.Errorf("CREATED_AT DESC = %v, want %v", names, want)
	}
	names, _, next := list("", map[string]string{"field": "NAME", "direction": "ASC"}, 4, nil)
	if want := []string{"area: part-0", "area: part-1", "area: part-2", "area: part-3"}; !reflect.DeepEqual(names, want) {
		t.Errorf("NAME ASC = %v, want %v", names, want)
	}
	if !next {
		t.Errorf("NAME ASC first 4: hasNextPage = false, want true")
	}
	names, _, _ = list("", map[string]string{"field": "NAME", "direction": "DESC"}, 3, nil)
	if want := []string{"status: triage", "enhancement", "bug"}; !reflect.DeepEqual(names, want) {
		t.Errorf("NAME DESC = %v, want %v", names, want)
	}
	// gh label list --search: the query matches names and descriptions.
	names, total, _ := list("work", map[string]string{"field": "CREATED_AT", "direction": "ASC"}, 100, nil)
	if want := []string{"bug"}; !reflect.DeepEqual(names, want) {
		t.Errorf("query work = %v, want %v", names, want)
	}
	if total != 1 {
		t.Errorf("query work: totalCount = %d, want 1", total)
	}
}

// ghIssueList is gh's issue list query (pkg/cmd/issue/list/http.go) with
// its default fields (number, title, url, state, updatedAt, labels and
// stateReason).
const ghIssueList = `fragment issue on Issue {number,title,url,state,updatedAt,labels(first:100){nodes{id,name,description,color},totalCount},stateReason}
	query IssueList($owner: String!, $repo: String!, $limit: Int, $endCursor: String, $states: [IssueState!] = OPEN, $assignee: String, $author: String, $mention: String) {
		repository(owner: $owner, name: $repo) {
			hasIssuesEnabled
			issues(first: $limit, after: $endCursor, orderBy: {field: CREATED_AT, direction: DESC}, states: $states, filterBy: {assignee: $assignee, createdBy: $author, mentioned: $mention}) {
				totalCount
				nodes {
					...issue
				}
				pageInfo {
					hasNextPage
					endCursor
				}
			}
		}
	}
	`

func testGraphQLGhIssueList(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	repo := st.Repo("acme", "widgets")
	bob, carol := st.Account("bob"), st.Account("carol")
	// Mentions count in comments too, but not inside code, nor in an
	// email address, nor as the start of a longer login.
	st.AddComment(repo.Issue(w.epic), bob, "cc @carol; `@alice` in code is no mention", gqlEpoch.Add(10*time.Hour))
	st.AddComment(repo.Issue(w.child2), carol, "mail alice@alice.example or ask @alice-b", gqlEpoch.Add(11*time.Hour))
	st.AddComment(repo.Issue(w.locked), carol, "@ALICE, look", gqlEpoch.Add(12*time.Hour))
	st.Unlock()

	type issues struct {
		Repository struct {
			HasIssuesEnabled bool
			Issues           struct {
				TotalCount int
				Nodes      []struct {
					Number    int
					State     string
					UpdatedAt time.Time
				}
				PageInfo struct{ HasNextPage bool }
			}
		}
	}
	numbers := func(d issues) []int {
		out := []int{}
		for _, n := range d.Repository.Issues.Nodes {
			out = append(out, n.Number)
		}
		return out
	}
	gh := func(vars map[string]any) issues {
		t.Helper()
		all := map[string]any{"owner": "acme", "repo": "widgets", "limit": 30}
		for k, v := range vars {
			all[k] = v
		}
		var d issues
		w.query("emu-carol", ghIssueList, all).ok(t, &d)
		if !d.Repository.HasIssuesEnabled {
			t.Errorf("hasIssuesEnabled = false, want true")
		}
		return d
	}
	for _, tc := range []struct {
		name string
		vars map[string]any
		want []int
	}{
		// gh issue list: open issues, newest first.
		{"default", map[string]any{"states": []string{"OPEN"}}, []int{w.locked, w.child2, w.epic, w.bug}},
		{"all states", map[string]any{"states": []string{"OPEN", "CLOSED"}}, []int{w.locked, w.child2, w.child1, w.epic, w.wontfix, w.bug}},
		{"assignee", map[string]any{"states": []string{"OPEN"}, "assignee": "BOB"}, []int{w.bug}},
		{"author", map[string]any{"states": []string{"OPEN", "CLOSED"}, "author": "bob"}, []int{w.wontfix}},
		{"mention", map[string]any{"states": []string{"OPEN"}, "mention": "alice"}, []int{w.locked}},
		{"mention carol", map[string]any{"states": []string{"OPEN"}, "mention": "carol"}, []int{w.epic}},
		{"assignee and author", map[string]any{"states": []string{"OPEN"}, "assignee": "bob", "author": "carol"}, []int{}},
		{"nobody", map[string]any{"states": []string{"OPEN"}, "assignee": "nobody"}, []int{}},
	} {
		d := gh(tc.vars)
		if got := numbers(d); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: issues %v, want %v", tc.name, got, tc.want)
		}
		if got := d.Repository.Issues.TotalCount; got != len(tc.want) {
			t.Errorf("%s: totalCount = %d, want %d", tc.name, got, len(tc.want))
		}
	}
	// --limit 3 pages as gh does.
	d := gh(map[string]any{"states": []string{"OPEN"}, "limit": 3})
	if !d.Repository.Issues.PageInfo.HasNextPage {
		t.Errorf("limit 3: hasNextPage = false, want true")
	}
	if got := len(d.Repository.Issues.Nodes); got != 3 {
		t.Errorf("limit 3: %d issues %v, want 3", got, numbers(d))
	}

	// The IssueFilters fields gh does not send, as the schema describes them.
	const doc = `query($filter: IssueFilters) {
  repository(owner: "acme", name: "widgets") {
    issues(first: 50, filterBy: $filter) { nodes { number state updatedAt } totalCount }
  }
}`
	filter := func(f map[string]any) issues {
		t.Helper()
		var d issues
		w.query("emu-carol", doc, map[string]any{"filter": f}).ok(t, &d)
		return d
	}
	var milestoneID int64
	st.RLock()
	milestoneID = repo.Milestones[0].ID
	st.RUnlock()
	for _, tc := range []struct {
		name   string
		filter map[string]any
		want   []int
	}{
		{"none", map[string]any{}, []int{w.bug, w.wontfix, w.epic, w.child1, w.child2, w.locked}},
		{"unassigned", map[string]any{"assignee": nil}, []int{w.wontfix, w.epic, w.child1, w.child2, w.locked}},
		{"any assignee", map[string]any{"assignee": "*"}, []int{w.bug}},
		{"labels all of", map[string]any{"labels": []string{"bug", "STATUS: TRIAGE"}}, []int{w.bug}},
		{"labels none has both", map[string]any{"labels": []string{"bug", "enhancement"}}, []int{}},
		{"milestone by id", map[string]any{"milestone": strconv.FormatInt(milestoneID, 10)}, []int{w.bug}},
		{"milestone by number is not an id", map[string]any{"milestone": "1"}, []int{}},
		{"milestoneNumber", map[string]any{"milestoneNumber": "1"}, []int{w.bug}},
		{"any milestone", map[string]any{"milestoneNumber": "*"}, []int{w.bug}},
		{"no milestone", map[string]any{"milestone": nil}, []int{w.wontfix, w.epic, w.child1, w.child2, w.locked}},
		{"states", map[string]any{"states": []string{"CLOSED"}}, []int{w.wontfix, w.child1}},
		{"since the future", map[string]any{"since": "2030-01-01T00:00:00Z"}, []int{}},
		{"viewerSubscribed false", map[string]any{"viewerSubscribed": false}, []int{w.bug, w.wontfix, w.epic, w.child1, w.child2, w.locked}},
	} {
		d := filter(tc.filter)
		if got := numbers(d); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// since keeps the issues updated at or after the moment.
	all := filter(map[string]any{}).Repository.Issues.Nodes
	cut := all[len(all)/2].UpdatedAt
	var want []int
	for _, n := range all {
		if !n.UpdatedAt.Before(cut) {
			want = append(want, n.Number)
		}
	}
	if got := numbers(filter(map[string]any{"since": cut.Format(time.RFC3339)})); !reflect.DeepEqual(got, want) {
		t.Errorf("since %v: %v, want %v", cut, got, want)
	}
	// The emulator keeps no subscriptions: it refuses rather than ignore.
	r := w.query("emu-carol", doc, map[string]any{"filter": map[string]any{"viewerSubscribed": true}})
	checkOneError(t, "viewerSubscribed: true", r.Errors, wantErr{Contains: []string{"viewerSubscribed"}})
}

// ghRepositoryInfo is gh's RepositoryInfo query of api.GitHubRepo
// (api/queries_repo.go), which issue create sends first.
const ghRepositoryInfo = `
	fragment repo on Repository {
		id
		name
		owner { login }
		hasIssuesEnabled
		description
		hasWikiEnabled
		viewerPermission
		defaultBranchRef {
			name
		}
	}

	query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {
			...repo
			parent {
				...repo
			}
			mergeCommitAllowed
			rebaseMergeAllowed
			squashMergeAllowed
		}
	}`

// ghRepoViewJSON is gh's RepositoryInfo query of api.FetchRepository for
// repo view --json name,owner,visibility,defaultBranchRef,hasIssuesEnabled.
const ghRepoViewJSON = `query RepositoryInfo($owner: String!, $name: String!) {
		repository(owner: $owner, name: $name) {name,owner{id,login},visibility,defaultBranchRef{name},hasIssuesEnabled}
	}`

func testGraphQLGhRepositoryInfo(t *testing.T, w *gqlWorld) {
	// The REST answer the GraphQL fields must agree with.
	resp, err := w.srv.Client().Do(func() *http.Request {
		req, _ := http.NewRequest(http.MethodGet, w.srv.URL+"/repos/acme/widgets", nil)
		req.Header.Set("Authorization", "token emu-carol")
		return req
	}())
	if err != nil {
		t.Fatal(err)
	}
	var rest struct {
		NodeID        string `json:"node_id"`
		DefaultBranch string `json:"default_branch"`
		HasIssues     bool   `json:"has_issues"`
		HasWiki       bool   `json:"has_wiki"`
		Fork          bool   `json:"fork"`
		Visibility    string `json:"visibility"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rest)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /repos/acme/widgets: status %d, want 200", resp.StatusCode)
	}
	if err != nil {
		t.Fatalf("GET /repos/acme/widgets does not decode: %v", err)
	}

	var info struct {
		Repository struct {
			ID, Name, Description, ViewerPermission string
			Owner                                   struct{ Login string }
			HasIssuesEnabled, HasWikiEnabled        bool
			DefaultBranchRef                        struct{ Name string }
			Parent                                  *struct{ Name string }
			MergeCommitAllowed                      bool
			RebaseMergeAllowed                      bool
			SquashMergeAllowed                      bool
		}
	}
	w.query("emu-carol", ghRepositoryInfo, map[string]any{"owner": "acme", "name": "widgets"}).ok(t, &info)
	r := info.Repository
	type repoFacts struct{ ID, Name, Owner, ViewerPermission, Description string }
	if diff := cmp.Diff(repoFacts{rest.NodeID, "widgets", "acme", "READ", "Widgets, sprockets and gizmos"},
		repoFacts{r.ID, r.Name, r.Owner.Login, r.ViewerPermission, r.Description}); diff != "" {
		t.Errorf("repository mismatch (-want +got):\n%s", diff)
	}
	type restFacts struct {
		DefaultBranch      string
		HasIssues, HasWiki bool
		Fork               bool
	}
	if diff := cmp.Diff(restFacts{rest.DefaultBranch, rest.HasIssues, rest.HasWiki, rest.Fork},
		restFacts{r.DefaultBranchRef.Name, r.HasIssuesEnabled, r.HasWikiEnabled, r.Parent != nil}); diff != "" {
		t.Errorf("GraphQL disagrees with REST (-REST +GraphQL):\n%s", diff)
	}
	// A new repository on GitHub allows all three merge methods.
	if !r.MergeCommitAllowed {
		t.Errorf("mergeCommitAllowed = false, want true")
	}
	if !r.RebaseMergeAllowed {
		t.Errorf("rebaseMergeAllowed = false, want true")
	}
	if !r.SquashMergeAllowed {
		t.Errorf("squashMergeAllowed = false, want true")
	}

	var view struct {
		Repository struct {
			Name, Visibility string
			Owner            struct{ ID, Login string }
			DefaultBranchRef struct{ Name string }
			HasIssuesEnabled bool
		}
	}
	w.query("emu-carol", ghRepoViewJSON, map[string]any{"owner": "acme", "name": "widgets"}).ok(t, &view)
	v := view.Repository
	type viewFacts struct {
		Name, Owner, Visibility, DefaultBranch string
		HasIssues                              bool
	}
	if diff := cmp.Diff(viewFacts{"widgets", "acme", strings.ToUpper(rest.Visibility), rest.DefaultBranch, rest.HasIssues},
		viewFacts{v.Name, v.Owner.Login, v.Visibility, v.DefaultBranchRef.Name, v.HasIssuesEnabled}); diff != "" {
		t.Errorf("repo view --json mismatch (-want +got):\n%s", diff)
	}
	if v.Owner.ID == "" {
		t.Errorf("repo view --json: owner id is empty, want one")
	}
}
