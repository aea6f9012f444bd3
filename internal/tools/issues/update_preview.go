package issues

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// A dry run of github_update_issue or github_bulk_update_issues reads
// what the real call reads and plans what it plans, with the same code:
// the same refusals of unknown names, the same no-ops, the same steps.
// Instead of running the steps it says, for each issue, what it expects
// them to do: the settlement, the fields before and after, and the
// requests they would send. Nothing is written; the GitHub client would
// refuse a write here anyway, since a dry run holds no admission.

// UpdatePreview is a dry run's forecast for an update.
type UpdatePreview struct {
	// Requests are the requests sent once for the whole call, before any
	// issue is written (labels a bulk edit creates).
	Requests []string `json:"requests,omitempty"`
	// Labels names the labels those requests would create.
	Labels *LabelsDone    `json:"labels,omitempty"`
	Items  []IssuePreview `json:"items"`
	// Settlements counts the items by settlement.
	Settlements map[BulkSettlement]int `json:"settlements"`
}

// IssuePreview is what the call is expected to do to one issue.
type IssuePreview struct {
	IssueNumber int `json:"issue_number"`
	// Settlement is applied, no_op or failed: what the item would settle
	// as were the issue as it stands when the call runs.
	Settlement BulkSettlement `json:"settlement"`
	Changes    []FieldChange  `json:"changes,omitempty"`
	// Labels names the labels the call would add, remove and create.
	Labels   *LabelsDone     `json:"labels,omitempty"`
	Requests []string        `json:"requests,omitempty"`
	Notes    []string        `json:"notes,omitempty"`
	Error    *contract.Error `json:"error,omitempty"`
}

