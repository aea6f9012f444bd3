package rest

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Security alerts (rest/dependabot/alerts, rest/code-scanning/code-scanning,
// rest/secret-scanning/secret-scanning) at repository and organization
// level, with GitHub's refusals: a feature that is off answers 403 or 404
// with its own message, and the organization endpoints are for owners and
// security managers only, so a report falls back to the repositories.

// securityAccess decides whether the token may read a repository's alerts
// of one kind: scope (a classic token needs repo or security_events, or
// public_repo on a public repository), then the permission the feature
// asks (Dependabot and code scanning: write; secret scanning: admin). It
// answers and returns nil when it may not.
func (c *call) securityAccess(need state.Permission) *state.Repo {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return nil
	}
	if !c.hasSecurityScope(!r.Private) || c.Token.Permission(r) < need {
		c.Forbidden()
		return nil
	}
	return r
}

func (c *call) hasSecurityScope(public bool) bool {
	if c.Token.Scopes == nil { // an App's installation token: its permissions decide
		return true
	}
	for _, s := range c.Token.Scopes {
		if s == "repo" || s == "security_events" || (public && s == "public_repo") {
			return true
		}
	}
	return false
}

// orgSecurityAccess resolves {org} for an organization alert list: only an
// owner or security manager may read it, with a token that has the scope.
func (c *call) orgSecurityAccess() *state.Account {
	org := c.State.Account(c.Req.PathValue("org"))
	if org == nil || !org.IsOrg {
		c.NotFound()
		return nil
	}
	switch {
	case c.Token.Scopes == nil:
		c.Fail(http.StatusForbidden, "Resource not accessible by integration", "rest")
		return nil
	case !c.hasSecurityScope(false):
		c.Forbidden()
		return nil
	}
	if role := c.State.OrgRole(org, c.Token.Login); role != state.OrgRoleOwner && role != state.OrgRoleSecurityManager {
		c.Fail(http.StatusForbidden, "You must be an organization owner or security manager to access this resource.", "rest")
		return nil
	}
	return org
}

// orgRepos are the organization's repositories in creation order.
func (c *call) orgRepos(org *state.Account) []*state.Repo {
	var out []*state.Repo
	for _, r := range c.State.Repos() {
		if r.Owner == org {
			out = append(out, r)
		}
	}
	return out
}

// inList reports whether v is among a comma-separated filter ("" allows all).
func inList(filter, v string) bool {
	if filter == "" {
		return true
	}
	for _, f := range strings.Split(filter, ",") {
		if strings.EqualFold(strings.TrimSpace(f), v) {
			return true
		}
	}
	return false
}

// alertRow is one alert with its repository, for sorting and cursors.
type alertRow[T any] struct {
	repo    *state.Repo
	alert   T
	id      int64
	created time.Time
	updated time.Time
}

// sortAlerts orders by sort (created or updated) and direction (desc by
// default), ties broken by id so cursors are stable.
func sortAlerts[T any](c *call, rows []alertRow[T]) {
	q := c.Req.URL.Query()
	asc := q.Get("direction") == "asc"
	slices.SortStableFunc(rows, func(a, b alertRow[T]) int {
		x, y := a.created, b.created
		if q.Get("sort") == "updated" {
			x, y = a.updated, b.updated
		}
		d := x.Compare(y)
		if d == 0 {
			d = cmp.Compare(a.id, b.id)
		}
		if !asc {
			d = -d
		}
		return d
	})
}

// cursorOf is the opaque cursor naming an alert, as in GitHub's Link headers.
func cursorOf(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("cursor:v2:" + strconv.FormatInt(id, 10)))
}

