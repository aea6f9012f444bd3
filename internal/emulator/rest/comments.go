package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

const commentDocs = "rest/issues/comments"

func listComments(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	var since time.Time
	if v := c.Req.URL.Query().Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			c.Invalid("", commentDocs, wire.FieldError{Resource: "IssueComment", Field: "since", Code: "invalid"})
			return
		}
		since = t
	}
	var list []*state.Comment
	for _, cm := range is.Comments {
		if since.IsZero() || !cm.UpdatedAt.Before(since) {
			list = append(list, cm)
		}
	}
	out := []commentJSON{}
	for _, cm := range paginate(c, list) {
		out = append(out, renderComment(c.Links, cm))
	}
	c.JSON(http.StatusOK, out)
}

func (c *call) commentBody(doc string) (string, bool) {
	var in struct {
		Body wire.Optional[string] `json:"body"`
	}
	if !c.Decode(&in) {
		return "", false
	}
	if !in.Body.Set || in.Body.Null || strings.TrimSpace(in.Body.Value) == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "IssueComment", Field: "body", Code: "missing_field"})
		return "", false
	}
	if c.tooLong(doc, "IssueComment", false, "", true, in.Body.Value) {
		return "", false
	}
	return in.Body.Value, true
}

func createComment(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	// A locked conversation takes comments only from collaborators with
	// write access.
	if is.Locked && c.Token.Permission(r) < state.PermWrite {
		c.Forbidden()
		return
	}
	body, ok := c.commentBody(commentDocs + "#create-an-issue-comment")
	if !ok {
		return
	}
	cm := c.State.AddComment(is, c.Viewer, body, c.State.Now(), c.Req.Host)
	c.State.Touch(is)
	out := renderComment(c.Links, cm)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

func (c *call) commentFor(r *state.Repo) *state.Comment {
	id, err := strconv.ParseInt(c.Req.PathValue("comment_id"), 10, 64)
	cm := r.FindComment(id)
	if err != nil || cm == nil || cm.Issue.Deleted {
		c.NotFound()
		return nil
	}
	return cm
}

func getComment(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if cm := c.commentFor(r); cm != nil {
		c.JSON(http.StatusOK, renderComment(c.Links, cm))
	}
}

func updateComment(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	cm := c.commentFor(r)
	if cm == nil {
		return
	}
	if cm.User != c.Viewer && c.Token.Permission(r) < state.PermWrite {
		c.Forbidden()
		return
	}
	body, ok := c.commentBody(commentDocs + "#update-an-issue-comment")
	if !ok {
		return
	}
	c.State.EditComment(cm, c.Viewer, body, c.Req.Host)
	c.JSON(http.StatusOK, renderComment(c.Links, cm))
}

func deleteComment(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	cm := c.commentFor(r)
	if cm == nil {
		return
	}
	if cm.User != c.Viewer && c.Token.Permission(r) < state.PermWrite {
		c.Forbidden()
		return
	}
	c.State.DeleteComment(cm)
	c.NoContent()
}
