package graphql_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func testGraphQLIssueFields(t *testing.T, w *gqlWorld) {
	const doc = `query Issue($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      id databaseId number title body state stateReason url createdAt updatedAt closedAt
      locked activeLockReason
      author { login }
      labels(first: 10) { nodes { name color } totalCount }
      assignees(first: 10) { nodes { login } totalCount }
      milestone { title number state }
      comments(first: 1) { totalCount }
      repository { nameWithOwner }
    }
  }
}`
	var d struct {
		Repository struct {
			Issue map[string]any
		}
	}
	w.query("emu-alice", doc, map[string]any{"owner": "acme", "name": "widgets", "number": w.bug}).ok(t, &d)
	is := d.Repository.Issue
	host := w.srv.URL
	want := map[string]any{
		"number": float64(w.bug), "title": "Widget crashes on resize",
		"body":  "Steps: open the widget.\n\n```go\nif a<b && c {}\n```",
		"state": "OPEN", "stateReason": nil, "url": fmt.Sprintf("%s/acme/widgets/issues/%d", host, w.bug),
		"createdAt": "2025-03-01T11:00:00Z", "closedAt": nil, "locked": false, "activeLockReason": nil,
		"author":     map[string]any{"login": "alice"},
		"labels":     map[string]any{"nodes": []any{map[string]any{"name": "bug", "color": "d73a4a"}, map[string]any{"name": "status: triage", "color": "ededed"}}, "totalCount": float64(2)},
		"assignees":  map[string]any{"nodes": []any{map[string]any{"login": "bob"}}, "totalCount": float64(1)},
		"milestone":  map[string]any{"title": "v1.0", "number": float64(1), "state": "OPEN"},
		"comments":   map[string]any{"totalCount": float64(25)},
		"repository": map[string]any{"nameWithOwner": "acme/widgets"},
	}
	for k, v := range want {
		if !reflect.DeepEqual(is[k], v) {
			t.Errorf("%s = %#v, want %#v", k, is[k], v)
		}
	}
	if id, _ := is["id"].(string); !strings.HasPrefix(id, "I_") {
		t.Errorf("id = %v, want an issue node id", is["id"])
	}
	if _, ok := is["databaseId"].(float64); !ok {
		t.Errorf("databaseId = %#v, want a number", is["databaseId"])
	}

	// A closed issue and a locked one.
	var c struct {
		Repository struct {
			Closed, Locked map[string]any
		}
	}
	w.query("emu-carol", fmt.Sprintf(`{ repository(owner: "acme", name: "widgets") {
  closed: issue(number: %d) { state stateReason closed closedAt }
  locked: issue(number: %d) { locked activeLockReason }
} }`, w.wontfix, w.locked), nil).ok(t, &c)
	closed := c.Repository.Closed
	for k, v := range map[string]any{"state": "CLOSED", "stateReason": "NOT_PLANNED", "closed": true} {
		if closed[k] != v {
			t.Errorf("closed issue %s = %#v, want %#v", k, closed[k], v)
		}
	}
	if closed["closedAt"] == nil {
		t.Errorf("closed issue closedAt = null, want a time")
	}
	for k, v := range map[string]any{"locked": true, "activeLockReason": "TOO_HEATED"} {
		if c.Repository.Locked[k] != v {
			t.Errorf("locked issue %s = %#v, want %#v", k, c.Repository.Locked[k], v)
		}
	}
}

