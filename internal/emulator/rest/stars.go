package rest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Starring (rest/activity/starring): who starred a repository, what a user
// starred, and starring as the viewer. A repository's stargazers_count is
// its number of stars. With the star media type
// (application/vnd.github.star+json) the lists carry when each star was
// given.

// starMedia reports whether the star media type was asked for.
func starMedia(c *call) bool {
	for _, part := range strings.Split(c.Req.Header.Get("Accept"), ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.HasPrefix(mt, "application/vnd.github") && strings.HasSuffix(mt, ".star+json") {
			return true
		}
	}
	return false
}

// listStargazers is GET /repos/{o}/{r}/stargazers, oldest star first.
func listStargazers(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	page := paginate(c, r.Stars)
	if starMedia(c) {
		out := []stargazerJSON{}
		for _, s := range page {
			out = append(out, stargazerJSON{StarredAt: wire.Timestamp(s.At), User: renderSimpleUser(c.Links, s.User)})
		}
		c.JSON(http.StatusOK, out)
		return
	}
	out := []*userJSON{}
	for _, s := range page {
		out = append(out, renderSimpleUser(c.Links, s.User))
	}
	c.JSON(http.StatusOK, out)
}

type stargazerJSON struct {
	StarredAt string    `json:"starred_at"`
	User      *userJSON `json:"user"`
}

type starredRepoJSON struct {
	StarredAt string   `json:"starred_at"`
	Repo      repoJSON `json:"repo"`
}

// listViewerStarred is GET /user/starred.
func listViewerStarred(c *call) {
	if c.Viewer == nil {
		c.Forbidden()
		return
	}
	c.writeStarred(c.Viewer)
}

// listUserStarred is GET /users/{username}/starred.
func listUserStarred(c *call) {
	a := c.State.Account(c.Req.PathValue("username"))
	if a == nil {
		c.NotFound()
		return
	}
	c.writeStarred(a)
}

// writeStarred lists the repositories u starred that the token can see,
// by when they were starred (sort=created, the default) or when they were
// last updated (sort=updated), newest first unless direction=asc.
func (c *call) writeStarred(u *state.Account) {
	q := c.Req.URL.Query()
	repos := slices.DeleteFunc(c.State.Starred(u), func(r *state.Repo) bool { return c.Token.Permission(r) == state.PermNone })
	if q.Get("sort") == "updated" {
		slices.SortStableFunc(repos, func(a, b *state.Repo) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	}
	if q.Get("direction") == "asc" {
		slices.Reverse(repos)
	}
	page := paginate(c, repos)
	if starMedia(c) {
		out := []starredRepoJSON{}
		for _, r := range page {
			out = append(out, starredRepoJSON{StarredAt: wire.Timestamp(r.StarredBy(u).At), Repo: c.repoJSON(r, false)})
		}
		c.JSON(http.StatusOK, out)
		return
	}
	out := []repoJSON{}
	for _, r := range page {
		out = append(out, c.repoJSON(r, false))
	}
	c.JSON(http.StatusOK, out)
}

// checkStarred answers 204 when the viewer starred the repository, 404
// when not.
func checkStarred(c *call) {
	r := c.viewerRepo()
	if r == nil {
		return
	}
	if r.StarredBy(c.Viewer) == nil {
		c.NotFound()
		return
	}
	c.NoContent()
}

func starRepo(c *call) {
	if r := c.viewerRepo(); r != nil {
		c.State.StarRepo(r, c.Viewer)
		c.NoContent()
	}
}

func unstarRepo(c *call) {
	if r := c.viewerRepo(); r != nil {
		c.State.UnstarRepo(r, c.Viewer)
		c.NoContent()
	}
}
