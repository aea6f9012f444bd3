package issues

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// UpdateIssueIn are github_update_issue's arguments. Absent fields are left
// as they are.
type UpdateIssueIn struct {
	Owner       string              `json:"owner"`
	Repo        string              `json:"repo"`
	IssueNumber toolkit.IssueNumber `json:"issue_number"`
	Title       *string             `json:"title,omitempty"`
	Body        *string             `json:"body,omitempty" jsonschema:"empty clears"`
	IssueChanges
	Locked          *bool               `json:"locked,omitempty"`
	LockReason      LockReason          `json:"lock_reason,omitempty" jsonschema:"needs locked"`
	DuplicateOf     toolkit.IssueNumber `json:"duplicate_of,omitempty" jsonschema:"closes as its duplicate"`
	DuplicateOfRepo string              `json:"duplicate_of_repo,omitempty" jsonschema:"owner/name; absent: same"`
	ExpectedVersion string              `json:"expected_version,omitempty" jsonschema:"conflict if stale"`
}

// IssueChanges are the edits github_update_issue shares with
// github_bulk_update_issues, which applies them to many issues at once.
// An edit that makes sense for a batch of issues belongs here, so both
// tools take it; title, body, locking and duplicates stay per issue.
// On the wire its fields sit among [UpdateIssueIn]'s own (it is embedded).
// Absent fields are kept (the tools' descriptions say so once).
type IssueChanges struct {
	State       IssueState               `json:"state,omitempty"`
	StateReason StateReason              `json:"state_reason,omitempty" jsonschema:"needs state"`
	Labels      *LabelsEdit              `json:"labels,omitempty" jsonschema:"{add, remove, set: [name], swap: {prefix, to: name|[name]} drops prefix labels and adds to, create_missing: true|rrggbb creates unknown}"`
	Assignees   *AssigneesEdit           `json:"assignees,omitempty" jsonschema:"{add, remove, set: [login]}"`
	Milestone   toolkit.Nullable[int]    `json:"milestone,omitzero" jsonschema:"null clears"`
	Type        toolkit.Nullable[string] `json:"type,omitzero" jsonschema:"null clears"`
	// Project puts the issue on a board with field values (see
	// projects.Placement).
	Project *projects.Placement `json:"project,omitempty"`
}

// AssigneesEdit changes who is assigned.
type AssigneesEdit struct {
	Add    []string `json:"add,omitempty"`
	Remove []string `json:"remove,omitempty"`
	Set    []string `json:"set,omitempty"`
}