func testGraphQLAliasesFragmentsVariables(t *testing.T, w *gqlWorld) {
	const doc = `query Pair($a: Int!, $b: Int! = 1, $withBody: Boolean!) {
  widgets: repository(owner: "acme", name: "widgets") {
    first: issueOrPullRequest(number: $a) { __typename ...Item }
    second: issueOrPullRequest(number: $b) { __typename ...Item }
  }
}
fragment Item on IssueOrPullRequest {
  ... on Issue { number heading: title state body @include(if: $withBody) ...Closing }
  ... on PullRequest { number title prState: state merged isDraft body @skip(if: true) }
  ... on Node { id }
}
fragment Closing on Closable { closed }`
	res := w.query("emu-bob", doc, map[string]any{"a": w.pull, "withBody": false})
	if res.Status != 200 {
		t.Fatalf("status = %d, want 200\n%s", res.Status, res.raw)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors = %+v, want none", res.Errors)
	}
	// Keys come back in selection order, aliases as written.
	var ordered struct {
		Widgets json.RawMessage `json:"widgets"`
	}
	if err := json.Unmarshal(res.Data, &ordered); err != nil {
		t.Fatal(err)
	}
	wantFirst := `{"first":{"__typename":"PullRequest","number":%d,"title":"Fix resize crash","prState":"OPEN","merged":false,"isDraft":false,"id":`
	if want := fmt.Sprintf(wantFirst, w.pull); !strings.HasPrefix(string(ordered.Widgets), want) {
		t.Errorf("widgets = %s, want it to start %s", ordered.Widgets, want)
	}
	var d struct {
		Widgets struct{ First, Second map[string]any }
	}
	res.ok(t, &d)
	s := d.Widgets.Second
	for k, v := range map[string]any{"__typename": "Issue", "heading": "Widget crashes on resize", "closed": false, "state": "OPEN"} {
		if s[k] != v {
			t.Errorf("second.%s = %#v, want %#v", k, s[k], v)
		}
	}
	if _, has := s["body"]; has {
		t.Errorf("second.body = %#v, want no body under @include(if: false)", s["body"])
	}
	if _, has := d.Widgets.First["body"]; has {
		t.Errorf("first.body = %#v, want no body under @skip(if: true)", d.Widgets.First["body"])
	}

	// Operation selection by name.
	multi := `query A { viewer { login } } query B { viewer { name } }`
	requireGitHubValid(t, w.count, multi)
	res = w.send("/graphql", "emu-alice", map[string]any{"query": multi, "operationName": "B"})
	checkData(t, "operation B", res, `{"viewer":{"name":"Alice Liddell"}}`)
	res = w.send("/graphql", "emu-alice", map[string]any{"query": multi})
	checkOneError(t, "no operation name", res.Errors, wantErr{Message: "An operation name is required"})
}

