package graphql_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// connWalk is how TestConnectionsWalk reaches one served connection type in
// the demo world. doc is the query inside `query(...) { }`: ARGS marks the
// connection's pagination arguments and SEL its selection. node is what
// identifies a node of the connection.
type connWalk struct {
	doc  string
	path []any
	node string
	// few says why this connection cannot hold the three elements a
	// walk needs; it is walked over what it holds.
	few string
}

// connWalks has one row per connection type the emulator serves. A type
// registered without a row fails TestConnectionsWalk.
var connWalks = map[string]connWalk{
	"IssueConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 12) { subIssues(ARGS) SEL } }`,
		[]any{"repository", "issue", "subIssues"}, "number", ""},
	"PullRequestConnection": {`repository(owner: "acme", name: "widgets") { pullRequests(ARGS) SEL }`,
		[]any{"repository", "pullRequests"}, "number", ""},
	"IssueCommentConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 9) { comments(ARGS) SEL } }`,
		[]any{"repository", "issue", "comments"}, "id", ""},
	"LabelConnection": {`repository(owner: "acme", name: "widgets") { labels(ARGS) SEL }`,
		[]any{"repository", "labels"}, "name", ""},
	"UserConnection": {`repository(owner: "acme", name: "widgets") { assignableUsers(ARGS) SEL }`,
		[]any{"repository", "assignableUsers"}, "login", ""},
	"MilestoneConnection": {`repository(owner: "acme", name: "widgets") { milestones(ARGS) SEL }`,
		[]any{"repository", "milestones"}, "title", ""},
	"IssueTypeConnection": {`repository(owner: "acme", name: "widgets") { issueTypes(ARGS) SEL }`,
		[]any{"repository", "issueTypes"}, "name", ""},
	"RepositoryConnection": {`user(login: "alice") { repositories(ARGS) SEL }`,
		[]any{"user", "repositories"}, "name", ""},
	"ActorConnection": {`repository(owner: "acme", name: "widgets") { suggestedActors(capabilities: [CAN_BE_ASSIGNED], ARGS) SEL }`,
		[]any{"repository", "suggestedActors"}, "login", ""},
	"AssigneeConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 2) { assignedActors(ARGS) SEL } }`,
		[]any{"repository", "issue", "assignedActors"}, "... on User { login }", ""},
	"GitActorConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: 121) { commits(first: 1) { nodes { commit { authors(ARGS) SEL } } } } }`,
		[]any{"repository", "pullRequest", "commits", "nodes", 0, "commit", "authors"}, "name email",
		"the emulator's commits have one author each"},
	"IssueFieldValueConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 2) { issueFieldValues(ARGS) SEL } }`,
		[]any{"repository", "issue", "issueFieldValues"}, "__typename ... on IssueFieldTextValue { value } ... on IssueFieldSingleSelectValue { name }", ""},
	"IssueFieldsConnection": {`organization(login: "acme") { issueFields(ARGS) SEL }`,
		[]any{"organization", "issueFields"}, "... on IssueFieldCommon { name }", ""},
	"LinkedBranchConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 2) { linkedBranches(ARGS) SEL } }`,
		[]any{"repository", "issue", "linkedBranches"}, "id", ""},
	"OrganizationConnection": {`user(login: "bob") { organizations(ARGS) SEL }`,
		[]any{"user", "organizations"}, "login", ""},
	"ProjectV2Connection": {`organization(login: "acme") { projectsV2(ARGS) SEL }`,
		[]any{"organization", "projectsV2"}, "number", ""},
	"ProjectV2FieldConfigurationConnection": {`organization(login: "acme") { projectV2(number: 2) { fields(ARGS) SEL } }`,
		[]any{"organization", "projectV2", "fields"}, "... on ProjectV2FieldCommon { name }", ""},
	"ProjectV2ItemConnection": {`organization(login: "acme") { projectV2(number: 1) { items(ARGS) SEL } }`,
		[]any{"organization", "projectV2", "items"}, "id", ""},
	"ProjectV2ItemFieldValueConnection": {`node(id: "ITEM") { ... on ProjectV2Item { fieldValues(ARGS) SEL } }`,
		[]any{"node", "fieldValues"}, "__typename ... on ProjectV2ItemFieldValueCommon { field { ... on ProjectV2FieldCommon { name } } }", ""},
	"PullRequestChangedFileConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: PULL) { files(ARGS) SEL } }`,
		[]any{"repository", "pullRequest", "files"}, "path", ""},
	"PullRequestCommitConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: 121) { commits(ARGS) SEL } }`,
		[]any{"repository", "pullRequest", "commits"}, "commit { oid }", ""},
	"PullRequestReviewCommentConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: PULL) { reviews(first: 1) { nodes { comments(ARGS) SEL } } } }`,
		[]any{"repository", "pullRequest", "reviews", "nodes", 0, "comments"}, "id", ""},
	"PullRequestReviewConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: 6) { reviews(ARGS) SEL } }`,
		[]any{"repository", "pullRequest", "reviews"}, "id", ""},
	"PullRequestReviewThreadConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: PULL) { reviewThreads(ARGS) SEL } }`,
		[]any{"repository", "pullRequest", "reviewThreads"}, "id", ""},
	"ReactingUserConnection": {`repository(owner: "acme", name: "widgets") { issue(number: 2) { reactionGroups { users(ARGS) SEL } } }`,
		[]any{"repository", "issue", "reactionGroups", 0, "users"}, "login", ""},
	"RefConnection": {`repository(owner: "acme", name: "widgets") { refs(refPrefix: "refs/heads/", ARGS) SEL }`,
		[]any{"repository", "refs"}, "name", ""},
	"ReviewRequestConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: PULL) { reviewRequests(ARGS) SEL } }`,
		[]any{"repository", "pullRequest", "reviewRequests"}, "requestedReviewer { ... on User { login } ... on Team { slug } }", ""},
	"StatusCheckRollupContextConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: 146) { commits(last: 1) { nodes { commit { statusCheckRollup { contexts(ARGS) SEL } } } } } }`,
		[]any{"repository", "pullRequest", "commits", "nodes", 0, "commit", "statusCheckRollup", "contexts"}, "__typename ... on CheckRun { name } ... on StatusContext { context }", ""},
	"TeamConnection": {`organization(login: "acme") { teams(ARGS) SEL }`,
		[]any{"organization", "teams"}, "slug", ""},
	"TeamMemberConnection": {`organization(login: "acme") { team(slug: "maintainers") { members(ARGS) SEL } }`,
		[]any{"organization", "team", "members"}, "login", ""},
	"ReleaseConnection": {`repository(owner: "acme", name: "widgets") { releases(ARGS) SEL }`,
		[]any{"repository", "releases"}, "tagName", ""},
	"RequestedReviewerConnection": {`repository(owner: "acme", name: "widgets") { pullRequest(number: PULL) { projectItems(first: 1) { nodes { fieldValueByName(name: "Reviewers") { ... on ProjectV2ItemFieldReviewerValue { reviewers(ARGS) SEL } } } } } }`,
		[]any{"repository", "pullRequest", "projectItems", "nodes", 0, "fieldValueByName", "reviewers"}, "... on User { login } ... on Team { slug }", ""},
	"SearchResultItemConnection": {`search(type: ISSUE, query: "repo:acme/widgets is:issue label:bug", ARGS) SEL`,
		[]any{"search"}, "... on Issue { number }", ""},
}

