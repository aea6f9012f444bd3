package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// issueFilter is the subset of list parameters shared by the issue list.
type issueFilter struct {
	state     string // open | closed | all
	labels    []string
	assignee  string // "", "*", "none", login
	creator   string
	mentioned string
	milestone string // "", "*", "none", number
	typ       string // "", "*", "none", name
	since     time.Time
}

func (f issueFilter) match(is *state.Issue) bool {
	if is.Deleted {
		return false
	}
	if f.state != "all" && is.State != f.state {
		return false
	}
	for _, want := range f.labels {
		if !slices.ContainsFunc(is.Labels, func(l *state.Label) bool { return strings.EqualFold(l.Name, want) }) {
			return false
		}
	}
	switch f.assignee {
	case "":
	case "*":
		if len(is.Assignees) == 0 {
			return false
		}
	case "none":
		if len(is.Assignees) > 0 {
			return false
		}
	default:
		if !slices.ContainsFunc(is.Assignees, func(a *state.Account) bool { return strings.EqualFold(a.Login, f.assignee) }) {
			return false
		}
	}
	if f.creator != "" && !strings.EqualFold(is.User.Login, f.creator) {
		return false
	}
	if f.mentioned != "" && !state.MentionsUser(is, f.mentioned) {
		return false
	}
	switch f.milestone {
	case "":
	case "*":
		if is.Milestone == nil {
			return false
		}
	case "none":
		if is.Milestone != nil {
			return false
		}
	default:
		if is.Milestone == nil || strconv.Itoa(is.Milestone.Number) != f.milestone {
			return false
		}
	}
	switch f.typ {
	case "":
	case "*":
		if is.Type == nil {
			return false
		}
	case "none":
		if is.Type != nil {
			return false
		}
	default:
		if is.Type == nil || !strings.EqualFold(is.Type.Name, f.typ) {
			return false
		}
	}
	if !f.since.IsZero() && is.UpdatedAt.Before(f.since) {
		return false
	}
	return true
}

func listIssues(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	q := c.Req.URL.Query()
	f := issueFilter{state: q.Get("state"), assignee: q.Get("assignee"), creator: q.Get("creator"),
		mentioned: q.Get("mentioned"), milestone: q.Get("milestone"), typ: q.Get("type")}
	if f.state == "" {
		f.state = "open"
	}
	if f.state != "open" && f.state != "closed" && f.state != "all" {
		c.Invalid("", "rest/issues/issues#list-repository-issues", wire.FieldError{Resource: "Issue", Field: "state", Code: "invalid"})
		return
	}
	if n, err := strconv.Atoi(f.milestone); err == nil && r.FindMilestone(n) == nil {
		// A number that is no milestone of the repository is refused, not
		// answered with no issues.
		c.Invalid("", "rest/issues/issues#list-repository-issues", wire.FieldError{Resource: "Issue", Field: "milestone", Code: "invalid", Value: f.milestone})
		return
	}
	if v := q.Get("labels"); v != "" {
		for _, l := range strings.Split(v, ",") {
			if l = strings.TrimSpace(l); l != "" {
				f.labels = append(f.labels, l)
			}
		}
	}
	if v := q.Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			c.Invalid("", "rest/issues/issues#list-repository-issues", wire.FieldError{Resource: "Issue", Field: "since", Code: "invalid"})
			return
		}
		f.since = t
	}
	var list []*state.Issue
	for _, is := range r.Issues {
		if f.match(is) {
			list = append(list, is)
		}
	}
	search.SortIssues(list, q.Get("sort"), q.Get("direction"))
	out := []*issueJSON{}
	for _, is := range paginate(c, list) {
		out = append(out, renderIssue(c.Links, is))
	}
	c.JSON(http.StatusOK, out)
}

func getIssue(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, is))
}

// stringOrNumber accepts a JSON string or number, as GitHub does for titles.
type stringOrNumber string

func (s *stringOrNumber) UnmarshalJSON(b []byte) error {
	var str string
	if err := json.Unmarshal(b, &str); err == nil {
		*s = stringOrNumber(str)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*s = stringOrNumber(n.String())
	return nil
}

// labelNames accepts ["a", "b"] or [{"name": "a"}], as GitHub does.
type labelNames []string

func (l *labelNames) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		var wrapped struct {
			Labels []json.RawMessage `json:"labels"`
		}
		if err2 := json.Unmarshal(b, &wrapped); err2 != nil || wrapped.Labels == nil {
			return err
		}
		raw = wrapped.Labels
	}
	out := labelNames{}
	for _, item := range raw {
		var s string
		if err := json.Unmarshal(item, &s); err == nil {
			out = append(out, s)
			continue
		}
		var obj struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(item, &obj); err != nil {
			return err
		}
		out = append(out, obj.Name)
	}
	*l = out
	return nil
}

