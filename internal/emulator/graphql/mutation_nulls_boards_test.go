package graphql_test

import (
	"maps"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// The nullCases and idOnlyCases rows of the board mutations.
func init() {
	maps.Copy(nullCases, boardNullCases)
	maps.Copy(idOnlyCases, boardIDOnlyCases)
}

var boardNullCases = map[string]nullCase{
	// A null teamId links no team; the board is created all the same.
	"createProjectV2": {token: seed.DemoTokenAlice, created: "projectV2",
		run: func(t *testing.T, w *nullWorld) nullRun {
			title := w.unique("Nulls")
			return nullRun{input: map[string]any{"ownerId": w.acme(t), "title": title, "repositoryId": w.repo},
				target: w.repo, vars: map[string]string{"TITLE": title}}
		},
		fields: map[string]nullWant{
			// No repository linked: widgets lists no such board.
			"repositoryId": {read: `... on Repository { projectsV2(first: 5, query: "$TITLE") { nodes { title } } }`,
				want: `{"projectsV2":{"nodes":[]}}`},
			"teamId": {read: `... on Repository { projectsV2(first: 5, query: "$TITLE") { nodes { title } } }`,
				want: `{"projectsV2":{"nodes":[{"title":"$TITLE"}]}}`},
		}},
	// The board is public and closed, with a description and a readme,
	// before the update.
	"updateProjectV2": {token: seed.DemoTokenAlice, created: "projectV2",
		run: func(t *testing.T, w *nullWorld) nullRun {
			p := w.freshBoard(t, nil)
			w.mutate(t, seed.DemoTokenAlice, "updateProjectV2", map[string]any{"projectId": p, "public": true, "closed": true,
				"shortDescription": "old", "readme": "old"})
			return nullRun{input: map[string]any{"projectId": p, "title": "Renamed", "shortDescription": "s", "readme": "r",
				"public": false, "closed": false}}
		},
		fields: map[string]nullWant{
			// Flags with nothing to clear: left as they were.
			"closed":           {read: `... on ProjectV2 { public closed }`, want: `{"public":false,"closed":true}`},
			"public":           {read: `... on ProjectV2 { public closed }`, want: `{"public":true,"closed":false}`},
			"readme":           {read: `... on ProjectV2 { shortDescription readme }`, want: `{"shortDescription":"s","readme":null}`},
			"shortDescription": {read: `... on ProjectV2 { shortDescription readme }`, want: `{"shortDescription":null,"readme":"r"}`},
			"title":            {refused: "Title can't be blank"},
		}},
	// Project 1 holds a draft issue.
	"copyProjectV2": {token: seed.DemoTokenAlice, created: "projectV2",
		run: func(t *testing.T, w *nullWorld) nullRun {
			w.freshDraft(t)
			return nullRun{input: map[string]any{"projectId": w.project, "ownerId": w.acme(t), "title": w.unique("Copy"), "includeDraftIssues": true}}
		},
		fields: map[string]nullWant{
			// The default, false: no draft is copied.
			"includeDraftIssues": {read: `... on ProjectV2 { items(first: 5) { totalCount } }`, want: `{"items":{"totalCount":0}}`},
		}},
	"createProjectV2Field": {token: seed.DemoTokenAlice, created: "projectV2Field",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"projectId": w.project, "name": w.unique("Pick"), "dataType": "SINGLE_SELECT",
				"singleSelectOptions": []any{map[string]any{"name": "A", "color": "RED", "description": "a"}}}}
		},
		fields: map[string]nullWant{
			// GitHub's default schedule: two-week iterations, three of them.
			"iterationConfiguration": {read: `... on ProjectV2IterationField { configuration { duration iterations { duration } } }`,
				want: `{"configuration":{"duration":14,"iterations":[{"duration":14},{"duration":14},{"duration":14}]}}`,
				run: func(t *testing.T, w *nullWorld) nullRun {
					return nullRun{input: map[string]any{"projectId": w.project, "name": w.unique("Sprint"), "dataType": "ITERATION",
						"iterationConfiguration": map[string]any{"duration": 7, "startDate": "2026-01-05",
							"iterations": []any{map[string]any{"title": "One", "startDate": "2026-01-05", "duration": 7}}}}}
				}},
			"singleSelectOptions": {refused: "At least one option is required for a single select field"},
		}},
	"updateProjectV2DraftIssue": {token: seed.DemoTokenAlice, created: "draftIssue",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"draftIssueId": w.freshDraft(t), "title": "Renamed", "body": "new body",
				"assigneeIds": []string{w.alice}}}
		},
		fields: map[string]nullWant{
			"assigneeIds": {read: `... on DraftIssue { assignees(first: 5) { nodes { login } } }`, want: `{"assignees":{"nodes":[]}}`},
			"body":        {read: `... on DraftIssue { title body }`, want: `{"title":"Renamed","body":""}`},
			"title":       {refused: "Title can't be blank"},
		}},
}

