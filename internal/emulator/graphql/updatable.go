package graphql

import "github.com/ghgate/ghgate/internal/emulator/state"

// Updatable and UpdatableComment: whether the viewer may edit an issue, a
// pull request or a comment, and why not. The answer is the one the
// emulator's own edits give (updateIssue, updatePullRequest, PATCH of a
// comment), so a client that reads viewerCanUpdate before editing is never
// told yes and then refused: the author may edit their own text, others
// need the access the edit needs; nobody edits in an archived repository;
// on a locked conversation only people with write access do, as GitHub
// allows only them to comment there.

// editable is what decides whether the viewer may update an object.
type editable struct {
	repo   *state.Repo
	author *state.Account
	locked bool
	// need is the access someone other than the author needs.
	need state.Permission
}

// cannotUpdate lists the CommentCannotUpdateReason values that apply, in
// the enum's order; none means the viewer may update.
func (x *gqlContext) cannotUpdate(e editable) []string {
	if x.c.Viewer == nil {
		return []string{"LOGIN_REQUIRED"}
	}
	var out []string
	if e.repo.Archived {
		out = append(out, "ARCHIVED")
	}
	perm := x.c.Token.Permission(e.repo)
	if e.author != x.c.Viewer && perm < e.need {
		out = append(out, "INSUFFICIENT_ACCESS")
	}
	if e.locked && perm < state.PermWrite {
		out = append(out, "LOCKED")
	}
	return out
}

// registerUpdatable serves viewerCanUpdate and viewerCannotUpdateReasons on
// every served type that implements Updatable and UpdatableComment.
func registerUpdatable(r *resolvers) {
	updatable(r, "Issue", func(is *state.Issue) editable {
		return editable{repo: is.Repo, author: is.User, locked: is.Locked, need: state.PermTriage}
	})
	updatable(r, "PullRequest", func(is *state.Issue) editable {
		return editable{repo: is.Repo, author: is.User, locked: is.Locked, need: state.PermWrite}
	})
	updatable(r, "IssueComment", func(c *state.Comment) editable {
		return editable{repo: c.Issue.Repo, author: c.User, locked: c.Issue.Locked, need: state.PermWrite}
	})
	updatable(r, "PullRequestReview", func(v *state.Review) editable {
		return editable{repo: v.Pull.Repo, author: v.User, locked: v.Pull.Locked, need: state.PermWrite}
	})
	updatable(r, "PullRequestReviewComment", func(c *state.ReviewComment) editable {
		return editable{repo: c.Review.Pull.Repo, author: c.User, locked: c.Review.Pull.Locked, need: state.PermWrite}
	})
}

func updatable[P any](r *resolvers, typ string, of func(P) editable) {
	resolve(r, typ+".viewerCanUpdate", func(x *gqlContext, p P) (any, error) { return len(x.cannotUpdate(of(p))) == 0, nil })
	resolve(r, typ+".viewerCannotUpdateReasons", func(x *gqlContext, p P) (any, error) {
		return append([]string{}, x.cannotUpdate(of(p))...), nil
	})
}