type issueWrite struct {
	Title       wire.Optional[stringOrNumber] `json:"title"`
	Body        wire.Optional[string]         `json:"body"`
	Assignee    wire.Optional[string]         `json:"assignee"`
	Assignees   wire.Optional[[]string]       `json:"assignees"`
	Milestone   wire.Optional[json.Number]    `json:"milestone"`
	Labels      wire.Optional[labelNames]     `json:"labels"`
	State       wire.Optional[string]         `json:"state"`
	StateReason wire.Optional[string]         `json:"state_reason"`
	Type        wire.Optional[string]         `json:"type"`
}

const issueDocs = "rest/issues/issues"

// resolveLabels finds (creating when missing, as GitHub does) the labels named.
func (c *call) resolveLabels(r *state.Repo, names []string) []*state.Label {
	var out []*state.Label
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		l := r.FindLabel(n)
		if l == nil {
			l = c.State.AddLabel(r, n, "ededed", nil)
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// resolveAssignees finds assignable users or answers 422 naming the first
// that is not.
func (c *call) resolveAssignees(r *state.Repo, logins []string) ([]*state.Account, bool) {
	var out []*state.Account
	for _, login := range logins {
		a := c.State.Account(login)
		if a == nil || !r.Assignable(login) {
			c.Invalid("", issueDocs, wire.FieldError{Resource: "Issue", Field: "assignees", Code: "invalid", Value: login})
			return nil, false
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, true
}

func (c *call) resolveMilestone(r *state.Repo, v json.Number) (*state.Milestone, bool) {
	n, err := strconv.Atoi(v.String())
	m := r.FindMilestone(n)
	if err != nil || m == nil {
		c.Invalid("", issueDocs, wire.FieldError{Resource: "Issue", Field: "milestone", Code: "invalid", Value: v.String()})
		return nil, false
	}
	return m, true
}

func (c *call) resolveType(r *state.Repo, name string) (*state.IssueType, bool) {
	t := c.State.FindIssueType(r, name)
	if t == nil || !t.IsEnabled {
		c.Invalid("", issueDocs, wire.FieldError{Resource: "Issue", Field: "type", Code: "invalid", Value: name})
		return nil, false
	}
	return t, true
}

func createIssue(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	var in issueWrite
	if !c.Decode(&in) {
		return
	}
	title := strings.TrimSpace(string(in.Title.Value))
	if !in.Title.Set || in.Title.Null || title == "" {
		c.Invalid("", issueDocs+"#create-an-issue", wire.FieldError{Resource: "Issue", Field: "title", Code: "missing_field"})
		return
	}
	if c.tooLong(issueDocs+"#create-an-issue", "Issue", in.Title.Set, string(in.Title.Value), in.Body.Set, in.Body.Value) {
		return
	}
	// Labels, assignees, milestone and type need triage access; GitHub drops
	// them silently for others.
	canTriage := c.Token.Permission(r) >= state.PermTriage
	var (
		assignees []*state.Account
		milestone *state.Milestone
		typ       *state.IssueType
		ok        = true
	)
	if canTriage {
		logins := in.Assignees.Value
		if in.Assignee.Set && !in.Assignee.Null && in.Assignee.Value != "" {
			logins = append([]string{in.Assignee.Value}, logins...)
		}
		if assignees, ok = c.resolveAssignees(r, logins); !ok {
			return
		}
		if in.Milestone.Set && !in.Milestone.Null {
			if milestone, ok = c.resolveMilestone(r, in.Milestone.Value); !ok {
				return
			}
		}
		if in.Type.Set && !in.Type.Null {
			if typ, ok = c.resolveType(r, in.Type.Value); !ok {
				return
			}
		}
	}
	var body *string
	if in.Body.Set && !in.Body.Null {
		b := in.Body.Value
		body = &b
	}
	t := state.IssueTriage{Assignees: assignees, Milestone: milestone, Type: typ}
	if canTriage {
		t.Labels = c.resolveLabels(r, in.Labels.Value)
	}
	is := c.State.CreateIssue(r, c.Viewer, title, body, t, c.Req.Host)
	out := renderIssueDetail(c.Links, is)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

var stateReasons = []string{"completed", "not_planned", "duplicate", "reopened"}

func updateIssue(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	var in issueWrite
	if !c.Decode(&in) {
		return
	}
	perm := c.Token.Permission(r)
	isAuthor := c.Viewer != nil && is.User == c.Viewer
	if perm < state.PermTriage && !isAuthor {
		c.Forbidden()
		return
	}
	if perm < state.PermTriage {
		// GitHub's description of this route: without push access, label,
		// assignee, milestone and type changes are silently dropped; the
		// author's title, body and state changes still apply.
		in.Labels, in.Assignees, in.Assignee = wire.Optional[labelNames]{}, wire.Optional[[]string]{}, wire.Optional[string]{}
		in.Milestone, in.Type = wire.Optional[json.Number]{}, wire.Optional[string]{}
	}
	const doc = issueDocs + "#update-an-issue"
	if in.Title.Set && (in.Title.Null || strings.TrimSpace(string(in.Title.Value)) == "") {
		c.Invalid("", doc, wire.FieldError{Resource: "Issue", Field: "title", Code: "missing_field"})
		return
	}
	if c.tooLong(doc, "Issue", in.Title.Set, string(in.Title.Value), in.Body.Set, in.Body.Value) {
		return
	}
	if in.State.Set && !in.State.Null && in.State.Value != "open" && in.State.Value != "closed" {
		c.Invalid("", doc, wire.FieldError{Resource: "Issue", Field: "state", Code: "invalid", Value: in.State.Value})
		return
	}
	if in.StateReason.Set && !in.StateReason.Null && !slices.Contains(stateReasons, in.StateReason.Value) {
		c.Invalid("", doc, wire.FieldError{Resource: "Issue", Field: "state_reason", Code: "invalid", Value: in.StateReason.Value})
		return
	}
	// Resolve everything before changing anything, so a 422 leaves the issue
	// as it was.
	var (
		assignees []*state.Account
		milestone *state.Milestone
		typ       *state.IssueType
		ok        = true
	)
	if in.Assignees.Set || in.Assignee.Set {
		logins := in.Assignees.Value
		if in.Assignee.Set && !in.Assignee.Null && in.Assignee.Value != "" {
			logins = append([]string{in.Assignee.Value}, logins...)
		}
		if assignees, ok = c.resolveAssignees(r, logins); !ok {
			return
		}
	}
	if in.Milestone.Set && !in.Milestone.Null {
		if milestone, ok = c.resolveMilestone(r, in.Milestone.Value); !ok {
			return
		}
	}
	if in.Type.Set && !in.Type.Null {
		if typ, ok = c.resolveType(r, in.Type.Value); !ok {
			return
		}
	}
	if in.Title.Set {
		c.State.Rename(is, c.Viewer, strings.TrimSpace(string(in.Title.Value)))
	}
	if in.Body.Set {
		var body *string
		if !in.Body.Null {
			b := in.Body.Value
			body = &b
		}
		c.State.SetBody(is, c.Viewer, body, c.Req.Host)
	}
	if in.Labels.Set {
		c.State.SetLabels(is, c.Viewer, c.resolveLabels(r, in.Labels.Value))
	}
	if in.Assignees.Set || in.Assignee.Set {
		c.State.SetAssignees(is, c.Viewer, assignees)
	}
	if in.Milestone.Set {
		c.State.SetMilestone(is, c.Viewer, milestone)
	}
	if in.Type.Set {
		c.State.SetType(is, typ)
	}
	reason := ""
	if in.StateReason.Set && !in.StateReason.Null {
		reason = in.StateReason.Value
	}
	// GitHub's description of state_reason: "Ignored unless state is
	// changed". Closing a closed issue, with or without a reason, leaves
	// it and its reason as they are.
	switch {
	case in.State.Value == "closed" && is.State != "closed":
		if reason == "reopened" {
			reason = ""
		}
		c.State.Close(is, c.Viewer, reason)
	case in.State.Value == "open":
		c.State.Reopen(is, c.Viewer)
	}
	c.JSON(http.StatusOK, renderIssueDetail(c.Links, is))
}

var lockReasons = []string{"off-topic", "too heated", "resolved", "spam"}

func lockIssue(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	var in struct {
		LockReason *string `json:"lock_reason"`
	}
	if !c.Decode(&in) {
		return
	}
	if in.LockReason != nil && !slices.Contains(lockReasons, *in.LockReason) {
		c.Invalid("", "rest/issues/issues#lock-an-issue", wire.FieldError{Resource: "Issue", Field: "lock_reason", Code: "invalid", Value: *in.LockReason})
		return
	}
	c.State.LockIssue(is, c.Viewer, in.LockReason)
	c.NoContent()
}

func unlockIssue(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	c.State.UnlockIssue(is, c.Viewer)
	c.NoContent()
}

// tooLong answers GitHub's 422 for a title or body over its limit.
func (c *call) tooLong(doc, resource string, titleSet bool, title string, bodySet bool, body string) bool {
	switch {
	case titleSet && utf8.RuneCountInString(title) > state.MaxTitleChars:
		c.Invalid("", doc, wire.FieldError{Resource: resource, Field: "title", Code: "custom",
			Message: fmt.Sprintf("title is too long (maximum is %d characters)", state.MaxTitleChars)})
	case bodySet && utf8.RuneCountInString(body) > state.MaxBodyChars:
		c.Invalid("", doc, wire.FieldError{Resource: resource, Field: "body", Code: "custom",
			Message: fmt.Sprintf("body is too long (maximum is %d characters)", state.MaxBodyChars)})
	default:
		return false
	}
	return true
}