// newDemoWorld is an emulator over HTTP with the demo seed.
func newDemoWorld(t *testing.T) *gqlWorld {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Seed: "demo", Now: seed.DemoNow})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	return &gqlWorld{t: t, emu: emu, srv: srv, count: &fidelityCount{}}
}

// seedWalks adds to the demo world what it holds too little of to page
// through in pages of one and two: assignees, issue field values, linked
// branches and reactions on issue 2, a third organization member, project,
// team and issue field, and a pull request with three changed files, review
// requests (which project 1 shows as an item's reviewers) and a review with
// three threads. It returns that pull request's number and the node id of an
// item of project 1.
func seedWalks(t *testing.T, st *state.State) (pull int, item string) {
	t.Helper()
	st.Lock()
	defer st.Unlock()
	acme, alice, bob, carol, dave := st.Account("acme"), st.Account("alice"), st.Account("bob"), st.Account("carol"), st.Account("dave")
	repo := st.Repo("acme", "widgets")
	is := repo.Issue(2)
	is.Assignees = nil
	st.Assign(is, alice, alice, bob, carol)
	for i := len(st.IssueFields("acme")); i < 3; i++ {
		st.AddIssueField(acme, fmt.Sprintf("Walk %d", i), "TEXT", nil)
	}
	for _, f := range st.IssueFields("acme") {
		value := map[string]string{"TEXT": "walked", "DATE": "2026-01-01", "NUMBER": "1"}[f.DataType]
		if f.DataType == "SINGLE_SELECT" {
			value = f.Options[0].Name
		}
		if err := st.SetIssueFieldValue(is, f, value); err != nil {
			t.Fatal(err)
		}
	}
	head := st.Commit(repo, "walk-files", alice, seed.DemoNow(), "Three files", map[string]*string{
		"walk/a.txt": new("a\n"), "walk/b.txt": new("b\n"), "walk/c.txt": new("c\n")})
	for _, name := range []string{"walk-1", "walk-2", "walk-3"} {
		if _, err := st.CreateLinkedBranch(is, repo, name, head); err != nil {
			t.Fatal(err)
		}
	}
	is.Reactions = nil
	for _, u := range []*state.Account{alice, bob, carol} {
		st.React(&is.Reactions, u, state.RestReaction("CONFUSED")) // reactionGroups[0]
	}
	st.AddTeam(acme, "walkers", nil, alice)
	maintainers := st.FindTeam("acme", "maintainers")
	maintainers.Members = append(maintainers.Members, dave)
	for _, name := range []string{"walk-org-1", "walk-org-2"} {
		st.AddTeam(st.AddAccount(name, "", true, seed.DemoNow()), "members", nil, bob)
	}
	st.AddProject(acme, alice, "Walk", nil, true)
	pr := st.CreatePull(repo, alice, "Walk the files", nil, repo, "walk-files", state.RepoDefaultBranch, false)
	rv := st.AddReview(pr, bob, "COMMENTED", "", seed.DemoNow())
	for _, f := range []string{"walk/a.txt", "walk/b.txt", "walk/c.txt"} {
		st.AddReviewComment(rv, nil, f, 1, "on "+f, seed.DemoNow())
	}
	// After the review, which takes its author off the requests.
	pr.Pull.RequestedReviewers = []*state.Account{bob, carol, dave}
	for _, p := range st.Projects(acme) {
		if p.Number == 1 && len(p.Items) > 0 {
			item = p.Items[0].NodeID
			st.AddProjectItem(p, pr, alice)
		}
	}
	return pr.Number, item
}

