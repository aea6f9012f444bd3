package search

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The issue search qualifiers GitHub documents ("Searching issues and pull
// requests", "Filtering and searching issues and pull requests"), each
// compiled into a test of one issue or pull request. A qualifier the
// emulator does not know is searched for as a word, as GitHub treats an
// unknown key:value.

// qualifier compiles key:val. neg says the term is negated (the caller
// applies the negation); it decides only whether a repository or owner is
// recorded as searched. known is false for a key the emulator does not
// treat as a qualifier.
func (p *searchParser) qualifier(key, val string, neg bool) (e searchExpr, scope string, known bool) {
	lval := strings.ToLower(val)
	switch key {
	case "repo":
		if !neg {
			p.q.Repos = append(p.q.Repos, lval)
		}
		return searchPred(func(is *state.Issue) bool { return strings.EqualFold(is.Repo.FullName(), val) }), "repo", true
	case "user", "org", "owner":
		login := p.login(val) // user:@me is the caller's own repositories
		if !neg {
			p.q.Owners = append(p.q.Owners, strings.ToLower(login))
		}
		return searchPred(func(is *state.Issue) bool { return strings.EqualFold(is.Repo.Owner.Login, login) }), "owner", true
	case "is", "state":
		return isQualifier(lval), "", true
	case "archived":
		// archived:true or archived:false: by the repository's state; any
		// other value is searched for as a word.
		if lval != "true" && lval != "false" {
			return nil, "", false
		}
		return searchPred(func(is *state.Issue) bool { return is.Repo.Archived == (lval == "true") }), "", true
	case "type":
		return typeQualifier(lval), "", true
	case "reason":
		return reasonQualifier(lval), "", true
	case "label":
		// label:a,b is either label; separate label: qualifiers are all
		// required.
		var names []string
		for _, n := range strings.Split(val, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		return searchPred(func(is *state.Issue) bool {
			return slices.ContainsFunc(is.Labels, func(l *state.Label) bool {
				return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(l.Name, n) })
			})
		}), "", true
	case "no":
		return searchNot{hasQualifier(lval)}, "", true
	case "has":
		return hasQualifier(lval), "", true
	case "milestone":
		return searchPred(func(is *state.Issue) bool { return is.Milestone != nil && strings.EqualFold(is.Milestone.Title, val) }), "", true
	case "author":
		login := p.person(key, val, neg)
		return searchPred(func(is *state.Issue) bool { return accountIs(is.User, login) }), "", true
	case "assignee":
		login := p.person(key, val, neg)
		return searchPred(func(is *state.Issue) bool { return assignedTo(is, login) }), "", true
	case "mentions":
		login := p.person(key, val, neg)
		return searchPred(func(is *state.Issue) bool { return state.MentionsUser(is, login) }), "", true
	case "commenter":
		login := p.person(key, val, neg)
		return searchPred(func(is *state.Issue) bool { return commentedBy(is, login) }), "", true
	case "involves":
		login := p.person(key, val, neg)
		return searchPred(func(is *state.Issue) bool {
			return (accountIs(is.User, login)) || assignedTo(is, login) ||
				state.MentionsUser(is, login) || commentedBy(is, login)
		}), "", true
	case "in":
		for _, f := range strings.Split(lval, ",") {
			if (f == "title" || f == "body" || f == "comments") && !slices.Contains(p.q.in, f) {
				p.q.in = append(p.q.in, f)
			}
		}
		return nil, "", true
	case "comments":
		in, ok := IntRange(val)
		return validOrNothing(ok, func(is *state.Issue) bool { return in(len(is.Comments)) }), "", true
	case "created", "updated", "closed":
		in, ok := DateRange(val)
		return validOrNothing(ok, func(is *state.Issue) bool {
			switch key {
			case "created":
				return in(is.CreatedAt)
			case "updated":
				return in(is.UpdatedAt)
			}
			return is.ClosedAt != nil && in(*is.ClosedAt)
		}), "", true
	case "blocked-by", "blocking":
		ref, ok := parseIssueRef(val)
		return validOrNothing(ok, func(is *state.Issue) bool {
			list := is.BlockedBy
			if key == "blocking" {
				list = is.Blocking
			}
			return slices.ContainsFunc(list, func(o *state.Issue) bool { return ref.is(o, is.Repo) })
		}), "", true
	case "parent-issue":
		ref, ok := parseIssueRef(val)
		return validOrNothing(ok, func(is *state.Issue) bool { return is.Parent != nil && ref.is(is.Parent, is.Repo) }), "", true
	case "sub-issues-progress":
		in, ok := IntRange(val)
		return validOrNothing(ok, func(is *state.Issue) bool {
			pct, has := subIssuesProgress(is)
			return has && in(pct)
		}), "", true
	case "sort":
		by, order, _ := strings.Cut(lval, "-")
		switch by {
		case "created", "updated", "comments":
			p.q.Sort, p.q.Order = by, order
		}
		return nil, "", true
	}
	if e, ok := p.pullQualifier(key, val); ok {
		return e, "", true
	}
	return nil, "", false
}

