package emulator

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

const commentDocs = "rest/issues/comments"

func (e *Emulator) listComments(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	var since time.Time
	if v := c.req.URL.Query().Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			c.invalid("", commentDocs, fieldError{Resource: "IssueComment", Field: "since", Code: "invalid"})
			return
		}
		since = t
	}
	var list []*Comment
	for _, cm := range is.Comments {
		if since.IsZero() || !cm.UpdatedAt.Before(since) {
			list = append(list, cm)
		}
	}
	out := []commentJSON{}
	for _, cm := range paginate(c, list) {
		out = append(out, renderComment(c.links, cm))
	}
	c.json(http.StatusOK, out)
}

func (c *restCall) commentBody(doc string) (string, bool) {
	var in struct {
		Body optional[string] `json:"body"`
	}
	if !c.decode(&in) {
		return "", false
	}
	if !in.Body.Set || in.Body.Null || strings.TrimSpace(in.Body.Value) == "" {
		c.invalid("", doc, fieldError{Resource: "IssueComment", Field: "body", Code: "missing_field"})
		return "", false
	}
	if c.tooLong(doc, "IssueComment", false, "", true, in.Body.Value) {
		return "", false
	}
	return in.Body.Value, true
}

func (e *Emulator) createComment(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	// A locked conversation takes comments only from collaborators with
	// write access.
	if is.Locked && c.token.Permission(r) < PermWrite {
		c.forbidden()
		return
	}
	body, ok := c.commentBody(commentDocs + "#create-an-issue-comment")
	if !ok {
		return
	}
	cm := c.st.AddComment(is, c.viewer, body, c.st.Now(), c.req.Host)
	c.st.Touch(is)
	out := renderComment(c.links, cm)
	c.w.Header().Set("Location", out.URL)
	c.json(http.StatusCreated, out)
}

func (c *restCall) commentFor(r *Repo) *Comment {
	id, err := strconv.ParseInt(c.req.PathValue("comment_id"), 10, 64)
	cm := r.FindComment(id)
	if err != nil || cm == nil || cm.Issue.Deleted {
		c.notFound()
		return nil
	}
	return cm
}

func (e *Emulator) getComment(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	if cm := c.commentFor(r); cm != nil {
		c.json(http.StatusOK, renderComment(c.links, cm))
	}
}

func (e *Emulator) updateComment(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	cm := c.commentFor(r)
	if cm == nil {
		return
	}
	if cm.User != c.viewer && c.token.Permission(r) < PermWrite {
		c.forbidden()
		return
	}
	body, ok := c.commentBody(commentDocs + "#update-an-issue-comment")
	if !ok {
		return
	}
	c.st.EditComment(cm, c.viewer, body, c.req.Host)
	c.json(http.StatusOK, renderComment(c.links, cm))
}

func (e *Emulator) deleteComment(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	cm := c.commentFor(r)
	if cm == nil {
		return
	}
	if cm.User != c.viewer && c.token.Permission(r) < PermWrite {
		c.forbidden()
		return
	}
	c.st.DeleteComment(cm)
	c.noContent()
}
