package graphql_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// Projects (v2) over the demo seed: every document is validated against
// GitHub's published schema and counted in the test's tally.

const projectBoardDoc = `query($org: String!, $n: Int!) { organization(login: $org) { projectV2(number: $n) {
  id number title shortDescription url resourcePath closed public viewerCanUpdate
  owner { __typename ... on Organization { login } }
  fields(first: 50) { totalCount nodes {
    __typename
    ... on ProjectV2FieldCommon { id name dataType }
    ... on ProjectV2SingleSelectField { options { id name color description } }
    ... on ProjectV2IterationField { configuration { duration startDay
      iterations { id title startDate duration } completedIterations { id title startDate duration } } }
  } }
  status: field(name: "status") { ... on ProjectV2SingleSelectField { name options(names: ["done"]) { name } } }
  items(first: 100) { totalCount pageInfo { hasNextPage endCursor } nodes { id type isArchived } }
} } }`

type projectField struct {
	Typename string `json:"__typename"`
	ID       string
	Name     string
	DataType string
	Options  []struct{ ID, Name, Color, Description string }
	Config   *struct {
		Duration, StartDay  int
		Iterations          []struct{ ID, Title, StartDate string }
		CompletedIterations []struct{ ID, Title, StartDate string }
	} `json:"configuration"`
}

type projectBoard struct {
	Organization struct {
		ProjectV2 struct {
			ID, Title, URL, ResourcePath string
			Number                       int
			ShortDescription             *string
			Closed, Public               bool
			ViewerCanUpdate              bool
			Owner                        struct{ Typename, Login string }
			Fields                       struct {
				TotalCount int
				Nodes      []projectField
			}
			Status struct {
				Name    string
				Options []struct{ Name string }
			}
			Items struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
				Nodes []struct {
					ID, Type   string
					IsArchived bool
				}
			}
		}
	}
}

// projectsCount tallies the Projects tests' documents, which TestMain
// reports.
var projectsCount = &fidelityCount{}

// projectsWorld is the demo seed over HTTP, counting into projectsCount.
func projectsWorld(t *testing.T) *gqlWorld {
	w := demoGQLWorld(t)
	w.count = projectsCount
	return w
}

func TestGraphQLProjects(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, w *gqlWorld)
	}{
		{"Board", testProjectBoard},
		{"Lists", testProjectLists},
		{"ItemsAndValues", testProjectItemValues},
		{"Visibility", testProjectVisibility},
		{"ItemFilter", testProjectItemFilter},
		{"LinkedValues", testProjectLinkedValues},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, w) })
	}
}

func readBoard(t *testing.T, w *gqlWorld, token string) projectBoard {
	t.Helper()
	var d projectBoard
	w.query(token, projectBoardDoc, map[string]any{"org": seed.DemoOrg, "n": seed.DemoProjectNumber}).ok(t, &d)
	return d
}