// person reads a user qualifier's login, @me resolved, and records it.
func (p *searchParser) person(key, val string, neg bool) string {
	login := p.login(val)
	p.q.People = append(p.q.People, Person{Qualifier: key, Login: login, Neg: neg})
	return login
}

// login resolves @me to the caller.
func (p *searchParser) login(v string) string {
	if strings.EqualFold(v, "@me") {
		return p.viewer
	}
	return v
}

// accountIs reports whether a is the account a qualifier names: by login,
// or an App's bot as app/<slug>, as GitHub's search names bots.
func accountIs(a *state.Account, login string) bool {
	if a == nil {
		return false
	}
	if slug, ok := strings.CutPrefix(strings.ToLower(login), "app/"); ok {
		return a.IsBot && strings.EqualFold(a.AppSlug(), slug)
	}
	return strings.EqualFold(a.Login, login)
}

func assignedTo(is *state.Issue, login string) bool {
	return slices.ContainsFunc(is.Assignees, func(a *state.Account) bool { return accountIs(a, login) })
}

func commentedBy(is *state.Issue, login string) bool {
	return slices.ContainsFunc(is.Comments, func(c *state.Comment) bool { return accountIs(c.User, login) })
}

// validOrNothing is the test of a qualifier whose value parsed, or one
// that matches nothing: a malformed range or reference finds no issue.
func validOrNothing(ok bool, f func(is *state.Issue) bool) searchExpr {
	if !ok {
		return searchPred(func(*state.Issue) bool { return false })
	}
	return searchPred(f)
}

// isQualifier is is:… (and state:…): kind, state, lock, merge state,
// visibility and dependencies.
func isQualifier(v string) searchExpr {
	var f func(is *state.Issue) bool
	switch v {
	case "issue":
		f = func(is *state.Issue) bool { return !is.IsPull }
	case "pr", "pull-request":
		f = func(is *state.Issue) bool { return is.IsPull }
	case "open", "closed":
		f = func(is *state.Issue) bool { return is.State == v }
	case "locked":
		f = func(is *state.Issue) bool { return is.Locked }
	case "unlocked":
		f = func(is *state.Issue) bool { return !is.Locked }
	case "merged":
		f = func(is *state.Issue) bool { return is.IsPull && is.Merged }
	case "unmerged":
		// Open pull requests and those closed without being merged.
		f = func(is *state.Issue) bool { return is.IsPull && !is.Merged }
	case "draft":
		f = func(is *state.Issue) bool { return is.IsPull && is.Pull != nil && is.Pull.Draft }
	case "public":
		f = func(is *state.Issue) bool { return !is.Repo.Private }
	case "private":
		f = func(is *state.Issue) bool { return is.Repo.Private }
	case "blocked":
		f = func(is *state.Issue) bool { return len(is.BlockedBy) > 0 }
	case "blocking":
		f = func(is *state.Issue) bool { return len(is.Blocking) > 0 }
	default:
		// An is: value GitHub does not define matches nothing.
		f = func(*state.Issue) bool { return false }
	}
	return searchPred(f)
}

// typeQualifier is type:issue, type:pr, or an issue type's name
// (type:Bug), which only issues have.
func typeQualifier(v string) searchExpr {
	switch v {
	case "issue", "pr", "pull-request":
		return isQualifier(v)
	}
	return searchPred(func(is *state.Issue) bool { return is.Type != nil && strings.EqualFold(is.Type.Name, v) })
}

// reasonQualifier is reason:completed, reason:"not planned" and
// reason:duplicate: closed issues closed for that reason.
func reasonQualifier(v string) searchExpr {
	want := strings.ReplaceAll(strings.ReplaceAll(v, " ", "_"), "-", "_")
	return searchPred(func(is *state.Issue) bool {
		return is.State == "closed" && is.StateReason != nil && *is.StateReason == want
	})
}

// hasQualifier is has:…; no:… is its negation.
func hasQualifier(v string) searchExpr {
	var f func(is *state.Issue) bool
	switch v {
	case "label":
		f = func(is *state.Issue) bool { return len(is.Labels) > 0 }
	case "assignee":
		f = func(is *state.Issue) bool { return len(is.Assignees) > 0 }
	case "milestone":
		f = func(is *state.Issue) bool { return is.Milestone != nil }
	case "type", "issue-type":
		f = func(is *state.Issue) bool { return is.Type != nil }
	case "parent-issue":
		f = func(is *state.Issue) bool { return is.Parent != nil }
	case "sub-issues", "sub-issue":
		f = func(is *state.Issue) bool {
			_, has := subIssuesProgress(is)
			return has
		}
	case "blocked-by":
		f = func(is *state.Issue) bool { return len(is.BlockedBy) > 0 }
	case "blocking":
		f = func(is *state.Issue) bool { return len(is.Blocking) > 0 }
	case "project":
		// The emulator keeps no projects: nothing is in one.
		f = func(*state.Issue) bool { return false }
	default:
		f = func(*state.Issue) bool { return false }
	}
	return searchPred(f)
}

