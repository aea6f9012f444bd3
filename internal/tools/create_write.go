package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	gh "github.com/google/go-github/v88/github"
)

// createNow checks the names, creates the issue and links it to its parent.
//
// Upstream calls: one POST when no label, assignee, milestone, type or
// parent is named. Otherwise one GraphQL preflight first that checks all of
// them at once (see preflight), then the POST: "create with labels and a
// milestone" is 2 calls the first time. The REST API alone could do it in
// 1, but only by letting GitHub create every misspelled label silently;
// refusing unknown names before writing needs one read. Names confirmed in
// the last few minutes are trusted without asking again (see knownNames),
// so a repeat task, or one after any write that named the same values, is
// the single POST.
func (s *Service) createNow(ctx context.Context, c *github.Client, in CreateIssueIn) (CreateIssueOut, error) {
	send := github.NewIssue{Title: strings.TrimSpace(in.Title), Body: in.Body}
	pf := preflight{owner: in.Owner, repo: in.Repo, parent: in.ParentIssueNumber, milestone: in.Milestone, types: in.Type != ""}
	for _, l := range in.Labels {
		if !containsFold(pf.labels, l) {
			pf.labels = append(pf.labels, strings.TrimSpace(l))
		}
	}
	for _, a := range in.Assignees {
		if !containsFold(pf.assignees, a) {
			pf.assignees = append(pf.assignees, strings.TrimSpace(a))
		}
	}
	if !pf.empty() {
		res, err := s.preflight(ctx, c, pf)
		if err != nil {
			return CreateIssueOut{}, notStarted(err)
		}
		if err := s.resolveCreate(ctx, c, in, pf, res, &send); err != nil {
			return CreateIssueOut{}, err
		}
	}
	created, _, err := c.CreateIssue(ctx, in.Owner, in.Repo, send)
	if err != nil {
		if e := MapError(err); e != nil && e.Code == "validation_failed" {
			s.forget(c, in.Owner, in.Repo)
		}
		return CreateIssueOut{}, createFailed(err, in)
	}
	return s.finishCreate(ctx, c, in, created)
}

// resolveCreate fills send with the repository's spelling of every name,
// or refuses the first kind of name that does not exist.
func (s *Service) resolveCreate(ctx context.Context, c *github.Client, in CreateIssueIn, pf preflight, res *preflightResult, send *github.NewIssue) error {
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
	for _, a := range pf.assignees {
		login, ok := res.assignable[strings.ToLower(a)]
		if !ok {
			return unknownName(contract.CodeUnknownAssignee, "assignees", "assignees", in.Owner, in.Repo,
				fmt.Sprintf("%q cannot be assigned in %s/%s", a, in.Owner, in.Repo), nil)
		}
		send.Assignees = append(send.Assignees, login)
	}
	if in.Milestone > 0 {
		if res.milestone == nil {
			return unknownName(contract.CodeUnknownMilestone, "milestone", "milestones", in.Owner, in.Repo,
				fmt.Sprintf("milestone %d does not exist in %s/%s", in.Milestone, in.Owner, in.Repo), nil)
		}
		send.Milestone = ptr(in.Milestone)
	}
	if in.Type != "" {
		name, ok := res.types[strings.ToLower(strings.TrimSpace(in.Type))]
		if !ok {
			return unknownName(contract.CodeUnknownIssueType, "type", "issue_types", in.Owner, in.Repo,
				fmt.Sprintf("issue type %q is not available in %s/%s", in.Type, in.Owner, in.Repo), typeNames(res.types))
		}
		send.Type = name
	}
	if res.parent != nil && !s.creatorAllowed(res.parent.GetUser().GetLogin()) {
		return s.creatorRefusal(in.ParentIssueNumber)
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
// out whether it happened when that is not known.
func createFailed(err error, in CreateIssueIn) error {
	e := refusedField(err, in.Owner, in.Repo)
	if e == nil {
		return err
	}
	maybe := e.Settlement == contract.Indeterminate || e.Settlement == contract.RemoteSuccessKnown ||
		(e.Settlement == contract.NoRemoteSuccessKnown && e.Temporary)
	if !maybe {
		return e
	}
	e.Temporary = false
	if in.IdempotencyKey != "" {
		e.Repair = &contract.Repair{
			NextStep: "call again with the same arguments and idempotency_key: ghgate first looks for the issue this call may have created",
			Tool:     "github_create_issue", Arguments: in}
		return e
	}
	e.Repair = &contract.Repair{NextStep: "the issue may exist: search for its title before creating it again",
		Tool: "github_search_issues", Arguments: SearchIssuesIn{Owner: in.Owner, Repo: in.Repo, Query: in.Title, State: "all"}}
	return e
}

// finishCreate links a created issue to its parent and renders it. A link
// that fails leaves the issue in place: that is a partial success.
func (s *Service) finishCreate(ctx context.Context, c *github.Client, in CreateIssueIn, created *gh.Issue) (CreateIssueOut, error) {
	out := CreateIssueOut{Issue: issueView(created, Full, false)}
	if dropped(in, created) {
		out.Notes = append(out.Notes, "GitHub dropped the labels, assignees, milestone or type: the credential lacks triage access here")
	}
	n := created.GetNumber()
	if p := in.ParentIssueNumber; p > 0 && created.GetParentIssueURL() == "" {
		_, err := c.Write(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
			_, resp, err = rest.SubIssue.Add(ctx, in.Owner, in.Repo, int64(p), gh.SubIssueRequest{SubIssueID: created.GetID()})
			return resp, err
		})
		if err != nil {
			reason := err.Error()
			if e := MapError(err); e != nil {
				reason = e.Message
			}
			link := LinkIssuesIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: p, Relation: "sub_issue", Action: "add", TargetIssueNumber: n}
			return out, partialSuccess(
				fmt.Sprintf("issue #%d was created, but adding it as a sub-issue of #%d failed (%s)", n, p, reason),
				[]string{fmt.Sprintf("created issue #%d", n)},
				[]string{fmt.Sprintf("add #%d as a sub-issue of #%d", n, p)},
				&contract.Repair{NextStep: fmt.Sprintf("link #%d under #%d; do not create the issue again", n, p), Tool: "github_link_issues", Arguments: link})
		}
	}
	out.RateLimitRemaining = lowBudget(c, "core")
	return out, nil
}

// dropped reports whether GitHub ignored metadata it was sent, as it does
// silently for credentials without triage access.
func dropped(in CreateIssueIn, is *gh.Issue) bool {
	return len(in.Labels) > 0 && len(is.Labels) == 0 || len(in.Assignees) > 0 && len(is.Assignees) == 0 ||
		in.Milestone > 0 && is.Milestone == nil || in.Type != "" && is.Type == nil
}
