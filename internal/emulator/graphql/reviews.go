package graphql

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// registerReviews serves pull request reviews, review threads and review
// comments.
func registerReviews(r *resolvers) {
	objectType(r, func(*state.Review) string { return "PullRequestReview" })
	const rv = "PullRequestReview"
	resolve(r, rv+".id", func(_ *gqlContext, v *state.Review) (any, error) { return v.NodeID, nil })
	resolve(r, rv+".databaseId", func(_ *gqlContext, v *state.Review) (any, error) { return v.ID, nil })
	resolve(r, rv+".author", func(_ *gqlContext, v *state.Review) (any, error) { return v.User, nil })
	resolve(r, rv+".authorAssociation", func(_ *gqlContext, v *state.Review) (any, error) {
		return state.Association(v.User, v.Pull.Repo), nil
	})
	resolve(r, rv+".body", func(_ *gqlContext, v *state.Review) (any, error) { return v.Body, nil })
	resolve(r, rv+".state", func(_ *gqlContext, v *state.Review) (any, error) { return v.State, nil })
	resolve(r, rv+".submittedAt", func(_ *gqlContext, v *state.Review) (any, error) {
		if v.State == "PENDING" {
			return nil, nil
		}
		return v.SubmittedAt, nil
	})
	resolve(r, rv+".createdAt", func(_ *gqlContext, v *state.Review) (any, error) { return v.CreatedAt, nil })
	resolve(r, rv+".updatedAt", func(_ *gqlContext, v *state.Review) (any, error) {
		if v.State == "PENDING" {
			return v.CreatedAt, nil
		}
		return v.SubmittedAt, nil
	})
	resolve(r, rv+".includesCreatedEdit", func(_ *gqlContext, _ *state.Review) (any, error) { return false, nil })
	resolve(r, rv+".commit", func(_ *gqlContext, v *state.Review) (any, error) {
		return &commitRef{repo: v.Pull.Repo, commit: v.Commit}, nil
	})
	resolve(r, rv+".pullRequest", func(_ *gqlContext, v *state.Review) (any, error) { return v.Pull, nil })
	resolve(r, rv+".repository", func(_ *gqlContext, v *state.Review) (any, error) { return v.Pull.Repo, nil })
	resolve(r, rv+".url", func(x *gqlContext, v *state.Review) (any, error) {
		return x.webURL(fmt.Sprintf("%s#pullrequestreview-%d", wire.IssuePath(v.Pull), v.ID)), nil
	})
	resolve(r, rv+".reactionGroups", func(_ *gqlContext, _ *state.Review) (any, error) { return reactionGroups(nil), nil })
	resolveArgs(r, rv+".comments", func(x *gqlContext, v *state.Review, a connArgs) (any, error) { return pageOf(x, v.Comments, a) })

	objectType(r, func(*state.ReviewThread) string { return "PullRequestReviewThread" })
	const th = "PullRequestReviewThread"
	resolve(r, th+".id", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.NodeID, nil })
	resolve(r, th+".path", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Path, nil })
	resolve(r, th+".line", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return threadLine(t, t.Line, true), nil })
	resolve(r, th+".originalLine", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return threadLine(t, t.Line, false), nil })
	resolve(r, th+".startLine", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return threadLine(t, t.StartLine, true), nil })
	resolve(r, th+".originalStartLine", func(_ *gqlContext, t *state.ReviewThread) (any, error) {
		return threadLine(t, t.StartLine, false), nil
	})
	resolve(r, th+".diffSide", func(_ *gqlContext, _ *state.ReviewThread) (any, error) { return "RIGHT", nil })
	resolve(r, th+".startDiffSide", func(_ *gqlContext, t *state.ReviewThread) (any, error) {
		if t.StartLine == 0 {
			return nil, nil
		}
		return "RIGHT", nil
	})
	resolve(r, th+".subjectType", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return threadSubject(t), nil })
	resolve(r, th+".isResolved", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Resolved, nil })
	resolve(r, th+".isOutdated", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Outdated(), nil })
	resolve(r, th+".isCollapsed", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Resolved, nil })
	resolve(r, th+".resolvedBy", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.ResolvedBy, nil })
	resolve(r, th+".pullRequest", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Pull, nil })
	resolve(r, th+".repository", func(_ *gqlContext, t *state.ReviewThread) (any, error) { return t.Pull.Repo, nil })
	resolveArgs(r, th+".comments", func(x *gqlContext, t *state.ReviewThread, a connArgs) (any, error) {
		return pageOf(x, state.VisibleReviewComments(t.Comments, x.c.Viewer), a)
	})

	objectType(r, func(*state.ReviewComment) string { return "PullRequestReviewComment" })
	const cm = "PullRequestReviewComment"
	resolve(r, cm+".id", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.NodeID, nil })
	resolve(r, cm+".databaseId", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.ID, nil })
	resolve(r, cm+".author", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.User, nil })
	resolve(r, cm+".authorAssociation", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return state.Association(c.User, c.Review.Pull.Repo), nil
	})
	resolve(r, cm+".body", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Body, nil })
	resolve(r, cm+".path", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Path, nil })
	resolve(r, cm+".diffHunk", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.DiffHunk, nil })
	resolve(r, cm+".line", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return threadLine(c.Thread, c.Line, true), nil
	})
	resolve(r, cm+".originalLine", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return threadLine(c.Thread, c.Line, false), nil
	})
	resolve(r, cm+".startLine", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return threadLine(c.Thread, c.Thread.StartLine, true), nil
	})
	resolve(r, cm+".originalStartLine", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return threadLine(c.Thread, c.Thread.StartLine, false), nil
	})
	resolve(r, cm+".subjectType", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return threadSubject(c.Thread), nil })
	resolve(r, cm+".outdated", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Thread.Outdated(), nil })
	resolve(r, cm+".createdAt", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.CreatedAt, nil })
	resolve(r, cm+".updatedAt", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.UpdatedAt, nil })
	resolve(r, cm+".publishedAt", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.CreatedAt, nil })
	resolve(r, cm+".includesCreatedEdit", func(_ *gqlContext, _ *state.ReviewComment) (any, error) { return false, nil })
	resolve(r, cm+".replyTo", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.InReplyTo, nil })
	resolve(r, cm+".pullRequestReview", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Review, nil })
	resolve(r, cm+".pullRequest", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Review.Pull, nil })
	resolve(r, cm+".repository", func(_ *gqlContext, c *state.ReviewComment) (any, error) { return c.Review.Pull.Repo, nil })
	resolve(r, cm+".commit", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return &commitRef{repo: c.Review.Pull.Repo, commit: c.Review.Pull.Pull.Head}, nil
	})
	resolve(r, cm+".originalCommit", func(_ *gqlContext, c *state.ReviewComment) (any, error) {
		return &commitRef{repo: c.Review.Pull.Repo, commit: c.Commit}, nil
	})
	resolve(r, cm+".url", func(x *gqlContext, c *state.ReviewComment) (any, error) {
		return x.webURL(fmt.Sprintf("%s#discussion_r%d", wire.IssuePath(c.Review.Pull), c.ID)), nil
	})
	resolve(r, cm+".reactionGroups", func(_ *gqlContext, _ *state.ReviewComment) (any, error) { return reactionGroups(nil), nil })
}

// threadLine is one of a thread's line numbers as GitHub gives it: null
// for none (a file comment has no line, a single-line one no start line)
// and, in the current diff, for an outdated thread.
func threadLine(t *state.ReviewThread, n int, current bool) any {
	if n == 0 || t.File || current && t.Outdated() {
		return nil
	}
	return n
}

// threadSubject is PullRequestReviewThreadSubjectType: FILE or LINE.
func threadSubject(t *state.ReviewThread) string {
	if t.File {
		return "FILE"
	}
	return "LINE"
}
