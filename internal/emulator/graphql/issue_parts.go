package graphql

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// registerIssueParts serves what hangs off an issue: labels, milestones,
// comments, issue types and the summaries.
func registerIssueParts(r *resolvers) {
	objectType(r, func(*state.Label) string { return "Label" })
	resolve(r, "Label.id", func(_ *gqlContext, l *state.Label) (any, error) { return l.NodeID, nil })
	resolve(r, "Label.name", func(_ *gqlContext, l *state.Label) (any, error) { return l.Name, nil })
	resolve(r, "Label.color", func(_ *gqlContext, l *state.Label) (any, error) { return l.Color, nil })
	resolve(r, "Label.description", func(_ *gqlContext, l *state.Label) (any, error) { return l.Description, nil })
	resolve(r, "Label.isDefault", func(_ *gqlContext, l *state.Label) (any, error) { return l.Default, nil })
	resolve(r, "Label.url", func(x *gqlContext, l *state.Label) (any, error) {
		repo := repoOfLabel(x.st, l)
		if repo == nil {
			return nil, fmt.Errorf("emulator: label %s belongs to no repository", l.NodeID)
		}
		return x.webURL("/" + repo.FullName() + "/labels/" + url.PathEscape(l.Name)), nil
	})

	// A label's and a milestone's issues: those of its repository that
	// carry it, pull requests left out (they are PullRequest connections).
	resolveArgs(r, "Label.issues", func(x *gqlContext, l *state.Label, a issueListArgs) (any, error) {
		repo := repoOfLabel(x.st, l)
		if repo == nil {
			return nil, fmt.Errorf("emulator: label %s belongs to no repository", l.NodeID)
		}
		return listIssues(x, repo, a, func(is *state.Issue) bool { return slices.Contains(is.Labels, l) })
	})

	objectType(r, func(*state.Milestone) string { return "Milestone" })
	resolveArgs(r, "Milestone.issues", func(x *gqlContext, m *state.Milestone, a issueListArgs) (any, error) {
		repo := repoOfMilestone(x.st, m)
		if repo == nil {
			return nil, fmt.Errorf("emulator: milestone %s belongs to no repository", m.NodeID)
		}
		return listIssues(x, repo, a, func(is *state.Issue) bool { return is.Milestone == m })
	})
	resolve(r, "Milestone.id", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.NodeID, nil })
	resolve(r, "Milestone.number", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.Number, nil })
	resolve(r, "Milestone.title", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.Title, nil })
	resolve(r, "Milestone.description", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.Description, nil })
	resolve(r, "Milestone.state", func(_ *gqlContext, m *state.Milestone) (any, error) { return state.EnumValue(m.State), nil })
	resolve(r, "Milestone.closed", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.State == "closed", nil })
	resolve(r, "Milestone.dueOn", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.DueOn, nil })
	resolve(r, "Milestone.createdAt", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.CreatedAt, nil })
	resolve(r, "Milestone.updatedAt", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.UpdatedAt, nil })
	resolve(r, "Milestone.closedAt", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.ClosedAt, nil })
	resolve(r, "Milestone.creator", func(_ *gqlContext, m *state.Milestone) (any, error) { return m.Creator, nil })
	resolve(r, "Milestone.progressPercentage", func(x *gqlContext, m *state.Milestone) (any, error) {
		repo := repoOfMilestone(x.st, m)
		if repo == nil {
			return 0.0, nil
		}
		return state.MilestoneCompleteness(repo, m) * 100, nil
	})
	resolve(r, "Milestone.resourcePath", func(x *gqlContext, m *state.Milestone) (any, error) { return milestonePath(x.st, m) })
	resolve(r, "Milestone.url", func(x *gqlContext, m *state.Milestone) (any, error) {
		p, err := milestonePath(x.st, m)
		if err != nil {
			return nil, err
		}
		return x.webURL(p), nil
	})

	objectType(r, func(*state.Comment) string { return "IssueComment" })
	resolve(r, "IssueComment.id", func(_ *gqlContext, c *state.Comment) (any, error) { return c.NodeID, nil })
	resolve(r, "IssueComment.databaseId", func(_ *gqlContext, c *state.Comment) (any, error) { return c.ID, nil })
	resolve(r, "IssueComment.body", func(_ *gqlContext, c *state.Comment) (any, error) { return c.Body, nil })
	resolve(r, "IssueComment.author", func(_ *gqlContext, c *state.Comment) (any, error) { return c.User, nil })
	resolve(r, "IssueComment.authorAssociation", func(_ *gqlContext, c *state.Comment) (any, error) {
		return state.Association(c.User, c.Issue.Repo), nil
	})
	resolve(r, "IssueComment.createdAt", func(_ *gqlContext, c *state.Comment) (any, error) { return c.CreatedAt, nil })
	resolve(r, "IssueComment.updatedAt", func(_ *gqlContext, c *state.Comment) (any, error) { return c.UpdatedAt, nil })
	resolve(r, "IssueComment.issue", func(_ *gqlContext, c *state.Comment) (any, error) { return c.Issue, nil })
	resolve(r, "IssueComment.repository", func(_ *gqlContext, c *state.Comment) (any, error) { return c.Issue.Repo, nil })
	resolve(r, "IssueComment.url", func(x *gqlContext, c *state.Comment) (any, error) {
		return x.webURL(fmt.Sprintf("%s#issuecomment-%d", wire.IssuePath(c.Issue), c.ID)), nil
	})
	resolve(r, "IssueComment.lastEditedAt", func(_ *gqlContext, c *state.Comment) (any, error) { return c.LastEditedAt, nil })
	// GitHub keeps a comment's creation as the first entry of its edit
	// history once the comment is edited, so an edited comment includes it.
	resolve(r, "IssueComment.includesCreatedEdit", func(_ *gqlContext, c *state.Comment) (any, error) {
		return c.LastEditedAt != nil, nil
	})
	resolve(r, "IssueComment.viewerDidAuthor", func(x *gqlContext, c *state.Comment) (any, error) {
		return x.c.Viewer != nil && c.User == x.c.Viewer, nil
	})
	resolve(r, "IssueComment.resourcePath", func(_ *gqlContext, c *state.Comment) (any, error) {
		return fmt.Sprintf("%s#issuecomment-%d", wire.IssuePath(c.Issue), c.ID), nil
	})

	objectType(r, func(*state.IssueType) string { return "IssueType" })
	resolve(r, "IssueType.id", func(_ *gqlContext, t *state.IssueType) (any, error) { return t.NodeID, nil })
	resolve(r, "IssueType.name", func(_ *gqlContext, t *state.IssueType) (any, error) { return t.Name, nil })
	resolve(r, "IssueType.description", func(_ *gqlContext, t *state.IssueType) (any, error) { return t.Description, nil })
	resolve(r, "IssueType.isEnabled", func(_ *gqlContext, t *state.IssueType) (any, error) { return t.IsEnabled, nil })
	resolve(r, "IssueType.color", func(_ *gqlContext, t *state.IssueType) (any, error) {
		if t.Color == nil {
			return "GRAY", nil // GitHub's default issue type color
		}
		return state.EnumValue(*t.Color), nil
	})

	resolve(r, "SubIssuesSummary.total", func(_ *gqlContext, s *subIssuesSummary) (any, error) { return s.total, nil })
	resolve(r, "SubIssuesSummary.completed", func(_ *gqlContext, s *subIssuesSummary) (any, error) { return s.completed, nil })
	resolve(r, "SubIssuesSummary.percentCompleted", func(_ *gqlContext, s *subIssuesSummary) (any, error) {
		if s.total == 0 {
			return 0, nil
		}
		return s.completed * 100 / s.total, nil
	})
	resolve(r, "IssueDependenciesSummary.blockedBy", func(_ *gqlContext, s *dependenciesSummary) (any, error) {
		return s.blockedBy, nil
	})
	resolve(r, "IssueDependenciesSummary.blocking", func(_ *gqlContext, s *dependenciesSummary) (any, error) {
		return s.blocking, nil
	})
	resolve(r, "IssueDependenciesSummary.totalBlockedBy", func(_ *gqlContext, s *dependenciesSummary) (any, error) {
		return s.totalBlockedBy, nil
	})
	resolve(r, "IssueDependenciesSummary.totalBlocking", func(_ *gqlContext, s *dependenciesSummary) (any, error) {
		return s.totalBlocking, nil
	})
}

// milestonePath is a milestone's path on github.com.
func milestonePath(st *state.State, m *state.Milestone) (string, error) {
	repo := repoOfMilestone(st, m)
	if repo == nil {
		return "", fmt.Errorf("emulator: milestone %s belongs to no repository", m.NodeID)
	}
	return fmt.Sprintf("/%s/milestone/%d", repo.FullName(), m.Number), nil
}