func testGraphQLIssueList(t *testing.T, w *gqlWorld) {
	type list struct {
		Repository struct {
			Issues struct {
				TotalCount int
				Nodes      []struct {
					Number int
					State  string
				}
			}
		}
	}
	numbers := func(l list) []int {
		var out []int
		for _, n := range l.Repository.Issues.Nodes {
			out = append(out, n.Number)
		}
		return out
	}
	const doc = `query($states: [IssueState!], $labels: [String!], $order: IssueOrder) {
  repository(owner: "acme", name: "widgets") {
    issues(first: 50, states: $states, labels: $labels, orderBy: $order) { totalCount nodes { number state } }
  }
}`
	var all list
	w.query("emu-alice", doc, nil).ok(t, &all)
	if got, want := numbers(all), []int{w.bug, w.wontfix, w.epic, w.child1, w.child2, w.locked}; !reflect.DeepEqual(got, want) {
		t.Errorf("all issues (no pull requests, oldest first) = %v, want %v", got, want)
	}
	var open list
	w.query("emu-alice", doc, map[string]any{"states": []string{"OPEN"},
		"order": map[string]any{"field": "CREATED_AT", "direction": "DESC"}}).ok(t, &open)
	if got, want := numbers(open), []int{w.locked, w.child2, w.epic, w.bug}; !reflect.DeepEqual(got, want) {
		t.Errorf("open issues newest first = %v, want %v", got, want)
	}
	var labelled list
	w.query("emu-alice", doc, map[string]any{"labels": []string{"BUG", "enhancement"}}).ok(t, &labelled)
	if got, want := numbers(labelled), []int{w.bug, w.wontfix}; !reflect.DeepEqual(got, want) {
		t.Errorf("issues labelled bug or enhancement = %v, want %v", got, want)
	}

	var prs struct {
		Repository struct {
			PullRequests struct {
				Nodes []struct {
					Number int
					State  string
					Labels struct{ Nodes []struct{ Name string } }
				}
			}
		}
	}
	w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") {
  pullRequests(first: 10, states: [OPEN]) { nodes { number state labels(first: 5) { nodes { name } } } } } }`, nil).ok(t, &prs)
	n := prs.Repository.PullRequests.Nodes
	if len(n) != 1 {
		t.Fatalf("open pull requests = %+v, want 1", n)
	}
	if n[0].Number != w.pull {
		t.Errorf("open pull request number = %d, want %d", n[0].Number, w.pull)
	}
	if len(n[0].Labels.Nodes) == 0 {
		t.Fatalf("pull request labels = none, want bug first")
	}
	if n[0].Labels.Nodes[0].Name != "bug" {
		t.Errorf("pull request's first label = %q, want bug", n[0].Labels.Nodes[0].Name)
	}
}

func testGraphQLRepositoryMetadata(t *testing.T, w *gqlWorld) {
	var d struct {
		Repository struct {
			ID, NameWithOwner, Visibility, ViewerPermission string
			Owner                                           struct{ Typename, Login string }
			Labels                                          struct {
				TotalCount int
				Nodes      []struct{ Name string }
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
			}
			Label      struct{ Name, Description string }
			Milestones struct{ Nodes []struct{ Title string } }
			IssueTypes struct {
				Nodes []struct{ Name, Color string }
			}
			Assignables struct{ Nodes []struct{ Login string } } `json:"assignableUsers"`
		}
	}
	const doc = `{
  repository(owner: "acme", name: "widgets") {
    id nameWithOwner visibility viewerPermission
    owner { Typename: __typename login }
    labels(first: 2, query: "area") { totalCount nodes { name } pageInfo { hasNextPage endCursor } }
    label(name: "BUG") { name description }
    milestones(first: 5, states: [OPEN]) { nodes { title } }
    issueTypes(first: 10) { nodes { name color } }
    assignableUsers(first: 10, query: "ca") { nodes { login } }
  }
}`
	w.query("emu-bob", doc, nil).ok(t, &d)
	r := d.Repository
	type repoFacts struct{ NameWithOwner, Visibility, ViewerPermission, OwnerType, OwnerLogin string }
	if diff := cmp.Diff(repoFacts{"acme/widgets", "PUBLIC", "WRITE", "Organization", "acme"},
		repoFacts{r.NameWithOwner, r.Visibility, r.ViewerPermission, r.Owner.Typename, r.Owner.Login}); diff != "" {
		t.Errorf("repository mismatch (-want +got):\n%s", diff)
	}
	if r.Labels.TotalCount != 7 {
		t.Errorf("labels matching area: totalCount = %d, want 7", r.Labels.TotalCount)
	}
	if len(r.Labels.Nodes) != 2 {
		t.Errorf("labels(first: 2) = %+v, want 2", r.Labels.Nodes)
	} else if r.Labels.Nodes[0].Name != "area: part-0" {
		t.Errorf("first label = %q, want %q", r.Labels.Nodes[0].Name, "area: part-0")
	}
	if !r.Labels.PageInfo.HasNextPage {
		t.Errorf("labels hasNextPage = false, want true")
	}
	if r.Label.Name != "bug" {
		t.Errorf(`label(name: "BUG") name = %q, want bug`, r.Label.Name)
	}
	if r.Label.Description != "Something isn't working" {
		t.Errorf("label description = %q, want %q", r.Label.Description, "Something isn't working")
	}
	if len(r.Milestones.Nodes) != 1 {
		t.Errorf("open milestones = %+v, want 1", r.Milestones.Nodes)
	} else if r.Milestones.Nodes[0].Title != "v1.0" {
		t.Errorf("open milestone title = %q, want v1.0", r.Milestones.Nodes[0].Title)
	}
	if got, want := fmt.Sprint(r.IssueTypes.Nodes), "[{Bug GRAY} {Feature RED}]"; got != want {
		t.Errorf("issue types = %s, want %s", got, want)
	}
	if len(r.Assignables.Nodes) != 1 {
		t.Errorf("assignable users matching ca = %+v, want 1", r.Assignables.Nodes)
	} else if r.Assignables.Nodes[0].Login != "carol" {
		t.Errorf("assignable user matching ca = %q, want carol", r.Assignables.Nodes[0].Login)
	}
}

func testGraphQLRelations(t *testing.T, w *gqlWorld) {
	var d struct {
		Repository struct {
			Epic struct {
				SubIssues struct {
					TotalCount int
					Nodes      []struct {
						Number int
						Parent struct{ Number int }
					}
				}
				SubIssuesSummary struct{ Total, Completed, PercentCompleted int }
			}
			Child struct {
				IssueType                struct{ Name string }
				BlockedBy                struct{ Nodes []struct{ Number int } }
				IssueDependenciesSummary struct{ BlockedBy, Blocking, TotalBlockedBy, TotalBlocking int }
			}
			Bug struct {
				IssueType struct{ Name string }
				Blocking  struct{ TotalCount int }
			}
		}
	}
	doc := fmt.Sprintf(`{
  repository(owner: "acme", name: "widgets") {
    epic: issue(number: %d) {
      subIssues(first: 10) { totalCount nodes { number parent { number } } }
      subIssuesSummary { total completed percentCompleted }
    }
    child: issue(number: %d) {
      issueType { name }
      blockedBy(first: 10) { nodes { number } }
      issueDependenciesSummary { blockedBy blocking totalBlockedBy totalBlocking }
    }
    bug: issue(number: %d) { issueType { name } blocking(first: 5) { totalCount } }
  }
}`, w.epic, w.child2, w.bug)
	w.query("emu-carol", doc, nil).ok(t, &d)
	r := d.Repository
	if r.Epic.SubIssues.TotalCount != 2 {
		t.Errorf("epic subIssues totalCount = %d, want 2", r.Epic.SubIssues.TotalCount)
	}
	if nodes := r.Epic.SubIssues.Nodes; len(nodes) < 2 {
		t.Errorf("epic subIssues = %+v, want 2", nodes)
	} else {
		if got := nodes[0].Number; got != w.child1 {
			t.Errorf("epic's first sub-issue = #%d, want #%d", got, w.child1)
		}
		if got := nodes[1].Parent.Number; got != w.epic {
			t.Errorf("second sub-issue's parent = #%d, want #%d", got, w.epic)
		}
	}
	type summary struct{ Total, Completed, PercentCompleted int }
	if diff := cmp.Diff(summary{2, 1, 50}, summary(r.Epic.SubIssuesSummary)); diff != "" {
		t.Errorf("subIssuesSummary mismatch (-want +got):\n%s", diff)
	}
	if got := len(r.Child.BlockedBy.Nodes); got != 2 {
		t.Errorf("child blockedBy = %d issues, want 2", got)
	}
	if got := r.Child.IssueDependenciesSummary.BlockedBy; got != 1 {
		t.Errorf("child issueDependenciesSummary.blockedBy = %d, want 1 (the open blocker)", got)
	}
	if got := r.Child.IssueDependenciesSummary.TotalBlockedBy; got != 2 {
		t.Errorf("child issueDependenciesSummary.totalBlockedBy = %d, want 2", got)
	}
	if r.Child.IssueType.Name != "" {
		t.Errorf("child issueType = %q, want none", r.Child.IssueType.Name)
	}
	if r.Bug.IssueType.Name != "Bug" {
		t.Errorf("bug issueType = %q, want Bug", r.Bug.IssueType.Name)
	}
	if r.Bug.Blocking.TotalCount != 1 {
		t.Errorf("bug blocking totalCount = %d, want 1", r.Bug.Blocking.TotalCount)
	}
}

func testGraphQLNodeRoundTrip(t *testing.T, w *gqlWorld) {
	issueID := w.issueID("emu-carol", w.bug)
	var d struct {
		Node struct {
			Typename string `json:"__typename"`
			Number   int
			Title    string
			ID       string
		}
	}
	w.query("emu-carol", `query($id: ID!) { node(id: $id) { __typename id ... on Issue { number title } } }`,
		map[string]any{"id": issueID}).ok(t, &d)
	if d.Node.Typename != "Issue" {
		t.Errorf("node is a %q, want Issue", d.Node.Typename)
	}
	if d.Node.Number != w.bug {
		t.Errorf("node number = %d, want %d", d.Node.Number, w.bug)
	}
	if d.Node.ID != issueID {
		t.Errorf("node id = %q, want %q", d.Node.ID, issueID)
	}

	// nodes: every kind the emulator can look up, and a miss.
	var meta struct {
		Viewer     struct{ ID string }
		Repository struct {
			ID          string
			PullRequest struct{ ID string }
			Label       struct{ ID string }
			Milestone   struct{ ID string }
			Issue       struct {
				Comments struct{ Nodes []struct{ ID string } }
			}
		}
	}
	w.query("emu-carol", fmt.Sprintf(`{ viewer { id } repository(owner: "acme", name: "widgets") {
  id pullRequest(number: %d) { id } label(name: "bug") { id } milestone(number: 1) { id }
  issue(number: %d) { comments(first: 1) { nodes { id } } } } }`, w.pull, w.bug), nil).ok(t, &meta)
	ids := []any{issueID, meta.Repository.PullRequest.ID, meta.Repository.ID, meta.Viewer.ID, meta.Repository.Label.ID,
		meta.Repository.Milestone.ID, meta.Repository.Issue.Comments.Nodes[0].ID, "I_nope"}
	res := w.query("emu-carol", `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, map[string]any{"ids": ids})
	var n struct {
		Nodes []*struct {
			Typename string `json:"__typename"`
			ID       string
		}
	}
	if err := json.Unmarshal(res.Data, &n); err != nil {
		t.Fatal(err)
	}
	var types []string
	for i, node := range n.Nodes {
		if node == nil {
			types = append(types, "null")
			continue
		}
		types = append(types, node.Typename)
		if node.ID != ids[i] {
			t.Errorf("nodes[%d].id = %s, want %s", i, node.ID, ids[i])
		}
	}
	if got, want := strings.Join(types, ","), "Issue,PullRequest,Repository,User,Label,Milestone,IssueComment,null"; got != want {
		t.Errorf("node types = %s, want %s", got, want)
	}
	want := []respError{{Type: "NOT_FOUND", Path: []any{"nodes", float64(7)}, Locations: []respLocation{{Line: 1, Column: 23}},
		Message: "Could not resolve to a node with the global id of 'I_nope'"}}
	if diff := cmp.Diff(want, res.Errors); diff != "" {
		t.Errorf("errors mismatch (-want +got):\n%s", diff)
	}

	many := make([]string, 101)
	for i := range many {
		many[i] = issueID
	}
	res = w.query("emu-carol", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": many})
	checkData(t, "101 ids", res, "null")
	checkOneError(t, "101 ids", res.Errors,
		wantErr{Type: "ARGUMENT_LIMIT", Message: "You may not provide more than 100 node ids; you provided 101."})

	// An issue in a private repository is not a node carol can see.
	var vaultID string
	{
		var v struct {
			Repository struct{ Issue struct{ ID string } }
		}
		w.query("emu-alice", `{ repository(owner: "acme", name: "vault") { issue(number: 1) { id } } }`, nil).ok(t, &v)
		vaultID = v.Repository.Issue.ID
	}
	res = w.query("emu-carol", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": vaultID})
	checkData(t, "private node for carol", res, `{"node":null}`)
	checkOneError(t, "private node for carol", res.Errors, wantErr{Type: "NOT_FOUND"})
}

func testGraphQLViewerAndRateLimit(t *testing.T, w *gqlWorld) {
	const doc = `{ viewer { login name databaseId url } rateLimit { cost limit remaining used resetAt } }`
	type rl struct {
		Viewer struct {
			Login, Name, URL string
			DatabaseID       int
		}
		RateLimit struct {
			Cost, Limit, Remaining, Used int
			ResetAt                      string
		}
	}
	var first, second rl
	res := w.query("emu-alice", doc, nil)
	res.ok(t, &first)
	type viewer struct{ Login, Name, URL string }
	if diff := cmp.Diff(viewer{"alice", "Alice Liddell", w.srv.URL + "/alice"},
		viewer{first.Viewer.Login, first.Viewer.Name, first.Viewer.URL}); diff != "" {
		t.Errorf("viewer mismatch (-want +got):\n%s", diff)
	}
	r := first.RateLimit
	type counts struct{ Cost, Limit, Used, Remaining int }
	if diff := cmp.Diff(counts{1, 5000, 1, 4999}, counts{r.Cost, r.Limit, r.Used, r.Remaining}); diff != "" {
		t.Errorf("rateLimit mismatch (-want +got):\n%s", diff)
	}
	if _, err := time.Parse(time.RFC3339, r.ResetAt); err != nil {
		t.Errorf("resetAt = %q, want an RFC 3339 time: %v", r.ResetAt, err)
	}
	if got := res.Header.Get("X-RateLimit-Resource"); got != "graphql" {
		t.Errorf("X-RateLimit-Resource = %q, want graphql", got)
	}
	if got := res.Header.Get("X-RateLimit-Remaining"); got != "4999" {
		t.Errorf("X-RateLimit-Remaining = %q, want 4999", got)
	}
	w.query("emu-alice", doc, nil).ok(t, &second)
	if second.RateLimit.Used != 2 {
		t.Errorf("second rateLimit used = %d, want 2", second.RateLimit.Used)
	}
	if second.RateLimit.Remaining != 4998 {
		t.Errorf("second rateLimit remaining = %d, want 4998", second.RateLimit.Remaining)
	}
	// The GHES path serves the same endpoint.
	res = w.send("/api/graphql", "emu-bob", map[string]any{"query": `{ viewer { login } }`})
	checkData(t, "/api/graphql", res, `{"viewer":{"login":"bob"}}`)
}
