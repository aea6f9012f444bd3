package state

import (
	"strings"
)

// The rules GitHub applies when a pull request is opened or reviewers are
// requested, shared by REST (POST .../pulls, POST .../requested_reviewers)
// and GraphQL (createPullRequest, requestReviews), which word the same
// refusals differently.

// PullRefusal is why GitHub refuses to open a pull request: a field that
// names nothing it can use (Field "head" or "base"), or a rule the pair of
// branches breaks (Field empty, Message GitHub's).
type PullRefusal struct {
	Field   string
	Message string
}

func (e *PullRefusal) Error() string {
	if e.Field != "" {
		return e.Field + " is invalid"
	}
	return e.Message
}

// PullHead resolves the head of a new pull request into r, for a caller
// with token: a branch of r, or "owner:branch" of a fork of r the caller
// can see, and checks GitHub's rules: both branches exist, head has commits
// base lacks, and no open pull request joins the same two already.
func (s *State) PullHead(r *Repo, t *Token, head, base string) (*Repo, string, *PullRefusal) {
	headRepo, headRef := r, head
	if owner, ref, ok := strings.Cut(head, ":"); ok {
		headRef = ref
		if !strings.EqualFold(owner, r.Owner.Login) {
			headRepo = s.Repo(owner, r.Name)
			if headRepo == nil || headRepo.Parent != r || t.Permission(headRepo) == PermNone {
				return nil, "", &PullRefusal{Field: "head"}
			}
		}
	}
	g := s.EnsureGit(r)
	if g.Branches[base] == nil {
		return nil, "", &PullRefusal{Field: "base"}
	}
	if headRepo.Git == nil || headRepo.Git.Branches[headRef] == nil {
		return nil, "", &PullRefusal{Field: "head"}
	}
	if len(Between(g.Branches[base], headRepo.Git.Branches[headRef])) == 0 {
		return nil, "", &PullRefusal{Message: "No commits between " + base + " and " + head}
	}
	for _, is := range r.Issues {
		if p := is.Pull; p != nil && is.State == "open" && p.HeadRepo == headRepo && p.HeadRef == headRef && p.BaseRef == base {
			return nil, "", &PullRefusal{Message: "A pull request already exists for " + headRepo.Owner.Login + ":" + headRef + "."}
		}
	}
	return headRepo, headRef, nil
}

// ReviewRequestError says why users and teams cannot be asked to review
// is, nil when they can: GitHub takes only the repository's collaborators
// (its owner among them) besides the author, and the owner's teams.
func ReviewRequestError(is *Issue, users []*Account, teams []*Team) string {
	r := is.Repo
	for _, a := range users {
		if a == is.User {
			return "Review cannot be requested from pull request author."
		}
		if Association(a, r) != "OWNER" && !r.IsCollaborator(a.Login) {
			return "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " +
				r.FullName() + " repository."
		}
	}
	for _, t := range teams {
		if t.Org != r.Owner {
			return "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " +
				r.FullName() + " repository."
		}
	}
	return ""
}
