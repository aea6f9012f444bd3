package graphql_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// The nullCases and idOnlyCases rows of the repository and issue comment
// mutations.
func init() {
	maps.Copy(nullCases, repoNullCases)
	maps.Copy(idOnlyCases, repoIDOnlyCases)
}

// repoRead reads back what createRepository sets.
const repoRead = `... on Repository { owner { login } description homepageUrl hasWikiEnabled hasIssuesEnabled }`

var repoNullCases = map[string]nullCase{
	// A merged pull request's revert: a null title, body or draft is
	// GitHub's default.
	"revertPullRequest": {token: seed.DemoTokenAlice, created: "revertPullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, _ := w.freshPull(t)
			w.mutate(t, seed.DemoTokenAlice, "mergePullRequest", map[string]any{"pullRequestId": pr})
			n := fmt.Sprint(dig(w.data(t, seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { ... on PullRequest { number } } }`,
				map[string]any{"id": pr}), "node", "number"))
			return nullRun{input: map[string]any{"pullRequestId": pr, "title": "T", "body": "B", "draft": true},
				vars: map[string]string{"N": n}}
		},
		fields: map[string]nullWant{
			"title": {read: revertRead, want: `{"title":"Revert \"Nulls\"","body":"B","isDraft":true}`},
			"body":  {read: revertRead, want: `{"title":"T","body":"Reverts acme/widgets#$N","isDraft":true}`},
			"draft": {read: revertRead, want: `{"title":"T","body":"B","isDraft":false}`},
		}},
	// A create-mutation's null optional field is its default: the viewer
	// owns it, no description or homepage, wiki and issues on.
	"createRepository": {token: seed.DemoTokenAlice, created: "repository",
		run: func(t *testing.T, w *nullWorld) nullRun {
			acme := dig(w.data(t, seed.DemoTokenAlice, `{ organization(login: "acme") { id } }`, nil), "organization", "id")
			return nullRun{input: map[string]any{"name": w.unique("nulls"), "ownerId": acme, "description": "d", "visibility": "PRIVATE",
				"homepageUrl": "https://h.example", "hasWikiEnabled": false, "hasIssuesEnabled": false, "template": false}}
		},
		fields: map[string]nullWant{
			"ownerId":          {read: repoRead, want: `{"owner":{"login":"alice"},"description":"d","homepageUrl":"https://h.example","hasWikiEnabled":false,"hasIssuesEnabled":false}`},
			"description":      {read: repoRead, want: `{"owner":{"login":"acme"},"description":null,"homepageUrl":"https://h.example","hasWikiEnabled":false,"hasIssuesEnabled":false}`},
			"homepageUrl":      {read: repoRead, want: `{"owner":{"login":"acme"},"description":"d","homepageUrl":null,"hasWikiEnabled":false,"hasIssuesEnabled":false}`},
			"hasWikiEnabled":   {read: repoRead, want: `{"owner":{"login":"acme"},"description":"d","homepageUrl":"https://h.example","hasWikiEnabled":true,"hasIssuesEnabled":false}`},
			"hasIssuesEnabled": {read: repoRead, want: `{"owner":{"login":"acme"},"description":"d","homepageUrl":"https://h.example","hasWikiEnabled":false,"hasIssuesEnabled":true}`},
			// Neither a template nor a team is modelled: nothing changes.
			"template": {read: repoRead, want: `{"owner":{"login":"acme"},"description":"d","homepageUrl":"https://h.example","hasWikiEnabled":false,"hasIssuesEnabled":false}`},
			"teamId":   {read: repoRead, want: `{"owner":{"login":"acme"},"description":"d","homepageUrl":"https://h.example","hasWikiEnabled":false,"hasIssuesEnabled":false}`},
		}},
}

// revertRead reads back the revert revertPullRequest opens.
const revertRead = `... on PullRequest { title body isDraft }`

// freshRepo is a new private repository of alice's.
func (w *nullWorld) freshRepo(t *testing.T) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenAlice, `mutation($input: CreateRepositoryInput!) { createRepository(input: $input) { repository { id } } }`,
		map[string]any{"input": map[string]any{"name": w.unique("nulls"), "visibility": "PRIVATE"}})
	return dig(d, "createRepository", "repository", "id").(string)
}

// freshComment is a new comment of alice's on a new issue.
func (w *nullWorld) freshComment(t *testing.T) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenAlice, `mutation($input: AddCommentInput!) { addComment(input: $input) { commentEdge { node { id } } } }`,
		map[string]any{"input": map[string]any{"subjectId": w.freshIssue(t), "body": "c"}})
	return dig(d, "addComment", "commentEdge", "node", "id").(string)
}

var repoIDOnlyCases = map[string]func(t *testing.T, w *nullWorld) (token string, input map[string]any){
	"archiveRepository": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"repositoryId": w.freshRepo(t)}
	},
	"unarchiveRepository": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		id := w.freshRepo(t)
		w.mutate(t, seed.DemoTokenAlice, "archiveRepository", map[string]any{"repositoryId": id})
		return seed.DemoTokenAlice, map[string]any{"repositoryId": id}
	},
	"updateIssueComment": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"id": w.freshComment(t), "body": "edited"}
	},
	"deleteIssueComment": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"id": w.freshComment(t)}
	},
}