// Validate checks the rules that span fields, before any request.
func (in *UpdateIssueIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if in.Title != nil {
		if e := toolkit.CheckLength("title", strings.TrimSpace(*in.Title), toolkit.MaxTitleChars); e != nil {
			return e
		}
	}
	if in.Body != nil {
		if e := toolkit.CheckLength("body", *in.Body, toolkit.MaxBodyChars); e != nil {
			return e
		}
	}
	// A rule without a repair of its own gets tooldef's "correct the
	// field and call again".
	bad := func(field, reason string) *contract.Error {
		return contract.Errorf(contract.CodeInvalidField, "%s %s", field, reason).WithField(field, reason)
	}
	switch {
	case in.Title != nil && strings.TrimSpace(*in.Title) == "":
		return bad("title", "cannot be blank")
	case in.State == "open" && in.StateReason != "" && in.StateReason != "reopened":
		return bad("state_reason", "must be reopened (or absent) when state is open")
	case in.State == "closed" && in.StateReason == "reopened":
		return bad("state_reason", "cannot be reopened when state is closed")
	case in.StateReason != "" && in.State == "":
		// GitHub applies a state_reason only with the state it explains,
		// and ignores it silently otherwise.
		fixed := *in
		fixed.State = "closed"
		if in.StateReason == "reopened" {
			fixed.State = "open"
		}
		return bad("state_reason", "needs state: "+string(fixed.State)).WithRepair(contract.Repair{
			NextStep: "call again with state " + string(fixed.State) + " beside state_reason", Tool: toolkit.NameUpdateIssue, Arguments: fixed})
	case in.ExpectedVersion != "" && !contract.IsVersion(in.ExpectedVersion):
		return bad("expected_version", "is not a version ghgate returned").WithRepair(contract.Repair{
			NextStep: "read the issue and pass the version it returns", Tool: toolkit.NameGetIssue,
			Arguments: GetIssueIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber, Detail: "summary"}})
	case in.LockReason != "" && (in.Locked == nil || !*in.Locked):
		fixed := *in
		fixed.Locked = ptr(true)
		return bad("lock_reason", "needs locked: true").WithRepair(contract.Repair{
			NextStep: "call again with locked: true beside lock_reason", Tool: toolkit.NameUpdateIssue, Arguments: fixed})
	case in.DuplicateOfRepo != "" && in.DuplicateOf == 0:
		return bad("duplicate_of_repo", "needs duplicate_of, the original's number there")
	case in.DuplicateOfRepo != "" && !validRepoName(in.DuplicateOfRepo):
		return bad("duplicate_of_repo", "must be owner/name")
	case in.DuplicateOf != 0 && in.DuplicateOf == in.IssueNumber && in.duplicateSameRepo():
		return contract.Errorf(contract.CodeSelfLink, "issue #%d cannot be a duplicate of itself", in.IssueNumber).
			WithField("duplicate_of", "must name another issue")
	case in.DuplicateOf != 0 && (in.State == "open" || (in.StateReason != "" && in.StateReason != "duplicate")):
		// duplicate_of closes the issue as a duplicate: any other state
		// or reason contradicts it.
		fixed := *in
		fixed.State, fixed.StateReason = "closed", "duplicate"
		return bad("duplicate_of", "closes the issue as a duplicate; state and state_reason must be closed and duplicate, or absent").
			WithRepair(contract.Repair{NextStep: "call again with state closed and state_reason duplicate, or without them", Tool: toolkit.NameUpdateIssue, Arguments: fixed})
	case in.Milestone.Set && !in.Milestone.Null && in.Milestone.Value < 1:
		return bad("milestone", "must be a milestone number (1 or more) or null")
	case in.Type.Set && !in.Type.Null && strings.TrimSpace(in.Type.Value) == "":
		return bad("type", "must be an issue type name or null")
	}
	if in.Labels != nil {
		if e := in.Labels.validate(); e != nil {
			return e
		}
	}
	if in.Project != nil {
		if e := in.Project.Validate("project", in.Owner); e != nil {
			if e.Details != nil && e.Details.Field == "project.owner" && in.Project.Owner != "" {
				return e.WithRepair(withoutProject(*in))
			}
			return e
		}
	}
	if a := in.Assignees; a != nil {
		switch {
		case a.Set != nil && (len(a.Add) > 0 || len(a.Remove) > 0):
			return bad("assignees.set", "replaces every assignee, so it cannot be combined with add or remove")
		case a.Set == nil && len(a.Add) == 0 && len(a.Remove) == 0:
			return bad("assignees.add", "or remove or set is needed to change assignees")
		case len(a.Set) > 10 || len(a.Add) > 10:
			return bad("assignees", "GitHub allows 10 assignees per issue")
		}
		for _, r := range a.Remove {
			if containsFold(a.Add, r) {
				return bad("assignees.remove", "names a login that add also names")
			}
		}
	}
	if !in.changesSomething() {
		return contract.Errorf(contract.CodeInvalidField, "nothing to update: give at least one field to change").
			WithField("title", "or another field to change is needed")
	}
	return nil
}

// duplicateOf is the original duplicate_of names: in duplicate_of_repo
// when given, else in the issue's own repository.
func (in *UpdateIssueIn) duplicateOf() (owner, repo string) {
	if o, r, ok := strings.Cut(in.DuplicateOfRepo, "/"); ok {
		return o, r
	}
	return in.Owner, in.Repo
}

func (in *UpdateIssueIn) duplicateSameRepo() bool {
	o, r := in.duplicateOf()
	return strings.EqualFold(o, in.Owner) && strings.EqualFold(r, in.Repo)
}

