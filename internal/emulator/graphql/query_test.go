package graphql_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
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
		t.Errorf("databaseId = %v", is["databaseId"])
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
	if c.Repository.Closed["state"] != "CLOSED" || c.Repository.Closed["stateReason"] != "NOT_PLANNED" ||
		c.Repository.Closed["closed"] != true || c.Repository.Closed["closedAt"] == nil {
		t.Errorf("closed issue = %v", c.Repository.Closed)
	}
	if c.Repository.Locked["locked"] != true || c.Repository.Locked["activeLockReason"] != "TOO_HEATED" {
		t.Errorf("locked issue = %v", c.Repository.Locked)
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
	if res.Status != 200 || len(res.Errors) > 0 {
		t.Fatalf("%s", res.raw)
	}
	// Keys come back in selection order, aliases as written.
	var ordered struct {
		Widgets json.RawMessage `json:"widgets"`
	}
	if err := json.Unmarshal(res.Data, &ordered); err != nil {
		t.Fatal(err)
	}
	wantFirst := `{"first":{"__typename":"PullRequest","number":%d,"title":"Fix resize crash","prState":"OPEN","merged":false,"isDraft":false,"id":`
	if !strings.HasPrefix(string(ordered.Widgets), fmt.Sprintf(wantFirst, w.pull)) {
		t.Errorf("widgets = %s", ordered.Widgets)
	}
	var d struct {
		Widgets struct{ First, Second map[string]any }
	}
	res.ok(t, &d)
	s := d.Widgets.Second
	if s["__typename"] != "Issue" || s["heading"] != "Widget crashes on resize" || s["closed"] != false || s["state"] != "OPEN" {
		t.Errorf("second = %v", s)
	}
	if _, has := s["body"]; has {
		t.Error("@include(if: false) did not drop body")
	}
	if _, has := d.Widgets.First["body"]; has {
		t.Error("@skip(if: true) did not drop body")
	}

	// Operation selection by name.
	multi := `query A { viewer { login } } query B { viewer { name } }`
	requireGitHubValid(t, w.count, multi)
	res = w.send("/graphql", "emu-alice", map[string]any{"query": multi, "operationName": "B"})
	if string(res.Data) != `{"viewer":{"name":"Alice Liddell"}}` {
		t.Errorf("operation B = %s", res.raw)
	}
	res = w.send("/graphql", "emu-alice", map[string]any{"query": multi})
	if len(res.Errors) != 1 || res.Errors[0].Message != "An operation name is required" {
		t.Errorf("no operation name = %s", res.raw)
	}
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
	if n := prs.Repository.PullRequests.Nodes; len(n) != 1 || n[0].Number != w.pull || n[0].Labels.Nodes[0].Name != "bug" {
		t.Errorf("pull requests = %+v", n)
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
	if r.NameWithOwner != "acme/widgets" || r.Visibility != "PUBLIC" || r.ViewerPermission != "WRITE" ||
		r.Owner.Typename != "Organization" || r.Owner.Login != "acme" {
		t.Errorf("repository = %+v", r)
	}
	if r.Labels.TotalCount != 7 || len(r.Labels.Nodes) != 2 || r.Labels.Nodes[0].Name != "area: part-0" || !r.Labels.PageInfo.HasNextPage {
		t.Errorf("labels = %+v", r.Labels)
	}
	if r.Label.Name != "bug" || r.Label.Description != "Something isn't working" {
		t.Errorf("label = %+v", r.Label)
	}
	if len(r.Milestones.Nodes) != 1 || r.Milestones.Nodes[0].Title != "v1.0" {
		t.Errorf("milestones = %+v", r.Milestones)
	}
	if fmt.Sprint(r.IssueTypes.Nodes) != "[{Bug GRAY} {Feature RED}]" {
		t.Errorf("issue types = %+v", r.IssueTypes.Nodes)
	}
	if len(r.Assignables.Nodes) != 1 || r.Assignables.Nodes[0].Login != "carol" {
		t.Errorf("assignable users matching ca = %+v", r.Assignables.Nodes)
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
	if r.Epic.SubIssues.TotalCount != 2 || r.Epic.SubIssues.Nodes[0].Number != w.child1 || r.Epic.SubIssues.Nodes[1].Parent.Number != w.epic {
		t.Errorf("sub-issues = %+v", r.Epic.SubIssues)
	}
	if r.Epic.SubIssuesSummary.Total != 2 || r.Epic.SubIssuesSummary.Completed != 1 || r.Epic.SubIssuesSummary.PercentCompleted != 50 {
		t.Errorf("summary = %+v", r.Epic.SubIssuesSummary)
	}
	if len(r.Child.BlockedBy.Nodes) != 2 || r.Child.IssueDependenciesSummary.BlockedBy != 1 || r.Child.IssueDependenciesSummary.TotalBlockedBy != 2 {
		t.Errorf("dependencies = %+v", r.Child)
	}
	if r.Child.IssueType.Name != "" || r.Bug.IssueType.Name != "Bug" || r.Bug.Blocking.TotalCount != 1 {
		t.Errorf("bug = %+v, child = %+v", r.Bug, r.Child)
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
	if d.Node.Typename != "Issue" || d.Node.Number != w.bug || d.Node.ID != issueID {
		t.Errorf("node = %+v", d.Node)
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
	if got := strings.Join(types, ","); got != "Issue,PullRequest,Repository,User,Label,Milestone,IssueComment,null" {
		t.Errorf("node types = %s", got)
	}
	want := []respError{{Type: "NOT_FOUND", Path: []any{"nodes", float64(7)}, Locations: []respLocation{{Line: 1, Column: 23}},
		Message: "Could not resolve to a node with the global id of 'I_nope'"}}
	if !reflect.DeepEqual(res.Errors, want) {
		t.Errorf("errors = %+v, want %+v", res.Errors, want)
	}

	many := make([]string, 101)
	for i := range many {
		many[i] = issueID
	}
	res = w.query("emu-carol", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": many})
	if string(res.Data) != "null" || len(res.Errors) != 1 || res.Errors[0].Type != "ARGUMENT_LIMIT" ||
		res.Errors[0].Message != "You may not provide more than 100 node ids; you provided 101." {
		t.Errorf("101 ids = %s", res.raw)
	}

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
	if string(res.Data) != `{"node":null}` || len(res.Errors) != 1 || res.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("private node for carol = %s", res.raw)
	}
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
	if first.Viewer.Login != "alice" || first.Viewer.Name != "Alice Liddell" || first.Viewer.URL != w.srv.URL+"/alice" {
		t.Errorf("viewer = %+v", first.Viewer)
	}
	r := first.RateLimit
	if r.Cost != 1 || r.Limit != 5000 || r.Used != 1 || r.Remaining != 4999 {
		t.Errorf("rateLimit = %+v", r)
	}
	if _, err := time.Parse(time.RFC3339, r.ResetAt); err != nil {
		t.Errorf("resetAt = %q: %v", r.ResetAt, err)
	}
	if res.Header.Get("X-RateLimit-Resource") != "graphql" || res.Header.Get("X-RateLimit-Remaining") != "4999" {
		t.Errorf("headers: resource %q remaining %q", res.Header.Get("X-RateLimit-Resource"), res.Header.Get("X-RateLimit-Remaining"))
	}
	w.query("emu-alice", doc, nil).ok(t, &second)
	if second.RateLimit.Used != 2 || second.RateLimit.Remaining != 4998 {
		t.Errorf("second rateLimit = %+v", second.RateLimit)
	}
	// The GHES path serves the same endpoint.
	res = w.send("/api/graphql", "emu-bob", map[string]any{"query": `{ viewer { login } }`})
	if string(res.Data) != `{"viewer":{"login":"bob"}}` {
		t.Errorf("/api/graphql = %s", res.raw)
	}
}
