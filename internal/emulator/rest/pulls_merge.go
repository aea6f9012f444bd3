package rest

import (
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// mergeRequest is the body of PUT .../pulls/{pull_number}/merge.
type mergeRequest struct {
	CommitTitle   string `json:"commit_title"`
	CommitMessage string `json:"commit_message"`
	SHA           string `json:"sha"`
	MergeMethod   string `json:"merge_method"`
}

const mergeDoc = "rest/pulls/pulls#merge-a-pull-request"

// mergePull merges as GitHub's REST API does: 405 for a pull request that
// cannot be merged (closed, draft, conflicting, or held by the branch's
// protection), 409 when sha is not the head, 422 for an unknown method.
func mergePull(c *call) {
	r, is := c.repoPull(state.PermWrite)
	if is == nil {
		return
	}
	var in mergeRequest
	if !c.Decode(&in) {
		return
	}
	if in.MergeMethod == "" {
		in.MergeMethod = "merge"
	}
	if in.MergeMethod != "merge" && in.MergeMethod != "squash" && in.MergeMethod != "rebase" {
		c.Invalid("", mergeDoc, wire.FieldError{Resource: "PullRequest", Field: "merge_method", Code: "invalid", Value: in.MergeMethod})
		return
	}
	p := is.Pull
	switch {
	case is.State != "open" || p.Conflicts(r):
		c.Fail(http.StatusMethodNotAllowed, "Pull Request is not mergeable", mergeDoc)
		return
	case p.Draft:
		c.Fail(http.StatusMethodNotAllowed, "Pull Request is still a draft", mergeDoc)
		return
	case in.SHA != "" && in.SHA != p.Head.SHA:
		c.Fail(http.StatusConflict, "Head branch was modified. Review and try the merge again.", mergeDoc)
		return
	}
	if c.Token.Permission(r) < state.PermAdmin {
		if why := state.MergeBlocker(is); why != "" {
			c.Fail(http.StatusMethodNotAllowed, why, mergeDoc)
			return
		}
	}
	commit := c.State.Merge(is, c.Viewer, state.MergeOptions{Method: in.MergeMethod, Title: in.CommitTitle, Message: in.CommitMessage})
	c.JSON(http.StatusOK, struct {
		SHA     string `json:"sha"`
		Merged  bool   `json:"merged"`
		Message string `json:"message"`
	}{commit.SHA, true, "Pull Request successfully merged"})
}

// checkMerged answers 204 when the pull request was merged, else 404.
func checkMerged(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	if !is.Merged {
		c.NotFound()
		return
	}
	c.NoContent()
}
