package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// maxBulkIssues bounds one bulk edit: a batch an agent can read back in
// one result, and one preflight request GitHub answers whole.
const maxBulkIssues = 50

// BulkUpdateIssuesIn are github_bulk_update_issues' arguments.
type BulkUpdateIssuesIn struct {
	Owner        string                `json:"owner"`
	Repo         string                `json:"repo"`
	IssueNumbers []toolkit.IssueNumber `json:"issue_numbers" jsonschema:"1-50"`
	Changes      IssueChanges          `json:"changes" jsonschema:"github_update_issue's state, state_reason, labels, assignees, milestone, type"`
	// ContinueOnError false stops at the first failed item: items not yet
	// started are left as they are.
	ContinueOnError bool `json:"continue_on_error,omitempty" jsonschema:"default false"`
}

// BulkSettlement is what happened to one issue of a bulk edit.
type BulkSettlement string

const (
	BulkApplied    BulkSettlement = "applied"
	BulkNoOp       BulkSettlement = "no_op"
	BulkFailed     BulkSettlement = "failed"
	BulkNotStarted BulkSettlement = "not_started"
)

// JSONSchema implements [tooldef.SelfDescribing].
func (BulkSettlement) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(BulkApplied, BulkNoOp, BulkFailed, BulkNotStarted), nil
}

// BulkItem is one issue's outcome, in the order the numbers were given.
type BulkItem struct {
	IssueNumber   int            `json:"issue_number"`
	Settlement    BulkSettlement `json:"settlement"`
	ChangedFields []string       `json:"changed_fields,omitempty"`
	Version       string         `json:"version,omitempty"`
	Notes         []string       `json:"notes,omitempty"`
	// Labels names the labels added to and removed from this issue.
	Labels *LabelsDone `json:"labels,omitempty"`
	// Error is the item's envelope when it failed, as github_update_issue
	// would have returned it.
	Error *contract.Error `json:"error,omitempty"`
}

// BulkUpdateIssuesOut is the outcome of a bulk edit.
type BulkUpdateIssuesOut struct {
	Items []BulkItem `json:"items"`
	// Labels names the labels create_missing created, once for every item.
	Labels *LabelsDone `json:"labels,omitempty"`
	// Stopped says why items were not started, when some were not.
	Stopped string `json:"stopped,omitempty"`
	// Retry is the call that retries the failed and not-started items
	// (absent when none is left to retry). Keys sort it last.
	Retry *contract.Repair `json:"retry,omitempty"`
	// RateLimitRemaining appears when under 10% of the budget is left.
	RateLimitRemaining *int `json:"rate_limit_remaining,omitempty"`
}

// Validate checks the rules that span fields, before any request. The
// changes are checked by github_update_issue's own rules, and a refusal
// names them under changes.
func (in *BulkUpdateIssuesIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	bad := func(field, reason string) *contract.Error {
		return contract.Errorf(contract.CodeInvalidField, "%s %s", field, reason).WithField(field, reason)
	}
	switch n := len(in.IssueNumbers); {
	case n == 0:
		return bad("issue_numbers", "must name 1 to 50 issues")
	case n > maxBulkIssues:
		first := *in
		first.IssueNumbers = in.IssueNumbers[:maxBulkIssues]
		return bad("issue_numbers", "names more than 50 issues").WithRepair(contract.Repair{
			NextStep: "call with the first 50 issues, then again with the rest", Tool: toolkit.NameBulkUpdateIssues, Arguments: first})
	}
	var unique []toolkit.IssueNumber
	for _, n := range in.IssueNumbers {
		if !containsNumber(unique, n) {
			unique = append(unique, n)
		}
	}
	if len(unique) < len(in.IssueNumbers) {
		fixed := *in
		fixed.IssueNumbers = unique
		return bad("issue_numbers", "names an issue more than once").WithRepair(contract.Repair{
			NextStep: "call again with each issue once", Tool: toolkit.NameBulkUpdateIssues, Arguments: fixed})
	}
	if !in.Changes.any() {
		return bad("changes", "needs at least one of state, state_reason, labels, assignees, milestone, type, project")
	}
	one := in.single(in.IssueNumbers[0])
	if e := one.Validate(); e != nil {
		return in.asBulk(e)
	}
	return nil
}

func containsNumber(list []toolkit.IssueNumber, n toolkit.IssueNumber) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// any reports whether the changes change anything.
func (c IssueChanges) any() bool {
	return c.State != "" || c.StateReason != "" || c.Labels != nil || c.Assignees != nil || c.Milestone.Set || c.Type.Set || c.Project != nil
}