func testProjectBoard(t *testing.T, w *gqlWorld) {
	p := readBoard(t, w, seed.DemoTokenAlice).Organization.ProjectV2
	if p.Title != seed.DemoProjectTitle || p.Number != 1 || p.Public || p.Closed || !p.ViewerCanUpdate ||
		!strings.HasSuffix(p.URL, "/orgs/acme/projects/1") || p.ResourcePath != "/orgs/acme/projects/1" ||
		p.Owner.Login != "acme" || !strings.HasPrefix(p.ID, "PVT_") {
		t.Errorf("board: %+v", p)
	}
	var names []string
	byName := map[string]projectField{}
	for _, f := range p.Fields.Nodes {
		names = append(names, f.Name)
		byName[f.Name] = f
	}
	want := []string{"Title", "Assignees", "Status", "Labels", "Linked pull requests", "Milestone", "Repository", "Reviewers",
		"Priority", "Iteration", "Estimate", "Target date", "Notes"}
	if !slices.Equal(names, want) || p.Fields.TotalCount != len(want) {
		t.Errorf("fields %v (total %d), want %v", names, p.Fields.TotalCount, want)
	}
	for name, typ := range map[string]string{"Status": "ProjectV2SingleSelectField", "Iteration": "ProjectV2IterationField",
		"Estimate": "ProjectV2Field", "Title": "ProjectV2Field"} {
		if byName[name].Typename != typ {
			t.Errorf("%s is a %s, want %s", name, byName[name].Typename, typ)
		}
	}
	if f := byName["Estimate"]; f.DataType != "NUMBER" || !strings.HasPrefix(f.ID, "PVTF_") {
		t.Errorf("Estimate: %+v", f)
	}
	var opts []string
	for _, o := range byName["Status"].Options {
		opts = append(opts, o.Name)
		if len(o.ID) != 8 || o.Color == "" {
			t.Errorf("option %+v", o)
		}
	}
	if !slices.Equal(opts, []string{"Todo", "In progress", "Done"}) {
		t.Errorf("Status options %v", opts)
	}
	it := byName["Iteration"].Config
	if it == nil || it.Duration != 14 || it.StartDay != 1 || len(it.Iterations) != 2 || len(it.CompletedIterations) != 1 ||
		it.Iterations[0].ID != seed.DemoIterationIDs()[1] {
		t.Errorf("Iteration configuration %+v", it)
	}
	if p.Status.Name != "Status" || len(p.Status.Options) != 1 || p.Status.Options[0].Name != "Done" {
		t.Errorf("field(name:) with options(names:): %+v", p.Status)
	}
	counts := map[string]int{}
	archived := 0
	for _, n := range p.Items.Nodes {
		counts[n.Type]++
		if n.IsArchived {
			archived++
		}
	}
	wantItems := seed.DemoProjectWidgetsIssues + seed.DemoProjectGadgetsIssues + 5
	if p.Items.TotalCount != wantItems || counts["ISSUE"] != 42 || counts["PULL_REQUEST"] != 3 || counts["DRAFT_ISSUE"] != 2 ||
		archived != 3 || p.Items.PageInfo.HasNextPage {
		t.Errorf("items: total %d, by type %v, %d archived", p.Items.TotalCount, counts, archived)
	}
}

func testProjectLists(t *testing.T, w *gqlWorld) {
	const doc = `query($login: String!, $q: String) { organization(login: $login) {
  projectsV2(first: 10, query: $q) { totalCount nodes { number title closed } }
  byTitle: projectsV2(first: 10, orderBy: {field: TITLE, direction: ASC}) { nodes { number } }
} }`
	type list struct {
		Organization struct {
			ProjectsV2 struct {
				TotalCount int
				Nodes      []struct {
					Number int
					Title  string
					Closed bool
				}
			}
			ByTitle struct{ Nodes []struct{ Number int } }
		}
	}
	var d list
	w.query(seed.DemoTokenAlice, doc, map[string]any{"login": "acme"}).ok(t, &d)
	got := d.Organization.ProjectsV2
	// GitHub lists an owner's projects newest first.
	if got.TotalCount != 2 || got.Nodes[0].Number != 2 || got.Nodes[1].Number != 1 || !got.Nodes[0].Closed {
		t.Errorf("acme projects %+v", got)
	}
	if n := d.Organization.ByTitle.Nodes; len(n) != 2 || n[0].Number != 2 {
		t.Errorf("by title %+v", n)
	}
	d = list{}
	w.query(seed.DemoTokenAlice, doc, map[string]any{"login": "acme", "q": "roadmap is:open"}).ok(t, &d)
	if n := d.Organization.ProjectsV2.Nodes; len(n) != 1 || n[0].Title != seed.DemoProjectTitle {
		t.Errorf("query roadmap is:open: %+v", n)
	}

	const userDoc = `query { user(login: "alice") { projectV2(number: 1) { title owner { ... on User { login } }
  items(first: 10) { totalCount } } projectsV2(first: 5) { totalCount } } }`
	var u struct {
		User struct {
			ProjectV2 struct {
				Title string
				Owner struct{ Login string }
				Items struct{ TotalCount int }
			}
			ProjectsV2 struct{ TotalCount int }
		}
	}
	w.query(seed.DemoTokenAlice, userDoc, nil).ok(t, &u)
	if u.User.ProjectV2.Title != "Personal planning" || u.User.ProjectV2.Owner.Login != "alice" ||
		u.User.ProjectV2.Items.TotalCount != 6 || u.User.ProjectsV2.TotalCount != 1 {
		t.Errorf("alice's board %+v", u.User)
	}

	// An issue's projectItems, archived ones left out on request.
	const issueDoc = `query { repository(owner: "acme", name: "widgets") { issue(number: 9) {
  all: projectItems(first: 10) { nodes { project { number } } }
  live: projectItems(first: 10, includeArchived: false) { totalCount } } } }`
	var is struct {
		Repository struct {
			Issue struct {
				All struct {
					Nodes []struct{ Project struct{ Number int } }
				}
				Live struct{ TotalCount int }
			}
		}
	}
	w.query(seed.DemoTokenAlice, issueDoc, nil).ok(t, &is)
	if n := is.Repository.Issue.All.Nodes; len(n) != 2 || n[0].Project.Number != 1 || n[1].Project.Number != 2 {
		t.Errorf("issue 9 projectItems %+v", n)
	}
}