// FieldChange is one field before and after. A body is shown by its
// length: the agent holds the text it sent, and the one it replaces may
// be withheld from it.
type FieldChange struct {
	Field  string `json:"field"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// previewUpdate is github_update_issue's dry run.
func (s *Tools) previewUpdate(ctx context.Context, in UpdateIssueIn) (UpdatePreview, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return UpdatePreview{}, toolkit.NotStarted(err)
	}
	u := &update{s: s, c: c, in: in}
	// Always read: the forecast compares the issue as it stands.
	if err := u.read(ctx); err != nil {
		return UpdatePreview{}, err
	}
	if !s.CreatorAllowed(u.before.GetUser().GetLogin()) {
		return UpdatePreview{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
	}
	if in.ExpectedVersion != "" && IssueVersion(u.before) != in.ExpectedVersion {
		return UpdatePreview{}, contract.Errorf(contract.CodeConflict, "issue #%d changed since expected_version was read; the real call would write nothing", in.IssueNumber).
			WithField("expected_version", "is not the issue's current version")
	}
	if err := u.plan(ctx); err != nil {
		return UpdatePreview{}, err
	}
	return newPreview(nil, nil, []IssuePreview{u.preview()}), nil
}

// previewBulk is github_bulk_update_issues' dry run: its preflight read
// without the label creation it would send first, then each item's plan.
func (s *Tools) previewBulk(ctx context.Context, in BulkUpdateIssuesIn) (UpdatePreview, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return UpdatePreview{}, toolkit.NotStarted(err)
	}
	b := &bulk{s: s, c: c, in: in}
	pf, err := b.read(ctx)
	if err != nil {
		return UpdatePreview{}, err
	}
	var once []string
	created := &LabelsDone{}
	if l := in.Changes.Labels; l != nil && l.CreateMissing.On {
		for _, name := range planLabels(l, nil, pf.labels).create {
			once = append(once, fmt.Sprintf("POST /repos/%s/%s/labels (%q)", in.Owner, in.Repo, name))
			created.Created = append(created.Created, name)
			pf.labels[strings.ToLower(name)] = name // as createLabels leaves it
		}
	}
	items := make([]IssuePreview, 0, len(in.IssueNumbers))
	for _, n := range in.IssueNumbers {
		items = append(items, b.previewItem(ctx, pf, int(n)))
	}
	return newPreview(once, created.orNil(), items), nil
}

func (b *bulk) previewItem(ctx context.Context, pf *preflightResult, n int) IssuePreview {
	fail := func(e *contract.Error) IssuePreview {
		e.Settlement = contract.NotStarted
		return IssuePreview{IssueNumber: n, Settlement: BulkFailed, Error: e}
	}
	if e := pf.notIssues[n]; e != nil {
		return fail(e)
	}
	before := pf.issues[n]
	if !b.s.CreatorAllowed(before.GetUser().GetLogin()) {
		return fail(b.s.creatorRefusal(b.in.Owner, b.in.Repo, n))
	}
	u := &update{s: b.s, c: b.c, in: b.in.single(toolkit.IssueNumber(n)), before: before, pf: pf}
	if err := u.plan(ctx); err != nil {
		return fail(itemError(err))
	}
	return u.preview()
}

// preview runs the planned steps' predictions on a copy of the issue.
func (u *update) preview() IssuePreview {
	out := IssuePreview{IssueNumber: int(u.in.IssueNumber), Settlement: BulkNoOp, Notes: u.notes, Labels: u.labels.orNil()}
	after := *u.before
	after.Labels = slices.Clone(after.Labels)
	after.Assignees = slices.Clone(after.Assignees)
	for _, st := range u.steps {
		out.Requests = append(out.Requests, st.request)
		if st.predict != nil {
			st.predict(&after)
		}
	}
	if len(u.steps) > 0 {
		out.Settlement = BulkApplied
	}
	for _, f := range changedFields(u.before, &after) {
		out.Changes = append(out.Changes, FieldChange{Field: f, Before: shownValue(u.before, f), After: shownValue(&after, f)})
	}
	return out
}

// predictPatch applies a PATCH's fields to is as GitHub would.
func (u *update) predictPatch(is *gh.Issue, e github.IssueEdit) {
	if e.Title != nil {
		is.Title = e.Title
	}
	if e.Body != nil {
		is.Body = e.Body
	}
	if e.State != nil {
		is.State = e.State
		if *e.State == "open" {
			is.StateReason = gh.Ptr("reopened")
		} else if e.StateReason == nil {
			is.StateReason = gh.Ptr("completed") // GitHub's default for a close
		}
	}
	if e.StateReason != nil {
		is.StateReason = e.StateReason
	}
	if e.Labels != nil {
		is.Labels = nil
		for _, n := range *e.Labels {
			is.Labels = append(is.Labels, &gh.Label{Name: gh.Ptr(n)})
		}
	}
	if e.Assignees != nil {
		is.Assignees = nil
		for _, l := range *e.Assignees {
			is.Assignees = append(is.Assignees, &gh.User{Login: gh.Ptr(l)})
		}
	}
	switch {
	case e.ClearMilestone:
		is.Milestone = nil
	case e.Milestone != nil:
		m := &gh.Milestone{Number: e.Milestone}
		if u.pf != nil && u.pf.milestone != nil {
			m.Title = u.pf.milestone.Title
		}
		is.Milestone = m
	}
	switch {
	case e.ClearType:
		is.Type = nil
	case e.Type != nil:
		is.Type = &gh.IssueType{Name: e.Type}
	}
}

// shownValue is a field as a forecast shows it.
func shownValue(is *gh.Issue, field string) any {
	switch field {
	case "body":
		return fmt.Sprintf("%d bytes", len(is.GetBody()))
	case "labels":
		return orEmpty(labelNames(is))
	case "assignees":
		return orEmpty(assigneeLogins(is))
	case "milestone":
		if is.Milestone == nil {
			return nil
		}
		if t := is.Milestone.GetTitle(); t != "" {
			return t
		}
		return is.Milestone.GetNumber()
	case "type":
		if is.Type == nil {
			return nil
		}
		return is.GetType().GetName()
	case "locked":
		return is.GetLocked()
	}
	return fieldValue(is, field)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func newPreview(once []string, created *LabelsDone, items []IssuePreview) UpdatePreview {
	p := UpdatePreview{Requests: once, Labels: created, Items: items, Settlements: map[BulkSettlement]int{}}
	for _, it := range items {
		p.Settlements[it.Settlement]++
	}
	return p
}
