package admin

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// DeleteIssueIn are github_delete_issue's arguments.
type DeleteIssueIn struct {
	Owner       string              `json:"owner"`
	Repo        string              `json:"repo"`
	IssueNumber toolkit.IssueNumber `json:"issue_number"`
	// The confirmation is a second, separate statement of the number, so
	// a number slipped or guessed in one place deletes nothing.
	ConfirmIssueNumber toolkit.IssueNumber `json:"confirm_issue_number" jsonschema:"must repeat issue_number"`
}

// Validate refuses a confirmation that does not repeat the number. The
// repair reads the issue named, not the same call with the confirmation
// filled in: confirming is the agent's decision, after it has looked.
func (in *DeleteIssueIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if in.ConfirmIssueNumber == in.IssueNumber {
		return nil
	}
	e := contract.Errorf(contract.CodeConfirmationMismatch, "confirm_issue_number does not repeat issue_number; nothing was deleted").
		WithField("confirm_issue_number", "must equal issue_number exactly")
	return e.WithRepair(contract.Repair{NextStep: "read the issue to be sure it is the one to delete; then call again with confirm_issue_number equal to issue_number",
		Tool: toolkit.NameGetIssue, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": int(in.IssueNumber)}})
}

// DeleteIssueOut says what was deleted.
type DeleteIssueOut struct {
	IssueNumber int    `json:"issue_number"`
	Title       string `json:"title,omitempty" jsonschema:"of the deleted issue"`
	Deleted     bool   `json:"deleted,omitempty"`
	NoOp        bool   `json:"no_op,omitempty" jsonschema:"it was already deleted"`
	Note        string `json:"note"`
}

// irreversible is what every successful answer says.
const irreversible = "this cannot be undone: GitHub does not restore deleted issues, and their comments went with them"

// DeleteIssue is github_delete_issue.
func (s *Tools) DeleteIssue() tooldef.Spec {
	return tooldef.Tool[DeleteIssueIn, DeleteIssueOut]{
		Name:        toolkit.NameDeleteIssue,
		Toolset:     Toolset,
		Title:       "Delete issue",
		Description: "Delete an issue for good (repo admins only). Cannot be undone.",
		Mode:        tooldef.Write,
		Destructive: true,
		// A repeat finds the issue gone (GitHub answers 410) and says so.
		Idempotent: true,
		Run:        s.deleteIssue,
	}
}

// deleteIssue reads the issue (for its node id, and to refuse pull
// requests and issues outside the creator scope), then deletes it with
// GitHub's deleteIssue mutation: two requests.
func (s *Tools) deleteIssue(ctx context.Context, in DeleteIssueIn) (DeleteIssueOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return DeleteIssueOut{}, toolkit.NotStarted(err)
	}
	n := int(in.IssueNumber)
	out := DeleteIssueOut{IssueNumber: n}
	is, _, err := c.GetIssue(ctx, in.Owner, in.Repo, n)
	if err != nil {
		// GitHub answers 410 for a deleted issue, and also for every
		// issue of a repository whose issues are turned off; only the
		// first is this call's work already done.
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeGone && strings.Contains(strings.ToLower(e.Message), "deleted") {
			out.NoOp, out.Note = true, "the issue was already deleted; nothing was written. "+irreversible
			return out, nil
		}
		return DeleteIssueOut{}, toolkit.NotStarted(toolkit.NotFoundIssue(err, in.Owner, in.Repo, n))
	}
	if is.IsPullRequest() {
		e := refuse(contract.CodeIsPullRequest, "issue_number", "names a pull request",
			"%s/%s#%d is a pull request; GitHub deletes issues only, and nothing was written", in.Owner, in.Repo, n)
		return DeleteIssueOut{}, e.WithRepair(contract.Repair{NextStep: "close the pull request instead, if that is what you mean",
			Tool: toolkit.NameUpdateIssue, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": n, "state": "closed"}})
	}
	if !s.CreatorAllowed(is.GetUser().GetLogin()) {
		e := refuse(contract.CodeIssueCreatorNotAllowed, "issue_number", "opened by another user",
			"this deployment only acts on issues opened by %s; %s/%s#%d was not, and nothing was written", s.AllowedIssueCreator, in.Owner, in.Repo, n)
		return DeleteIssueOut{}, e
	}
	out.Title = is.GetTitle()
	if _, err := c.DeleteIssue(ctx, is.GetNodeID()); err != nil {
		e := toolkit.MapError(err)
		if e == nil {
			return DeleteIssueOut{}, err
		}
		if e.Code == contract.CodeInsufficientScope {
			e.Message = fmt.Sprintf("deleting %s/%s#%d needs admin permission on the repository, which this credential lacks: %s", in.Owner, in.Repo, n, e.Message)
			if e.Details == nil || len(e.Details.RequiredScopes) == 0 {
				// GitHub names no token scope here: what is missing is the
				// user's role on the repository, said in the scope
				// vocabulary of the other refusals (read:, write:).
				e.Details = &contract.Details{RequiredScopes: []string{"admin:" + in.Owner + "/" + in.Repo}}
			}
			e.Repair = &contract.Repair{NextStep: "stop: only a repository admin can delete issues; closing it needs less",
				Tool: toolkit.NameUpdateIssue, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": n, "state": "closed"},
				Alternative: "ask an admin to delete it"}
			return DeleteIssueOut{}, e
		}
		return DeleteIssueOut{}, writeLost(err, toolkit.NameDeleteIssue, in)
	}
	out.Deleted, out.Note = true, irreversible
	return out, nil
}
