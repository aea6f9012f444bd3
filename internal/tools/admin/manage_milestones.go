package admin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
	"github.com/google/jsonschema-go/jsonschema"
)

// MilestoneAction is what github_manage_milestones does.
type MilestoneAction string

// JSONSchema implements [tooldef.SelfDescribing].
func (MilestoneAction) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[MilestoneAction]("create", "update", "close", "reopen", "delete"), nil
}

// GitHub's limits on a milestone's title and description.
const (
	maxMilestoneTitle       = 255
	maxMilestoneDescription = 65536
)

// titlePages bounds the listing that finds a milestone by title: 1,000
// milestones. A repository with more is told to name the number.
const titlePages = 10

// ManageMilestonesIn are github_manage_milestones' arguments.
type ManageMilestonesIn struct {
	Owner  string                  `json:"owner"`
	Repo   string                  `json:"repo"`
	Action MilestoneAction         `json:"action"`
	Number toolkit.MilestoneNumber `json:"number,omitempty" jsonschema:"absent: found by title"`
	Title  string                  `json:"title,omitempty" jsonschema:"required for create; with number renames (absent keeps); else names it"`
	// Pointers tell absent (keep) from "" (clear) on update.
	DueOn       *string `json:"due_on,omitempty" jsonschema:"YYYY-MM-DD; absent: none or kept; \"\" clears"`
	Description *string `json:"description,omitempty" jsonschema:"absent: none or kept; \"\" clears"`
}

// Validate checks every rule that needs no request.
func (in *ManageMilestonesIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if e := toolkit.CheckLength("title", in.Title, maxMilestoneTitle); e != nil {
		return e
	}
	if in.Description != nil {
		if e := toolkit.CheckLength("description", *in.Description, maxMilestoneDescription); e != nil {
			return e
		}
	}
	if in.DueOn != nil && *in.DueOn != "" {
		if _, err := time.Parse(time.DateOnly, *in.DueOn); err != nil {
			return contract.Errorf(contract.CodeInvalidField, "due_on is not a date").WithField("due_on", "a date as YYYY-MM-DD, or \"\" to clear")
		}
	}
	if in.Title != "" && strings.TrimSpace(in.Title) == "" {
		return contract.Errorf(contract.CodeInvalidField, "title is blank").WithField("title", "must hold a non-space character")
	}
	switch in.Action {
	case "create":
		if in.Title == "" {
			return contract.Errorf(contract.CodeInvalidField, "create needs a title").WithField("title", "required with action create")
		}
		if in.Number != 0 {
			return contract.Errorf(contract.CodeInvalidField, "create takes no number: GitHub numbers a new milestone").WithField("number", "leave it out with action create")
		}
		return nil
	}
	if in.Number == 0 && in.Title == "" {
		return contract.Errorf(contract.CodeInvalidField, "name the milestone by number or title").WithField("number", "give number or title")
	}
	switch in.Action {
	case "update":
		if in.DueOn == nil && in.Description == nil && (in.Number == 0 || in.Title == "") {
			return contract.Errorf(contract.CodeInvalidField, "update needs something to change").
				WithField("due_on", "give due_on, description, or a new title beside number")
		}
	default: // close, reopen, delete
		set := map[string]bool{"title": in.Number != 0 && in.Title != "", "due_on": in.DueOn != nil, "description": in.Description != nil}
		if f := firstSet(set); f != "" {
			reason := "not used by " + string(in.Action) + "; leave it out"
			if f == "title" {
				reason = "give number or title, not both"
			}
			return contract.Errorf(contract.CodeInvalidField, "%s: %s", f, reason).WithField(f, reason)
		}
	}
	return nil
}

// MilestoneView is a milestone as the tools show it.
type MilestoneView struct {
	Number       int    `json:"number"`
	Title        string `json:"title"`
	State        string `json:"state"`
	DueOn        string `json:"due_on,omitempty"`
	Description  string `json:"description,omitempty"`
	OpenIssues   int    `json:"open_issues"`
	ClosedIssues int    `json:"closed_issues"`
}

