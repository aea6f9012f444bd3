package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The needs of GitHub's App permissions, by mutation. Conversations on
// issues and pull requests take either permission, as their REST routes do.
var (
	issuesWrite   = state.Need("issues", "write")
	pullsWrite    = state.Need("pull_requests", "write")
	issuesOrPRsW  = issuesWrite.Or(pullsWrite)
	contentsWrite = state.Need("contents", "write")
	boardsWrite   = state.Need("organization_projects", "write")
	adminWrite    = state.Need("administration", "write")
)

// mutationNeeds is what each mutation asks of an installation token.
var mutationNeeds = map[string]state.AppNeed{
	"addComment": issuesOrPRsW, "updateIssueComment": issuesOrPRsW, "deleteIssueComment": issuesOrPRsW,
	"lockLockable": issuesOrPRsW, "unlockLockable": issuesOrPRsW,
	"addLabelsToLabelable": issuesOrPRsW, "removeLabelsFromLabelable": issuesOrPRsW,
	"createLabel": issuesOrPRsW, "updateLabel": issuesOrPRsW, "deleteLabel": issuesOrPRsW,
	"replaceActorsForAssignable": issuesOrPRsW,

	"createIssue": issuesWrite, "updateIssue": issuesWrite, "closeIssue": issuesWrite, "reopenIssue": issuesWrite,
	"pinIssue": issuesWrite, "unpinIssue": issuesWrite, "transferIssue": issuesWrite,
	// Only a repository's admins delete issues; an App is one through
	// administration.
	"deleteIssue": {Sets: []state.AppPermissions{{"issues": "write", "administration": "write"}}},
	// A linked branch is a new ref.
	"createLinkedBranch": contentsWrite, "deleteLinkedBranch": contentsWrite,

	"createPullRequest": pullsWrite, "updatePullRequest": pullsWrite, "closePullRequest": pullsWrite,
	"reopenPullRequest": pullsWrite, "convertPullRequestToDraft": pullsWrite, "markPullRequestReadyForReview": pullsWrite,
	"requestReviews": pullsWrite, "addPullRequestReview": pullsWrite, "submitPullRequestReview": pullsWrite,
	"deletePullRequestReview": pullsWrite, "addPullRequestReviewThread": pullsWrite,
	"addPullRequestReviewThreadReply": pullsWrite, "resolveReviewThread": pullsWrite, "unresolveReviewThread": pullsWrite,
	"updatePullRequestBranch": pullsWrite,
	// Merging writes the base branch; a revert pushes a branch and opens
	// a pull request.
	"mergePullRequest":  contentsWrite,
	"revertPullRequest": {Sets: []state.AppPermissions{{"contents": "write", "pull_requests": "write"}}},

	"createRepository": adminWrite, "archiveRepository": adminWrite, "unarchiveRepository": adminWrite,

	"createProjectV2": boardsWrite, "updateProjectV2": boardsWrite, "deleteProjectV2": boardsWrite, "copyProjectV2": boardsWrite,
	"markProjectV2AsTemplate": boardsWrite, "unmarkProjectV2AsTemplate": boardsWrite,
	"createProjectV2Field": boardsWrite, "deleteProjectV2Field": boardsWrite,
	"addProjectV2ItemById": boardsWrite, "addProjectV2DraftIssue": boardsWrite, "updateProjectV2DraftIssue": boardsWrite,
	"updateProjectV2ItemFieldValue": boardsWrite, "clearProjectV2ItemFieldValue": boardsWrite,
	"updateProjectV2ItemPosition": boardsWrite, "archiveProjectV2Item": boardsWrite, "unarchiveProjectV2Item": boardsWrite,
	"deleteProjectV2Item":       boardsWrite,
	"linkProjectV2ToRepository": boardsWrite, "unlinkProjectV2FromRepository": boardsWrite,
	"linkProjectV2ToTeam": boardsWrite, "unlinkProjectV2FromTeam": boardsWrite,
}

// admitMutation holds a mutation made with a GitHub App installation
// token to the token's permissions before its resolver runs, as GitHub
// does: without them the field is null and the error is FORBIDDEN
// "Resource not accessible by integration". A fine-grained token with
// grants is held to them alike, refused with "Resource not accessible by
// personal access token". A mutation the table does not name is refused to
// such tokens. Other tokens pass. Queries are not gated by permission.
func (ex *execution) admitMutation(def *ast.FieldDefinition) error {
	perms, refusal, held := ex.x.c.Token.HeldTo()
	if !held {
		return nil
	}
	need, ok := mutationNeeds[def.Name]
	if ok && need.MetBy(perms) {
		return nil
	}
	return &gqlError{Type: "FORBIDDEN", Message: refusal}
}
