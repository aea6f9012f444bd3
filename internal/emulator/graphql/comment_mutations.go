package graphql

import (
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// updateIssueComment and deleteIssueComment, as GitHub's schema defines
// them (UpdateIssueCommentInput, DeleteIssueCommentInput). As PATCH and
// DELETE .../issues/comments/{id} do, they let the comment's author or
// anyone with write access act, through the same state operations.

type updateIssueCommentArgs struct {
	Input struct {
		ID               gqlID   `json:"id"`
		Body             string  `json:"body"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type deleteIssueCommentArgs struct {
	Input struct {
		ID               gqlID   `json:"id"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// commentPayload is UpdateIssueCommentPayload, and without its comment
// DeleteIssueCommentPayload.
type commentPayload struct {
	comment          *state.Comment
	clientMutationID *string
}

func registerCommentMutations(r *resolvers) {
	resolveArgs(r, "Mutation.updateIssueComment", updateIssueComment)
	resolve(r, "UpdateIssueCommentPayload.issueComment", func(_ *gqlContext, p *commentPayload) (any, error) { return p.comment, nil })
	resolveArgs(r, "Mutation.deleteIssueComment", deleteIssueComment)
	for _, t := range []string{"UpdateIssueCommentPayload", "DeleteIssueCommentPayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *commentPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// issueComment finds the comment a mutation names, as the caller may see
// it, and checks the caller may change it: its author, or write access.
func (x *gqlContext) issueComment(id gqlID, mutation string) (*state.Comment, error) {
	cm, _ := x.visibleNode(string(id)).(*state.Comment)
	if cm == nil {
		return nil, nodeNotFound(string(id))
	}
	if cm.User != x.c.Viewer && x.c.Token.Permission(cm.Issue.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, mutation)
	}
	return cm, nil
}

func updateIssueComment(x *gqlContext, _ root, a updateIssueCommentArgs) (any, error) {
	cm, err := x.issueComment(a.Input.ID, "UpdateIssueComment")
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(a.Input.Body) == "":
		return nil, unprocessable("Body can't be blank")
	case utf8.RuneCountInString(a.Input.Body) > state.MaxBodyChars:
		return nil, unprocessable("Body is too long (maximum is 65536 characters)")
	}
	x.st.EditComment(cm, x.c.Viewer, a.Input.Body, x.c.Req.Host)
	return &commentPayload{comment: cm, clientMutationID: a.Input.ClientMutationID}, nil
}

func deleteIssueComment(x *gqlContext, _ root, a deleteIssueCommentArgs) (any, error) {
	cm, err := x.issueComment(a.Input.ID, "DeleteIssueComment")
	if err != nil {
		return nil, err
	}
	x.st.DeleteComment(cm)
	return &commentPayload{clientMutationID: a.Input.ClientMutationID}, nil
}
