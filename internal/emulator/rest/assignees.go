package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

func listAssignees(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	out := []*userJSON{}
	for _, a := range paginate(c, c.Assignable(r)) {
		out = append(out, renderSimpleUser(c.Links, a))
	}
	c.JSON(http.StatusOK, out)
}

func checkAssignee(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	login := c.Req.PathValue("assignee")
	for _, a := range c.Assignable(r) {
		if strings.EqualFold(a.Login, login) {
			c.NoContent()
			return
		}
	}
	c.NotFound()
}

func (c *call) assigneesBody() ([]string, bool) {
	var in struct {
		Assignees []string `json:"assignees"`
	}
	if !c.Decode(&in) {
		return nil, false
	}
	return in.Assignees, true
}

// Adding and removing assignees answer 201 and 200 to anyone who can see
// the issue: GitHub's description says assignees sent without push access
// are silently ignored, and lists no 403 for either route.

func addAssignees(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	logins, ok := c.assigneesBody()
	if !ok {
		return
	}
	if c.Token.Permission(r) < state.PermTriage {
		logins = nil
	}
	// GitHub ignores logins that cannot be assigned here.
	var users []*state.Account
	for _, login := range logins {
		if a := c.State.Account(login); a != nil && (r.IsCollaborator(login) || a == r.Owner) {
			users = append(users, a)
		}
	}
	c.State.Assign(is, c.Viewer, users...)
	c.JSON(http.StatusCreated, renderIssueDetail(c.Links, is))
}

func removeAssignees(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	logins, ok := c.assigneesBody()
	if !ok {
		return
	}
	if c.Token.Permission(r) < state.PermTriage {
		logins = nil
	}
	var users []*state.Account
	for _, login := range logins {
		if a := c.State.Account(login); a != nil {
			users = append(users, a)
		}
	}
	c.State.Unassign(is, c.Viewer, users...)
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, is))
}
