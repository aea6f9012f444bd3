package rest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GET /search/commits, as GitHub's "Search commits" documents it: only
// the default branch of each repository is searched; words match the
// commit message; the qualifiers repo:, org:, user:, author:, committer:,
// author-name:, committer-name:, author-email:, committer-email:,
// author-date:, committer-date:, merge:, hash:, parent:, tree: and
// is:public/private narrow the set; sort is author-date or committer-date,
// best match (newest first here) otherwise.

// commitFilter is one qualifier's test on a commit.
type commitFilter func(*state.GitCommit) bool

// commitSearch is a parsed commit query.
type commitSearch struct {
	scope   searchScope
	filters []commitFilter
	words   []string
	// bad is the qualifier whose value could not be read, "" when none.
	bad string
}

func parseCommitSearch(q string) *commitSearch {
	s := &commitSearch{}
	for _, term := range search.Terms(q) {
		neg := strings.HasPrefix(term, "-")
		key, value, isQualifier := strings.Cut(strings.TrimPrefix(term, "-"), ":")
		if !isQualifier || value == "" {
			s.words = append(s.words, term)
			continue
		}
		key = strings.ToLower(key)
		if !neg && s.scope.take(key, value) {
			continue
		}
		f, known := commitQualifier(key, value)
		switch {
		case !known:
			// A word with a colon that is no qualifier is text.
			s.words = append(s.words, term)
			continue
		case f == nil:
			s.bad = key
			continue
		}
		if neg {
			inner := f
			f = func(c *state.GitCommit) bool { return !inner(c) }
		}
		s.filters = append(s.filters, f)
	}
	return s
}

// commitQualifier is the test a commit qualifier names; known is false for
// a key that is no commit qualifier, and the test nil for a value that
// cannot be read.
func commitQualifier(key, value string) (f commitFilter, known bool) {
	lower := strings.ToLower(value)
	prefix := func(sha string) bool { return len(lower) >= 7 && strings.HasPrefix(sha, lower) }
	date := func(at func(*state.GitCommit) time.Time) commitFilter {
		in, ok := search.DateRange(value)
		if !ok {
			return nil
		}
		return func(c *state.GitCommit) bool { return in(at(c)) }
	}
	switch key {
	case "author":
		return func(c *state.GitCommit) bool { return signedBy(c.Author, value) }, true
	case "committer":
		return func(c *state.GitCommit) bool { return signedBy(c.Committer, value) }, true
	case "author-name":
		return func(c *state.GitCommit) bool { return wire.ContainsFold(value, c.Author.Name) }, true
	case "committer-name":
		return func(c *state.GitCommit) bool { return wire.ContainsFold(value, c.Committer.Name) }, true
	case "author-email":
		return func(c *state.GitCommit) bool { return strings.EqualFold(value, c.Author.Email) }, true
	case "committer-email":
		return func(c *state.GitCommit) bool { return strings.EqualFold(value, c.Committer.Email) }, true
	case "author-date":
		return date(func(c *state.GitCommit) time.Time { return c.Author.When }), true
	case "committer-date":
		return date(func(c *state.GitCommit) time.Time { return c.Committer.When }), true
	case "merge":
		if lower != "true" && lower != "false" {
			return nil, true
		}
		return func(c *state.GitCommit) bool { return (len(c.Parents) > 1) == (lower == "true") }, true
	case "hash":
		return func(c *state.GitCommit) bool { return prefix(c.SHA) }, true
	case "parent":
		return func(c *state.GitCommit) bool {
			return slices.ContainsFunc(c.Parents, func(p *state.GitCommit) bool { return prefix(p.SHA) })
		}, true
	case "tree":
		return func(c *state.GitCommit) bool { return prefix(c.TreeSHA) }, true
	}
	return nil, false
}

// signedBy reports whether a signature belongs to the account login.
func signedBy(s state.GitSignature, login string) bool {
	return s.User != nil && strings.EqualFold(s.User.Login, login)
}

func (s *commitSearch) match(c *state.GitCommit) bool {
	for _, f := range s.filters {
		if !f(c) {
			return false
		}
	}
	for _, w := range s.words {
		if neg, ok := strings.CutPrefix(w, "-"); ok && neg != "" {
			if wire.ContainsFold(neg, c.Message) {
				return false
			}
			continue
		}
		if !wire.ContainsFold(strings.Trim(w, `"`), c.Message) {
			return false
		}
	}
	return true
}

// commitHit is a matching commit and the repository it was found in.
type commitHit struct {
	repo   *state.Repo
	commit *state.GitCommit
}

// commitSearchItemJSON is GitHub's commit-search-result-item.
type commitSearchItemJSON struct {
	*commitJSON
	Repository repoJSON `json:"repository"`
	Score      float64  `json:"score"`
}

func searchCommits(c *call) {
	const doc = "rest/search/search#search-commits"
	query, ok := c.searchQ(doc)
	if !ok {
		return
	}
	s := parseCommitSearch(query)
	if s.bad != "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "The " + s.bad + " qualifier's value could not be read."})
		return
	}
	if !s.scope.check(c, doc) {
		return
	}
	var hits []commitHit
	for _, r := range s.scope.reposFor(c) {
		if r.Git == nil || r.Git.Branches[state.RepoDefaultBranch] == nil {
			continue
		}
		for _, cm := range state.History(r.Git.Branches[state.RepoDefaultBranch]) {
			if s.match(cm) {
				hits = append(hits, commitHit{r, cm})
			}
		}
	}
	sortCommitHits(hits, c.Req.URL.Query().Get("sort"), c.Req.URL.Query().Get("order"))
	page, ok := searchPage(c, doc, hits)
	if !ok {
		return
	}
	items := []commitSearchItemJSON{}
	for _, h := range page {
		items = append(items, commitSearchItemJSON{commitJSON: c.commitJSON(h.repo, h.commit, false),
			Repository: c.repoJSON(h.repo, false), Score: 1})
	}
	c.JSON(http.StatusOK, map[string]any{"total_count": len(hits), "incomplete_results": false, "items": items})
}

// sortCommitHits orders hits by author-date or committer-date (desc
// unless order is asc); best match, which the emulator takes as newest
// committed first, otherwise.
func sortCommitHits(hits []commitHit, sortBy, order string) {
	at := func(h commitHit) time.Time { return h.commit.Committer.When }
	if sortBy == "author-date" {
		at = func(h commitHit) time.Time { return h.commit.Author.When }
	} else if sortBy != "committer-date" {
		order = "desc"
	}
	slices.SortStableFunc(hits, func(a, b commitHit) int {
		n := at(a).Compare(at(b))
		if order != "asc" {
			n = -n
		}
		return n
	})
}
