package issues

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// createNow checks the names, creates the issue and links it to its parent.
//
// Upstream calls: one POST, unless a label or parent must be checked first.
// GitHub's POST creates any label name it does not know (with a grey
// colour and no description), so a misspelled label would be added to the
// repository silently; ghgate refuses unknown labels before writing, which
// takes one GraphQL read (see preflight) for labels not already confirmed.
// Labels are confirmed by that read, by a metadata listing, or by being seen
// on issues read in the last few minutes (see [toolkit.KnownNames]), so an agent that
// searched or listed first pays for the POST alone. Milestones, assignees
// and issue types need no read: GitHub refuses unknown ones with a 422
// before writing anything, and that answer is mapped to the same error a
// check would give. A parent is read first so a missing parent, or one
// outside the creator scope, refuses the create instead of orphaning it.
func (s *Tools) createNow(ctx context.Context, c *github.Client, in CreateIssueIn) (CreateIssueOut, error) {
	send := github.NewIssue{Title: strings.TrimSpace(in.Title), Body: in.Body, Type: strings.TrimSpace(in.Type)}
	if in.Milestone > 0 {
		send.Milestone = ptr(int(in.Milestone))
	}
	for _, a := range in.Assignees {
		if !containsFold(send.Assignees, a) {
			send.Assignees = append(send.Assignees, strings.TrimSpace(a))
		}
	}
	pf := preflight{owner: in.Owner, repo: in.Repo, parent: int(in.ParentIssueNumber)}
	for _, l := range in.Labels {
		if !containsFold(pf.labels, l) {
			pf.labels = append(pf.labels, strings.TrimSpace(l))
		}
	}
	if !pf.empty() {
		res, err := s.preflight(ctx, c, pf)
		if err != nil {
			return CreateIssueOut{}, toolkit.NotStarted(err)
		}
		if err := s.resolveCreate(ctx, c, in, pf, res, &send); err != nil {
			return CreateIssueOut{}, err
		}
	}
	var board *projects.Prepared
	if in.Project != nil {
		// The board's fields and options are checked before the issue is
		// created: a bad value writes nothing.
		var err error
		if board, err = projects.Prepare(ctx, s.Service, c, *in.Project, nil, "project"); err != nil {
			return CreateIssueOut{}, err
		}
	}
	created, _, err := c.CreateIssue(ctx, in.Owner, in.Repo, send)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == "validation_failed" {
			s.forget(c, in.Owner, in.Repo)
		}
		return CreateIssueOut{}, s.createFailed(ctx, c, err, in)
	}
	s.rememberSeen(c, &created.IssueRow)
	return s.finishCreate(ctx, c, in, created, board)
}

// resolveCreate fills send with the repository's spelling of every label,
// or refuses labels that do not exist, a parent outside the creator scope,
// and a parent at GitHub's sub-issue count or nesting limit.
func (s *Tools) resolveCreate(ctx context.Context, c *github.Client, in CreateIssueIn, pf preflight, res *preflightResult, send *github.NewIssue) error {
	var unknown []string
	for _, l := range pf.labels {
		if spelled, ok := res.labels[strings.ToLower(l)]; ok {
			send.Labels = append(send.Labels, spelled)
		} else {
			unknown = append(unknown, l)
		}
	}
	if len(unknown) > 0 {
		return unknownLabels(ctx, c, in.Owner, in.Repo, "labels", unknown, false)
	}
	if res.parent != nil && !s.CreatorAllowed(res.parent.GetUser().GetLogin()) {
		return s.creatorRefusal(in.Owner, in.Repo, int(in.ParentIssueNumber))
	}
	if res.parent != nil {
		// GitHub would create the issue and then refuse the link: refused
		// here, nothing is left orphaned.
		var why string
		switch {
		case res.parentSubIssues >= maxSubIssues:
			why = fmt.Sprintf("#%d already has %d sub-issues, GitHub's limit", in.ParentIssueNumber, res.parentSubIssues)
		case res.parentDepth+1 > maxSubIssueDepth:
			why = fmt.Sprintf("#%d is %d levels deep; GitHub nests sub-issues at most %d levels", in.ParentIssueNumber, res.parentDepth, maxSubIssueDepth)
		}
		if why != "" {
			e := contract.Errorf(contract.CodeValidationFailed, "%s; nothing was written", why).
				WithField("parent_issue_number", "cannot take another sub-issue")
			e.Settlement = contract.NotStarted
			without := in
			without.ParentIssueNumber = 0
			return e.WithRepair(contract.Repair{NextStep: "create the issue without a parent, or under another parent", Tool: toolkit.NameCreateIssue, Arguments: without})
		}
	}
	return nil
}