// servedConnections lists the connection types the registry serves: every
// type with a pageInfo field; served has every "Type.field" served.
func servedConnections(t *testing.T) (conns []string, served map[string]bool) {
	fields, err := graphql.Fields()
	if err != nil {
		t.Fatal(err)
	}
	served = map[string]bool{}
	for _, f := range fields {
		served[f.Type+"."+f.Field] = true
		if f.Field == "pageInfo" {
			conns = append(conns, f.Type)
		}
	}
	return conns, served
}

// walkPage is one page of a connection as the walk reads it.
type walkPage struct {
	Count    *int `json:"count"`
	PageInfo struct {
		HasNextPage     bool    `json:"hasNextPage"`
		HasPreviousPage bool    `json:"hasPreviousPage"`
		StartCursor     *string `json:"startCursor"`
		EndCursor       *string `json:"endCursor"`
	} `json:"pageInfo"`
	Edges []struct {
		Cursor string          `json:"cursor"`
		Node   json.RawMessage `json:"node"`
	} `json:"edges"`
	Nodes []json.RawMessage `json:"nodes"`
}

func (p walkPage) nodes() []string {
	if p.Edges == nil {
		return rawStrings(p.Nodes)
	}
	out := make([]string, len(p.Edges))
	for i, e := range p.Edges {
		out[i] = string(e.Node)
	}
	return out
}