// validRepoName reports whether s is owner/name with GitHub's names.
func validRepoName(s string) bool {
	o, r, ok := strings.Cut(s, "/")
	return ok && toolkit.CheckNames(o, r) == nil
}

func (in *UpdateIssueIn) changesSomething() bool {
	return in.patchFields() || in.Labels != nil || in.Assignees != nil || in.Locked != nil || in.DuplicateOf != 0 || in.Project != nil
}

// patchFields reports whether the edit has fields the issue PATCH carries.
func (in *UpdateIssueIn) patchFields() bool {
	return in.Title != nil || in.Body != nil || in.State != "" || in.StateReason != "" || in.Milestone.Set || in.Type.Set ||
		(in.Assignees != nil && in.Assignees.Set != nil) || (in.Labels != nil && in.Labels.Set != nil)
}

// UpdateIssueOut is the outcome of an update.
type UpdateIssueOut struct {
	Version       string          `json:"version"`
	ChangedFields []string        `json:"changed_fields,omitempty"`
	NoOp          bool            `json:"no_op,omitempty" jsonschema:"nothing needed writing"`
	Notes         []string        `json:"notes,omitempty"`
	Issue         issueview.Issue `json:"issue"`
	// Labels names the labels the labels edit added, removed and created.
	Labels *LabelsDone `json:"labels,omitempty"`
	// Project is what `project` did on the board.
	Project *projects.Placed `json:"project,omitempty"`
	// RateLimitRemaining appears when under 10% of the budget is left.
	RateLimitRemaining *int `json:"rate_limit_remaining,omitempty"`
}

// UpdateIssue is github_update_issue.
func (s *Tools) UpdateIssue() tooldef.Spec {
	return tooldef.Tool[UpdateIssueIn, UpdateIssueOut]{
		Name:    toolkit.NameUpdateIssue,
		Toolset: Toolset,
		Title:   "Update issue",
		// "Absent: kept" is said once here, for every field and part
		// (labels.add, ...) that says nothing else about its absence.
		// Unknown names are refused before any write: the capability
		// summary says so once for every write.
		Description: "Edit an issue; absent: kept. add/remove/swap touch only names given; set replaces all.",
		Mode:        tooldef.Write,
		Destructive: true,
		Idempotent:  true,
		Keep:        triageState("issue"),
		// Both edits' shapes fit in a line of description, in a third
		// of the bytes their schemas take; arguments are still checked
		// against the full schema, a stray part refused by name.
		Brief: []string{"assignees", "labels"},
		Gated: map[string]string{"project": projects.NameUpdateProjectItem},
		// What project and labels did, in answer to those arguments.
		Unlisted: []string{"project", "labels"},
		Run:      s.updateIssue,
		Preview:  tooldef.Forecasts(s.previewUpdate),
	}
}

func (s *Tools) updateIssue(ctx context.Context, in UpdateIssueIn) (UpdateIssueOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return UpdateIssueOut{}, toolkit.NotStarted(err)
	}
	u := &update{s: s, c: c, in: in}
	if u.needsRead() {
		if err := u.read(ctx); err != nil {
			return UpdateIssueOut{}, err
		}
		if !s.CreatorAllowed(u.before.GetUser().GetLogin()) {
			return UpdateIssueOut{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
		}
		if in.ExpectedVersion != "" {
			if now := IssueVersion(u.before); now != in.ExpectedVersion {
				e := contract.Errorf(contract.CodeConflict,
					"issue #%d changed since expected_version was read; nothing was written. Re-read it with github_get_issue, "+
						"apply your change to what it holds now, and pass its version as expected_version", in.IssueNumber).
					WithField("expected_version", "is not the issue's current version")
				e.Settlement = contract.NotStarted
				e.Repair = getIssueRepair(in.Owner, in.Repo, int(in.IssueNumber), "re-read the issue, then update it again with the version it returns")
				return UpdateIssueOut{}, e
			}
		}
	}
	if err := u.plan(ctx); err != nil {
		return UpdateIssueOut{}, err
	}
	if err := u.apply(ctx); err != nil {
		return UpdateIssueOut{}, err
	}
	return u.output(), nil
}
