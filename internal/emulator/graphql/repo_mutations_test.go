package graphql_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// gh repo create, archive and unarchive, and gh issue comment
// --edit-last and --delete-last, as GitHub's CLI sends them, with the
// refusals GitHub gives.
func TestRepoAndCommentMutations(t *testing.T) {
	w := newGQLWorld(t, &fidelityCount{})
	st := w.emu.State()
	st.Lock()
	st.AddAccount("dave", "", false, gqlEpoch)
	st.AddToken(&state.Token{Value: "emu-dave", Login: "dave", Perms: map[string]state.Permission{}})
	st.Unlock()
	ids := map[string]string{}
	var acme struct{ Organization struct{ ID string } }
	w.query("emu-alice", `{ organization(login: "acme") { id } }`, nil).ok(t, &acme)
	ids["acme"] = acme.Organization.ID

	const create = `mutation RepositoryCreate($input: CreateRepositoryInput!) {
  createRepository(input: $input) { repository { id name owner { login } url isPrivate description } } }`
	const archive = `mutation ArchiveRepository($input: ArchiveRepositoryInput!) { archiveRepository(input: $input) { repository { id isArchived } } }`
	const unarchive = `mutation UnarchiveRepository($input: UnarchiveRepositoryInput!) { unarchiveRepository(input: $input) { repository { id isArchived } } }`
	const addComment = `mutation($input: AddCommentInput!) { addComment(input: $input) { commentEdge { node { id } } } }`
	const update = `mutation CommentUpdate($input: UpdateIssueCommentInput!) { updateIssueComment(input: $input) { issueComment { url body } } }`
	const del = `mutation CommentDelete($input: DeleteIssueCommentInput!) { deleteIssueComment(input: $input) { clientMutationId } }`
	var issue struct {
		Repository struct{ Issue struct{ ID string } }
	}
	w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { issue(number: 1) { id } } }`, nil).ok(t, &issue)
	var cm struct {
		AddComment struct {
			CommentEdge struct{ Node struct{ ID string } }
		}
	}
	w.query("emu-bob", addComment, map[string]any{"input": map[string]any{"subjectId": issue.Repository.Issue.ID, "body": "bob's"}}).ok(t, &cm)
	bobs := cm.AddComment.CommentEdge.Node.ID

	for _, c := range []struct {
		name, token, doc string
		input            map[string]any
		want             string // a substring of the data, or of the first error's "type: message"
	}{
		{"create for the viewer", "emu-carol", create, map[string]any{"name": "kit", "visibility": "PRIVATE", "description": "Kit"},
			`"name":"kit","owner":{"login":"carol"},"url":"` + "http"},
		{"name taken", "emu-carol", create, map[string]any{"name": "kit", "visibility": "PUBLIC"}, "UNPROCESSABLE: Name already exists on this account"},
		{"create in an organization", "emu-bob", create, map[string]any{"name": "gears", "visibility": "PUBLIC", "ownerId": "$acme"},
			`"owner":{"login":"acme"}`},
		{"not a member", "emu-dave", create, map[string]any{"name": "daves", "visibility": "PUBLIC", "ownerId": "$acme"},
			"FORBIDDEN: dave does not have the correct permissions to execute `CreateRepository`"},
		{"archive refused", "emu-bob", archive, map[string]any{"repositoryId": "$widgets"}, "FORBIDDEN: bob does not have the correct permissions to execute `ArchiveRepository`"},
		{"archive", "emu-carol", archive, map[string]any{"repositoryId": "$kit"}, `"isArchived":true`},
		{"unarchive", "emu-carol", unarchive, map[string]any{"repositoryId": "$kit"}, `"isArchived":false`},
		{"comment edit refused", "emu-carol", update, map[string]any{"id": bobs, "body": "carol's"}, "FORBIDDEN: carol does not have the correct permissions to execute `UpdateIssueComment`"},
		{"comment edit blank", "emu-bob", update, map[string]any{"id": bobs, "body": " "}, "UNPROCESSABLE: Body can't be blank"},
		{"comment edit by its author", "emu-bob", update, map[string]any{"id": bobs, "body": "edited"}, `"body":"edited"`},
		{"comment delete refused", "emu-carol", del, map[string]any{"id": bobs}, "FORBIDDEN: carol does not have the correct permissions to execute `DeleteIssueComment`"},
		{"comment delete with write access", "emu-alice", del, map[string]any{"id": bobs}, `{"deleteIssueComment":{"clientMutationId":null}}`},
		{"comment gone", "emu-alice", del, map[string]any{"id": bobs}, "NOT_FOUND: Could not resolve to a node with the global id of '" + bobs + "'"},
	} {
		for k, v := range c.input {
			if s, ok := v.(string); ok && strings.HasPrefix(s, "$") {
				c.input[k] = ids[s[1:]]
			}
		}
		res := w.query(c.token, c.doc, map[string]any{"input": c.input})
		got := string(res.Data)
		if len(res.Errors) > 0 {
			got = res.Errors[0].Type + ": " + res.Errors[0].Message
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: got %s, want %q", c.name, res.raw, c.want)
		}
		if c.name == "create for the viewer" {
			var d struct {
				CreateRepository struct{ Repository struct{ ID string } }
			}
			res.ok(t, &d)
			ids["kit"] = d.CreateRepository.Repository.ID
			var r struct{ Repository struct{ ID string } }
			w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { id } }`, nil).ok(t, &r)
			ids["widgets"] = r.Repository.ID
		}
	}
}
