package graphql_test

import (
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// The board mutations' refusals over the demo seed: acme's roadmap (alice
// admin, bob write, carol read, dave outside acme) and alice's personal
// board. Each refusal is GitHub's error, and nothing changes.

// boardWorldIDs are the ids the board mutations take.
type boardWorldIDs struct {
	acme, alice, roadmap, personal, widgets, gadgets, notes, maintainers string
	fields                                                               map[string]string
}

func readBoardWorldIDs(t *testing.T, w *gqlWorld) boardWorldIDs {
	t.Helper()
	var d struct {
		Organization struct {
			ID        string
			ProjectV2 struct {
				ID     string
				Fields struct{ Nodes []struct{ ID, Name string } }
			}
			Teams struct{ Nodes []struct{ ID, Slug string } }
		}
		User struct {
			ID        string
			ProjectV2 struct{ ID string }
		}
		Widgets, Gadgets, Notes struct{ ID string }
	}
	w.query(seed.DemoTokenAlice, `query($n: Int!) {
  organization(login: "acme") { id projectV2(number: $n) { id fields(first: 30) { nodes { ... on ProjectV2FieldCommon { id name } } } }
    teams(first: 10) { nodes { id slug } } }
  user(login: "alice") { id projectV2(number: 1) { id } }
  widgets: repository(owner: "acme", name: "widgets") { id }
  gadgets: repository(owner: "acme", name: "gadgets") { id }
  notes: repository(owner: "alice", name: "notes") { id } }`, map[string]any{"n": seed.DemoProjectNumber}).ok(t, &d)
	ids := boardWorldIDs{acme: d.Organization.ID, alice: d.User.ID, roadmap: d.Organization.ProjectV2.ID,
		personal: d.User.ProjectV2.ID, widgets: d.Widgets.ID, gadgets: d.Gadgets.ID, notes: d.Notes.ID, fields: map[string]string{}}
	for _, f := range d.Organization.ProjectV2.Fields.Nodes {
		ids.fields[f.Name] = f.ID
	}
	for _, tm := range d.Organization.Teams.Nodes {
		if tm.Slug == "maintainers" {
			ids.maintainers = tm.ID
		}
	}
	for name, id := range map[string]string{"acme's roadmap": ids.roadmap, "alice's board": ids.personal,
		"team maintainers": ids.maintainers, "the roadmap's Title field": ids.fields["Title"]} {
		if id == "" {
			t.Fatalf("%s: id is empty, want one read", name)
		}
	}
	return ids
}

func TestGraphQLProjectBoardRefusals(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	b := readBoardWorldIDs(t, w)
	// Unlink gadgets first, so unlinking it again is refused.
	w.query(seed.DemoTokenAlice, `mutation($p: ID!, $r: ID!) { unlinkProjectV2FromRepository(input: {projectId: $p, repositoryId: $r}) {
  repository { name } } }`, map[string]any{"p": b.roadmap, "r": b.gadgets}).ok(t, &struct{}{})
	before := boardSnapshot(t, w)
	notFound := func(id string) string { return "Could not resolve to a node with the global id of '" + id + "'" }
	forbidden := func(login, m string) string {
		return login + " does not have the correct permissions to execute `" + m + "`"
	}
	const (
		create     = `mutation($o: ID!, $t: String!) { createProjectV2(input: {ownerId: $o, title: $t}) { projectV2 { id } } }`
		createRepo = `mutation($o: ID!, $r: ID!) { createProjectV2(input: {ownerId: $o, title: "Linked", repositoryId: $r}) { projectV2 { id } } }`
		createTeam = `mutation($o: ID!, $tm: ID!) { createProjectV2(input: {ownerId: $o, title: "Team board", teamId: $tm}) { projectV2 { id } } }`
		update     = `mutation($p: ID!, $t: String) { updateProjectV2(input: {projectId: $p, title: $t}) { projectV2 { id } } }`
		del        = `mutation($p: ID!) { deleteProjectV2(input: {projectId: $p}) { projectV2 { id } } }`
		cp         = `mutation($p: ID!, $o: ID!, $t: String!) { copyProjectV2(input: {projectId: $p, ownerId: $o, title: $t}) { projectV2 { id } } }`
		field      = `mutation($p: ID!, $n: String!, $d: ProjectV2CustomFieldType!, $o: [ProjectV2SingleSelectFieldOptionInput!]) {
  createProjectV2Field(input: {projectId: $p, name: $n, dataType: $d, singleSelectOptions: $o}) { projectV2Field { ... on ProjectV2FieldCommon { id } } } }`
		delField = `mutation($f: ID!) { deleteProjectV2Field(input: {fieldId: $f}) { projectV2Field { ... on ProjectV2FieldCommon { id } } } }`
		link     = `mutation($p: ID!, $r: ID!) { linkProjectV2ToRepository(input: {projectId: $p, repositoryId: $r}) { repository { id } } }`
		unlink   = `mutation($p: ID!, $r: ID!) { unlinkProjectV2FromRepository(input: {projectId: $p, repositoryId: $r}) { repository { id } } }`
		linkTeam = `mutation($p: ID!, $tm: ID!) { linkProjectV2ToTeam(input: {projectId: $p, teamId: $tm}) { team { id } } }`
		unlinkTm = `mutation($p: ID!, $tm: ID!) { unlinkProjectV2FromTeam(input: {projectId: $p, teamId: $tm}) { team { id } } }`
		mark     = `mutation($p: ID!) { markProjectV2AsTemplate(input: {projectId: $p}) { projectV2 { id template } } }`
	)
	opt := []map[string]any{{"name": "Low", "color": "GRAY", "description": ""}}
	for _, tc := range []struct {
		name, token, doc  string
		vars              map[string]any
		wantType, wantMsg string
	}{
		{"create for another user", seed.DemoTokenBob, create, map[string]any{"o": b.alice, "t": "Mine"},
			"FORBIDDEN", forbidden("bob", "CreateProjectV2")},
		{"create for an organization one is not in", seed.DemoTokenDave, create, map[string]any{"o": b.acme, "t": "Mine"},
			"FORBIDDEN", forbidden("dave", "CreateProjectV2")},
		{"create without a title", seed.DemoTokenAlice, create, map[string]any{"o": b.acme, "t": "  "},
			"UNPROCESSABLE", "Title can't be blank"},
		{"create without the project scope", seed.DemoTokenAliceNoProject, create, map[string]any{"o": b.acme, "t": "Mine"},
			"INSUFFICIENT_SCOPES", "The 'createProjectV2' field requires one of the following scopes: ['project']"},
		{"create linked to another owner's repository", seed.DemoTokenAlice, createRepo, map[string]any{"o": b.acme, "r": b.notes},
			"UNPROCESSABLE", "The repository must be owned by the project's owner"},
		{"create for a user with a team", seed.DemoTokenAlice, createTeam, map[string]any{"o": b.alice, "tm": b.maintainers},
			"UNPROCESSABLE", "The team must belong to the organization that owns the project"},
		{"rename as a writer", seed.DemoTokenBob, update, map[string]any{"p": b.roadmap, "t": "Renamed"},
			"FORBIDDEN", forbidden("bob", "UpdateProjectV2")},
		{"rename to blank", seed.DemoTokenAlice, update, map[string]any{"p": b.roadmap, "t": ""},
			"UNPROCESSABLE", "Title can't be blank"},
		{"rename as an outsider", seed.DemoTokenDave, update, map[string]any{"p": b.roadmap, "t": "Renamed"},
			"NOT_FOUND", notFound(b.roadmap)},
		{"delete as a writer", seed.DemoTokenBob, del, map[string]any{"p": b.roadmap}, "FORBIDDEN", forbidden("bob", "DeleteProjectV2")},
		{"delete as a reader", seed.DemoTokenCarol, del, map[string]any{"p": b.roadmap}, "FORBIDDEN", forbidden("carol", "DeleteProjectV2")},
		{"copy to another user", seed.DemoTokenBob, cp, map[string]any{"p": b.roadmap, "o": b.alice, "t": "Copy"},
			"FORBIDDEN", forbidden("bob", "CopyProjectV2")},
		{"copy an unseen board", seed.DemoTokenDave, cp, map[string]any{"p": b.personal, "o": b.acme, "t": "Copy"},
			"FORBIDDEN", forbidden("dave", "CopyProjectV2")},
		{"copy without a title", seed.DemoTokenAlice, cp, map[string]any{"p": b.roadmap, "o": b.acme, "t": ""},
			"UNPROCESSABLE", "Title can't be blank"},
		{"field as a reader", seed.DemoTokenCarol, field, map[string]any{"p": b.roadmap, "n": "Size", "d": "TEXT"},
			"FORBIDDEN", forbidden("carol", "CreateProjectV2Field")},
		{"field with a taken name", seed.DemoTokenBob, field, map[string]any{"p": b.roadmap, "n": "Priority", "d": "TEXT"},
			"UNPROCESSABLE", "Name has already been taken"},
		{"field named as a built-in one", seed.DemoTokenBob, field, map[string]any{"p": b.roadmap, "n": "Title", "d": "TEXT"},
			"UNPROCESSABLE", "Name has already been taken"},
		{"field without a name", seed.DemoTokenBob, field, map[string]any{"p": b.roadmap, "n": " ", "d": "TEXT"},
			"UNPROCESSABLE", "Name can't be blank"},
		{"single select without options", seed.DemoTokenBob, field, map[string]any{"p": b.roadmap, "n": "Size", "d": "SINGLE_SELECT"},
			"UNPROCESSABLE", "At least one option is required for a single select field"},
		{"options on a text field", seed.DemoTokenBob, field, map[string]any{"p": b.roadmap, "n": "Size", "d": "TEXT", "o": opt},
			"UNPROCESSABLE", "Options can only be given for a single select field"},
		{"delete a built-in field", seed.DemoTokenBob, delField, map[string]any{"f": b.fields["Title"]},
			"UNPROCESSABLE", "The Title field is built into every project and cannot be deleted"},
		{"delete a field as a reader", seed.DemoTokenCarol, delField, map[string]any{"f": b.fields["Notes"]},
			"FORBIDDEN", forbidden("carol", "DeleteProjectV2Field")},
		{"link as a writer", seed.DemoTokenBob, link, map[string]any{"p": b.roadmap, "r": b.widgets},
			"FORBIDDEN", forbidden("bob", "LinkProjectV2ToRepository")},
		{"link another owner's repository", seed.DemoTokenAlice, link, map[string]any{"p": b.roadmap, "r": b.notes},
			"UNPROCESSABLE", "The repository must be owned by the project's owner"},
		{"unlink a repository never linked", seed.DemoTokenAlice, unlink, map[string]any{"p": b.roadmap, "r": b.gadgets},
			"UNPROCESSABLE", "The repository is not linked to the project"},
		{"link a team as a writer", seed.DemoTokenBob, linkTeam, map[string]any{"p": b.roadmap, "tm": b.maintainers},
			"FORBIDDEN", forbidden("bob", "LinkProjectV2ToTeam")},
		{"link a team to a user's board", seed.DemoTokenAlice, linkTeam, map[string]any{"p": b.personal, "tm": b.maintainers},
			"UNPROCESSABLE", "The team must belong to the organization that owns the project"},
		{"unlink a team never linked", seed.DemoTokenAlice, unlinkTm, map[string]any{"p": b.roadmap, "tm": b.maintainers},
			"UNPROCESSABLE", "The team is not linked to the project"},
		{"mark a user's board as a template", seed.DemoTokenAlice, mark, map[string]any{"p": b.personal},
			"UNPROCESSABLE", "Only projects owned by an organization can be templates"},
		{"mark as a writer", seed.DemoTokenBob, mark, map[string]any{"p": b.roadmap}, "FORBIDDEN", forbidden("bob", "MarkProjectV2AsTemplate")},
	} {
		r := w.query(tc.token, tc.doc, tc.vars)
		checkOneError(t, tc.name, r.Errors, wantErr{Type: tc.wantType, Contains: []string{tc.wantMsg}})
	}
	// Nothing changed: no board was made, renamed, deleted or marked, no
	// field made or deleted, no repository or team linked.
	if after := boardSnapshot(t, w); after != before {
		t.Errorf("a refused mutation changed the boards:\n%s\nwas\n%s", after, before)
	}
}

// boardSnapshot is what the refused board mutations would change.
func boardSnapshot(t *testing.T, w *gqlWorld) string {
	t.Helper()
	var d struct {
		Organization struct {
			ProjectV2 struct {
				Title        string
				Template     bool
				Fields       struct{ TotalCount int }
				Repositories struct{ Nodes []struct{ Name string } }
				Teams        struct{ Nodes []struct{ Slug string } }
			}
			ProjectsV2 struct{ TotalCount int }
		}
		User struct{ ProjectsV2 struct{ TotalCount int } }
	}
	w.query(seed.DemoTokenAlice, `query($n: Int!) { organization(login: "acme") { projectsV2(first: 1) { totalCount }
  projectV2(number: $n) { title template fields(first: 1) { totalCount } repositories(first: 20) { nodes { name } } teams(first: 10) { nodes { slug } } } }
  user(login: "alice") { projectsV2(first: 1) { totalCount } } }`, map[string]any{"n": seed.DemoProjectNumber}).ok(t, &d)
	return fmt.Sprintf("%+v", d)
}
