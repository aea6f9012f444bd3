package rest

import (
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GET /repos/{owner}/{repo}/collaborators: the people with access to a
// repository and what each may do. GitHub shows the list only to those
// who can push to the repository.

const collaboratorDocs = "rest/collaborators/collaborators#list-repository-collaborators"

// collaboratorJSON is GitHub's collaborator: a simple user with the
// permissions it holds on the repository and the role they amount to.
type collaboratorJSON struct {
	*userJSON
	Permissions permsJSON `json:"permissions"`
	RoleName    string    `json:"role_name"`
}

// roleName is the repository role a permission level amounts to, as
// GitHub's role_name names it.
func roleName(p state.Permission) string {
	switch p {
	case state.PermAdmin:
		return "admin"
	case state.PermWrite:
		return "write"
	case state.PermTriage:
		return "triage"
	}
	return "read"
}

func listCollaborators(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if c.Token.Permission(r) < state.PermWrite {
		c.Fail(http.StatusForbidden, "Must have push access to view repository collaborators.", collaboratorDocs)
		return
	}
	q := c.Req.URL.Query()
	affiliation := q.Get("affiliation")
	switch affiliation {
	case "", "all", "direct", "outside":
	default:
		c.Invalid("", collaboratorDocs, wire.FieldError{Resource: "Collaborator", Field: "affiliation", Code: "invalid"})
		return
	}
	want := map[string]state.Permission{"pull": state.PermRead, "triage": state.PermTriage, "push": state.PermWrite, "maintain": state.PermAdmin, "admin": state.PermAdmin}
	minPerm, filtered := want[q.Get("permission")]
	if q.Get("permission") != "" && !filtered {
		c.Invalid("", collaboratorDocs, wire.FieldError{Resource: "Collaborator", Field: "permission", Code: "invalid"})
		return
	}
	var list []*state.Account
	for _, a := range c.Assignable(r) {
		// The collaborators of an organization's repository are its
		// members (state.Association calls them MEMBER), so none is an
		// outside collaborator; a personal repository's are all outside
		// the owner.
		if affiliation == "outside" && (r.Owner.IsOrg || a == r.Owner) {
			continue
		}
		if filtered && c.State.UserPermission(a, r) < minPerm {
			continue
		}
		list = append(list, a)
	}
	out := []collaboratorJSON{}
	for _, a := range paginate(c, list) {
		p := c.State.UserPermission(a, r)
		out = append(out, collaboratorJSON{userJSON: renderSimpleUser(c.Links, a), RoleName: roleName(p),
			Permissions: permsJSON{Admin: p >= state.PermAdmin, Maintain: p >= state.PermAdmin, Push: p >= state.PermWrite, Triage: p >= state.PermTriage, Pull: p >= state.PermRead}})
	}
	c.JSON(http.StatusOK, out)
}
