package issues

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// preflight is everything a write must know before it starts, asked in ONE
// GraphQL request: the issue's current state, whether each named label,
// milestone, issue type and assignee exists (with the repository's
// spelling), and the parent a new issue will hang under. REST would need a
// request per kind (issue, label list, milestone, types, assignees), and
// the scripted tasks must stay at their REST minimum; with this, "swap a
// status label" is one read plus its two writes, and still refuses an
// unknown label before writing.
type preflight struct {
	owner, repo string
	issue       int // 0: the issue's state is not needed
	parent      int // 0: no parent to check
	labels      []string
	milestone   int // 0: none to check
	types       bool
	assignees   []string
	// issues are the issues a bulk edit reads, each under its own alias
	// in the same request (see runIssues).
	issues []int
}

// preflightResult is what the preflight found. Maps are keyed by the
// lower-cased name as given; an absent key means "does not exist".
type preflightResult struct {
	issue  *gh.Issue
	parent *gh.Issue
	// parentSubIssues and parentDepth are the parent's sub-issue count and
	// number of ancestors.
	parentSubIssues, parentDepth int
	labels                       map[string]string
	milestone                    *gh.Milestone
	types                        map[string]string
	assignable                   map[string]string
	// issues holds preflight.issues found as issues, by number; notIssues
	// the refusal for each number that is missing or a pull request.
	issues    map[int]*gh.Issue
	notIssues map[int]*contract.Error
}

// issueSelection is the editable state [IssueVersion] hashes, plus what the
// output shows. stateReason needs enableDuplicate, or GitHub reports a
// duplicate as not_planned and the version would differ from REST's.
const issueSelection = `databaseId number title body state stateReason(enableDuplicate: true) locked activeLockReason
 author { login __typename } milestone { number title } issueType { name } comments(first: 1) { totalCount }
 labels(first: 100) { nodes { name } } assignees(first: 100) { nodes { login } }
 url createdAt updatedAt closedAt`

// newPreflightResult is an empty answer: nothing found yet.
func newPreflightResult() *preflightResult {
	return &preflightResult{labels: map[string]string{}, types: map[string]string{}, assignable: map[string]string{}}
}

// withMilestone is an answer holding one milestone.
func withMilestone(m *gh.Milestone) *preflightResult {
	r := newPreflightResult()
	r.milestone = m
	return r
}

func (p preflight) empty() bool {
	return p.issue == 0 && p.parent == 0 && len(p.labels) == 0 && p.milestone == 0 && !p.types && len(p.assignees) == 0 && len(p.issues) == 0
}

// document builds the query and its variables. Names travel as variables,
// never spliced into the document.
func (p preflight) document() (string, map[string]any) {
	vars := map[string]any{"owner": p.owner, "repo": p.repo}
	params := []string{"$owner: String!", "$repo: String!"}
	var sel []string
	if p.issue > 0 {
		vars["n"] = p.issue
		params = append(params, "$n: Int!")
		sel = append(sel, "issue(number: $n) { "+issueSelection+" }", "kind: issueOrPullRequest(number: $n) { __typename }")
	}
	if p.parent > 0 {
		vars["p"] = p.parent
		params = append(params, "$p: Int!")
		sel = append(sel, "parent: issue(number: $p) { databaseId number author { login __typename } subIssuesSummary { total } "+
			ancestry+" }",
			"parentKind: issueOrPullRequest(number: $p) { __typename }")
	}
	for i, name := range p.labels {
		v := fmt.Sprintf("l%d", i)
		vars[v] = name
		params = append(params, "$"+v+": String!")
		sel = append(sel, fmt.Sprintf("%s: label(name: $%s) { name }", v, v))
	}
	if p.milestone > 0 {
		vars["m"] = p.milestone
		params = append(params, "$m: Int!")
		sel = append(sel, "milestone(number: $m) { number title }")
	}
	if p.types {
		sel = append(sel, "issueTypes(first: 100) { nodes { name isEnabled } }")
	}
	for i, login := range p.assignees {
		v := fmt.Sprintf("a%d", i)
		vars[v] = login
		params = append(params, "$"+v+": String!")
		sel = append(sel, fmt.Sprintf("%s: assignableUsers(query: $%s, first: 20) { nodes { login } }", v, v))
	}
	for i, n := range p.issues {
		v := fmt.Sprintf("i%d", i)
		vars[v] = n
		params = append(params, "$"+v+": Int!")
		sel = append(sel, fmt.Sprintf("%s: issue(number: $%s) { %s }", v, v, issueSelection),
			fmt.Sprintf("k%d: issueOrPullRequest(number: $%s) { __typename }", i, v))
	}
	doc := "query(" + strings.Join(params, ", ") + ") { repository(owner: $owner, name: $repo) { " +
		strings.Join(sel, " ") + " } }"
	return doc, vars
}

