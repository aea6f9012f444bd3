package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// needFor is what route asks of an installation token. A route the table
// does not name refuses installation tokens, so a route added without a
// need is never served to one unchecked (the table's test names it).
func needFor(method, path string) state.AppNeed {
	if n, ok := appNeeds[method+" "+path]; ok {
		return n
	}
	return unavailable
}

// admitInstallation holds a request made with a GitHub App installation
// token to what the token was minted with, before any handler runs, as
// GitHub does: a private repository outside the token's repositories is
// hidden (404); a write to a public one outside them, an organization's
// endpoint of another account than the installation's, an endpoint that
// acts for a user, or a permission the token lacks or holds only as read
// is refused with 403 "Resource not accessible by integration" and the
// X-Accepted-GitHub-Permissions GitHub sends with it. A fine-grained
// token with grants is held to them alike (admitFineGrained). Other tokens
// pass. It reports whether the handler may run.
func (c *call) admitInstallation(path string, need state.AppNeed) bool {
	g := c.Token.App
	if g == nil {
		return c.admitFineGrained(need)
	}
	if need.Unavailable {
		c.notAccessible(need)
		return false
	}
	if strings.HasPrefix(path, "/repos/{owner}/{repo}") {
		if r := c.State.Repo(c.Req.PathValue("owner"), c.Req.PathValue("repo")); r != nil && !c.Token.Covers(r) {
			if r.Private {
				c.NotFound()
				return false
			}
			if c.Req.Method != http.MethodGet && c.Req.Method != http.MethodHead {
				c.notAccessible(need)
				return false
			}
		}
	}
	if org := c.Req.PathValue("org"); org != "" && len(need.Sets) > 0 && !strings.EqualFold(org, g.Installation.Account) {
		c.notAccessible(need)
		return false
	}
	if !need.MetBy(g.Permissions) {
		c.notAccessible(need)
		return false
	}
	return true
}

// admitFineGrained holds a fine-grained personal access token with
// grants to them, as GitHub does: a permission it lacks, or holds only as
// read, is refused with 403 "Resource not accessible by personal access
// token" and X-Accepted-GitHub-Permissions. Its repositories are its
// Perms, as any user token's. Endpoints that act for a user, which
// installation tokens cannot use, are a user token's to use.
func (c *call) admitFineGrained(need state.AppNeed) bool {
	perms, _, held := c.Token.HeldTo()
	if !held || need.Unavailable || need.MetBy(perms) {
		return true
	}
	c.notAccessible(need)
	return false
}

// notAccessible is GitHub's 403 to a token held to permissions (an
// installation's, a fine-grained token's), naming the permission sets
// that would have served.
func (c *call) notAccessible(need state.AppNeed) {
	if !need.Unavailable {
		c.W.Header().Set("X-Accepted-GitHub-Permissions", need.Header())
	}
	_, refusal, _ := c.Token.HeldTo()
	c.Fail(http.StatusForbidden, refusal, "rest")
}