// subIssuesProgress is the share of an issue's sub-issues that are closed,
// in percent rounded down as the sub-issues summary gives it, and whether
// it has any.
func subIssuesProgress(is *state.Issue) (int, bool) {
	total, done := 0, 0
	for _, c := range is.SubIssues {
		if c.Deleted {
			continue
		}
		total++
		if c.State == "closed" {
			done++
		}
	}
	if total == 0 {
		return 0, false
	}
	return done * 100 / total, true
}

// issueRef is an issue named by a qualifier: N (in the issue's own
// repository) or owner/repo#N.
type issueRef struct {
	repo   string // "" for the same repository
	number int
}

func parseIssueRef(v string) (issueRef, bool) {
	repo, num, hasRepo := strings.Cut(v, "#")
	if !hasRepo {
		repo, num = "", v
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || (hasRepo && !strings.Contains(repo, "/")) {
		return issueRef{}, false
	}
	return issueRef{repo: repo, number: n}, true
}

// is reports whether o is the referenced issue, relative to the
// repository of the issue being tested.
func (r issueRef) is(o *state.Issue, from *state.Repo) bool {
	if o.Number != r.number {
		return false
	}
	if r.repo == "" {
		return o.Repo == from
	}
	return strings.EqualFold(o.Repo.FullName(), r.repo)
}

// IntRange reads n, >n, >=n, <n, <=n, a..b, a..* and *..b.
func IntRange(v string) (func(int) bool, bool) {
	atoi := func(s string) (int, bool) {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		return n, err == nil
	}
	if lo, hi, ok := strings.Cut(v, ".."); ok {
		from, to := -1<<62, 1<<62
		if lo != "*" {
			n, ok := atoi(lo)
			if !ok {
				return nil, false
			}
			from = n
		}
		if hi != "*" {
			n, ok := atoi(hi)
			if !ok {
				return nil, false
			}
			to = n
		}
		return func(x int) bool { return x >= from && x <= to }, true
	}
	op, rest := comparison(v)
	n, ok := atoi(rest)
	if !ok {
		return nil, false
	}
	switch op {
	case ">":
		return func(x int) bool { return x > n }, true
	case ">=":
		return func(x int) bool { return x >= n }, true
	case "<":
		return func(x int) bool { return x < n }, true
	case "<=":
		return func(x int) bool { return x <= n }, true
	}
	return func(x int) bool { return x == n }, true
}

// comparison splits a leading >, >=, < or <= off v.
func comparison(v string) (op, rest string) {
	for _, op := range []string{">=", "<=", ">", "<"} {
		if r, ok := strings.CutPrefix(v, op); ok {
			return op, r
		}
	}
	return "", v
}

// dateSpan is the stretch of time a date or time in a query covers: a
// whole day for YYYY-MM-DD, one second for a time.
type dateSpan struct{ start, end time.Time }

func parseDateSpan(s string) (dateSpan, bool) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return dateSpan{t, t.AddDate(0, 0, 1)}, true
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return dateSpan{t, t.Add(time.Second)}, true
		}
	}
	return dateSpan{}, false
}

// DateRange reads a date qualifier's value: a date or time, one with
// >, >=, < or <=, or a range a..b where either end may be *.
func DateRange(v string) (func(time.Time) bool, bool) {
	if lo, hi, ok := strings.Cut(v, ".."); ok {
		var from, to *dateSpan
		if lo != "*" {
			s, ok := parseDateSpan(lo)
			if !ok {
				return nil, false
			}
			from = &s
		}
		if hi != "*" {
			s, ok := parseDateSpan(hi)
			if !ok {
				return nil, false
			}
			to = &s
		}
		return func(t time.Time) bool {
			return (from == nil || !t.Before(from.start)) && (to == nil || t.Before(to.end))
		}, true
	}
	op, rest := comparison(v)
	s, ok := parseDateSpan(rest)
	if !ok {
		return nil, false
	}
	switch op {
	case ">":
		return func(t time.Time) bool { return !t.Before(s.end) }, true
	case ">=":
		return func(t time.Time) bool { return !t.Before(s.start) }, true
	case "<":
		return func(t time.Time) bool { return t.Before(s.start) }, true
	case "<=":
		return func(t time.Time) bool { return t.Before(s.end) }, true
	}
	return func(t time.Time) bool { return !t.Before(s.start) && t.Before(s.end) }, true
}
