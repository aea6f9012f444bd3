package rest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GET /search/users and /search/repositories: GitHub's lexical search
// over accounts and repositories. Words match the login or name (users)
// and the name or description (repositories), case-insensitively; the
// qualifiers the emulator knows narrow the set, others are ignored as
// GitHub ignores those that do not apply.

// searchQ reads and bounds q as /search/issues does; it answers and
// returns false when q is missing or too long.
func (c *call) searchQ(doc string) (string, bool) {
	query := strings.TrimSpace(c.Req.URL.Query().Get("q"))
	if query == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "missing"})
		return "", false
	}
	if len(query) > 256 {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "The search is longer than 256 characters."})
		return "", false
	}
	return query, true
}

// searchPage answers one page of search results, capped as GitHub's
// search is.
func searchPage[T any](c *call, doc string, hits []T) ([]T, bool) {
	perPage, page := pageParams(c.Req.URL.Query())
	if page-1 >= (search.ResultCap+perPage-1)/perPage {
		c.Invalid("Only the first 1000 search results are available", doc)
		return nil, false
	}
	if len(hits) > search.ResultCap {
		hits = hits[:search.ResultCap]
	}
	return paginate(c, hits), true
}

// userSearchItemJSON is GitHub's user-search-result-item.
type userSearchItemJSON struct {
	*userJSON
	Score float64 `json:"score"`
}

func searchUsers(c *call) {
	const doc = "rest/search/search#search-users"
	query, ok := c.searchQ(doc)
	if !ok {
		return
	}
	kind := ""
	var words []string
	for _, term := range search.Terms(query) {
		key, value, isQualifier := strings.Cut(term, ":")
		switch {
		case isQualifier && key == "type":
			kind = strings.ToLower(value)
		case isQualifier && (key == "in" || key == "repos" || key == "followers" || key == "created" || key == "location" || key == "language"):
			// Qualifiers on data the emulator does not keep narrow nothing.
		default:
			words = append(words, term)
		}
	}
	var hits []*state.Account
	for _, a := range c.State.AccountsInOrder() {
		if a.IsBot || (kind == "user" && a.IsOrg) || (kind == "org" && !a.IsOrg) {
			continue
		}
		if !slices.ContainsFunc(words, func(w string) bool { return !wire.ContainsFold(w, a.Login, a.Name) }) {
			hits = append(hits, a)
		}
	}
	page, ok := searchPage(c, doc, hits)
	if !ok {
		return
	}
	items := []userSearchItemJSON{}
	for _, a := range page {
		items = append(items, userSearchItemJSON{userJSON: renderSimpleUser(c.Links, a), Score: 1})
	}
	c.JSON(http.StatusOK, map[string]any{"total_count": len(hits), "incomplete_results": false, "items": items})
}

// repoSearchItemJSON is GitHub's repo-search-result-item.
type repoSearchItemJSON struct {
	repoJSON
	Score float64 `json:"score"`
}

func searchRepositories(c *call) {
	const doc = "rest/search/search#search-repositories"
	query, ok := c.searchQ(doc)
	if !ok {
		return
	}
	var owners, names, words []string
	visibility, archived := "", ""
	for _, term := range search.Terms(query) {
		key, value, isQualifier := strings.Cut(term, ":")
		switch {
		case isQualifier && (key == "org" || key == "user"):
			owners = append(owners, strings.ToLower(value))
		case isQualifier && key == "repo":
			names = append(names, strings.ToLower(value))
		case isQualifier && key == "is" && (value == "public" || value == "private"):
			visibility = value
		case isQualifier && key == "archived" && (value == "true" || value == "false"):
			archived = value
		case isQualifier && key == "in":
			// Words are matched against the name and the description, the
			// default fields; in: narrows nothing here.
		default:
			words = append(words, term)
		}
	}
	var hits []*state.Repo
	for _, r := range c.State.Repos() {
		switch {
		case c.Token.Permission(r) == state.PermNone,
			len(owners) > 0 && !slices.Contains(owners, strings.ToLower(r.Owner.Login)),
			len(names) > 0 && !slices.Contains(names, strings.ToLower(r.FullName())),
			visibility == "public" && r.Private, visibility == "private" && !r.Private,
			archived != "" && r.Archived != (archived == "true"),
			slices.ContainsFunc(words, func(w string) bool { return !wire.ContainsFold(w, r.Name, r.Description) }):
			continue
		}
		hits = append(hits, r)
	}
	page, ok := searchPage(c, doc, hits)
	if !ok {
		return
	}
	items := []repoSearchItemJSON{}
	for _, r := range page {
		items = append(items, repoSearchItemJSON{repoJSON: c.repoJSON(r, false), Score: 1})
	}
	c.JSON(http.StatusOK, map[string]any{"total_count": len(hits), "incomplete_results": false, "items": items})
}