const projectItemsDoc = `query($n: Int!, $after: String) { organization(login: "acme") { projectV2(number: $n) {
  items(first: 20, after: $after) { pageInfo { hasNextPage endCursor } nodes {
    id type isArchived
    content { __typename ... on Issue { number repository { nameWithOwner } } ... on PullRequest { number repository { nameWithOwner } }
      ... on DraftIssue { title body } }
    status: fieldValueByName(name: "Status") { ... on ProjectV2ItemFieldSingleSelectValue { name optionId } }
    fieldValues(first: 20) { nodes {
      __typename
      ... on ProjectV2ItemFieldTextValue { text field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldNumberValue { number field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldDateValue { date field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldSingleSelectValue { name optionId field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldIterationValue { title iterationId startDate duration field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldUserValue { users(first: 5) { nodes { login } } field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldLabelValue { labels(first: 5) { nodes { name } } field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldRepositoryValue { repository { name } field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldMilestoneValue { milestone { title } field { ... on ProjectV2FieldCommon { name } } }
    } }
  } }
} } }`

type itemValue struct {
	Typename    string `json:"__typename"`
	Text        *string
	Number      *float64
	Date        *string
	Name        *string
	OptionID    *string
	Title       *string
	IterationID *string
	Users       *struct{ Nodes []struct{ Login string } }
	Labels      *struct{ Nodes []struct{ Name string } }
	Repository  *struct{ Name string }
	Field       struct{ Name string }
}

type projectItem struct {
	ID, Type   string
	IsArchived bool
	Content    *struct {
		Typename   string `json:"__typename"`
		Number     int
		Title      string
		Repository struct{ NameWithOwner string }
	}
	Status      *struct{ Name, OptionID string }
	FieldValues struct{ Nodes []itemValue }
}

// allItems pages through the roadmap twenty items at a time.
func allItems(t *testing.T, w *gqlWorld, token string) []projectItem {
	t.Helper()
	var out []projectItem
	var after any
	for range 10 {
		var d struct {
			Organization struct {
				ProjectV2 struct {
					Items struct {
						PageInfo struct {
							HasNextPage bool
							EndCursor   string
						}
						Nodes []projectItem
					}
				}
			}
		}
		w.query(token, projectItemsDoc, map[string]any{"n": seed.DemoProjectNumber, "after": after}).ok(t, &d)
		items := d.Organization.ProjectV2.Items
		out = append(out, items.Nodes...)
		if !items.PageInfo.HasNextPage {
			return out
		}
		after = items.PageInfo.EndCursor
	}
	t.Fatal("items never ended")
	return nil
}

