package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// createPullRequest, updatePullRequest and requestReviews, as GitHub's
// schema defines them: what `gh pr create` sends (it opens the pull request,
// then sets labels, assignees and milestone with updatePullRequest, then
// asks for reviews). They act through the state code POST .../pulls, PATCH
// .../pulls/{n} and POST .../requested_reviewers use, with the same rules,
// refused in GraphQL's words.

type createPullArgs struct {
	Input struct {
		RepositoryID        gqlID   `json:"repositoryId"`
		BaseRefName         string  `json:"baseRefName"`
		HeadRefName         string  `json:"headRefName"`
		HeadRepositoryID    *gqlID  `json:"headRepositoryId"`
		Title               string  `json:"title"`
		Body                *string `json:"body"`
		Draft               *bool   `json:"draft"`
		MaintainerCanModify *bool   `json:"maintainerCanModify"`
		ClientMutationID    *string `json:"clientMutationId"`
	} `json:"input"`
}

type updatePullArgs struct {
	Input struct {
		PullRequestID gqlID `json:"pullRequestId"`
		// As updateIssue: null clears the body, the assignees, the
		// labels, the milestone and the (classic) projects; a pull
		// request cannot be without a title, a state or a base, so null
		// there is refused. A null maintainerCanModify, a flag with
		// nothing to clear, leaves it as it is.
		Title               nullable[string]  `json:"title"`
		Body                nullable[string]  `json:"body"`
		BaseRefName         nullable[string]  `json:"baseRefName"`
		State               nullable[string]  `json:"state"`
		MaintainerCanModify *bool             `json:"maintainerCanModify"`
		AssigneeIDs         nullable[[]gqlID] `json:"assigneeIds"`
		LabelIDs            nullable[[]gqlID] `json:"labelIds"`
		MilestoneID         nullable[gqlID]   `json:"milestoneId"`
		ProjectIDs          nullable[[]gqlID] `json:"projectIds"`
		ClientMutationID    *string           `json:"clientMutationId"`
	} `json:"input"`
}