// TestConnectionsWalk walks every served connection forwards (first/after)
// and backwards (last/before) in pages of one and two, and checks that the
// pages partition the whole list in order, that pageInfo is exact on every
// page, that the count agrees, and that more than 100 is refused as GitHub
// refuses it. Search is also walked as gh walks it: last/after.
func TestConnectionsWalk(t *testing.T) {
	w := newDemoWorld(t)
	pull, item := seedWalks(t, w.emu.State())
	conns, served := servedConnections(t)
	for conn := range connWalks {
		if !slices.Contains(conns, conn) {
			t.Errorf("connWalks has a row for %s, which the emulator does not serve", conn)
		}
	}
	for _, conn := range conns {
		t.Run(conn, func(t *testing.T) {
			w := &gqlWorld{t: t, emu: w.emu, srv: w.srv, count: w.count}
			row, ok := connWalks[conn]
			if !ok {
				t.Fatalf("%s is served but has no row in connWalks: add one so its paging is walked", conn)
			}
			countField := ""
			switch {
			case conn == "SearchResultItemConnection":
				countField = "count: issueCount"
			case served[conn+".totalCount"]:
				countField = "count: totalCount"
			}
			edges := ""
			if served[conn+".edges"] {
				edges = "edges { cursor node { " + row.node + " } }"
			}
			sel := fmt.Sprintf(`{ %s pageInfo { hasNextPage hasPreviousPage startCursor endCursor } %s nodes { %s } }`,
				countField, edges, row.node)
			doc := "query($first: Int, $last: Int, $after: String, $before: String) { " +
				strings.NewReplacer("ARGS", "first: $first, last: $last, after: $after, before: $before", "SEL", sel,
					"PULL", strconv.Itoa(pull), "ITEM", item).Replace(row.doc) + " }"
			fetch := func(vars map[string]any) walkPage {
				t.Helper()
				res := w.query(seed.DemoTokenAlice, doc, vars)
				var data any
				res.ok(t, &data)
				for _, k := range row.path {
					switch k := k.(type) {
					case string:
						data = data.(map[string]any)[k]
					case int:
						data = data.([]any)[k]
					}
				}
				b, _ := json.Marshal(data)
				var p walkPage
				if err := json.Unmarshal(b, &p); err != nil {
					t.Fatalf("%v: %s", err, b)
				}
				if p.Edges != nil && !slices.Equal(p.nodes(), rawStrings(p.Nodes)) {
					t.Fatalf("nodes %s differ from the edges' nodes %v", p.Nodes, p.nodes())
				}
				return p
			}
			all := fetch(map[string]any{"first": 100})
			want := all.nodes()
			if len(want) < 3 && (row.few == "" || len(want) == 0) {
				t.Fatalf("the demo world has %d %s elements on this path: the walk needs at least 3", len(want), conn)
			}
			if all.PageInfo.HasNextPage {
				t.Errorf("whole list: hasNextPage = true, want false")
			}
			if all.PageInfo.HasPreviousPage {
				t.Errorf("whole list: hasPreviousPage = true, want false")
			}
			checkCount := func(p walkPage) {
				t.Helper()
				if countField != "" && (p.Count == nil || *p.Count != len(want)) {
					t.Errorf("%s = %v, want %d, what the pages hold", countField, deref(p.Count), len(want))
				}
			}
			checkCount(all)
			// pager asks for pages of size elements by bound ("first" or
			// "last"), from the cursor given as cursorArg, starting at from.
			pager := func(size int, bound, cursorArg string, from *string) func(*string) walkPage {
				return func(cursor *string) walkPage {
					vars := map[string]any{bound: size}
					if cursor == nil {
						cursor = from
					}
					if cursor != nil {
						vars[cursorArg] = *cursor
					}
					return fetch(vars)
				}
			}
			for _, size := range []int{1, 2} {
				checkWalk(t, "first/after", size, want, checkCount, pager(size, "first", "after", nil), false, 0)
				backFrom, beyond := (*string)(nil), 0
				if conn == "SearchResultItemConnection" {
					// GitHub's search reads `last` without `before` as a
					// page size from the start (see search.go), so a walk
					// back starts from a cursor: the last element's.
					backFrom, beyond = all.PageInfo.EndCursor, 1
				}
				checkWalk(t, "last/before", size, want[:len(want)-beyond], checkCount, pager(size, "last", "before", backFrom), true, beyond)
				if conn == "SearchResultItemConnection" {
					// gh's `issue list --search/--label/--milestone` pages
					// with last: $limit, after: $endCursor.
					checkWalk(t, "last/after", size, want, checkCount, pager(size, "last", "after", nil), false, 0)
				}
			}
			for _, arg := range []string{"first", "last"} {
				res := w.query(seed.DemoTokenAlice, doc, map[string]any{arg: 101})
				field := row.path[len(row.path)-1].(string)
				msg := fmt.Sprintf("Requesting 101 records on the `%s` connection exceeds the `%s` limit of 100 records.", field, arg)
				if checkOneError(t, arg+": 101", res.Errors, wantErr{Type: "EXCESSIVE_PAGINATION", Message: msg}) {
					if got, want := fmt.Sprint(res.Errors[0].Path), fmt.Sprint(row.path); got != want {
						t.Errorf("%s: 101: error path = %s, want %s", arg, got, want)
					}
				}
			}
		})
	}
}

