package graphql_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	if p.Title != seed.DemoProjectTitle {
		t.Errorf("board Title = %q, want %q", p.Title, seed.DemoProjectTitle)
	}
	if p.Number != 1 {
		t.Errorf("board Number = %d, want 1", p.Number)
	}
	if p.Public {
		t.Errorf("board Public = true, want false")
	}
	if p.Closed {
		t.Errorf("board Closed = true, want false")
	}
	if !p.ViewerCanUpdate {
		t.Errorf("board ViewerCanUpdate = false, want true for alice")
	}
	if !strings.HasSuffix(p.URL, "/orgs/acme/projects/1") {
		t.Errorf("board URL = %q, want one ending in %q", p.URL, "/orgs/acme/projects/1")
	}
	if p.ResourcePath != "/orgs/acme/projects/1" {
		t.Errorf("board ResourcePath = %q, want %q", p.ResourcePath, "/orgs/acme/projects/1")
	}
	if p.Owner.Login != "acme" {
		t.Errorf("board Owner.Login = %q, want %q", p.Owner.Login, "acme")
	}
	if !strings.HasPrefix(p.ID, "PVT_") {
		t.Errorf("board ID = %q, want one starting %q", p.ID, "PVT_")
	}
	var names []string
	byName := map[string]projectField{}
	for _, f := range p.Fields.Nodes {
		names = append(names, f.Name)
		byName[f.Name] = f
	}
	want := []string{"Title", "Assignees", "Status", "Labels", "Linked pull requests", "Milestone", "Repository", "Reviewers",
		"Priority", "Iteration", "Estimate", "Target date", "Notes"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("field names mismatch (-want +got):\n%s", diff)
	}
	if p.Fields.TotalCount != len(want) {
		t.Errorf("fields totalCount = %d, want %d", p.Fields.TotalCount, len(want))
	}
	for name, typ := range map[string]string{"Status": "ProjectV2SingleSelectField", "Iteration": "ProjectV2IterationField",
		"Estimate": "ProjectV2Field", "Title": "ProjectV2Field"} {
		if byName[name].Typename != typ {
			t.Errorf("%s is a %s, want %s", name, byName[name].Typename, typ)
		}
	}
	if f := byName["Estimate"]; f.DataType != "NUMBER" {
		t.Errorf("Estimate dataType = %q, want NUMBER", f.DataType)
	}
	if f := byName["Estimate"]; !strings.HasPrefix(f.ID, "PVTF_") {
		t.Errorf("Estimate id = %q, want one starting %q", f.ID, "PVTF_")
	}
	var opts []string
	for _, o := range byName["Status"].Options {
		opts = append(opts, o.Name)
		if len(o.ID) != 8 {
			t.Errorf("Status option %q: id %q has %d characters, want 8", o.Name, o.ID, len(o.ID))
		}
		if o.Color == "" {
			t.Errorf("Status option %q: color is empty, want one", o.Name)
		}
	}
	if want := []string{"Todo", "In progress", "Done"}; !slices.Equal(opts, want) {
		t.Errorf("Status options = %q, want %q", opts, want)
	}
	if it := byName["Iteration"].Config; it == nil {
		t.Errorf("Iteration configuration is nil, want one")
	} else {
		if it.Duration != 14 {
			t.Errorf("Iteration duration = %d, want 14", it.Duration)
		}
		if it.StartDay != 1 {
			t.Errorf("Iteration startDay = %d, want 1", it.StartDay)
		}
		if len(it.Iterations) != 2 {
			t.Errorf("Iteration has %d iterations %+v, want 2", len(it.Iterations), it.Iterations)
		}
		if len(it.CompletedIterations) != 1 {
			t.Errorf("Iteration has %d completed iterations %+v, want 1", len(it.CompletedIterations), it.CompletedIterations)
		}
		if len(it.Iterations) == 2 && it.Iterations[0].ID != seed.DemoIterationIDs()[1] {
			t.Errorf("first iteration id = %q, want %q", it.Iterations[0].ID, seed.DemoIterationIDs()[1])
		}
	}
	if p.Status.Name != "Status" {
		t.Errorf(`field(name: "status") name = %q, want "Status"`, p.Status.Name)
	}
	if len(p.Status.Options) != 1 {
		t.Errorf(`options(names: ["done"]) = %+v, want 1 option`, p.Status.Options)
	} else if p.Status.Options[0].Name != "Done" {
		t.Errorf(`options(names: ["done"]) name = %q, want "Done"`, p.Status.Options[0].Name)
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
	if p.Items.TotalCount != wantItems {
		t.Errorf("items totalCount = %d, want %d", p.Items.TotalCount, wantItems)
	}
	if diff := cmp.Diff(map[string]int{"ISSUE": 42, "PULL_REQUEST": 3, "DRAFT_ISSUE": 2},
		map[string]int{"ISSUE": counts["ISSUE"], "PULL_REQUEST": counts["PULL_REQUEST"], "DRAFT_ISSUE": counts["DRAFT_ISSUE"]}); diff != "" {
		t.Errorf("items by type mismatch (-want +got):\n%s", diff)
	}
	if archived != 3 {
		t.Errorf("archived items = %d, want 3", archived)
	}
	if p.Items.PageInfo.HasNextPage {
		t.Errorf("items hasNextPage = true, want false with first: 100")
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
	if got.TotalCount != 2 {
		t.Errorf("acme projects totalCount = %d, want 2", got.TotalCount)
	}
	if len(got.Nodes) < 2 {
		t.Errorf("acme projects = %+v, want 2", got.Nodes)
	} else {
		if got.Nodes[0].Number != 2 {
			t.Errorf("acme's first project = %d, want 2 (newest first)", got.Nodes[0].Number)
		}
		if got.Nodes[1].Number != 1 {
			t.Errorf("acme's second project = %d, want 1", got.Nodes[1].Number)
		}
		if !got.Nodes[0].Closed {
			t.Errorf("acme's first project closed = false, want true")
		}
	}
	if n := d.Organization.ByTitle.Nodes; len(n) != 2 {
		t.Errorf("by title = %+v, want 2 projects", n)
	} else if n[0].Number != 2 {
		t.Errorf("by title first = project %d, want 2", n[0].Number)
	}
	d = list{}
	w.query(seed.DemoTokenAlice, doc, map[string]any{"login": "acme", "q": "roadmap is:open"}).ok(t, &d)
	if n := d.Organization.ProjectsV2.Nodes; len(n) != 1 {
		t.Errorf("query roadmap is:open = %+v, want 1 project", n)
	} else if n[0].Title != seed.DemoProjectTitle {
		t.Errorf("query roadmap is:open title = %q, want %q", n[0].Title, seed.DemoProjectTitle)
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
	if u.User.ProjectV2.Title != "Personal planning" {
		t.Errorf("alice's board title = %q, want %q", u.User.ProjectV2.Title, "Personal planning")
	}
	if u.User.ProjectV2.Owner.Login != "alice" {
		t.Errorf("alice's board owner = %q, want alice", u.User.ProjectV2.Owner.Login)
	}
	if u.User.ProjectV2.Items.TotalCount != 6 {
		t.Errorf("alice's board items = %d, want 6", u.User.ProjectV2.Items.TotalCount)
	}
	if u.User.ProjectsV2.TotalCount != 1 {
		t.Errorf("alice's projectsV2 totalCount = %d, want 1", u.User.ProjectsV2.TotalCount)
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
	var nums []int
	for _, n := range is.Repository.Issue.All.Nodes {
		nums = append(nums, n.Project.Number)
	}
	if want := []int{1, 2}; !slices.Equal(nums, want) {
		t.Errorf("issue 9 projectItems on projects %v, want %v", nums, want)
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
		t.Fatalf("%d items over three pages, want 47", len(items))
	}
	repos := map[string]int{}
	kinds := map[string]bool{}
	for _, it := range items {
		if it.Content == nil {
			t.Fatalf("item %s has no content for alice", it.ID)
		}
		repos[it.Content.Repository.NameWithOwner]++
		if it.Status == nil {
			t.Errorf("item %s Status = null, want a value", it.ID)
		}
		first := it.FieldValues.Nodes[0]
		if first.Typename != "ProjectV2ItemFieldTextValue" {
			t.Errorf("item %s: first value is a %s, want ProjectV2ItemFieldTextValue", it.ID, first.Typename)
		}
		if first.Field.Name != "Title" {
			t.Errorf("item %s: first value's field = %q, want Title", it.ID, first.Field.Name)
		}
		if first.Text == nil || *first.Text == "" {
			t.Errorf("item %s: first value's text is empty, want the title", it.ID)
		}
		for _, v := range it.FieldValues.Nodes {
			kinds[v.Typename+":"+v.Field.Name] = true
			if v.Typename == "ProjectV2ItemFieldSingleSelectValue" && v.Name == nil {
				t.Errorf("item %s: %s value has no name, want one", it.ID, v.Field.Name)
			}
			if v.Typename == "ProjectV2ItemFieldSingleSelectValue" && v.OptionID == nil {
				t.Errorf("item %s: %s value has no optionId, want one", it.ID, v.Field.Name)
			}
		}
	}
	if repos["acme/widgets"] != 33 {
		t.Errorf("acme/widgets items = %d, want 33 (by repository %v)", repos["acme/widgets"], repos)
	}
	if repos["acme/gadgets"] != 12 {
		t.Errorf("acme/gadgets items = %d, want 12 (by repository %v)", repos["acme/gadgets"], repos)
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
		if d.Type != "DRAFT_ISSUE" {
			t.Errorf("item %s type = %q, want DRAFT_ISSUE", d.ID, d.Type)
		}
		if d.Content.Typename != "DraftIssue" {
			t.Errorf("item %s content is a %s, want DraftIssue", d.ID, d.Content.Typename)
		}
		if d.Content.Title == "" {
			t.Errorf("item %s draft title is empty, want one", d.ID)
		}
	}
}

func testProjectVisibility(t *testing.T, w *gqlWorld) {
	// dave is no member of acme: its private roadmap does not resolve,
	// its public (closed) board does.
	r := w.query(seed.DemoTokenDave, projectBoardDoc, map[string]any{"org": "acme", "n": 1})
	checkOneError(t, "dave reads the roadmap", r.Errors,
		wantErr{Type: "NOT_FOUND", Message: "Could not resolve to a ProjectV2 with the number 1."})
	var d struct {
		Organization struct {
			ProjectsV2 struct{ Nodes []struct{ Number int } }
		}
	}
	w.query(seed.DemoTokenDave, `query { organization(login: "acme") { projectsV2(first: 5) { nodes { number } } } }`, nil).ok(t, &d)
	if n := d.Organization.ProjectsV2.Nodes; len(n) != 1 {
		t.Errorf("dave lists %+v, want 1 project", n)
	} else if n[0].Number != 2 {
		t.Errorf("dave lists project %d, want 2", n[0].Number)
	}
	// carol reads the roadmap but may not change it; gadgets items are
	// hidden from nobody who reads gadgets.
	carol := readBoard(t, w, seed.DemoTokenCarol).Organization.ProjectV2
	if carol.ViewerCanUpdate {
		t.Errorf("carol's viewerCanUpdate = true, want false")
	}
	if carol.Items.TotalCount != 47 {
		t.Errorf("carol's items totalCount = %d, want 47", carol.Items.TotalCount)
	}
	// A classic token without the project scopes is refused with GitHub's
	// INSUFFICIENT_SCOPES.
	r = w.query(seed.DemoTokenAliceNoProject, projectBoardDoc, map[string]any{"org": "acme", "n": 1})
	checkOneError(t, "no project scope", r.Errors, wantErr{Type: "INSUFFICIENT_SCOPES",
		Contains: []string{"The 'projectV2' field requires one of the following scopes: ['read:project'], but your token has only been granted the: ['read:org', 'repo'] scopes."}})
	// A fine-grained token reaches acme's board but never alice's own.
	if p := readBoard(t, w, seed.DemoTokenAliceFineGrained).Organization.ProjectV2; p.Title != seed.DemoProjectTitle {
		t.Errorf("fine-grained token on acme's board: title = %q, want %q", p.Title, seed.DemoProjectTitle)
	}
	r = w.query(seed.DemoTokenAliceFineGrained, `query { user(login: "alice") { projectV2(number: 1) { title } } }`, nil)
	checkOneError(t, "fine-grained token on alice's board", r.Errors, wantErr{Type: "NOT_FOUND"})
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
	if n.Node.Typename != "ProjectV2" {
		t.Errorf("node(board) is a %q, want ProjectV2", n.Node.Typename)
	}
	if n.Node.Title != seed.DemoProjectTitle {
		t.Errorf("node(board) title = %q, want %q", n.Node.Title, seed.DemoProjectTitle)
	}
	w.query(seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { __typename } }`,
		map[string]any{"id": p.Items.Nodes[0].ID}).ok(t, &n)
	if n.Node.Typename != "ProjectV2Item" {
		t.Errorf("node(item) is a %q, want ProjectV2Item", n.Node.Typename)
	}
	r = w.query(seed.DemoTokenDave, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": p.ID})
	checkOneError(t, "dave's node(board)", r.Errors, wantErr{Type: "NOT_FOUND"})
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
		t.Errorf("%q: totalCount = %d, want %d, the nodes returned", q, d.Organization.ProjectV2.Items.TotalCount, len(d.Organization.ProjectV2.Items.Nodes))
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
		if errs != nil {
			t.Errorf("items(query: %q): errors %+v, want none", tc.q, errs)
		}
		if len(got) != tc.want {
			t.Errorf("items(query: %q): %d items, want %d", tc.q, len(got), tc.want)
		}
	}
	// Iterations by relative name: the seed puts every third item in each.
	cur, _ := filteredItems(t, w, `iteration:@current`)
	next, _ := filteredItems(t, w, `iteration:@next`)
	prev, _ := filteredItems(t, w, `iteration:@previous`)
	none, _ := filteredItems(t, w, `no:iteration`)
	for _, it := range []struct {
		q     string
		items []projectItem
	}{{"iteration:@current", cur}, {"iteration:@next", next}, {"iteration:@previous", prev}} {
		if len(it.items) == 0 {
			t.Errorf("%s matched nothing, want some items", it.q)
		}
	}
	if got := len(cur) + len(next) + len(prev) + len(none); got != len(all)-3 {
		t.Errorf("iterations: current %d + next %d + previous %d + none %d = %d, want %d, the live items",
			len(cur), len(next), len(prev), len(none), got, len(all)-3)
	}
	est, _ := filteredItems(t, w, `estimate:>=5 estimate:<=7`)
	rangeEst, _ := filteredItems(t, w, `estimate:5..7`)
	if len(est) == 0 {
		t.Errorf("estimate:>=5 estimate:<=7 matched nothing, want some items")
	}
	if len(rangeEst) != len(est) {
		t.Errorf("estimate:5..7 matched %d items, want %d like estimate:>=5 estimate:<=7", len(rangeEst), len(est))
	}
	if got, _ := filteredItems(t, w, `has:target-date`); len(got) == 0 {
		t.Error("has:target-date matched nothing")
	}
	if got, _ := filteredItems(t, w, `"target date":>=2026-01-01 priority:P0`); len(got) == 0 {
		t.Error(`"target date":>=2026-01-01 priority:P0 matched nothing`)
	}
	_, errs := filteredItems(t, w, `sprint:@current`)
	checkOneError(t, "unknown field sprint", errs, wantErr{Contains: []string{`no field "sprint"`, "iteration"}})
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
	if len(d) != 3 {
		t.Errorf("dave sees %d items %+v, want 3", len(d), d)
	} else {
		if d[2].Type != "REDACTED" {
			t.Errorf("dave's third item type = %q, want REDACTED", d[2].Type)
		}
		if d[2].Content != nil {
			t.Errorf("dave's third item content = %+v, want null", d[2].Content)
		}
		if d[2].FieldValues.TotalCount != 0 {
			t.Errorf("dave's third item fieldValues totalCount = %d, want 0", d[2].FieldValues.TotalCount)
		}
	}
	if len(c) != 3 {
		t.Errorf("carol, who reads gadgets, sees %d items %+v, want 3", len(c), c)
	} else {
		if c[2].Type != "ISSUE" {
			t.Errorf("carol's third item type = %q, want ISSUE", c[2].Type)
		}
		if c[2].Content == nil {
			t.Errorf("carol's third item content = null, want the issue")
		}
		if c[2].FieldValues.TotalCount == 0 {
			t.Errorf("carol's third item fieldValues totalCount = 0, want some")
		}
	}
}
