package graphql_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// Templates and team links on acme's roadmap, each write read back, and
// whether the viewer may create boards for an organization.
func TestGraphQLProjectTemplatesAndTeams(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	b := readBoardWorldIDs(t, w)
	type board struct {
		Template bool
		Teams    struct{ Nodes []struct{ Slug string } }
	}
	read := func() board {
		t.Helper()
		var d struct{ Node board }
		w.query(seed.DemoTokenAlice, `query($p: ID!) { node(id: $p) { ... on ProjectV2 { template teams(first: 5) { nodes { slug } } } } }`,
			map[string]any{"p": b.roadmap}).ok(t, &d)
		return d.Node
	}
	run := func(doc string, vars map[string]any) {
		t.Helper()
		w.query(seed.DemoTokenAlice, doc, vars).ok(t, &struct{}{})
	}
	run(`mutation($p: ID!) { markProjectV2AsTemplate(input: {projectId: $p}) { projectV2 { template } } }`, map[string]any{"p": b.roadmap})
	if !read().Template {
		t.Error("after markProjectV2AsTemplate: template = false, want true")
	}
	run(`mutation($p: ID!) { unmarkProjectV2AsTemplate(input: {projectId: $p}) { projectV2 { template } } }`, map[string]any{"p": b.roadmap})
	if read().Template {
		t.Error("after unmarkProjectV2AsTemplate: template = true, want false")
	}
	link := `mutation($p: ID!, $tm: ID!) { linkProjectV2ToTeam(input: {projectId: $p, teamId: $tm}) { team { slug } } }`
	run(link, map[string]any{"p": b.roadmap, "tm": b.maintainers})
	run(link, map[string]any{"p": b.roadmap, "tm": b.maintainers}) // linking again changes nothing
	if got := read().Teams.Nodes; len(got) != 1 {
		t.Errorf("linked teams %+v, want maintainers alone", got)
	} else if got[0].Slug != "maintainers" {
		t.Errorf("linked team = %s, want maintainers", got[0].Slug)
	}
	run(`mutation($p: ID!, $tm: ID!) { unlinkProjectV2FromTeam(input: {projectId: $p, teamId: $tm}) { team { slug } } }`,
		map[string]any{"p": b.roadmap, "tm": b.maintainers})
	if got := read().Teams.Nodes; len(got) != 0 {
		t.Errorf("after unlinkProjectV2FromTeam: teams %+v, want none", got)
	}

	// A board created with a team is linked to it.
	var created struct {
		CreateProjectV2 struct {
			ProjectV2 struct {
				Teams struct{ Nodes []struct{ Slug string } }
			}
		}
	}
	w.query(seed.DemoTokenAlice, `mutation($o: ID!, $tm: ID!) { createProjectV2(input: {ownerId: $o, title: "Team board", teamId: $tm}) {
  projectV2 { teams(first: 5) { nodes { slug } } } } }`, map[string]any{"o": b.acme, "tm": b.maintainers}).ok(t, &created)
	if got := created.CreateProjectV2.ProjectV2.Teams.Nodes; len(got) != 1 {
		t.Errorf("created board's teams %+v, want maintainers alone", got)
	} else if got[0].Slug != "maintainers" {
		t.Errorf("created board's team = %s, want maintainers", got[0].Slug)
	}

	// acme's members may create boards for it; dave, outside it, may not.
	for token, want := range map[string]bool{seed.DemoTokenAlice: true, seed.DemoTokenCarol: true, seed.DemoTokenDave: false} {
		var d struct {
			Organization struct{ ViewerCanCreateProjects bool }
		}
		w.query(token, `{ organization(login: "acme") { viewerCanCreateProjects } }`, nil).ok(t, &d)
		if d.Organization.ViewerCanCreateProjects != want {
			t.Errorf("%s: viewerCanCreateProjects %v, want %v", token, d.Organization.ViewerCanCreateProjects, want)
		}
	}
}