// ManageMilestonesOut says what the call did.
type ManageMilestonesOut struct {
	Action        string         `json:"action"`
	Milestone     *MilestoneView `json:"milestone,omitempty" jsonschema:"as it stands after; before, for delete"`
	ChangedFields []string       `json:"changed_fields,omitempty"`
	Deleted       bool           `json:"deleted,omitempty"`
	NoOp          bool           `json:"no_op,omitempty" jsonschema:"nothing needed writing; note says why"`
	Note          string         `json:"note,omitempty"`
}

// ManageMilestones is github_manage_milestones.
func (s *Tools) ManageMilestones() tooldef.Spec {
	return tooldef.Tool[ManageMilestonesIn, ManageMilestonesOut]{
		Name:        toolkit.NameManageMilestones,
		Toolset:     Toolset,
		Title:       "Manage milestones",
		Description: "Create, update, close, reopen or delete a repo's milestone; already so: no_op. Delete unsets it on its issues.",
		Mode:        tooldef.Write,
		// As for labels: the hint is per tool, and delete is among the
		// actions.
		Destructive: true,
		// Every action reads first and answers no_op when the milestone
		// already stands as asked.
		Idempotent: true,
		Run:        s.manageMilestones,
	}
}

func (s *Tools) manageMilestones(ctx context.Context, in ManageMilestonesIn) (ManageMilestonesOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return ManageMilestonesOut{}, toolkit.NotStarted(err)
	}
	in.Title = strings.TrimSpace(in.Title)
	out := ManageMilestonesOut{Action: string(in.Action)}
	if in.Action == "create" {
		err = s.createMilestone(ctx, c, in, &out)
	} else {
		err = s.changeMilestone(ctx, c, in, &out)
	}
	if err != nil {
		return ManageMilestonesOut{}, err
	}
	return out, nil
}

func milestoneView(m *gh.Milestone) *MilestoneView {
	return &MilestoneView{Number: m.GetNumber(), Title: m.GetTitle(), State: m.GetState(), DueOn: dueDay(m),
		Description: m.GetDescription(), OpenIssues: m.GetOpenIssues(), ClosedIssues: m.GetClosedIssues()}
}

// dueDay is a milestone's due date as a day, "" when it has none.
func dueDay(m *gh.Milestone) string {
	if m.DueOn == nil || m.DueOn.IsZero() {
		return ""
	}
	return m.DueOn.UTC().Format(time.DateOnly)
}

// dueTime is the time a due_on day is sent as: noon UTC. GitHub keeps a
// milestone's due date as a day in its own time zone (US Pacific), so
// midnight UTC would land on the day before; noon UTC is the same day
// there and in UTC. A zero time clears it.
func dueTime(day string) *time.Time {
	if day == "" {
		return &time.Time{}
	}
	t, _ := time.Parse(time.DateOnly, day) // Validate checked it
	t = t.Add(12 * time.Hour)
	return &t
}

// milestoneDiffers lists the fields in asks for that m does not already
// hold (the title only when it renames, which needs the number).
func milestoneDiffers(m *gh.Milestone, in ManageMilestonesIn, renames bool) []string {
	var diff []string
	if renames && in.Title != m.GetTitle() {
		diff = append(diff, "title")
	}
	if in.DueOn != nil && *in.DueOn != dueDay(m) {
		diff = append(diff, "due_on")
	}
	if in.Description != nil && *in.Description != m.GetDescription() {
		diff = append(diff, "description")
	}
	return diff
}

func (in ManageMilestonesIn) fields(diff []string) github.MilestoneFields {
	var f github.MilestoneFields
	for _, d := range diff {
		switch d {
		case "title":
			f.Title = in.Title
		case "due_on":
			f.DueOn = dueTime(*in.DueOn)
		case "description":
			f.Description = in.Description
		}
	}
	return f
}

// findByTitle lists the repository's milestones, open and closed, for
// the one titled title: the exact spelling first, else the one title
// that matches ignoring case. nil when there is none; complete is false
// when the listing stopped at titlePages with more to read.
func findByTitle(ctx context.Context, c *github.Client, owner, repo, title string) (m *gh.Milestone, complete bool, err error) {
	var folded *gh.Milestone
	for page := 1; page <= titlePages; page++ {
		list, meta, err := c.ListMilestones(ctx, owner, repo, "all", gh.ListOptions{Page: toolkit.PageParam(page), PerPage: toolkit.MaxPageSize})
		if err != nil {
			return nil, false, repoMissing(err, owner, repo)
		}
		for _, m := range list {
			if m.GetTitle() == title {
				return m, true, nil
			}
			if folded == nil && strings.EqualFold(m.GetTitle(), title) {
				folded = m
			}
		}
		if meta.NextPage == 0 {
			return folded, true, nil
		}
	}
	return folded, folded != nil, nil
}