var boardIDOnlyCases = map[string]func(t *testing.T, w *nullWorld) (token string, input map[string]any){
	"deleteProjectV2": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, nil)}
	},
	"deleteProjectV2Field": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		d := w.mutate(t, seed.DemoTokenAlice, "createProjectV2Field", map[string]any{"projectId": w.project, "name": w.unique("Gone"),
			"dataType": "TEXT"}, "projectV2Field { ... on ProjectV2Field { id } }")
		return seed.DemoTokenAlice, map[string]any{"fieldId": dig(d, "projectV2Field", "id")}
	},
	"linkProjectV2ToRepository": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, nil), "repositoryId": w.repo}
	},
	"unlinkProjectV2FromRepository": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, map[string]any{"repositoryId": w.repo}), "repositoryId": w.repo}
	},
	"markProjectV2AsTemplate": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, nil)}
	},
	"unmarkProjectV2AsTemplate": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		p := w.freshBoard(t, nil)
		w.data(t, seed.DemoTokenAlice, `mutation($p: ID!) { markProjectV2AsTemplate(input: {projectId: $p}) { clientMutationId } }`, map[string]any{"p": p})
		return seed.DemoTokenAlice, map[string]any{"projectId": p}
	},
	"linkProjectV2ToTeam": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, nil), "teamId": w.maintainers(t)}
	},
	"unlinkProjectV2FromTeam": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.freshBoard(t, map[string]any{"teamId": w.maintainers(t)}), "teamId": w.maintainers(t)}
	},
}

// maintainers is the node id of acme's maintainers team.
func (w *nullWorld) maintainers(t *testing.T) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenAlice, `{ organization(login: "acme") { team(slug: "maintainers") { id } } }`, nil)
	return dig(d, "organization", "team", "id").(string)
}

// acme is the acme organization's node id.
func (w *nullWorld) acme(t *testing.T) string {
	t.Helper()
	return dig(w.data(t, seed.DemoTokenAlice, `{ organization(login: "acme") { id } }`, nil), "organization", "id").(string)
}

// freshBoard creates a board of acme's, with the extra input, and returns
// its node id.
func (w *nullWorld) freshBoard(t *testing.T, extra map[string]any) string {
	t.Helper()
	input := map[string]any{"ownerId": w.acme(t), "title": w.unique("Board")}
	maps.Copy(input, extra)
	return dig(w.mutate(t, seed.DemoTokenAlice, "createProjectV2", input, "projectV2 { id }"), "projectV2", "id").(string)
}

// freshDraft adds a draft issue with a body, assigned to alice, to project
// 1 and returns the draft's node id.
func (w *nullWorld) freshDraft(t *testing.T) string {
	t.Helper()
	d := w.mutate(t, seed.DemoTokenAlice, "addProjectV2DraftIssue", map[string]any{"projectId": w.project, "title": "Draft",
		"body": "old body", "assigneeIds": []string{w.alice}}, "projectItem { content { ... on DraftIssue { id } } }")
	return dig(d, "projectItem", "content", "id").(string)
}
