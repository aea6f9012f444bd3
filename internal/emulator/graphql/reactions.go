package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Reactions, as GitHub's Reactable interface serves them: one group for
// each ReactionContent value in the enum's order, empty ones included,
// because GitHub lists them so (gh v2.83.0's issue view fixtures, recorded
// from GitHub, carry all eight with a totalCount of 0).

// reactionContents are the values of GitHub's ReactionContent enum.
var reactionContents = []string{"CONFUSED", "EYES", "HEART", "HOORAY", "LAUGH", "ROCKET", "THUMBS_DOWN", "THUMBS_UP"}

// reactionGroup is GitHub's ReactionGroup: one emoji and who reacted with it.
type reactionGroup struct {
	content string
	users   []*state.Account
}

// reactionGroups groups a subject's reactions by content.
func reactionGroups(rs []*state.Reaction) []*reactionGroup {
	out := make([]*reactionGroup, len(reactionContents))
	for i, c := range reactionContents {
		out[i] = &reactionGroup{content: c}
		for _, r := range rs {
			if r.Content == state.RestReaction(c) {
				out[i].users = append(out[i].users, r.User)
			}
		}
	}
	return out
}

func registerReactions(r *resolvers) {
	resolve(r, "Issue.reactionGroups", func(_ *gqlContext, is *state.Issue) (any, error) { return reactionGroups(is.Reactions), nil })
	resolve(r, "PullRequest.reactionGroups", func(_ *gqlContext, is *state.Issue) (any, error) { return reactionGroups(is.Reactions), nil })
	resolve(r, "IssueComment.reactionGroups", func(_ *gqlContext, cm *state.Comment) (any, error) { return reactionGroups(cm.Reactions), nil })

	resolve(r, "ReactionGroup.content", func(_ *gqlContext, g *reactionGroup) (any, error) { return g.content, nil })
	resolveArgs(r, "ReactionGroup.users", func(x *gqlContext, g *reactionGroup, a connArgs) (any, error) {
		return pageOf(x, g.users, a)
	})
	resolve(r, "ReactionGroup.viewerHasReacted", func(x *gqlContext, g *reactionGroup) (any, error) {
		for _, u := range g.users {
			if x.c.Viewer != nil && u == x.c.Viewer {
				return true, nil
			}
		}
		return false, nil
	})
}