// createMilestone creates the milestone once. As with labels, the title
// is the key: an open milestone of exactly this title holding the values
// asked for is the one wanted (no_op, which a repeat after a lost answer
// also finds); any other of that title, ignoring case, is refused with
// milestone_exists naming it, since GitHub holds one title once.
func (s *Tools) createMilestone(ctx context.Context, c *github.Client, in ManageMilestonesIn, out *ManageMilestonesOut) error {
	// A listing cut short leaves GitHub's own 422 to catch a title
	// taken further on.
	existing, _, err := findByTitle(ctx, c, in.Owner, in.Repo, in.Title)
	if err != nil {
		return notStarted(err)
	}
	if existing != nil {
		return milestoneExists(existing, in, out)
	}
	f := github.MilestoneFields{Title: in.Title, Description: in.Description}
	if in.DueOn != nil && *in.DueOn != "" {
		f.DueOn = dueTime(*in.DueOn)
	}
	m, _, err := c.CreateMilestone(ctx, in.Owner, in.Repo, f)
	s.forget(ctx, c, in.Owner, in.Repo)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeValidationFailed && alreadyExists(err) {
			e.Code = contract.CodeMilestoneExists
			e.Message = fmt.Sprintf("a milestone titled %q was created in %s/%s meanwhile; nothing was written", in.Title, in.Owner, in.Repo)
			e.WithField("title", "already exists")
			e.Repair = &contract.Repair{NextStep: "call again: the create then compares with the milestone that exists", Tool: toolkit.NameManageMilestones, Arguments: in}
			return e
		}
		return writeLost(err, toolkit.NameManageMilestones, in)
	}
	out.Milestone = milestoneView(m)
	return nil
}

// milestoneExists answers a create that met a milestone of its title.
func milestoneExists(m *gh.Milestone, in ManageMilestonesIn, out *ManageMilestonesOut) error {
	diff := milestoneDiffers(m, in, false)
	if m.GetTitle() == in.Title && m.GetState() == "open" && len(diff) == 0 {
		out.Milestone, out.NoOp = milestoneView(m), true
		out.Note = "the milestone already exists as asked; nothing was written"
		return nil
	}
	what := "with another " + strings.Join(diff, " and ")
	repair := contract.Repair{NextStep: "to give the existing milestone these values, make this call", Tool: toolkit.NameManageMilestones}
	switch {
	case m.GetTitle() != in.Title:
		what = fmt.Sprintf("titled %q, which differs only in case", m.GetTitle())
		repair.NextStep = "use the existing milestone; to retitle it instead, make this call"
		repair.Arguments = ManageMilestonesIn{Owner: in.Owner, Repo: in.Repo, Action: "update", Number: toolkit.MilestoneNumber(m.GetNumber()), Title: in.Title}
	case m.GetState() != "open" && len(diff) == 0:
		what = "closed"
		repair.NextStep = "to reopen the existing milestone, make this call"
		repair.Arguments = ManageMilestonesIn{Owner: in.Owner, Repo: in.Repo, Action: "reopen", Number: toolkit.MilestoneNumber(m.GetNumber())}
	default:
		if m.GetState() != "open" {
			what += ", and closed"
		}
		repair.Arguments = ManageMilestonesIn{Owner: in.Owner, Repo: in.Repo, Action: "update", Number: toolkit.MilestoneNumber(m.GetNumber()),
			DueOn: in.DueOn, Description: in.Description}
	}
	e := refuse(contract.CodeMilestoneExists, "title", "a milestone of this title exists",
		"%s/%s already has milestone #%d %s; nothing was written", in.Owner, in.Repo, m.GetNumber(), what)
	e.Details.Value = map[string]any{"number": m.GetNumber(), "title": m.GetTitle()}
	return e.WithRepair(repair)
}

