package rest

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

const (
	subIssueDocs   = "rest/issues/sub-issues"
	dependencyDocs = "rest/issues/issue-dependencies"
)

func (c *call) issueList(list []*state.Issue) {
	live := make([]*state.Issue, 0, len(list))
	for _, is := range list {
		if !is.Deleted && c.Token.Permission(is.Repo) >= state.PermRead {
			live = append(live, is)
		}
	}
	out := []*issueJSON{}
	for _, is := range paginate(c, live) {
		out = append(out, renderIssue(c.Links, is))
	}
	c.JSON(http.StatusOK, out)
}

// linkError answers a refused link with GitHub's 422 (or 404 for an absent
// link).
func (c *call) linkError(err error, resource, field, doc string) {
	switch {
	case errors.Is(err, state.ErrNotLinked):
		c.NotFound()
	default:
		c.Invalid(err.Error(), doc, wire.FieldError{Resource: resource, Field: field, Code: "invalid", Message: err.Error()})
	}
}

func listSubIssues(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.issueList(is.SubIssues)
	}
}

// subIssueByID finds a sub-issue candidate by database id; GitHub allows
// sub-issues from other repositories the token can see within the owner.
func (c *call) subIssueByID(id int64) *state.Issue {
	is := c.State.IssueByID(id)
	if is == nil || is.Deleted || c.Token.Permission(is.Repo) == state.PermNone {
		return nil
	}
	return is
}

func addSubIssue(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	parent := c.IssueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID    wire.Optional[int64] `json:"sub_issue_id"`
		ReplaceParent bool                 `json:"replace_parent"`
	}
	if !c.Decode(&in) {
		return
	}
	const doc = subIssueDocs + "#add-sub-issue"
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.Invalid("", doc, wire.FieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	if child == nil {
		c.NotFound()
		return
	}
	if err := c.State.AddSubIssue(parent, child, c.Viewer, in.ReplaceParent); err != nil {
		c.linkError(err, "SubIssue", "sub_issue_id", doc)
		return
	}
	c.JSON(http.StatusCreated, renderIssueDetail(c.Links, parent))
}

func removeSubIssue(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	parent := c.IssueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID wire.Optional[int64] `json:"sub_issue_id"`
	}
	if !c.Decode(&in) {
		return
	}
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.Invalid("", subIssueDocs+"#remove-sub-issue", wire.FieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	if child == nil {
		c.NotFound()
		return
	}
	if err := c.State.RemoveSubIssue(parent, child, c.Viewer); err != nil {
		c.linkError(err, "SubIssue", "sub_issue_id", subIssueDocs+"#remove-sub-issue")
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, parent))
}

func reprioritizeSubIssue(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	parent := c.IssueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID wire.Optional[int64] `json:"sub_issue_id"`
		AfterID    wire.Optional[int64] `json:"after_id"`
		BeforeID   wire.Optional[int64] `json:"before_id"`
	}
	if !c.Decode(&in) {
		return
	}
	const doc = subIssueDocs + "#reprioritize-sub-issue"
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.Invalid("", doc, wire.FieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	if in.AfterID.Set == in.BeforeID.Set {
		c.Invalid("Either after_id or before_id must be specified, but not both.", doc,
			wire.FieldError{Resource: "SubIssue", Field: "after_id", Code: "invalid"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	var after, before *state.Issue
	if in.AfterID.Set {
		after = c.subIssueByID(in.AfterID.Value)
	} else {
		before = c.subIssueByID(in.BeforeID.Value)
	}
	if child == nil || (after == nil && before == nil) {
		c.NotFound()
		return
	}
	if err := c.State.ReprioritizeSubIssue(parent, child, after, before); err != nil {
		c.Invalid("The sub-issue or its anchor is not a sub-issue of this issue.", doc,
			wire.FieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "invalid"})
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, parent))
}

func getParent(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	if is.Parent == nil || c.Token.Permission(is.Parent.Repo) == state.PermNone {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, is.Parent))
}

func listBlockedBy(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.issueList(is.BlockedBy)
	}
}

func listBlocking(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.issueList(is.Blocking)
	}
}

// linkTarget reads the issue a link is made from (the path's) and the one
// named by the body's issue_id, answering GitHub's error when either is
// missing; resource names the link kind in a missing_field error.
func (c *call) linkTarget(resource, doc string) (is, other *state.Issue, ok bool) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return nil, nil, false
	}
	if is = c.IssueFor(r); is == nil {
		return nil, nil, false
	}
	var in struct {
		IssueID wire.Optional[int64] `json:"issue_id"`
	}
	if !c.Decode(&in) {
		return nil, nil, false
	}
	if !in.IssueID.Set || in.IssueID.Null {
		c.Invalid("", doc, wire.FieldError{Resource: resource, Field: "issue_id", Code: "missing_field"})
		return nil, nil, false
	}
	if other = c.subIssueByID(in.IssueID.Value); other == nil {
		c.NotFound()
		return nil, nil, false
	}
	return is, other, true
}

// unlinkTarget reads the issue a link is removed from (the path's) and the
// one the path's issue_id names, answering 404 when either is missing.
func (c *call) unlinkTarget() (is, other *state.Issue, ok bool) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return nil, nil, false
	}
	if is = c.IssueFor(r); is == nil {
		return nil, nil, false
	}
	id, err := strconv.ParseInt(c.Req.PathValue("issue_id"), 10, 64)
	other = c.subIssueByID(id)
	if err != nil || other == nil {
		c.NotFound()
		return nil, nil, false
	}
	return is, other, true
}

func addBlockedBy(c *call) {
	const doc = dependencyDocs + "#add-a-dependency-an-issue-is-blocked-by"
	is, blocker, ok := c.linkTarget("IssueDependency", doc)
	if !ok {
		return
	}
	if err := c.State.AddBlockedBy(is, blocker, c.Viewer); err != nil {
		c.linkError(err, "IssueDependency", "issue_id", doc)
		return
	}
	c.JSON(http.StatusCreated, renderIssueDetail(c.Links, blocker))
}

func removeBlockedBy(c *call) {
	is, blocker, ok := c.unlinkTarget()
	if !ok {
		return
	}
	if err := c.State.RemoveBlockedBy(is, blocker, c.Viewer); err != nil {
		c.linkError(err, "IssueDependency", "issue_id", dependencyDocs)
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, blocker))
}
