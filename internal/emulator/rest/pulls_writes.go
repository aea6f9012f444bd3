package rest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

type createPullRequest struct {
	Title               string  `json:"title"`
	Head                string  `json:"head"`
	Base                string  `json:"base"`
	Body                *string `json:"body"`
	Draft               bool    `json:"draft"`
	MaintainerCanModify *bool   `json:"maintainer_can_modify"`
}

const createPullDoc = "rest/pulls/pulls#create-a-pull-request"

// createPull opens a pull request between existing branches: head is a
// branch of the repository or "owner:branch" of a fork of it. GitHub
// refuses a pull request with no commits over its base, or one whose head
// and base already have an open pull request.
func createPull(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	var in createPullRequest
	if !c.Decode(&in) {
		return
	}
	bad := func(field string) {
		c.Invalid("", createPullDoc, wire.FieldError{Resource: "PullRequest", Field: field, Code: "invalid"})
	}
	switch {
	case strings.TrimSpace(in.Title) == "":
		c.Invalid("", createPullDoc, wire.FieldError{Resource: "PullRequest", Field: "title", Code: "missing_field"})
		return
	case in.Head == "":
		c.Invalid("", createPullDoc, wire.FieldError{Resource: "PullRequest", Field: "head", Code: "missing_field"})
		return
	case in.Base == "":
		c.Invalid("", createPullDoc, wire.FieldError{Resource: "PullRequest", Field: "base", Code: "missing_field"})
		return
	}
	headRepo, headRef, refused := c.State.PullHead(r, c.Token, in.Head, in.Base)
	switch {
	case refused != nil && refused.Field != "":
		bad(refused.Field)
		return
	case refused != nil:
		c.Invalid("", createPullDoc, wire.FieldError{Resource: "PullRequest", Code: "custom", Message: refused.Message})
		return
	}
	is := c.State.CreatePull(r, c.Viewer, in.Title, in.Body, headRepo, headRef, in.Base, in.Draft, c.Req.Host)
	if in.MaintainerCanModify != nil && headRepo != r {
		is.Pull.MaintainerCanModify = *in.MaintainerCanModify
	}
	out := c.pullJSON(is, true)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

type updatePullRequest struct {
	Title               *string `json:"title"`
	Body                *string `json:"body"`
	State               *string `json:"state"`
	Base                *string `json:"base"`
	MaintainerCanModify *bool   `json:"maintainer_can_modify"`
}

const updatePullDoc = "rest/pulls/pulls#update-a-pull-request"

// updatePull edits a pull request: its author or anyone with write access
// may, as on GitHub.
func updatePull(c *call) {
	r, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	if c.Token.Permission(r) < state.PermWrite && is.User != c.Viewer {
		c.Forbidden()
		return
	}
	var in updatePullRequest
	if !c.Decode(&in) {
		return
	}
	p := is.Pull
	switch {
	case in.Title != nil && strings.TrimSpace(*in.Title) == "":
		c.Invalid("", updatePullDoc, wire.FieldError{Resource: "PullRequest", Field: "title", Code: "missing_field"})
		return
	case in.State != nil && *in.State != "open" && *in.State != "closed":
		c.Invalid("", updatePullDoc, wire.FieldError{Resource: "PullRequest", Field: "state", Code: "invalid"})
		return
	case in.State != nil && *in.State == "open" && is.Merged:
		c.Invalid("", updatePullDoc, wire.FieldError{Resource: "PullRequest", Code: "custom", Message: "state cannot be changed. The pull request cannot be reopened."})
		return
	case in.Base != nil && r.Git.Branches[*in.Base] == nil:
		c.Invalid("", updatePullDoc, wire.FieldError{Resource: "PullRequest", Field: "base", Code: "invalid"})
		return
	}
	if in.Title != nil && *in.Title != is.Title {
		c.State.Rename(is, c.Viewer, *in.Title)
	}
	if in.Body != nil {
		is.Body = in.Body
		c.State.CrossReference(is, c.Viewer, *in.Body, c.State.Now(), c.Req.Host)
	}
	if in.Base != nil && is.State == "open" {
		p.BaseRef, p.Base = *in.Base, r.Git.Branches[*in.Base]
	}
	if in.MaintainerCanModify != nil && p.HeadRepo != r {
		p.MaintainerCanModify = *in.MaintainerCanModify
	}
	if in.State != nil {
		switch {
		case *in.State == "closed" && is.State == "open":
			c.State.ClosePull(is, c.Viewer)
		case *in.State == "open" && is.State == "closed":
			c.State.Reopen(is, c.Viewer)
		}
	}
	c.State.Touch(is)
	c.JSON(http.StatusOK, c.pullJSON(is, true))
}

type reviewersRequest struct {
	Reviewers     []string `json:"reviewers"`
	TeamReviewers []string `json:"team_reviewers"`
}

const reviewersDoc = "rest/pulls/review-requests#request-reviewers-for-a-pull-request"

// requestReviewers asks collaborators (not the author) and the
// organization's teams for a review; it needs triage access.
func requestReviewers(c *call) {
	r, is := c.repoPull(state.PermTriage)
	if is == nil {
		return
	}
	var in reviewersRequest
	if !c.Decode(&in) {
		return
	}
	var users []*state.Account
	for _, login := range in.Reviewers {
		a := c.State.Account(login)
		if a == nil {
			c.Invalid("Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the "+
				r.FullName()+" repository.", reviewersDoc)
			return
		}
		users = append(users, a)
	}
	var teams []*state.Team
	for _, slug := range in.TeamReviewers {
		t := c.State.FindTeam(r.Owner.Login, slug)
		if t == nil {
			c.Invalid("Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the "+
				r.FullName()+" repository.", reviewersDoc)
			return
		}
		teams = append(teams, t)
	}
	if msg := state.ReviewRequestError(is, users, teams); msg != "" {
		c.Invalid(msg, reviewersDoc)
		return
	}
	c.State.RequestReviews(is, c.Viewer, users, teams)
	c.JSON(http.StatusCreated, c.pullJSON(is, false))
}

// removeRequestedReviewers withdraws review requests; it needs triage
// access.
func removeRequestedReviewers(c *call) {
	_, is := c.repoPull(state.PermTriage)
	if is == nil {
		return
	}
	var in reviewersRequest
	if !c.Decode(&in) {
		return
	}
	if in.Reviewers == nil {
		c.Invalid("", reviewersDoc, wire.FieldError{Resource: "PullRequest", Field: "reviewers", Code: "missing_field"})
		return
	}
	p := is.Pull
	var users []*state.Account
	for _, a := range p.RequestedReviewers {
		if slices.ContainsFunc(in.Reviewers, func(l string) bool { return strings.EqualFold(l, a.Login) }) {
			users = append(users, a)
		}
	}
	var teams []*state.Team
	for _, t := range p.RequestedTeams {
		if slices.ContainsFunc(in.TeamReviewers, func(s string) bool { return strings.EqualFold(s, t.Slug) }) {
			teams = append(teams, t)
		}
	}
	c.State.RemoveReviewRequests(is, c.Viewer, users, teams)
	c.JSON(http.StatusOK, c.pullJSON(is, false))
}