// resolve finds the milestone the call names: by number (one read) or by
// title (a listing). nil, nil when the repository answers but holds no
// such milestone.
func resolve(ctx context.Context, c *github.Client, in ManageMilestonesIn) (*gh.Milestone, error) {
	if in.Number == 0 {
		m, complete, err := findByTitle(ctx, c, in.Owner, in.Repo, in.Title)
		if err != nil || complete {
			return m, err
		}
		e := contract.Errorf(contract.CodeMilestoneNotFound, "no milestone titled %q among the first %d of %s/%s", in.Title, titlePages*toolkit.MaxPageSize, in.Owner, in.Repo).
			WithField("title", "not among the milestones read; name it by number")
		return nil, e.WithRepair(contract.Repair{NextStep: "find its number, then call again with number",
			Tool: toolkit.NameListRepoMetadata, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "kind": "milestones"}})
	}
	m, _, err := c.GetMilestone(ctx, in.Owner, in.Repo, int(in.Number))
	if err == nil {
		return m, nil
	}
	if !isNotFound(err) {
		return nil, err
	}
	return nil, absentOrRepoMissing(ctx, c, in.Owner, in.Repo)
}

// milestoneMissing is milestone_not_found for the one a call names.
func milestoneMissing(in ManageMilestonesIn) error {
	which := fmt.Sprintf("#%d", in.Number)
	field := "number"
	if in.Number == 0 {
		which, field = fmt.Sprintf("titled %q", in.Title), "title"
	}
	e := refuse(contract.CodeMilestoneNotFound, field, "no such milestone in the repository",
		"%s/%s has no milestone %s; nothing was written", in.Owner, in.Repo, which)
	return e.WithRepair(contract.Repair{NextStep: "list the repository's milestones and pick the one you mean",
		Tool: toolkit.NameListRepoMetadata, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "kind": "milestones"}})
}

// changeMilestone runs update, close, reopen and delete: it reads the
// milestone, writes only what differs, and answers no_op when nothing
// does (a delete of one that is not there included).
func (s *Tools) changeMilestone(ctx context.Context, c *github.Client, in ManageMilestonesIn, out *ManageMilestonesOut) error {
	m, err := resolve(ctx, c, in)
	if err != nil {
		return notStarted(err)
	}
	if m == nil {
		if in.Action != "delete" {
			return milestoneMissing(in)
		}
		out.NoOp = true
		out.Note = "no such milestone (already deleted, or never there); nothing was deleted"
		return nil
	}
	number := m.GetNumber()
	if in.Action == "delete" {
		_, err := c.DeleteMilestone(ctx, in.Owner, in.Repo, number)
		s.forget(ctx, c, in.Owner, in.Repo)
		if err != nil {
			if isNotFound(err) {
				out.NoOp = true
				out.Note = "the milestone was deleted meanwhile; nothing was deleted by this call"
				return nil
			}
			return writeLost(err, toolkit.NameManageMilestones, in)
		}
		out.Milestone, out.Deleted = milestoneView(m), true
		out.Note = fmt.Sprintf("deleted; its %d open and %d closed issues no longer have a milestone", m.GetOpenIssues(), m.GetClosedIssues())
		return nil
	}
	var diff []string
	switch in.Action {
	case "update":
		diff = milestoneDiffers(m, in, in.Number != 0)
	case "close", "reopen":
		if want := map[MilestoneAction]string{"close": "closed", "reopen": "open"}[in.Action]; m.GetState() != want {
			diff = []string{"state"}
		}
	}
	if len(diff) == 0 {
		out.Milestone, out.NoOp = milestoneView(m), true
		out.Note = "the milestone already stands as asked; nothing was written"
		return nil
	}
	f := in.fields(diff)
	if diff[0] == "state" {
		f.State = map[MilestoneAction]string{"close": "closed", "reopen": "open"}[in.Action]
	}
	after, _, err := c.EditMilestone(ctx, in.Owner, in.Repo, number, f)
	s.forget(ctx, c, in.Owner, in.Repo)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeValidationFailed && alreadyExists(err) {
			e.Code = contract.CodeMilestoneExists
			e.Message = fmt.Sprintf("%s/%s already has another milestone titled %q; nothing was written", in.Owner, in.Repo, in.Title)
			e.WithField("title", "another milestone has this title")
			e.Repair = &contract.Repair{NextStep: "choose another title"}
			return e
		}
		return writeLost(err, toolkit.NameManageMilestones, in)
	}
	out.Milestone, out.ChangedFields = milestoneView(after), diff
	return nil
}