// single is the github_update_issue call that makes the changes to one issue.
func (in *BulkUpdateIssuesIn) single(n toolkit.IssueNumber) UpdateIssueIn {
	return UpdateIssueIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: n, IssueChanges: in.Changes}
}

// asBulk turns a refusal of the changes, as github_update_issue words it,
// into this tool's: the field under changes, and a repair that calls this
// tool with the corrected changes.
func (in *BulkUpdateIssuesIn) asBulk(e *contract.Error) *contract.Error {
	if d := e.Details; d != nil && d.Field != "" && !strings.HasPrefix(d.Field, "changes.") {
		d.Field = "changes." + d.Field
	}
	if r := e.Repair; r != nil {
		r.Alternative = strings.ReplaceAll(r.Alternative, "labels.", "changes.labels.")
		if r.Tool == toolkit.NameUpdateIssue {
			fixed := *in
			if args, ok := r.Arguments.(UpdateIssueIn); ok {
				fixed.Changes = args.IssueChanges
				r.Arguments = fixed
			}
			r.Tool = toolkit.NameBulkUpdateIssues
			r.NextStep = strings.ReplaceAll(r.NextStep, "labels.", "changes.labels.")
		}
	}
	return e
}

// BulkUpdateIssues is github_bulk_update_issues.
func (s *Tools) BulkUpdateIssues() tooldef.Spec {
	return tooldef.Tool[BulkUpdateIssuesIn, BulkUpdateIssuesOut]{
		Name:    toolkit.NameBulkUpdateIssues,
		Toolset: Toolset,
		Title:   "Bulk edit issues",
		// That unknown names are refused before any write (here, before
		// any item) the capability summary says once for every write.
		Description: "One edit to many issues; each item settles; retry redoes the rest.",
		Mode:        tooldef.Write,
		// set replaces label and assignee sets, state closes issues; every
		// edit is a target state, so repeating the call changes nothing more.
		Destructive: true,
		Idempotent:  true,
		Brief:       []string{"changes"},
		Gated:       map[string]string{"changes.project": projects.NameUpdateProjectItem},
		Keep:        []string{"items[].error.retry_after_ms"},
		// The labels create_missing made, in answer to that argument.
		Unlisted: []string{"labels"},
		Run:      s.bulkUpdateIssues,
		Preview:  tooldef.Forecasts(s.previewBulk, "items[].error.retry_after_ms"),
	}
}

func (s *Tools) bulkUpdateIssues(ctx context.Context, in BulkUpdateIssuesIn) (BulkUpdateIssuesOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return BulkUpdateIssuesOut{}, toolkit.NotStarted(err)
	}
	b := &bulk{s: s, c: c, in: in}
	if err := b.preflight(ctx); err != nil {
		return BulkUpdateIssuesOut{}, err
	}
	b.run(ctx)
	out := BulkUpdateIssuesOut{Items: b.items, Labels: b.created.orNil(), Stopped: b.stopped, Retry: b.retry()}
	out.RateLimitRemaining = toolkit.LowBudget(c, "core")
	return out, nil
}

// retry is the call that finishes the job: the items not started, and the
// failed ones a repeat can fix. A failure known to have written nothing
// and not temporary (a missing issue, a pull request, a refusal) would
// fail again as given, so it is left out and named.
func (b *bulk) retry() *contract.Repair {
	args := b.in
	args.IssueNumbers = nil
	var left []string
	for _, it := range b.items {
		switch {
		case it.Settlement == BulkNotStarted:
		case it.Settlement != BulkFailed:
			continue
		case recurs(it.Error):
			left = append(left, fmt.Sprintf("#%d", it.IssueNumber))
			continue
		}
		args.IssueNumbers = append(args.IssueNumbers, toolkit.IssueNumber(it.IssueNumber))
	}
	if len(args.IssueNumbers) == 0 {
		return nil
	}
	step := "call github_bulk_update_issues with these arguments to finish the job"
	if len(left) > 0 {
		step += "; " + strings.Join(left, ", ") + " left out: their errors would recur as given"
	}
	return &contract.Repair{NextStep: step, Tool: toolkit.NameBulkUpdateIssues, Arguments: args}
}

// recurs reports whether a failure would recur if the item were repeated
// as given: nothing was written and the cause is not passing.
func recurs(e *contract.Error) bool {
	return e != nil && !e.Temporary && (e.Settlement == contract.NotStarted ||
		e.Settlement == contract.NoRemoteSuccessKnown && e.Code != contract.CodeUpstreamUnavailable)
}