// ancestry selects an issue's ancestors as far as GitHub's nesting limit
// reaches, so a new sub-issue that would go one level too deep is refused
// before the issue is created.
var ancestry = strings.Repeat("parent { number ", maxSubIssueDepth) + strings.Repeat("}", maxSubIssueDepth)

// GitHub's documented sub-issue limits: 100 per parent, 8 levels deep.
const (
	maxSubIssues     = 100
	maxSubIssueDepth = 8
)

// gqlParent is the parent preflight's answer beyond gqlIssue: how many
// sub-issues it has and how many ancestors.
type gqlParent struct {
	SubIssuesSummary struct {
		Total int `json:"total"`
	} `json:"subIssuesSummary"`
	Parent *gqlAncestor `json:"parent"`
}

type gqlAncestor struct {
	Parent *gqlAncestor `json:"parent"`
}

// depth is how many ancestors the answer shows.
func (g gqlParent) depth() int {
	n := 0
	for a := g.Parent; a != nil; a = a.Parent {
		n++
	}
	return n
}

// gqlIssue is issueSelection's answer.
type gqlIssue struct {
	DatabaseID       int64   `json:"databaseId"`
	Number           int     `json:"number"`
	Title            string  `json:"title"`
	Body             string  `json:"body"`
	State            string  `json:"state"`
	StateReason      *string `json:"stateReason"`
	Locked           bool    `json:"locked"`
	ActiveLockReason *string `json:"activeLockReason"`
	Author           *struct {
		Login    string `json:"login"`
		Typename string `json:"__typename"`
	} `json:"author"`
	Comments *struct {
		TotalCount int `json:"totalCount"`
	} `json:"comments"`
	Milestone *struct {
		Number int    `json:"number"`
		Title  string `json:"title"`
	} `json:"milestone"`
	IssueType *struct {
		Name string `json:"name"`
	} `json:"issueType"`
	Labels *struct {
		Nodes []struct {
			Name string `json:"name"`
		} `json:"nodes"`
	} `json:"labels"`
	Assignees *struct {
		Nodes []struct {
			Login string `json:"login"`
		} `json:"nodes"`
	} `json:"assignees"`
	URL       string     `json:"url"`
	CreatedAt *time.Time `json:"createdAt"`
	UpdatedAt *time.Time `json:"updatedAt"`
	ClosedAt  *time.Time `json:"closedAt"`
}

// lockReasons maps GraphQL's [LockReason] enum to REST's lock_reason.
var gqlLockReasons = map[string]string{"OFF_TOPIC": "off-topic", "TOO_HEATED": "too heated", "RESOLVED": "resolved", "SPAM": "spam"}

// rest converts the answer to the REST shape the views and [IssueVersion]
// read, so a version computed from it equals github_get_issue's.
func (g *gqlIssue) rest() *gh.Issue {
	is := &gh.Issue{ID: gh.Ptr(g.DatabaseID), Number: gh.Ptr(g.Number), Title: gh.Ptr(g.Title), Body: gh.Ptr(g.Body),
		State: gh.Ptr(strings.ToLower(g.State)), Locked: gh.Ptr(g.Locked), HTMLURL: gh.Ptr(g.URL)}
	if g.StateReason != nil {
		is.StateReason = gh.Ptr(strings.ToLower(*g.StateReason))
	}
	if g.ActiveLockReason != nil {
		is.ActiveLockReason = gh.Ptr(gqlLockReasons[*g.ActiveLockReason])
	}
	if g.Author != nil {
		// GraphQL names an App's bot account without REST's "[bot]".
		login := g.Author.Login
		if g.Author.Typename == "Bot" && !strings.HasSuffix(login, "[bot]") {
			login += "[bot]"
		}
		is.User = &gh.User{Login: gh.Ptr(login)}
	}
	if g.Comments != nil {
		is.Comments = gh.Ptr(g.Comments.TotalCount)
	}
	if g.Milestone != nil {
		is.Milestone = &gh.Milestone{Number: gh.Ptr(g.Milestone.Number), Title: gh.Ptr(g.Milestone.Title)}
	}
	if g.IssueType != nil {
		is.Type = &gh.IssueType{Name: gh.Ptr(g.IssueType.Name)}
	}
	if g.Labels != nil {
		for _, l := range g.Labels.Nodes {
			is.Labels = append(is.Labels, &gh.Label{Name: gh.Ptr(l.Name)})
		}
	}
	if g.Assignees != nil {
		for _, a := range g.Assignees.Nodes {
			is.Assignees = append(is.Assignees, &gh.User{Login: gh.Ptr(a.Login)})
		}
	}
	ts := func(t *time.Time) *gh.Timestamp {
		if t == nil {
			return nil
		}
		return &gh.Timestamp{Time: *t}
	}
	is.CreatedAt, is.UpdatedAt, is.ClosedAt = ts(g.CreatedAt), ts(g.UpdatedAt), ts(g.ClosedAt)
	return is
}

