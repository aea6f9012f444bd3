package emulator

import (
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
)

// searchQuery is a parsed /search/issues q parameter.
type searchQuery struct {
	repos        []string // lower-case owner/name
	owners       []string // org: and user:
	kind         string   // "", "issue", "pr"
	state        string   // "", "open", "closed"
	labels       []string // all must be present
	notLabels    []string
	noLabel      bool
	noAssignee   bool
	noMilestone  bool
	author       string
	assignee     string
	milestone    string
	in           []string // title, body, comments; empty means title and body
	terms        []string
	updatedAfter time.Time
	createdAfter time.Time
}

// splitQuery splits on spaces outside double quotes and drops the quotes.
func splitQuery(q string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
		case unicode.IsSpace(r) && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// parseDateQualifier reads ">=2024-01-01", ">2024-01-01T10:00:00Z" and
// plain dates.
func parseDateQualifier(v string) time.Time {
	v = strings.TrimLeft(v, "><=")
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

func parseSearch(q string) searchQuery {
	var s searchQuery
	for _, tok := range splitQuery(q) {
		neg := strings.HasPrefix(tok, "-")
		key, val, ok := strings.Cut(strings.TrimPrefix(tok, "-"), ":")
		if !ok || val == "" {
			s.terms = append(s.terms, strings.ToLower(tok))
			continue
		}
		lval := strings.ToLower(val)
		switch strings.ToLower(key) {
		case "repo":
			s.repos = append(s.repos, lval)
		case "org", "user", "owner":
			s.owners = append(s.owners, lval)
		case "is", "type", "state":
			switch lval {
			case "issue":
				s.kind = "issue"
			case "pr", "pull-request":
				s.kind = "pr"
			case "open", "closed":
				s.state = lval
			}
		case "label":
			for _, l := range strings.Split(val, ",") {
				if neg {
					s.notLabels = append(s.notLabels, strings.ToLower(l))
				} else {
					s.labels = append(s.labels, strings.ToLower(l))
				}
			}
		case "no":
			switch lval {
			case "label":
				s.noLabel = true
			case "assignee":
				s.noAssignee = true
			case "milestone":
				s.noMilestone = true
			}
		case "author":
			s.author = lval
		case "assignee":
			s.assignee = lval
		case "milestone":
			s.milestone = lval
		case "in":
			s.in = append(s.in, strings.Split(lval, ",")...)
		case "updated":
			s.updatedAfter = parseDateQualifier(val)
		case "created":
			s.createdAfter = parseDateQualifier(val)
		default:
			s.terms = append(s.terms, strings.ToLower(tok))
		}
	}
	return s
}

func (s searchQuery) match(is *Issue) bool {
	if is.Deleted {
		return false
	}
	r := strings.ToLower(is.Repo.FullName())
	if len(s.repos) > 0 && !slices.Contains(s.repos, r) {
		return false
	}
	if len(s.owners) > 0 && !slices.Contains(s.owners, strings.ToLower(is.Repo.Owner.Login)) {
		return false
	}
	if (s.kind == "issue" && is.IsPull) || (s.kind == "pr" && !is.IsPull) {
		return false
	}
	if s.state != "" && is.State != s.state {
		return false
	}
	has := func(name string) bool {
		return slices.ContainsFunc(is.Labels, func(l *Label) bool { return strings.ToLower(l.Name) == name })
	}
	for _, l := range s.labels {
		if !has(l) {
			return false
		}
	}
	for _, l := range s.notLabels {
		if has(l) {
			return false
		}
	}
	if s.noLabel && len(is.Labels) > 0 || s.noAssignee && len(is.Assignees) > 0 || s.noMilestone && is.Milestone != nil {
		return false
	}
	if s.author != "" && strings.ToLower(is.User.Login) != s.author {
		return false
	}
	if s.assignee != "" && !slices.ContainsFunc(is.Assignees, func(a *Account) bool { return strings.ToLower(a.Login) == s.assignee }) {
		return false
	}
	if s.milestone != "" && (is.Milestone == nil || strings.ToLower(is.Milestone.Title) != s.milestone) {
		return false
	}
	if !s.updatedAfter.IsZero() && is.UpdatedAt.Before(s.updatedAfter) {
		return false
	}
	if !s.createdAfter.IsZero() && is.CreatedAt.Before(s.createdAfter) {
		return false
	}
	if len(s.terms) == 0 {
		return true
	}
	fields := s.in
	if len(fields) == 0 {
		fields = []string{"title", "body"}
	}
	var text strings.Builder
	for _, f := range fields {
		switch f {
		case "title":
			text.WriteString(is.Title)
		case "body":
			if is.Body != nil {
				text.WriteString(*is.Body)
			}
		case "comments":
			for _, c := range is.Comments {
				text.WriteString(c.Body)
				text.WriteByte(' ')
			}
		}
		text.WriteByte(' ')
	}
	hay := strings.ToLower(text.String())
	for _, t := range s.terms {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	return true
}

// searchItemJSON is GitHub's issue-search-result-item.
type searchItemJSON struct {
	*issueJSON
	// A search result's body is a non-nullable string in GitHub's
	// description: an issue without a body leaves the key out.
	Body  *string `json:"body,omitempty"`
	Score float64 `json:"score"`
}

// searchCap is how many results GitHub's search API will page through.
const searchCap = 1000

func (e *Emulator) searchIssues(c *call) {
	q := c.req.URL.Query()
	const doc = "rest/search/search#search-issues-and-pull-requests"
	query := strings.TrimSpace(q.Get("q"))
	if query == "" {
		c.invalid("", doc, fieldError{Resource: "Search", Field: "q", Code: "missing"})
		return
	}
	if len(query) > 256 {
		c.invalid("", doc, fieldError{Resource: "Search", Field: "q", Code: "invalid",
			Message: "The search is longer than 256 characters."})
		return
	}
	s := parseSearch(query)
	for _, name := range s.repos {
		owner, repo, _ := strings.Cut(name, "/")
		r := c.st.Repo(owner, repo)
		if r == nil || c.token.Permission(r) == PermNone {
			c.invalid("", doc, fieldError{Resource: "Search", Field: "q", Code: "invalid",
				Message: "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them."})
			return
		}
	}
	var hits []*Issue
	for _, r := range c.st.Repos() {
		if c.token.Permission(r) == PermNone {
			continue
		}
		for _, is := range r.Issues {
			if s.match(is) {
				hits = append(hits, is)
			}
		}
	}
	sortBy := q.Get("sort")
	if sortBy != "created" && sortBy != "updated" && sortBy != "comments" {
		sortBy = "" // best match: newest first among equal scores
	}
	order := q.Get("order")
	if order != "asc" {
		order = "desc"
	}
	sortIssues(hits, sortBy, order)

	perPage, page := pageParams(q)
	// A page that starts at or past the cap is refused. Dividing rather than
	// multiplying keeps a huge page number from overflowing.
	if page-1 >= (searchCap+perPage-1)/perPage {
		c.invalid("Only the first 1000 search results are available", doc)
		return
	}
	reachable := hits
	if len(reachable) > searchCap {
		reachable = reachable[:searchCap]
	}
	items := []searchItemJSON{}
	for _, is := range paginate(c, reachable) {
		items = append(items, searchItemJSON{issueJSON: c.links.issue(is), Body: is.Body, Score: 1})
	}
	c.json(http.StatusOK, map[string]any{
		"total_count":        len(hits),
		"incomplete_results": false,
		"items":              items,
		// The emulator matches words, as GitHub's lexical search does.
		"search_type": "lexical",
	})
}
