package rest

import (
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// searchItemJSON is GitHub's issue-search-result-item.
type searchItemJSON struct {
	*issueJSON
	// A search result's body is a non-nullable string in GitHub's
	// description: an issue without a body leaves the key out.
	Body  *string `json:"body,omitempty"`
	Score float64 `json:"score"`
}

// usersUnsearchable is GitHub's message refusing a search that names an
// account it does not know: in user:, org: or a user qualifier (author:
// and its kind, see [search.Query.UnknownPeople]).
const usersUnsearchable = "The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."

func searchIssues(c *call) {
	q := c.Req.URL.Query()
	const doc = "rest/search/search#search-issues-and-pull-requests"
	query := strings.TrimSpace(q.Get("q"))
	if query == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "missing"})
		return
	}
	if len(query) > 256 {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "The search is longer than 256 characters."})
		return
	}
	s := search.Parse(query, c.ViewerLogin())
	for _, login := range s.Owners {
		if c.State.Account(login) == nil {
			c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
				Message: usersUnsearchable})
			return
		}
	}
	if s.UnknownPeople(c.State) {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: usersUnsearchable})
		return
	}
	for _, name := range s.Repos {
		owner, repo, _ := strings.Cut(name, "/")
		r := c.State.Repo(owner, repo)
		if r == nil || c.Token.Permission(r) == state.PermNone {
			c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
				Message: "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them."})
			return
		}
	}
	hits := search.Hits(c.State, c.Token, s, q.Get("sort"), q.Get("order"))
	if c.TimedOut {
		// Out of time: the matches found so far, counted as the total.
		hits = hits[:len(hits)/2]
	}

	perPage, page := pageParams(q)
	// A page that starts at or past the cap is refused. Dividing rather than
	// multiplying keeps a huge page number from overflowing.
	if page-1 >= (search.ResultCap+perPage-1)/perPage {
		c.Invalid("Only the first 1000 search results are available", doc)
		return
	}
	reachable := hits
	if len(reachable) > search.ResultCap {
		reachable = reachable[:search.ResultCap]
	}
	items := []searchItemJSON{}
	for _, is := range paginate(c, reachable) {
		items = append(items, searchItemJSON{issueJSON: renderIssue(c.Links, is), Body: is.Body, Score: 1})
	}
	c.JSON(http.StatusOK, map[string]any{
		"total_count":        len(hits),
		"incomplete_results": c.TimedOut,
		"items":              items,
		// The emulator matches words, as GitHub's lexical search does.
		"search_type": "lexical",
	})
}