func typeNames(types map[string]string) []string {
	out := make([]string, 0, len(types))
	for _, n := range types {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// createFailed reports a create that did not succeed, with the way to find
// out whether it happened when that is not known. GitHub's 422 for an
// unknown milestone, assignee or type is reported in the caller's terms.
func (s *Tools) createFailed(ctx context.Context, c *github.Client, err error, in CreateIssueIn) error {
	e := refusedField(err, in.Owner, in.Repo)
	if e == nil {
		return err
	}
	where := in.Owner + "/" + in.Repo
	switch e.Code {
	case contract.CodeMilestoneNotFound:
		e.Message = fmt.Sprintf("milestone %d does not exist in %s; nothing was written", in.Milestone, where)
	case contract.CodeAssigneeNotFound:
		who := "one of " + strings.Join(in.Assignees, ", ")
		if len(in.Assignees) == 1 {
			who = fmt.Sprintf("%q", in.Assignees[0])
		}
		e.Message = fmt.Sprintf("%s cannot be assigned in %s; nothing was written", who, where)
	case contract.CodeIssueTypeNotFound:
		e.Message = fmt.Sprintf("issue type %q is not available in %s; nothing was written", in.Type, where)
		// The names are read only on this error path, to offer them.
		if res, err := (preflight{owner: in.Owner, repo: in.Repo, types: true}).run(ctx, c); err == nil && len(res.types) > 0 {
			e.Details.Value = typeNames(res.types)
			e.Repair.NextStep = "call again with one of details.value, or list the repository's issue types"
		}
	}
	if !toolkit.MayHaveWritten(e) {
		return e
	}
	return lostWrite(e, in.IdempotencyKey != "",
		contract.Repair{NextStep: "call again with the same arguments and idempotency_key: ghgate first looks for the issue this call may have created",
			Tool: toolkit.NameCreateIssue, Arguments: in},
		// Listed newest first, not searched by title: search's index trails
		// a write by seconds and would miss the very issue to look for.
		contract.Repair{NextStep: "the issue may exist: look for its title among the newest issues before creating it again",
			Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: in.Owner, Repo: in.Repo, State: "all", Sort: "created"}})
}

// finishCreate links a created issue to its parent, puts it on its board
// (board: the placement prepared before the create; nil when this call
// adopts an issue a lost answer created) and renders it. A link or
// placement that fails leaves the issue in place: that is a partial
// success.
func (s *Tools) finishCreate(ctx context.Context, c *github.Client, in CreateIssueIn, created *github.CreatedIssue, board *projects.Prepared) (CreateIssueOut, error) {
	out := CreateIssueOut{Issue: issueView(&created.IssueRow, Full, false)}
	if dropped(in, created) {
		out.Notes = append(out.Notes, "GitHub dropped the labels, assignees, milestone or type: the credential lacks triage access here")
	}
	n := created.Number
	if p := in.ParentIssueNumber; p > 0 && created.ParentIssueURL == "" {
		_, _, err := c.AddSubIssue(ctx, in.Owner, in.Repo, int(p), created.ID)
		if err != nil {
			reason := err.Error()
			if e := toolkit.MapError(err); e != nil {
				reason = e.Message
			}
			link := LinkIssuesIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: p, Relation: "sub_issue", Action: "add", TargetIssueNumber: toolkit.IssueNumber(n)}
			return out, partialSuccess(
				fmt.Sprintf("issue #%d was created, but adding it as a sub-issue of #%d failed (%s)", n, p, reason),
				[]string{fmt.Sprintf("created issue #%d", n)},
				[]string{fmt.Sprintf("add #%d as a sub-issue of #%d", n, p)},
				&contract.Repair{NextStep: fmt.Sprintf("link #%d under #%d; do not create the issue again", n, p), Tool: toolkit.NameLinkIssues, Arguments: link})
		}
	}
	if p := in.ParentIssueNumber; p > 0 {
		// The write's whole effect is in the result: no read of the
		// parent's sub-issues is needed to confirm the link.
		out.Issue.Parent = &issueview.IssueRef{Number: int(p)}
	}
	if in.Project != nil {
		done := fmt.Sprintf("created issue #%d", n)
		var err error
		if board == nil {
			board, err = projects.Prepare(ctx, s.Service, c, *in.Project, nil, "project")
		}
		if err == nil {
			out.Project, err = board.Apply(ctx, github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: n}, created.NodeID)
		}
		if err != nil {
			if out.Project != nil {
				done += " and put it on the board"
				out.Project = nil
			}
			return out, placeFailed(err, done, in.Owner, in.Repo, n, in.Project)
		}
	}
	out.RateLimitRemaining = toolkit.LowBudget(c, "core")
	return out, nil
}

// dropped reports whether GitHub ignored metadata it was sent, as it does
// silently for credentials without triage access.
func dropped(in CreateIssueIn, is *github.CreatedIssue) bool {
	return len(in.Labels) > 0 && len(is.Labels) == 0 || len(in.Assignees) > 0 && len(is.Assignees) == 0 ||
		in.Milestone > 0 && is.Milestone == nil || in.Type != "" && is.Type == nil
}
