package rest

import (
	"fmt"
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

const updateBranchDoc = "rest/pulls/pulls#update-a-pull-request-branch"

// updateBranchRequest is the body of PUT .../pulls/{pull_number}/update-branch.
type updateBranchRequest struct {
	ExpectedHeadSHA string `json:"expected_head_sha"`
}

// updatePullBranch merges the base branch into the pull request's head
// branch, as GitHub's "Update branch" does. GitHub answers 202 while it
// works in the background; the emulator has merged by the time it
// answers. 422 when the head already holds the base, when
// expected_head_sha is not the head, or when the merge conflicts.
func updatePullBranch(c *call) {
	r, is := c.repoPull(state.PermWrite)
	if is == nil {
		return
	}
	var in updateBranchRequest
	if !c.Decode(&in) {
		return
	}
	if !state.MayUpdateBranch(is, c.Token) {
		c.Fail(http.StatusForbidden, "Resource not accessible by personal access token", updateBranchDoc)
		return
	}
	if is.State != "open" {
		c.Fail(http.StatusUnprocessableEntity, "Pull request is not open.", updateBranchDoc)
		return
	}
	if _, err := c.State.UpdateBranch(is, c.Viewer, in.ExpectedHeadSHA); err != nil {
		c.Fail(http.StatusUnprocessableEntity, err.Error(), updateBranchDoc)
		return
	}
	c.JSON(http.StatusAccepted, struct {
		Message string `json:"message"`
		URL     string `json:"url"`
	}{"Updating pull request branch.", fmt.Sprintf("%s/repos/%s/pulls/%d", c.Links.Web, r.FullName(), is.Number)})
}
