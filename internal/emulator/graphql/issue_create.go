package graphql

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// createIssue, as GitHub's schema defines it (CreateIssueInput). It acts
// through State.CreateIssue, as POST .../issues does, with that route's
// permission rules: read access opens an issue, and labels, assignees and
// milestone need triage access, without which GitHub drops them silently.
// Inputs the emulator cannot honour are refused, not ignored: it keeps no
// classic projects, so a projectIds entry never resolves, and it does not
// apply issue templates.

type createIssueArgs struct {
	Input struct {
		RepositoryID     gqlID   `json:"repositoryId"`
		Title            string  `json:"title"`
		Body             *string `json:"body"`
		AssigneeIDs      []gqlID `json:"assigneeIds"`
		LabelIDs         []gqlID `json:"labelIds"`
		MilestoneID      *gqlID  `json:"milestoneId"`
		ProjectIDs       []gqlID `json:"projectIds"`
		ParentIssueID    *gqlID  `json:"parentIssueId"`
		IssueTemplate    *string `json:"issueTemplate"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

func registerIssueCreate(r *resolvers) {
	resolveArgs(r, "Mutation.createIssue", createIssue)
	resolve(r, "CreateIssuePayload.issue", func(_ *gqlContext, p *issuePayload) (any, error) { return p.issue, nil })
	resolve(r, "CreateIssuePayload.clientMutationId", func(_ *gqlContext, p *issuePayload) (any, error) {
		return p.clientMutationID, nil
	})
}

// createIssue resolves and checks every input before it creates anything,
// so a refused mutation leaves no issue behind.
func createIssue(x *gqlContext, _ root, a createIssueArgs) (any, error) {
	in := a.Input
	repo, _ := x.visibleNode(string(in.RepositoryID)).(*state.Repo)
	if repo == nil {
		return nil, nodeNotFound(string(in.RepositoryID))
	}
	title := strings.TrimSpace(in.Title)
	if err := textError(title, in.Body); err != nil {
		return nil, err
	}
	if in.IssueTemplate != nil {
		return nil, unprocessable("The emulator does not apply issue templates (issueTemplate).")
	}
	if len(in.ProjectIDs) > 0 {
		// No classic project exists here, so no id can resolve to one.
		return nil, nodeNotFound(string(in.ProjectIDs[0]))
	}
	t, err := x.issueTriage(repo, in.LabelIDs, in.AssigneeIDs, in.MilestoneID)
	if err != nil {
		return nil, err
	}
	var parent *state.Issue
	if in.ParentIssueID != nil {
		if parent, err = x.newIssueParent(repo, *in.ParentIssueID); err != nil {
			return nil, err
		}
	}
	if x.c.Token.Permission(repo) < state.PermTriage {
		t = state.IssueTriage{}
	}
	is := x.st.CreateIssue(repo, x.c.Viewer, title, in.Body, t, x.c.Req.Host)
	if parent != nil {
		// Checked by newIssueParent; a fresh issue passes every other rule.
		if err := x.st.AddSubIssue(parent, is, x.c.Viewer, false); err != nil {
			return nil, err
		}
	}
	return &issuePayload{issue: is, clientMutationID: in.ClientMutationID}, nil
}

// textError is GitHub's refusal of a new issue's or pull request's title
// (trimmed) or body, nil when both are fine.
func textError(title string, body *string) error {
	switch {
	case title == "":
		return unprocessable("Title can't be blank")
	case utf8.RuneCountInString(title) > state.MaxTitleChars:
		return unprocessable(fmt.Sprintf("Title is too long (maximum is %d characters)", state.MaxTitleChars))
	case body != nil && utf8.RuneCountInString(*body) > state.MaxBodyChars:
		return unprocessable(fmt.Sprintf("Body is too long (maximum is %d characters)", state.MaxBodyChars))
	}
	return nil
}

// unprocessable is GitHub's answer to input it validates and refuses.
func unprocessable(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }

// issueTriage resolves label, assignee and milestone ids for an issue in
// repo. An id of another type, or of another repository's label or
// milestone, is refused as GitHub refuses an id it cannot resolve to the
// type it expects; an account that cannot be assigned there is refused by
// name, as the REST route refuses it.
func (x *gqlContext) issueTriage(repo *state.Repo, labelIDs, assigneeIDs []gqlID, milestoneID *gqlID) (state.IssueTriage, error) {
	var t state.IssueTriage
	for _, id := range labelIDs {
		l, _ := x.visibleNode(string(id)).(*state.Label)
		if l == nil || !slices.Contains(repo.Labels, l) {
			return t, notFound("Could not resolve to Label node with the global id of '%s'", string(id))
		}
		if !slices.Contains(t.Labels, l) {
			t.Labels = append(t.Labels, l)
		}
	}
	for _, id := range assigneeIDs {
		u, _ := x.visibleNode(string(id)).(*state.Account)
		if u == nil || u.IsOrg {
			return t, notFound("Could not resolve to User node with the global id of '%s'", string(id))
		}
		if !repo.Assignable(u.Login) {
			return t, unprocessable(fmt.Sprintf("%s cannot be assigned to issues in %s", u.Login, repo.FullName()))
		}
		if !slices.Contains(t.Assignees, u) {
			t.Assignees = append(t.Assignees, u)
		}
	}
	if milestoneID != nil {
		m, _ := x.visibleNode(string(*milestoneID)).(*state.Milestone)
		if m == nil || !slices.Contains(repo.Milestones, m) {
			return t, notFound("Could not resolve to Milestone node with the global id of '%s'", string(*milestoneID))
		}
		t.Milestone = m
	}
	return t, nil
}

// newIssueParent resolves the parent a new issue in repo is to join. Adding
// a sub-issue needs triage access on the parent's repository, as POST
// .../sub_issues does; the link rules (same owner, at most 100 sub-issues,
// 8 levels) are checked against a stand-in for the issue not yet created.
func (x *gqlContext) newIssueParent(repo *state.Repo, id gqlID) (*state.Issue, error) {
	parent, err := x.issue(id)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(parent.Repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "CreateIssue")
	}
	if err := state.SubIssueLinkError(parent, &state.Issue{Repo: repo}, false); err != nil {
		return nil, unprocessable(err.Error())
	}
	return parent, nil
}