func testProjectItemValues(t *testing.T, w *gqlWorld) {
	items := allItems(t, w, seed.DemoTokenAlice)
	if len(items) != 47 {
		t.Fatalf("%d items over three pages", len(items))
	}
	repos := map[string]int{}
	kinds := map[string]bool{}
	for _, it := range items {
		if it.Content == nil {
			t.Fatalf("item %s has no content for alice", it.ID)
		}
		repos[it.Content.Repository.NameWithOwner]++
		if it.Status == nil {
			t.Errorf("item %s has no Status", it.ID)
		}
		first := it.FieldValues.Nodes[0]
		if first.Typename != "ProjectV2ItemFieldTextValue" || first.Field.Name != "Title" || first.Text == nil || *first.Text == "" {
			t.Errorf("item %s: first value %+v, want its title", it.ID, first)
		}
		for _, v := range it.FieldValues.Nodes {
			kinds[v.Typename+":"+v.Field.Name] = true
			if v.Typename == "ProjectV2ItemFieldSingleSelectValue" && (v.Name == nil || v.OptionID == nil) {
				t.Errorf("single-select value without name or option id: %+v", v)
			}
		}
	}
	if repos["acme/widgets"] != 33 || repos["acme/gadgets"] != 12 {
		t.Errorf("items by repository %v", repos)
	}
	for _, k := range []string{"ProjectV2ItemFieldSingleSelectValue:Status", "ProjectV2ItemFieldSingleSelectValue:Priority",
		"ProjectV2ItemFieldIterationValue:Iteration", "ProjectV2ItemFieldNumberValue:Estimate", "ProjectV2ItemFieldDateValue:Target date",
		"ProjectV2ItemFieldTextValue:Notes", "ProjectV2ItemFieldRepositoryValue:Repository", "ProjectV2ItemFieldLabelValue:Labels",
		"ProjectV2ItemFieldUserValue:Assignees", "ProjectV2ItemFieldMilestoneValue:Milestone"} {
		if !kinds[k] {
			t.Errorf("no item has a %s value", k)
		}
	}
	drafts := items[len(items)-2:]
	for _, d := range drafts {
		if d.Type != "DRAFT_ISSUE" || d.Content.Typename != "DraftIssue" || d.Content.Title == "" {
			t.Errorf("draft %+v", d)
		}
	}
}

