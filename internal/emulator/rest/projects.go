package rest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Projects (v2) over REST, the endpoints GitHub documents under
// /orgs/{org}/projectsV2 and /users/{username}/projectsV2: an owner's
// boards, a board, its fields and its items (listed with the item filter
// q, read, added, updated, deleted). They answer from the same state as
// GraphQL, with the same rules: a classic token needs read:project (project
// to write), a board the caller cannot see is a 404, a fine-grained token
// never reaches a user's boards. Lists page with before/after cursors in
// the Link header, as GitHub's project endpoints do.

func projectRoutes() []route {
	var out []route
	for _, base := range []string{"/orgs/{org}/projectsV2", "/users/{username}/projectsV2"} {
		p := base + "/{project_number}"
		out = append(out,
			route{"GET", base, listProjects},
			route{"GET", p, getProject},
			route{"GET", p + "/fields", listProjectFields},
			route{"GET", p + "/fields/{field_id}", getProjectField},
			route{"GET", p + "/items", listProjectItems},
			route{"POST", p + "/items", addProjectItem},
			route{"GET", p + "/items/{item_id}", getProjectItem},
			route{"PATCH", p + "/items/{item_id}", updateProjectItem},
			route{"DELETE", p + "/items/{item_id}", deleteProjectItem},
		)
	}
	return append(out,
		route{"POST", "/orgs/{org}/projectsV2/{project_number}/drafts", addDraftItem},
		route{"POST", "/user/{user_id}/projectsV2/{project_number}/drafts", addDraftItem})
}

const projectsDoc = "rest/projects/projects"

// projectOwner resolves {org} or {username}: an organization for the
// first, a user for the second, as GitHub's two families of routes do.
func (c *call) projectOwner() *state.Account {
	if id := c.Req.PathValue("user_id"); id != "" {
		// /user/{user_id}/...: a user by database id.
		for _, acc := range c.State.AccountsInOrder() {
			if strconv.FormatInt(acc.ID, 10) == id && !acc.IsOrg && !acc.IsBot {
				return acc
			}
		}
		c.NotFound()
		return nil
	}
	login, org := c.Req.PathValue("org"), true
	if login == "" {
		login, org = c.Req.PathValue("username"), false
	}
	acc := c.State.Account(login)
	if acc == nil || acc.IsOrg != org || acc.IsBot {
		c.NotFound()
		return nil
	}
	return acc
}

// projectScope checks a classic token's OAuth scopes; GitHub answers a
// token without them 403 and names the scopes it accepts.
func (c *call) projectScope(write bool) bool {
	scope, accepted := "read:project", "read:project, project"
	if write {
		scope, accepted = "project", "project"
	}
	if c.Token.HasScope(scope) {
		return true
	}
	c.W.Header().Set("X-Accepted-OAuth-Scopes", accepted)
	c.Fail(http.StatusForbidden, "Resource not accessible by personal access token", projectsDoc)
	return false
}

func (c *call) projectPermission(p *state.Project) state.Permission {
	return c.State.TokenProjectPermission(c.Token, c.Viewer, p)
}

// projectFor resolves the board at need: 404 when the caller cannot see
// it, 403 when it can see but not change it.
func (c *call) projectFor(need state.Permission) *state.Project {
	if !c.projectScope(need >= state.PermWrite) {
		return nil
	}
	owner := c.projectOwner()
	if owner == nil {
		return nil
	}
	n, err := strconv.Atoi(c.Req.PathValue("project_number"))
	if err != nil {
		c.NotFound()
		return nil
	}
	p := c.State.Project(owner, n)
	if p == nil || c.projectPermission(p) < state.PermRead {
		c.NotFound()
		return nil
	}
	if c.projectPermission(p) < need {
		c.Forbidden()
		return nil
	}
	return p
}

// projectJSON is GitHub's projects-v2.
type projectJSON struct {
	ID               int64     `json:"id"`
	NodeID           string    `json:"node_id"`
	Owner            *userJSON `json:"owner"`
	Creator          *userJSON `json:"creator"`
	Title            string    `json:"title"`
	Description      *string   `json:"description"`
	Public           bool      `json:"public"`
	ClosedAt         *string   `json:"closed_at"`
	CreatedAt        string    `json:"created_at"`
	UpdatedAt        string    `json:"updated_at"`
	Number           int       `json:"number"`
	ShortDescription *string   `json:"short_description"`
	DeletedAt        *string   `json:"deleted_at"`
	DeletedBy        *userJSON `json:"deleted_by"`
	State            string    `json:"state"`
	IsTemplate       bool      `json:"is_template"`
}