type requestReviewsArgs struct {
	Input struct {
		PullRequestID    gqlID   `json:"pullRequestId"`
		UserIDs          []gqlID `json:"userIds"`
		TeamIDs          []gqlID `json:"teamIds"`
		Union            *bool   `json:"union"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

func registerPullCreate(r *resolvers) {
	resolveArgs(r, "Mutation.createPullRequest", createPullRequest)
	resolveArgs(r, "Mutation.updatePullRequest", updatePullRequest)
	resolveArgs(r, "Mutation.requestReviews", requestReviews)
	for _, t := range []string{"CreatePullRequestPayload", "UpdatePullRequestPayload", "RequestReviewsPayload"} {
		resolve(r, t+".pullRequest", func(_ *gqlContext, p *pullPayload) (any, error) { return p.pull, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *pullPayload) (any, error) { return p.clientMutationID, nil })
	}
	resolve(r, "UpdatePullRequestPayload.actor", func(_ *gqlContext, p *pullPayload) (any, error) { return p.actor, nil })
	resolve(r, "RequestReviewsPayload.actor", func(_ *gqlContext, p *pullPayload) (any, error) { return p.actor, nil })
}

// createPullRequest needs read access to the repository, as POST
// .../pulls does. GitHub's GraphQL reports a head or base that names no
// branch with the model's validation messages, joined.
func createPullRequest(x *gqlContext, _ root, a createPullArgs) (any, error) {
	in := a.Input
	repo, _ := x.visibleNode(string(in.RepositoryID)).(*state.Repo)
	if repo == nil {
		return nil, nodeNotFound(string(in.RepositoryID))
	}
	if repo.Archived {
		return nil, unprocessable("Repository was archived so is read-only.")
	}
	title := strings.TrimSpace(in.Title)
	if err := textError(title, in.Body); err != nil {
		return nil, err
	}
	// headRepositoryId names the repository the head branch is in; null,
	// as absent, leaves it to headRefName ("owner:branch", or a branch of
	// the repository itself).
	var named *state.Repo
	if in.HeadRepositoryID != nil {
		if named, _ = x.visibleNode(string(*in.HeadRepositoryID)).(*state.Repo); named == nil {
			return nil, nodeNotFound(string(*in.HeadRepositoryID))
		}
	}
	headRepo, headRef, refused := x.st.PullHead(repo, x.c.Token, x.headName(repo, in.HeadRefName, named), in.BaseRefName)
	if refused == nil && named != nil && headRepo != named {
		refused = &state.PullRefusal{Field: "head"}
	}
	if refused != nil {
		switch refused.Field {
		case "head":
			return nil, unprocessable("Head sha can't be blank, Base sha can't be blank, No commits between " +
				in.BaseRefName + " and " + in.HeadRefName + ", Head ref must be a branch")
		case "base":
			return nil, unprocessable("Base ref must be a branch")
		}
		return nil, unprocessable(refused.Message)
	}
	draft := in.Draft != nil && *in.Draft
	is := x.st.CreatePull(repo, x.c.Viewer, title, in.Body, headRepo, headRef, in.BaseRefName, draft, x.c.Req.Host)
	if in.MaintainerCanModify != nil && headRepo != repo {
		is.Pull.MaintainerCanModify = *in.MaintainerCanModify
	}
	return &pullPayload{pull: is, actor: x.c.Viewer, clientMutationID: in.ClientMutationID}, nil
}

// headName is the head as PullHead reads it: a branch of the repository
// headRepositoryId names, when headRefName names no owner, is that
// owner's.
func (x *gqlContext) headName(repo *state.Repo, head string, named *state.Repo) string {
	if named == nil || named == repo || strings.Contains(head, ":") {
		return head
	}
	return named.Owner.Login + ":" + head
}

// updatePullRequest: the author or anyone with write access may change the
// text, base and state, as PATCH .../pulls/{n} allows; labels, assignees
// and milestone need triage access, as on issues. Everything is resolved
// and checked before anything changes.
func updatePullRequest(x *gqlContext, _ root, a updatePullArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	repo, p := is.Repo, is.Pull
	perm := x.c.Token.Permission(repo)
	if perm < state.PermWrite && is.User != x.c.Viewer {
		return nil, forbidden(x.c.Token.Login, "UpdatePullRequest")
	}
	triage := in.AssigneeIDs.Set || in.LabelIDs.Set || in.MilestoneID.Set || in.ProjectIDs.Set
	if triage && perm < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "UpdatePullRequest")
	}
	if projects := deref(in.ProjectIDs.Value); len(projects) > 0 {
		// No classic project exists here, so no id can resolve to one
		// (and clearing them, with null or [], has nothing to clear).
		return nil, nodeNotFound(string(projects[0]))
	}
	title := strings.TrimSpace(deref(in.Title.Value))
	base := deref(in.BaseRefName.Value)
	switch {
	case in.Title.Set && title == "":
		return nil, unprocessable("Title can't be blank")
	case in.State.Null():
		return nil, unprocessable("State can't be blank")
	case in.BaseRefName.Set && (repo.Git == nil || repo.Git.Branches[base] == nil):
		return nil, unprocessable("Base ref must be a branch")
	case in.State.Given() && *in.State.Value == "OPEN" && is.Merged:
		return nil, unprocessable("Can't reopen a merged pull request")
	}
	t, err := x.issueTriage(repo, deref(in.LabelIDs.Value), deref(in.AssigneeIDs.Value), in.MilestoneID.Value)
	if err != nil {
		return nil, err
	}
	if in.Title.Set && title != is.Title {
		x.st.Rename(is, x.c.Viewer, title)
	}
	if in.Body.Set {
		x.st.SetBody(is, x.c.Viewer, in.Body.Value, x.c.Req.Host)
	}
	if in.BaseRefName.Set && is.State == "open" {
		p.BaseRef, p.Base = base, repo.Git.Branches[base]
	}
	if in.MaintainerCanModify != nil && p.HeadRepo != repo {
		p.MaintainerCanModify = *in.MaintainerCanModify
	}
	// A null list or milestone sets none.
	if in.LabelIDs.Set {
		x.st.SetLabels(is, x.c.Viewer, t.Labels)
	}
	if in.AssigneeIDs.Set {
		x.st.SetAssignees(is, x.c.Viewer, t.Assignees)
	}
	if in.MilestoneID.Set {
		x.st.SetMilestone(is, x.c.Viewer, t.Milestone)
	}
	if in.State.Given() {
		switch {
		case *in.State.Value == "CLOSED" && is.State == "open":
			x.st.ClosePull(is, x.c.Viewer)
		case *in.State.Value == "OPEN" && is.State == "closed":
			x.st.Reopen(is, x.c.Viewer)
		}
	}
	x.st.Touch(is)
	return &pullPayload{pull: is, actor: x.c.Viewer, clientMutationID: in.ClientMutationID}, nil
}

// requestReviews needs triage access, as POST .../requested_reviewers
// does. With union false (the default) the requests given replace those
// pending; with union true they are added to them.
func requestReviews(x *gqlContext, _ root, a requestReviewsArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "RequestReviews")
	}
	var users []*state.Account
	for _, id := range in.UserIDs {
		u, _ := x.visibleNode(string(id)).(*state.Account)
		if u == nil || u.IsOrg {
			return nil, notFound("Could not resolve to User node with the global id of '%s'", string(id))
		}
		users = append(users, u)
	}
	var teams []*state.Team
	for _, id := range in.TeamIDs {
		t, _ := x.visibleNode(string(id)).(*state.Team)
		if t == nil {
			return nil, notFound("Could not resolve to Team node with the global id of '%s'", string(id))
		}
		teams = append(teams, t)
	}
	if msg := state.ReviewRequestError(is, users, teams); msg != "" {
		return nil, unprocessable(msg)
	}
	if in.Union == nil || !*in.Union {
		// The requests replace those there were: the others are withdrawn.
		p := is.Pull
		gone := slices.DeleteFunc(slices.Clone(p.RequestedReviewers), func(a *state.Account) bool { return slices.Contains(users, a) })
		goneTeams := slices.DeleteFunc(slices.Clone(p.RequestedTeams), func(t *state.Team) bool { return slices.Contains(teams, t) })
		x.st.RemoveReviewRequests(is, x.c.Viewer, gone, goneTeams)
	}
	x.st.RequestReviews(is, x.c.Viewer, users, teams)
	return &pullPayload{pull: is, actor: x.c.Viewer, clientMutationID: in.ClientMutationID}, nil
}