// checkWalk pages through a list with page(cursor), starting from no
// cursor and going on from each page's end cursor while pageInfo says there
// is more, and checks the pages against want. backwards walks from start
// cursors instead, with beyond more elements of the list after want.
func checkWalk(t *testing.T, how string, size int, want []string, checkCount func(walkPage), page func(*string) walkPage, backwards bool, beyond int) {
	t.Helper()
	var got []string
	var cursor *string
	for n := 0; ; n++ {
		if n > len(want) {
			t.Fatalf("%s by %d: more pages than elements", how, size)
		}
		p := page(cursor)
		checkCount(p)
		nodes := p.nodes()
		// Where this page must sit in want.
		lo, hi := len(got), min(len(got)+size, len(want))
		if backwards {
			lo, hi = max(len(want)-len(got)-size, 0), len(want)-len(got)
		}
		if !slices.Equal(nodes, want[lo:hi]) {
			t.Fatalf("%s by %d, page %d: nodes %v, want %v", how, size, n, nodes, want[lo:hi])
		}
		pi := p.PageInfo
		if wantPrev := lo > 0; pi.HasPreviousPage != wantPrev {
			t.Errorf("%s by %d, page %d (elements %d to %d of %d): hasPreviousPage %v, want %v",
				how, size, n, lo, hi, len(want), pi.HasPreviousPage, wantPrev)
		}
		wantNext := hi < len(want) || beyond > 0
		if pi.HasNextPage != wantNext {
			t.Errorf("%s by %d, page %d (elements %d to %d of %d, %d beyond): hasNextPage %v, want %v",
				how, size, n, lo, hi, len(want), beyond, pi.HasNextPage, wantNext)
		}
		if pi.StartCursor == nil {
			t.Fatalf("%s by %d, page %d: startCursor = null, want one", how, size, n)
		}
		if pi.EndCursor == nil {
			t.Fatalf("%s by %d, page %d: endCursor = null, want one", how, size, n)
		}
		if p.Edges != nil && *pi.StartCursor != p.Edges[0].Cursor {
			t.Fatalf("%s by %d, page %d: startCursor = %q, want the first edge's %q", how, size, n, *pi.StartCursor, p.Edges[0].Cursor)
		}
		if p.Edges != nil && *pi.EndCursor != p.Edges[len(p.Edges)-1].Cursor {
			t.Fatalf("%s by %d, page %d: endCursor = %q, want the last edge's %q", how, size, n, *pi.EndCursor, p.Edges[len(p.Edges)-1].Cursor)
		}
		if backwards {
			got = append(slices.Clone(nodes), got...)
			cursor = pi.StartCursor
			if !pi.HasPreviousPage {
				break
			}
		} else {
			got = append(got, nodes...)
			cursor = pi.EndCursor
			if !pi.HasNextPage {
				break
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s by %d: the pages hold %v, want %v", how, size, got, want)
	}
	// Past the end there is nothing, and the empty page has no cursors.
	p := page(cursor)
	if got := p.nodes(); len(got) != 0 {
		t.Errorf("%s by %d past the end: nodes %v, want none", how, size, got)
	}
	if p.PageInfo.StartCursor != nil {
		t.Errorf("%s by %d past the end: startCursor = %q, want null", how, size, *p.PageInfo.StartCursor)
	}
	if p.PageInfo.EndCursor != nil {
		t.Errorf("%s by %d past the end: endCursor = %q, want null", how, size, *p.PageInfo.EndCursor)
	}
	// Walking backwards, the empty page lies before the first element;
	// forwards, after the last.
	if p.PageInfo.HasPreviousPage != !backwards {
		t.Errorf("%s by %d past the end: hasPreviousPage = %v, want %v", how, size, p.PageInfo.HasPreviousPage, !backwards)
	}
	if p.PageInfo.HasNextPage != backwards {
		t.Errorf("%s by %d past the end: hasNextPage = %v, want %v", how, size, p.PageInfo.HasNextPage, backwards)
	}
}

func rawStrings(rs []json.RawMessage) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}