func testProjectVisibility(t *testing.T, w *gqlWorld) {
	// dave is no member of acme: its private roadmap does not resolve,
	// its public (closed) board does.
	r := w.query(seed.DemoTokenDave, projectBoardDoc, map[string]any{"org": "acme", "n": 1})
	if len(r.Errors) != 1 || r.Errors[0].Type != "NOT_FOUND" || r.Errors[0].Message != "Could not resolve to a ProjectV2 with the number 1." {
		t.Errorf("dave reads the roadmap: %+v", r.Errors)
	}
	var d struct {
		Organization struct {
			ProjectsV2 struct{ Nodes []struct{ Number int } }
		}
	}
	w.query(seed.DemoTokenDave, `query { organization(login: "acme") { projectsV2(first: 5) { nodes { number } } } }`, nil).ok(t, &d)
	if n := d.Organization.ProjectsV2.Nodes; len(n) != 1 || n[0].Number != 2 {
		t.Errorf("dave lists %+v", n)
	}
	// carol reads the roadmap but may not change it; gadgets items are
	// hidden from nobody who reads gadgets.
	if p := readBoard(t, w, seed.DemoTokenCarol).Organization.ProjectV2; p.ViewerCanUpdate || p.Items.TotalCount != 47 {
		t.Errorf("carol's view: canUpdate %v, %d items", p.ViewerCanUpdate, p.Items.TotalCount)
	}
	// A classic token without the project scopes is refused with GitHub's
	// INSUFFICIENT_SCOPES.
	r = w.query(seed.DemoTokenAliceNoProject, projectBoardDoc, map[string]any{"org": "acme", "n": 1})
	if len(r.Errors) != 1 || r.Errors[0].Type != "INSUFFICIENT_SCOPES" ||
		!strings.Contains(r.Errors[0].Message, "The 'projectV2' field requires one of the following scopes: ['read:project'], but your token has only been granted the: ['read:org', 'repo'] scopes.") {
		t.Errorf("no project scope: %+v", r.Errors)
	}
	// A fine-grained token reaches acme's board but never alice's own.
	if p := readBoard(t, w, seed.DemoTokenAliceFineGrained).Organization.ProjectV2; p.Title != seed.DemoProjectTitle {
		t.Errorf("fine-grained token on acme's board: %+v", p)
	}
	r = w.query(seed.DemoTokenAliceFineGrained, `query { user(login: "alice") { projectV2(number: 1) { title } } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("fine-grained token on alice's board: %+v", r.Errors)
	}
	// node(id:) resolves boards and items for those who see them.
	p := readBoard(t, w, seed.DemoTokenAlice).Organization.ProjectV2
	var n struct {
		Node struct {
			Typename string `json:"__typename"`
			Title    string
		}
	}
	w.query(seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { __typename ... on ProjectV2 { title } } }`,
		map[string]any{"id": p.ID}).ok(t, &n)
	if n.Node.Typename != "ProjectV2" || n.Node.Title != seed.DemoProjectTitle {
		t.Errorf("node(board) %+v", n)
	}
	w.query(seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { __typename } }`,
		map[string]any{"id": p.Items.Nodes[0].ID}).ok(t, &n)
	if n.Node.Typename != "ProjectV2Item" {
		t.Errorf("node(item) %+v", n)
	}
	if r := w.query(seed.DemoTokenDave, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": p.ID}); len(r.Errors) != 1 ||
		r.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("dave's node(board): %+v", r.Errors)
	}
}

// filteredItems runs a filter over the roadmap and returns the matching
// items' types, titles and statuses, or the errors.
func filteredItems(t *testing.T, w *gqlWorld, q string) ([]projectItem, []respError) {
	t.Helper()
	const doc = `query($q: String) { organization(login: "acme") { projectV2(number: 1) {
  items(first: 100, query: $q) { totalCount nodes { id type isArchived
    content { __typename ... on Issue { number repository { nameWithOwner } } ... on PullRequest { number repository { nameWithOwner } } ... on DraftIssue { title } }
    status: fieldValueByName(name: "Status") { ... on ProjectV2ItemFieldSingleSelectValue { name optionId } } } }
} } }`
	var d struct {
		Organization struct {
			ProjectV2 struct {
				Items struct {
					TotalCount int
					Nodes      []projectItem
				}
			}
		}
	}
	r := w.query(seed.DemoTokenAlice, doc, map[string]any{"q": q})
	if len(r.Errors) > 0 {
		return nil, r.Errors
	}
	r.ok(t, &d)
	if d.Organization.ProjectV2.Items.TotalCount != len(d.Organization.ProjectV2.Items.Nodes) {
		t.Errorf("%q: totalCount %d for %d nodes", q, d.Organization.ProjectV2.Items.TotalCount, len(d.Organization.ProjectV2.Items.Nodes))
	}
	return d.Organization.ProjectV2.Items.Nodes, nil
}

func testProjectItemFilter(t *testing.T, w *gqlWorld) {
	all := allItems(t, w, seed.DemoTokenAlice)
	count := func(pred func(projectItem) bool) int {
		n := 0
		for _, it := range all {
			if pred(it) {
				n++
			}
		}
		return n
	}
	status := func(name string) func(projectItem) bool {
		return func(it projectItem) bool { return !it.IsArchived && it.Status != nil && it.Status.Name == name }
	}
	for _, tc := range []struct {
		q    string
		want int
	}{
		{``, len(all)},
		{`status:"In progress"`, count(status("In progress"))},
		{`status:Todo,"In progress"`, count(status("Todo")) + count(status("In progress"))},
		{`-status:Done`, count(func(it projectItem) bool { return !it.IsArchived && (it.Status == nil || it.Status.Name != "Done") })},
		// A value the board does not know matches nothing; excluded, it
		// leaves every item in. GitHub refuses only a field it lacks.
		{`status:Dnoe`, 0},
		{`label:"no such label" -is:archived`, 0},
		{`-label:"no such label"`, count(func(it projectItem) bool { return !it.IsArchived })},
		{`is:archived`, 3},
		{`is:pr`, 3},
		{`is:draft`, 2},
		{`is:issue -is:archived`, 39},
		{`repo:acme/gadgets`, count(func(it projectItem) bool {
			return !it.IsArchived && it.Content.Repository.NameWithOwner == "acme/gadgets"
		})},
	} {
		got, errs := filteredItems(t, w, tc.q)
		if errs != nil || len(got) != tc.want {
			t.Errorf("items(query: %q): %d items, want %d (%+v)", tc.q, len(got), tc.want, errs)
		}
	}
	// Iterations by relative name: the seed puts every third item in each.
	cur, _ := filteredItems(t, w, `iteration:@current`)
	next, _ := filteredItems(t, w, `iteration:@next`)
	prev, _ := filteredItems(t, w, `iteration:@previous`)
	none, _ := filteredItems(t, w, `no:iteration`)
	if len(cur) == 0 || len(next) == 0 || len(prev) == 0 || len(cur)+len(next)+len(prev)+len(none) != len(all)-3 {
		t.Errorf("iterations: current %d, next %d, previous %d, none %d of %d live", len(cur), len(next), len(prev), len(none), len(all)-3)
	}
	est, _ := filteredItems(t, w, `estimate:>=5 estimate:<=7`)
	rangeEst, _ := filteredItems(t, w, `estimate:5..7`)
	if len(est) == 0 || len(est) != len(rangeEst) {
		t.Errorf("estimate comparisons: %d and %d", len(est), len(rangeEst))
	}
	if got, _ := filteredItems(t, w, `has:target-date`); len(got) == 0 {
		t.Error("has:target-date matched nothing")
	}
	if got, _ := filteredItems(t, w, `"target date":>=2026-01-01 priority:P0`); len(got) == 0 {
		t.Error(`"target date":>=2026-01-01 priority:P0 matched nothing`)
	}
	if _, errs := filteredItems(t, w, `sprint:@current`); len(errs) != 1 || !strings.Contains(errs[0].Message, `no field "sprint"`) ||
		!strings.Contains(errs[0].Message, "iteration") {
		t.Errorf("unknown field: %+v", errs)
	}
}

// TestGraphQLProjectRedactedItem: an item whose issue the viewer cannot
// read is REDACTED, with no content and no values taken from it, on a
// board the viewer can see.
func TestGraphQLProjectRedactedItem(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	st := w.emu.State()
	st.Lock()
	board := st.Project(st.Account("acme"), seed.DemoClosedProjectNumber)
	st.AddProjectItem(board, st.Repo("acme", "gadgets").Issue(1), st.Account("bob"))
	st.Unlock()
	const doc = `query { organization(login: "acme") { projectV2(number: 2) { items(first: 10) { nodes {
  type content { __typename } fieldValues(first: 10) { totalCount } } } } } }`
	type items struct {
		Organization struct {
			ProjectV2 struct {
				Items struct {
					Nodes []struct {
						Type    string
						Content *struct {
							Typename string `json:"__typename"`
						}
						FieldValues struct{ TotalCount int }
					}
				}
			}
		}
	}
	var dave, carol items
	w.query(seed.DemoTokenDave, doc, nil).ok(t, &dave)
	w.query(seed.DemoTokenCarol, doc, nil).ok(t, &carol)
	d, c := dave.Organization.ProjectV2.Items.Nodes, carol.Organization.ProjectV2.Items.Nodes
	if len(d) != 3 || d[2].Type != "REDACTED" || d[2].Content != nil || d[2].FieldValues.TotalCount != 0 {
		t.Errorf("dave sees %+v", d)
	}
	if len(c) != 3 || c[2].Type != "ISSUE" || c[2].Content == nil || c[2].FieldValues.TotalCount == 0 {
		t.Errorf("carol, who reads gadgets, sees %+v", c)
	}
}
