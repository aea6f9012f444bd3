package emulator

import (
	"net/http"
	"strings"
)

func (e *Emulator) listAssignees(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	out := []*userJSON{}
	for _, a := range paginate(c, c.assignable(r)) {
		out = append(out, renderSimpleUser(c.links, a))
	}
	c.json(http.StatusOK, out)
}

func (e *Emulator) checkAssignee(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	login := c.req.PathValue("assignee")
	for _, a := range c.assignable(r) {
		if strings.EqualFold(a.Login, login) {
			c.noContent()
			return
		}
	}
	c.notFound()
}

func (c *restCall) assigneesBody() ([]string, bool) {
	var in struct {
		Assignees []string `json:"assignees"`
	}
	if !c.decode(&in) {
		return nil, false
	}
	return in.Assignees, true
}

// Adding and removing assignees answer 201 and 200 to anyone who can see
// the issue: GitHub's description says assignees sent without push access
// are silently ignored, and lists no 403 for either route.

func (e *Emulator) addAssignees(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	logins, ok := c.assigneesBody()
	if !ok {
		return
	}
	if c.token.Permission(r) < PermTriage {
		logins = nil
	}
	// GitHub ignores logins that cannot be assigned here.
	var users []*Account
	for _, login := range logins {
		if a := c.st.Account(login); a != nil && (r.IsCollaborator(login) || a == r.Owner) {
			users = append(users, a)
		}
	}
	c.st.Assign(is, c.viewer, users...)
	c.json(http.StatusCreated, renderIssueDetail(c.links, is))
}

func (e *Emulator) removeAssignees(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	logins, ok := c.assigneesBody()
	if !ok {
		return
	}
	if c.token.Permission(r) < PermTriage {
		logins = nil
	}
	var users []*Account
	for _, login := range logins {
		if a := c.st.Account(login); a != nil {
			users = append(users, a)
		}
	}
	c.st.Unassign(is, c.viewer, users...)
	c.json(http.StatusOK, renderIssueDetail(c.links, is))
}
