package search

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Pull request qualifiers, as GitHub's "Searching issues and pull requests"
// documents them: draft:, review:, reviewed-by:, review-requested:,
// user-review-requested:, team-review-requested:, status:, head:, base:,
// merged: and linked:. Each matches only pull requests (linked:pr matches
// issues), so an issue never passes a pull request filter.

// pullQualifier compiles a pull request qualifier; known is false for a
// key that is not one.
func (p *searchParser) pullQualifier(key, val string) (e searchExpr, known bool) {
	lval := strings.ToLower(val)
	pull := func(f func(is *state.Issue, pr *state.PullRequest) bool) searchExpr {
		return searchPred(func(is *state.Issue) bool { return is.IsPull && is.Pull != nil && f(is, is.Pull) })
	}
	switch key {
	case "draft":
		want := lval == "true"
		return validOrNothing(lval == "true" || lval == "false", func(is *state.Issue) bool {
			return is.IsPull && is.Pull != nil && is.Pull.Draft == want
		}), true
	case "review":
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool { return reviewMatches(pr, lval) }), true
	case "reviewed-by":
		login := p.login(val)
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool {
			return slices.ContainsFunc(pr.Reviews, func(rv *state.Review) bool { return rv.State != "PENDING" && accountIs(rv.User, login) })
		}), true
	case "review-requested":
		// A user asked directly, or through a team they belong to.
		login := p.login(val)
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool {
			return requestedUser(pr, login) || slices.ContainsFunc(pr.RequestedTeams, func(t *state.Team) bool {
				return slices.ContainsFunc(t.Members, func(a *state.Account) bool { return accountIs(a, login) })
			})
		}), true
	case "user-review-requested":
		login := p.login(val)
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool { return requestedUser(pr, login) }), true
	case "team-review-requested":
		org, slug, ok := strings.Cut(val, "/")
		return validOrNothing(ok, func(is *state.Issue) bool {
			return is.IsPull && is.Pull != nil && slices.ContainsFunc(is.Pull.RequestedTeams, func(t *state.Team) bool {
				return strings.EqualFold(t.Org.Login, org) && strings.EqualFold(t.Slug, slug)
			})
		}), true
	case "status":
		return pull(func(is *state.Issue, pr *state.PullRequest) bool {
			return pr.Head != nil && is.Repo.Git != nil && is.Repo.Git.ChecksState(pr.Head.SHA) == lval
		}), true
	case "head":
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool { return strings.EqualFold(pr.HeadRef, val) }), true
	case "base":
		return pull(func(_ *state.Issue, pr *state.PullRequest) bool { return strings.EqualFold(pr.BaseRef, val) }), true
	case "merged":
		in, ok := DateRange(val)
		return validOrNothing(ok, func(is *state.Issue) bool {
			return is.IsPull && is.Pull != nil && is.Pull.MergedAt != nil && in(*is.Pull.MergedAt)
		}), true
	case "linked":
		switch lval {
		case "pr":
			// Issues a pull request's closing keywords name.
			return searchPred(func(is *state.Issue) bool {
				return !is.IsPull && slices.ContainsFunc(is.Repo.Issues, func(pr *state.Issue) bool { return pr.IsPull && !pr.Deleted && state.Closes(pr, is) })
			}), true
		case "issue":
			// Pull requests that name an issue they close.
			return searchPred(func(is *state.Issue) bool { return is.IsPull && len(state.ClosingIssues(is)) > 0 }), true
		}
		return searchPred(func(*state.Issue) bool { return false }), true
	}
	return nil, false
}

// reviewMatches is review:none (no review yet), review:required (GitHub's
// decision still wants one), review:approved and
// review:changes_requested.
func reviewMatches(pr *state.PullRequest, v string) bool {
	switch v {
	case "none":
		return !slices.ContainsFunc(pr.Reviews, func(rv *state.Review) bool { return rv.State != "PENDING" })
	case "required":
		return pr.ReviewDecision() == "REVIEW_REQUIRED"
	case "approved":
		return pr.ReviewDecision() == "APPROVED"
	case "changes_requested":
		return pr.ReviewDecision() == "CHANGES_REQUESTED"
	}
	return false
}

func requestedUser(pr *state.PullRequest, login string) bool {
	return slices.ContainsFunc(pr.RequestedReviewers, func(a *state.Account) bool { return accountIs(a, login) })
}
