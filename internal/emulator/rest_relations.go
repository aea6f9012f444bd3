package emulator

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

const (
	subIssueDocs   = "rest/issues/sub-issues"
	dependencyDocs = "rest/issues/issue-dependencies"
)

func (c *restCall) issueList(list []*Issue) {
	live := make([]*Issue, 0, len(list))
	for _, is := range list {
		if !is.Deleted && c.token.Permission(is.Repo) >= PermRead {
			live = append(live, is)
		}
	}
	out := []*issueJSON{}
	for _, is := range paginate(c, live) {
		out = append(out, renderIssue(c.links, is))
	}
	c.json(http.StatusOK, out)
}

// linkError answers a refused link with GitHub's 422 (or 404 for an absent
// link).
func (c *restCall) linkError(err error, resource, field, doc string) {
	switch {
	case errors.Is(err, state.ErrNotLinked):
		c.notFound()
	default:
		c.invalid(err.Error(), doc, fieldError{Resource: resource, Field: field, Code: "invalid", Message: err.Error()})
	}
}

func (e *Emulator) listSubIssues(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	if is := c.issueFor(r); is != nil {
		c.issueList(is.SubIssues)
	}
}

// subIssueByID finds a sub-issue candidate by database id; GitHub allows
// sub-issues from other repositories the token can see within the owner.
func (c *restCall) subIssueByID(id int64) *Issue {
	is := c.st.IssueByID(id)
	if is == nil || is.Deleted || c.token.Permission(is.Repo) == PermNone {
		return nil
	}
	return is
}

func (e *Emulator) addSubIssue(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	parent := c.issueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID    optional[int64] `json:"sub_issue_id"`
		ReplaceParent bool            `json:"replace_parent"`
	}
	if !c.decode(&in) {
		return
	}
	const doc = subIssueDocs + "#add-sub-issue"
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.invalid("", doc, fieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	if child == nil {
		c.notFound()
		return
	}
	if err := c.st.AddSubIssue(parent, child, c.viewer, in.ReplaceParent); err != nil {
		c.linkError(err, "SubIssue", "sub_issue_id", doc)
		return
	}
	c.json(http.StatusCreated, renderIssueDetail(c.links, parent))
}

func (e *Emulator) removeSubIssue(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	parent := c.issueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID optional[int64] `json:"sub_issue_id"`
	}
	if !c.decode(&in) {
		return
	}
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.invalid("", subIssueDocs+"#remove-sub-issue", fieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	if child == nil {
		c.notFound()
		return
	}
	if err := c.st.RemoveSubIssue(parent, child, c.viewer); err != nil {
		c.linkError(err, "SubIssue", "sub_issue_id", subIssueDocs+"#remove-sub-issue")
		return
	}
	c.json(http.StatusOK, renderIssueDetail(c.links, parent))
}

func (e *Emulator) reprioritizeSubIssue(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	parent := c.issueFor(r)
	if parent == nil {
		return
	}
	var in struct {
		SubIssueID optional[int64] `json:"sub_issue_id"`
		AfterID    optional[int64] `json:"after_id"`
		BeforeID   optional[int64] `json:"before_id"`
	}
	if !c.decode(&in) {
		return
	}
	const doc = subIssueDocs + "#reprioritize-sub-issue"
	if !in.SubIssueID.Set || in.SubIssueID.Null {
		c.invalid("", doc, fieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "missing_field"})
		return
	}
	if in.AfterID.Set == in.BeforeID.Set {
		c.invalid("Either after_id or before_id must be specified, but not both.", doc,
			fieldError{Resource: "SubIssue", Field: "after_id", Code: "invalid"})
		return
	}
	child := c.subIssueByID(in.SubIssueID.Value)
	var after, before *Issue
	if in.AfterID.Set {
		after = c.subIssueByID(in.AfterID.Value)
	} else {
		before = c.subIssueByID(in.BeforeID.Value)
	}
	if child == nil || (after == nil && before == nil) {
		c.notFound()
		return
	}
	if err := c.st.ReprioritizeSubIssue(parent, child, after, before); err != nil {
		c.invalid("The sub-issue or its anchor is not a sub-issue of this issue.", doc,
			fieldError{Resource: "SubIssue", Field: "sub_issue_id", Code: "invalid"})
		return
	}
	c.json(http.StatusOK, renderIssueDetail(c.links, parent))
}

func (e *Emulator) getParent(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	if is.Parent == nil || c.token.Permission(is.Parent.Repo) == PermNone {
		c.notFound()
		return
	}
	c.json(http.StatusOK, renderIssueDetail(c.links, is.Parent))
}

func (e *Emulator) listBlockedBy(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	if is := c.issueFor(r); is != nil {
		c.issueList(is.BlockedBy)
	}
}

func (e *Emulator) listBlocking(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	if is := c.issueFor(r); is != nil {
		c.issueList(is.Blocking)
	}
}

func (e *Emulator) addBlockedBy(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	var in struct {
		IssueID optional[int64] `json:"issue_id"`
	}
	if !c.decode(&in) {
		return
	}
	const doc = dependencyDocs + "#add-a-dependency-an-issue-is-blocked-by"
	if !in.IssueID.Set || in.IssueID.Null {
		c.invalid("", doc, fieldError{Resource: "IssueDependency", Field: "issue_id", Code: "missing_field"})
		return
	}
	blocker := c.subIssueByID(in.IssueID.Value)
	if blocker == nil {
		c.notFound()
		return
	}
	if err := c.st.AddBlockedBy(is, blocker, c.viewer); err != nil {
		c.linkError(err, "IssueDependency", "issue_id", doc)
		return
	}
	c.json(http.StatusCreated, renderIssueDetail(c.links, blocker))
}

func (e *Emulator) removeBlockedBy(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	id, err := strconv.ParseInt(c.req.PathValue("issue_id"), 10, 64)
	blocker := c.subIssueByID(id)
	if err != nil || blocker == nil {
		c.notFound()
		return
	}
	if err := c.st.RemoveBlockedBy(is, blocker, c.viewer); err != nil {
		c.linkError(err, "IssueDependency", "issue_id", dependencyDocs)
		return
	}
	c.json(http.StatusOK, renderIssueDetail(c.links, blocker))
}