func (c *call) projectJSON(p *state.Project) projectJSON {
	st := "open"
	var closedAt *string
	if p.Closed {
		st = "closed"
		if p.ClosedAt != nil {
			s := wire.Timestamp(*p.ClosedAt)
			closedAt = &s
		}
	}
	return projectJSON{ID: p.ID, NodeID: p.NodeID, Owner: renderSimpleUser(c.Links, p.Owner), Creator: renderSimpleUser(c.Links, p.Creator),
		Title: p.Title, Description: p.Readme, Public: p.Public, ClosedAt: closedAt, CreatedAt: wire.Timestamp(p.CreatedAt),
		UpdatedAt: wire.Timestamp(p.UpdatedAt), Number: p.Number, ShortDescription: p.ShortDescription, State: st}
}

// projectURL is the board's API address, which items and fields point at.
func (c *call) projectURL(p *state.Project) string {
	kind := "users"
	if p.Owner.IsOrg {
		kind = "orgs"
	}
	return fmt.Sprintf("%s/%s/%s/projectsV2/%d", c.Links.API, kind, p.Owner.Login, p.Number)
}

func listProjects(c *call) {
	if !c.projectScope(false) {
		return
	}
	owner := c.projectOwner()
	if owner == nil {
		return
	}
	var terms []string
	terms = strings.Fields(c.Req.URL.Query().Get("q"))
	var list []*state.Project
	for _, p := range c.State.Projects(owner) {
		if c.projectPermission(p) >= state.PermRead && projectMatches(p, terms) {
			list = append(list, p)
		}
	}
	// Newest first, as GitHub lists an owner's projects.
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	out := []projectJSON{}
	for _, p := range cursorPage(c, list) {
		out = append(out, c.projectJSON(p))
	}
	c.JSON(http.StatusOK, out)
}

// projectMatches applies q: is:open, is:closed and words of the title or
// description.
func projectMatches(p *state.Project, terms []string) bool {
	for _, t := range terms {
		switch strings.ToLower(t) {
		case "is:open":
			if p.Closed {
				return false
			}
		case "is:closed":
			if !p.Closed {
				return false
			}
		default:
			text := p.Title
			if p.ShortDescription != nil {
				text += " " + *p.ShortDescription
			}
			if !strings.Contains(strings.ToLower(text), strings.ToLower(t)) {
				return false
			}
		}
	}
	return true
}

func getProject(c *call) {
	if p := c.projectFor(state.PermRead); p != nil {
		c.JSON(http.StatusOK, c.projectJSON(p))
	}
}

// cursorPage cuts the page before/after/per_page ask for and writes the
// Link header with cursors for the pages around it.
func cursorPage[T any](c *call, items []T) []T {
	q := c.Req.URL.Query()
	perPage := 30
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 100)
	}
	start, end := 0, len(items)
	if a := q.Get("after"); a != "" {
		if i, ok := decodeProjectCursor(a); ok {
			start = min(i+1, len(items))
		}
	}
	if b := q.Get("before"); b != "" {
		if i, ok := decodeProjectCursor(b); ok {
			end = max(min(i, len(items)), 0)
			start = max(min(start, end), end-perPage)
		}
	}
	end = min(end, start+perPage)
	start = min(start, end)
	link := func(param string, index int, rel string) string {
		u := *c.Req.URL
		v := u.Query()
		v.Del("after")
		v.Del("before")
		v.Set(param, encodeProjectCursor(index))
		u.RawQuery = v.Encode()
		return fmt.Sprintf("<%s%s?%s>; rel=%q", c.Links.API, u.Path, u.RawQuery, rel)
	}
	var parts []string
	if end < len(items) {
		parts = append(parts, link("after", end-1, "next"))
	}
	if start > 0 {
		parts = append(parts, link("before", start, "prev"))
	}
	if len(parts) > 0 {
		c.W.Header().Set("Link", strings.Join(parts, ", "))
	}
	return items[start:end]
}

const projectCursorPrefix = "cursor:v2:"

func encodeProjectCursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte(projectCursorPrefix + strconv.Itoa(i)))
}

func decodeProjectCursor(s string) (int, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return 0, false
	}
	rest, ok := strings.CutPrefix(string(b), projectCursorPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}