func idOfCursor(cur string) (int64, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil {
		return 0, false
	}
	s, ok := strings.CutPrefix(string(b), "cursor:v2:")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

// pageAlerts cuts one page: by before/after cursors (the Link header then
// carries cursors, as GitHub's does), or by page number where the route
// still takes one (allowPage). Dependabot takes cursors only and answers a
// page number with 400. ok is false when it has answered.
func pageAlerts[T any](c *call, rows []alertRow[T], allowPage bool) ([]alertRow[T], bool) {
	q := c.Req.URL.Query()
	before, after := q.Get("before"), q.Get("after")
	if q.Get("page") != "" && before == "" && after == "" && !allowPage {
		c.Fail(http.StatusBadRequest, "Pagination using the `page` parameter is not supported. Use the `before` and `after` cursors given in the Link header instead.", "rest/dependabot/alerts")
		return nil, false
	}
	if before == "" && after == "" && allowPage {
		return paginate(c, rows), true
	}
	perPage, _ := pageParams(q)
	start, end := 0, len(rows)
	find := func(cur string) (int, bool) {
		id, ok := idOfCursor(cur)
		if !ok {
			return 0, false
		}
		i := slices.IndexFunc(rows, func(r alertRow[T]) bool { return r.id == id })
		return i, i >= 0
	}
	switch {
	case after != "":
		i, ok := find(after)
		if !ok {
			c.Fail(http.StatusBadRequest, "Invalid cursor value.", "rest")
			return nil, false
		}
		start = i + 1
		end = min(start+perPage, len(rows))
	case before != "":
		i, ok := find(before)
		if !ok {
			c.Fail(http.StatusBadRequest, "Invalid cursor value.", "rest")
			return nil, false
		}
		end = i
		start = max(0, end-perPage)
	default:
		end = min(perPage, len(rows))
	}
	page := rows[start:end]
	link := func(key string, id int64, rel string) string {
		u := *c.Req.URL
		v := u.Query()
		v.Del("page")
		v.Del("before")
		v.Del("after")
		v.Set(key, cursorOf(id))
		u.RawQuery = v.Encode()
		return fmt.Sprintf("<%s%s?%s>; rel=%q", c.Links.API, u.Path, u.RawQuery, rel)
	}
	var parts []string
	if start > 0 && len(page) > 0 {
		parts = append(parts, link("before", page[0].id, "prev"))
	}
	if end < len(rows) && len(page) > 0 {
		parts = append(parts, link("after", page[len(page)-1].id, "next"))
	}
	if len(parts) > 0 {
		c.W.Header().Set("Link", strings.Join(parts, ", "))
	}
	return page, true
}

// Feature refusals, with GitHub's messages.

func (c *call) dependabotEnabled(r *state.Repo) bool {
	if r.Security.DependabotOff {
		c.Fail(http.StatusForbidden, "Dependabot alerts are disabled for this repository.", "rest/dependabot/alerts#list-dependabot-alerts-for-a-repository")
		return false
	}
	return true
}

func (c *call) codeScanningEnabled(r *state.Repo) bool {
	switch {
	case r.Private && r.Security.AdvancedSecurityOff:
		c.Fail(http.StatusForbidden, "Advanced Security must be enabled for this repository to use code scanning.", "rest/code-scanning/code-scanning#list-code-scanning-alerts-for-a-repository")
		return false
	case r.Security.CodeScanningOff:
		c.Fail(http.StatusNotFound, "no analysis found", "rest/code-scanning/code-scanning#list-code-scanning-alerts-for-a-repository")
		return false
	}
	return true
}

func (c *call) secretScanningEnabled(r *state.Repo) bool {
	if r.Security.SecretScanningOff || (r.Private && r.Security.AdvancedSecurityOff) {
		c.Fail(http.StatusNotFound, "Secret scanning is disabled on this repository.", "rest/secret-scanning/secret-scanning#list-secret-scanning-alerts-for-a-repository")
		return false
	}
	return true
}

// codeScanningOn and secretScanningOn are the same tests without an answer,
// for the organization lists, which skip repositories where a feature is off.
func codeScanningOn(r *state.Repo) bool {
	return !r.Security.CodeScanningOff && !(r.Private && r.Security.AdvancedSecurityOff)
}

func secretScanningOn(r *state.Repo) bool {
	return !r.Security.SecretScanningOff && !(r.Private && r.Security.AdvancedSecurityOff)
}
