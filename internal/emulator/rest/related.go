package rest

import (
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Related issues (state/related.go). GitHub's docs list "List issues
// related to an issue", "Add a related issue" and "Remove a related issue"
// among the REST API endpoints for issues of API version 2026-03-10 only
// (docs.github.com/rest/issues/issues?apiVersion=2026-03-10); the 2022-11-28
// docs and GitHub Enterprise Server's (3.22 and older) have no such
// endpoints, and @octokit/openapi 23.0.2 does not describe them. So they
// answer only a request that names 2026-03-10 and is not answered as a
// GHES version (emulator Options.GHESVersion): any other gets the 404
// GitHub gives a path it does not serve.
//
// Their shapes follow the issue-dependency endpoints beside them: the
// list is an array of issues, add takes {"issue_id": <database id>} and
// answers 201 with the related issue, remove is DELETE .../related/{issue_id}
// and answers 200 with it.

const (
	relatedAPIVersion = "2026-03-10"
	relatedDocs       = "rest/issues/issues"
)

// relatedServed reports whether this request may reach the related-issue
// endpoints, answering 404 when not.
func (c *call) relatedServed() bool {
	if c.Req.Header.Get("X-GitHub-Api-Version") != relatedAPIVersion || c.GHES != "" {
		c.NotFound()
		return false
	}
	return true
}

func listRelated(c *call) {
	if !c.relatedServed() {
		return
	}
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.issueList(is.Related)
	}
}

func addRelated(c *call) {
	if !c.relatedServed() {
		return
	}
	const doc = relatedDocs + "#add-a-related-issue"
	is, other, ok := c.linkTarget("IssueRelation", doc)
	if !ok {
		return
	}
	if err := c.State.AddRelated(is, other); err != nil {
		c.linkError(err, "IssueRelation", "issue_id", doc)
		return
	}
	c.JSON(http.StatusCreated, renderIssueDetail(c.Links, other))
}

func removeRelated(c *call) {
	if !c.relatedServed() {
		return
	}
	is, other, ok := c.unlinkTarget()
	if !ok {
		return
	}
	if err := c.State.RemoveRelated(is, other); err != nil {
		c.linkError(err, "IssueRelation", "issue_id", relatedDocs+"#remove-a-related-issue")
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, other))
}