// run asks the preflight. A pull request's number is read through REST
// (see runForPullRequest); a missing issue is reported as issue_not_found with a
// search repair, and a pull request named as a parent as invalid_field;
// other failures as the access layer maps them.
func (p preflight) run(ctx context.Context, c *github.Client) (*preflightResult, error) {
	doc, vars := p.document()
	var data struct {
		Repository map[string]json.RawMessage `json:"repository"`
	}
	err := c.Query(ctx, doc, vars, &data)
	r := data.Repository
	if r != nil {
		// GitHub answers a number that is not an issue with null and an
		// error. A pull request is an issue to GitHub's REST API (which is
		// what the writes use): its state is read there instead.
		if p.issue > 0 && isNull(r["issue"]) {
			if isPullRequest(r["kind"]) {
				return p.runForPullRequest(ctx, c)
			}
			return nil, notAnIssue(err, r["kind"], p.owner, p.repo, p.issue, "issue_number")
		}
		if p.parent > 0 && isNull(r["parent"]) {
			return nil, notAnIssue(err, r["parentKind"], p.owner, p.repo, p.parent, "parent_issue_number")
		}
	}
	out := newPreflightResult()
	if r != nil && len(p.issues) > 0 {
		// A number that is not an issue fails its own item of a bulk
		// edit; GitHub's error for it does not fail the others.
		if err = p.readIssues(r, out, err); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	if p.issue > 0 {
		var g gqlIssue
		if err := decodeRaw(r["issue"], &g); err != nil {
			return nil, err
		}
		out.issue = g.rest()
	}
	if p.parent > 0 {
		var g gqlIssue
		if err := decodeRaw(r["parent"], &g); err != nil {
			return nil, err
		}
		out.parent = g.rest()
		var limits gqlParent
		if err := decodeRaw(r["parent"], &limits); err != nil {
			return nil, err
		}
		out.parentSubIssues, out.parentDepth = limits.SubIssuesSummary.Total, limits.depth()
	}
	for i, name := range p.labels {
		var l *struct {
			Name string `json:"name"`
		}
		if err := decodeRaw(r[fmt.Sprintf("l%d", i)], &l); err != nil {
			return nil, err
		}
		// GitHub looks labels up case-insensitively; a lookup that came back
		// under another name is not a match.
		if l != nil && strings.EqualFold(l.Name, name) {
			out.labels[strings.ToLower(name)] = l.Name
		}
	}
	if p.milestone > 0 {
		var m *struct {
			Number int    `json:"number"`
			Title  string `json:"title"`
		}
		if err := decodeRaw(r["milestone"], &m); err != nil {
			return nil, err
		}
		if m != nil {
			out.milestone = &gh.Milestone{Number: gh.Ptr(m.Number), Title: gh.Ptr(m.Title)}
		}
	}
	if p.types {
		var t *struct {
			Nodes []struct {
				Name      string `json:"name"`
				IsEnabled bool   `json:"isEnabled"`
			} `json:"nodes"`
		}
		if err := decodeRaw(r["issueTypes"], &t); err != nil {
			return nil, err
		}
		if t != nil {
			for _, n := range t.Nodes {
				if n.IsEnabled {
					out.types[strings.ToLower(n.Name)] = n.Name
				}
			}
		}
	}
	for i, login := range p.assignees {
		var u *struct {
			Nodes []struct {
				Login string `json:"login"`
			} `json:"nodes"`
		}
		if err := decodeRaw(r[fmt.Sprintf("a%d", i)], &u); err != nil {
			return nil, err
		}
		if u == nil {
			continue
		}
		// The query matches logins and names by substring; only an exact
		// login counts.
		for _, n := range u.Nodes {
			if strings.EqualFold(n.Login, login) {
				out.assignable[strings.ToLower(login)] = n.Login
			}
		}
	}
	return out, nil
}

// readIssues reads the answer for p.issues into out. err is the request's
// error, which GitHub sends beside the data when a number is not an
// issue; it is returned only when no number explains it.
func (p preflight) readIssues(r map[string]json.RawMessage, out *preflightResult, err error) error {
	out.issues, out.notIssues = map[int]*gh.Issue{}, map[int]*contract.Error{}
	for i, n := range p.issues {
		raw, kind := r[fmt.Sprintf("i%d", i)], r[fmt.Sprintf("k%d", i)]
		if isNull(raw) {
			out.notIssues[n] = bulkNotAnIssue(kind, p.owner, p.repo, n)
			continue
		}
		var g gqlIssue
		if e := decodeRaw(raw, &g); e != nil {
			return e
		}
		out.issues[n] = g.rest()
	}
	if len(out.notIssues) > 0 {
		return nil
	}
	return err
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// decodeRaw decodes raw into v, leaving v as it is for null or absent.
func decodeRaw(raw json.RawMessage, v any) error {
	if isNull(raw) {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// runForPullRequest is the preflight for a pull request's number: its
// state from REST (GraphQL's issue field does not load pull requests),
// then the rest of the preflight without it.
func (p preflight) runForPullRequest(ctx context.Context, c *github.Client) (*preflightResult, error) {
	rec, err := fetchIssue(ctx, c, p.owner, p.repo, p.issue)
	if err != nil {
		return nil, err
	}
	rest := p
	rest.issue = 0
	out := newPreflightResult()
	if !rest.empty() {
		if out, err = rest.run(ctx, c); err != nil {
			return nil, err
		}
	}
	out.issue = &rec.Issue
	return out, nil
}

func isPullRequest(kind json.RawMessage) bool {
	var k struct {
		Typename string `json:"__typename"`
	}
	return decodeRaw(kind, &k) == nil && k.Typename == "PullRequest"
}

// notAnIssue is the refusal for a number the preflight found no issue
// under: a pull request's number where only an issue will do (a parent
// of sub-issues) says so, anything else is issue_not_found.
func notAnIssue(err error, kind json.RawMessage, owner, repo string, number int, field string) error {
	if isPullRequest(kind) {
		e := contract.Errorf(contract.CodeInvalidField, "%s/%s#%d is a pull request; only an issue can be a parent", owner, repo, number).
			WithField(field, "is a pull request, not an issue")
		e.Settlement = contract.NotStarted
		return e.WithRepair(contract.Repair{NextStep: "find the issue you mean",
			Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: owner, Repo: repo, State: "all"}})
	}
	if err == nil {
		err = &github.Error{Code: github.NotFound, Message: "Not Found"}
	}
	return toolkit.NotFoundIssue(err, owner, repo, number)
}

// preflight runs p, answering from confirmed names where it can: when
// every name it asks about is known and it needs no issue state, no
// request is made at all.
func (s *Tools) preflight(ctx context.Context, c *github.Client, p preflight) (*preflightResult, error) {
	now := s.CurrentTime()
	key := toolkit.KnownKey(c, p.owner, p.repo)
	res := newPreflightResult()
	ask := p
	ask.labels, ask.assignees = nil, nil

	// Another replica may have confirmed these names: take what the
	// shared store knows before asking GitHub.
	s.LoadSharedNames(ctx, key)
	s.Known().Lock()
	entry := s.Known().Live(key, now)
	for _, l := range p.labels {
		if entry != nil && entry.Labels[strings.ToLower(l)] != "" {
			res.labels[strings.ToLower(l)] = entry.Labels[strings.ToLower(l)]
		} else {
			ask.labels = append(ask.labels, l)
		}
	}
	for _, a := range p.assignees {
		if entry != nil && entry.Assignable[strings.ToLower(a)] != "" {
			res.assignable[strings.ToLower(a)] = entry.Assignable[strings.ToLower(a)]
		} else {
			ask.assignees = append(ask.assignees, a)
		}
	}
	if p.milestone > 0 && entry != nil && entry.Milestones[p.milestone] != "" {
		res.milestone = &gh.Milestone{Number: gh.Ptr(p.milestone), Title: gh.Ptr(entry.Milestones[p.milestone])}
		ask.milestone = 0
	}
	if p.types && entry != nil && entry.Types != nil {
		for k, v := range entry.Types {
			res.types[k] = v
		}
		ask.types = false
	}
	s.Known().Unlock()

	if ask.empty() {
		return res, nil
	}
	got, err := ask.run(ctx, c)
	if err != nil {
		return nil, err
	}
	got.merge(res)
	s.remember(key, now, ask, got)
	return got, nil
}

// merge adds what was already known to a fresh answer.
func (r *preflightResult) merge(known *preflightResult) {
	for k, v := range known.labels {
		r.labels[k] = v
	}
	for k, v := range known.assignable {
		r.assignable[k] = v
	}
	if r.milestone == nil {
		r.milestone = known.milestone
	}
	if len(r.types) == 0 {
		for k, v := range known.types {
			r.types[k] = v
		}
	}
}
