package graphql

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Editing an issue through GraphQL, as `gh issue edit` does on github.com:
// updateIssue (title, body, assignees, milestone, labels, state),
// addLabelsToLabelable and removeLabelsFromLabelable, and actor assignment
// (Issue.assignedActors, Repository.suggestedActors and
// replaceActorsForAssignable, which GitHub serves beyond the published
// schema package: see schema/overlay.graphql). They act through the same
// state operations as PATCH .../issues/{n} and the labels and assignees
// routes, so both APIs record the same timeline events, with that route's
// permission rules: labels, assignees and milestones need triage access;
// the title, body and state also yield to the issue's author.

type updateIssueArgs struct {
	Input struct {
		ID gqlID `json:"id"`
		// null clears the body, the assignees, the labels, the
		// milestone and the (classic) projects; an issue cannot be
		// without a title or a state, so null there is refused.
		Title            nullable[string]  `json:"title"`
		Body             nullable[string]  `json:"body"`
		AssigneeIDs      nullable[[]gqlID] `json:"assigneeIds"`
		LabelIDs         nullable[[]gqlID] `json:"labelIds"`
		MilestoneID      nullable[gqlID]   `json:"milestoneId"`
		ProjectIDs       nullable[[]gqlID] `json:"projectIds"`
		State            nullable[string]  `json:"state"`
		ClientMutationID *string           `json:"clientMutationId"`
	} `json:"input"`
}

// labelableArgs is the input of addLabelsToLabelable and
// removeLabelsFromLabelable alike.
type labelableArgs struct {
	Input struct {
		LabelableID      gqlID   `json:"labelableId"`
		LabelIDs         []gqlID `json:"labelIds"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type replaceActorsArgs struct {
	Input struct {
		AssignableID     gqlID   `json:"assignableId"`
		ActorIDs         []gqlID `json:"actorIds"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// suggestedActorsArgs filters who is suggested. loginNames is a
// comma-separated list of logins to put first, which the emulator, with no
// notion of recent activity, takes as a filter as well as an order.
type suggestedActorsArgs struct {
	connArgs
	Capabilities []string `json:"capabilities"`
	LoginNames   *string  `json:"loginNames"`
	Query        *string  `json:"query"`
}

// editPayload is what updateIssue, addLabelsToLabelable,
// removeLabelsFromLabelable and replaceActorsForAssignable return.
type editPayload struct {
	actor            *state.Account
	issue            *state.Issue
	clientMutationID *string
}

func registerIssueEdit(r *resolvers) {
	registerConnectionType(r, "AssigneeConnection", "AssigneeEdge")
	registerConnectionType(r, "ActorConnection", "ActorEdge")
	for _, t := range []string{"Issue", "PullRequest"} {
		resolveArgs(r, t+".assignedActors", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
			return pageOf(x, is.Assignees, a)
		})
	}
	resolveArgs(r, "Repository.suggestedActors", suggestedActors)

	resolveArgs(r, "Mutation.updateIssue", updateIssue)
	resolve(r, "UpdateIssuePayload.actor", func(_ *gqlContext, p *editPayload) (any, error) { return p.actor, nil })
	resolve(r, "UpdateIssuePayload.issue", func(_ *gqlContext, p *editPayload) (any, error) { return p.issue, nil })
	resolveArgs(r, "Mutation.addLabelsToLabelable", editLabels(true))
	resolveArgs(r, "Mutation.removeLabelsFromLabelable", editLabels(false))
	for _, t := range []string{"AddLabelsToLabelablePayload", "RemoveLabelsFromLabelablePayload"} {
		resolve(r, t+".labelable", func(_ *gqlContext, p *editPayload) (any, error) { return p.issue, nil })
	}
	resolveArgs(r, "Mutation.replaceActorsForAssignable", replaceActorsForAssignable)
	resolve(r, "ReplaceActorsForAssignablePayload.assignable", func(_ *gqlContext, p *editPayload) (any, error) { return p.issue, nil })
	for _, t := range []string{"UpdateIssuePayload", "AddLabelsToLabelablePayload", "RemoveLabelsFromLabelablePayload", "ReplaceActorsForAssignablePayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *editPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// suggestedActors lists the accounts that can be assigned in the
// repository (CAN_BE_ASSIGNED) or that can author there (CAN_BE_AUTHOR:
// anyone who can read it, which for the emulator's accounts is the same
// set of collaborators and the owner).
func suggestedActors(x *gqlContext, repo *state.Repo, a suggestedActorsArgs) (any, error) {
	list := x.c.Assignable(repo)
	if a.LoginNames != nil && strings.TrimSpace(*a.LoginNames) != "" {
		var named []*state.Account
		for _, login := range strings.Split(*a.LoginNames, ",") {
			if i := slices.IndexFunc(list, func(u *state.Account) bool { return strings.EqualFold(u.Login, strings.TrimSpace(login)) }); i >= 0 {
				named = append(named, list[i])
			}
		}
		list = named
	}
	if a.Query != nil && *a.Query != "" {
		q := strings.ToLower(*a.Query)
		list = slices.DeleteFunc(slices.Clone(list), func(u *state.Account) bool {
			return !strings.Contains(strings.ToLower(u.Login), q) && !strings.Contains(strings.ToLower(u.Name), q)
		})
	}
	return pageOf(x, list, a.connArgs)
}

// updateIssue resolves and checks every input before it changes anything,
// so a refused mutation leaves the issue as it was.
func updateIssue(x *gqlContext, _ root, a updateIssueArgs) (any, error) {
	in := a.Input
	is, err := x.issue(in.ID)
	if err != nil {
		return nil, err
	}
	perm := x.c.Token.Permission(is.Repo)
	if perm < state.PermTriage && (x.c.Viewer == nil || is.User != x.c.Viewer) {
		return nil, forbidden(x.c.Token.Login, "UpdateIssue")
	}
	var title string
	if in.Title.Set {
		title = strings.TrimSpace(deref(in.Title.Value))
		switch {
		case title == "":
			return nil, unprocessable("Title can't be blank")
		case utf8.RuneCountInString(title) > state.MaxTitleChars:
			return nil, unprocessable(fmt.Sprintf("Title is too long (maximum is %d characters)", state.MaxTitleChars))
		}
	}
	if in.State.Null() {
		return nil, unprocessable("State can't be blank")
	}
	if in.Body.Given() && utf8.RuneCountInString(*in.Body.Value) > state.MaxBodyChars {
		return nil, unprocessable(fmt.Sprintf("Body is too long (maximum is %d characters)", state.MaxBodyChars))
	}
	if projects := deref(in.ProjectIDs.Value); len(projects) > 0 {
		// No classic project exists here, so no id can resolve to one
		// (and clearing them, with null or [], has nothing to clear).
		return nil, nodeNotFound(string(projects[0]))
	}
	t, err := x.issueTriage(is.Repo, deref(in.LabelIDs.Value), deref(in.AssigneeIDs.Value), in.MilestoneID.Value)
	if err != nil {
		return nil, err
	}
	if in.Title.Set {
		x.st.Rename(is, x.c.Viewer, title)
	}
	if in.Body.Set {
		x.st.SetBody(is, x.c.Viewer, in.Body.Value, x.c.Req.Host)
	}
	// As PATCH .../issues/{n}: without triage access, label, assignee and
	// milestone changes are dropped; the author's other changes apply.
	// A null list or milestone sets none.
	if perm >= state.PermTriage {
		if in.LabelIDs.Set {
			x.st.SetLabels(is, x.c.Viewer, t.Labels)
		}
		if in.AssigneeIDs.Set {
			x.st.SetAssignees(is, x.c.Viewer, t.Assignees)
		}
		if in.MilestoneID.Set {
			x.st.SetMilestone(is, x.c.Viewer, t.Milestone)
		}
	}
	if in.State.Given() {
		switch {
		case *in.State.Value == "CLOSED" && is.State != "closed":
			x.st.Close(is, x.c.Viewer, "")
		case *in.State.Value == "OPEN" && is.State != "open":
			x.st.Reopen(is, x.c.Viewer)
		}
	}
	return &editPayload{actor: x.c.Viewer, issue: is, clientMutationID: in.ClientMutationID}, nil
}

// editLabels is addLabelsToLabelable (add) or removeLabelsFromLabelable;
// either needs triage access, as the REST labels routes do. Labels already
// on (or absent from) the conversation are left alone.
func editLabels(add bool) func(*gqlContext, root, labelableArgs) (any, error) {
	operation := "RemoveLabelsFromLabelable"
	if add {
		operation = "AddLabelsToLabelable"
	}
	return func(x *gqlContext, _ root, a labelableArgs) (any, error) {
		is, err := x.conversation(a.Input.LabelableID)
		if err != nil {
			return nil, err
		}
		if x.c.Token.Permission(is.Repo) < state.PermTriage {
			return nil, forbidden(x.c.Token.Login, operation)
		}
		t, err := x.issueTriage(is.Repo, a.Input.LabelIDs, nil, nil)
		if err != nil {
			return nil, err
		}
		if add {
			x.st.AddLabels(is, x.c.Viewer, t.Labels...)
		} else {
			for _, l := range t.Labels {
				x.st.RemoveLabel(is, x.c.Viewer, l)
			}
		}
		return &editPayload{actor: x.c.Viewer, issue: is, clientMutationID: a.Input.ClientMutationID}, nil
	}
}

// replaceActorsForAssignable sets the assignees to exactly the actors
// named; it needs triage access, as assigning through REST does. An actor
// must be a user or bot that can be assigned in the repository.
func replaceActorsForAssignable(x *gqlContext, _ root, a replaceActorsArgs) (any, error) {
	is, err := x.conversation(a.Input.AssignableID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "ReplaceActorsForAssignable")
	}
	var actors []*state.Account
	for _, id := range a.Input.ActorIDs {
		u, _ := x.visibleNode(string(id)).(*state.Account)
		if u == nil || u.IsOrg {
			return nil, notFound("Could not resolve to Actor node with the global id of '%s'", string(id))
		}
		if !is.Repo.Assignable(u.Login) {
			return nil, unprocessable(fmt.Sprintf("%s cannot be assigned to issues in %s", u.Login, is.Repo.FullName()))
		}
		if !slices.Contains(actors, u) {
			actors = append(actors, u)
		}
	}
	x.st.SetAssignees(is, x.c.Viewer, actors)
	return &editPayload{actor: x.c.Viewer, issue: is, clientMutationID: a.Input.ClientMutationID}, nil
}
