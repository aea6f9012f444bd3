package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

type stateReasonArgs struct {
	EnableDuplicate bool `json:"enableDuplicate"`
}

// subIssuesSummary is GitHub's SubIssuesSummary.
type subIssuesSummary struct{ total, completed int }

// dependenciesSummary is GitHub's IssueDependenciesSummary.
type dependenciesSummary struct{ blockedBy, blocking, totalBlockedBy, totalBlocking int }

// registerIssues serves Issue and PullRequest, which share a model: the
// fields both types have are registered on both.
func registerIssues(r *resolvers) {
	objectType(r, func(is *state.Issue) string {
		if is.IsPull {
			return "PullRequest"
		}
		return "Issue"
	})
	for _, t := range []string{"Issue", "PullRequest"} {
		resolve(r, t+".id", func(_ *gqlContext, is *state.Issue) (any, error) { return is.NodeID, nil })
		resolve(r, t+".databaseId", func(_ *gqlContext, is *state.Issue) (any, error) { return is.ID, nil })
		resolve(r, t+".number", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Number, nil })
		resolve(r, t+".title", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Title, nil })
		resolve(r, t+".body", func(_ *gqlContext, is *state.Issue) (any, error) {
			if is.Body == nil {
				return "", nil // GraphQL's body is non-null: an empty body is ""
			}
			return *is.Body, nil
		})
		resolve(r, t+".url", func(x *gqlContext, is *state.Issue) (any, error) { return x.webURL(wire.IssuePath(is)), nil })
		resolve(r, t+".resourcePath", func(_ *gqlContext, is *state.Issue) (any, error) { return wire.IssuePath(is), nil })
		resolve(r, t+".createdAt", func(_ *gqlContext, is *state.Issue) (any, error) { return is.CreatedAt, nil })
		resolve(r, t+".updatedAt", func(_ *gqlContext, is *state.Issue) (any, error) { return is.UpdatedAt, nil })
		resolve(r, t+".closedAt", func(_ *gqlContext, is *state.Issue) (any, error) { return is.ClosedAt, nil })
		resolve(r, t+".closed", func(_ *gqlContext, is *state.Issue) (any, error) { return is.State == "closed", nil })
		resolve(r, t+".locked", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Locked, nil })
		resolve(r, t+".activeLockReason", func(_ *gqlContext, is *state.Issue) (any, error) {
			if is.ActiveLockReason == nil {
				return nil, nil
			}
			return state.EnumValue(*is.ActiveLockReason), nil
		})
		resolve(r, t+".author", func(_ *gqlContext, is *state.Issue) (any, error) { return is.User, nil })
		resolve(r, t+".authorAssociation", func(_ *gqlContext, is *state.Issue) (any, error) {
			return state.Association(is.User, is.Repo), nil
		})
		resolve(r, t+".milestone", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Milestone, nil })
		resolve(r, t+".repository", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Repo, nil })
		resolveArgs(r, t+".labels", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) { return pageOf(x, is.Labels, a) })
		resolveArgs(r, t+".assignees", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
			return pageOf(x, is.Assignees, a)
		})
		resolveArgs(r, t+".comments", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
			return pageOf(x, is.Comments, a)
		})
	}

	resolve(r, "Issue.state", func(_ *gqlContext, is *state.Issue) (any, error) { return state.EnumValue(is.State), nil })
	resolveArgs(r, "Issue.stateReason", func(_ *gqlContext, is *state.Issue, a stateReasonArgs) (any, error) {
		if is.StateReason == nil {
			return nil, nil
		}
		reason := state.EnumValue(*is.StateReason)
		if reason == "DUPLICATE" && !a.EnableDuplicate {
			// Clients that have not opted in see duplicates as not
			// planned, as GitHub documents for enableDuplicate.
			reason = "NOT_PLANNED"
		}
		return reason, nil
	})
	resolve(r, "Issue.isPinned", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Pinned, nil })
	resolve(r, "Issue.issueType", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Type, nil })
	resolve(r, "Issue.parent", func(x *gqlContext, is *state.Issue) (any, error) {
		if is.Parent == nil || is.Parent.Deleted || !x.canRead(is.Parent.Repo) {
			return nil, nil
		}
		return is.Parent, nil
	})
	resolveArgs(r, "Issue.subIssues", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		return pageOf(x, x.readable(is.SubIssues), a)
	})
	resolveArgs(r, "Issue.blockedBy", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		return pageOf(x, x.readable(is.BlockedBy), a)
	})
	resolveArgs(r, "Issue.blocking", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		return pageOf(x, x.readable(is.Blocking), a)
	})
	resolve(r, "Issue.subIssuesSummary", func(_ *gqlContext, is *state.Issue) (any, error) {
		s := &subIssuesSummary{}
		for _, c := range is.SubIssues {
			if c.Deleted {
				continue
			}
			s.total++
			if c.State == "closed" {
				s.completed++
			}
		}
		return s, nil
	})
	resolve(r, "Issue.issueDependenciesSummary", func(_ *gqlContext, is *state.Issue) (any, error) {
		s := &dependenciesSummary{totalBlockedBy: len(is.BlockedBy), totalBlocking: len(is.Blocking)}
		for _, b := range is.BlockedBy {
			if b.State == "open" {
				s.blockedBy++
			}
		}
		for _, b := range is.Blocking {
			if b.State == "open" {
				s.blocking++
			}
		}
		return s, nil
	})

	resolve(r, "PullRequest.state", func(_ *gqlContext, is *state.Issue) (any, error) { return pullOrIssueState(is), nil })
	resolve(r, "PullRequest.merged", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Merged, nil })
	resolve(r, "PullRequest.mergedAt", func(_ *gqlContext, is *state.Issue) (any, error) {
		switch {
		case !is.Merged:
			return nil, nil
		case is.Pull != nil && is.Pull.MergedAt != nil:
			return is.Pull.MergedAt, nil
		}
		return is.ClosedAt, nil
	})
}

// readable drops deleted issues and those in repositories the caller
// cannot see, as GitHub leaves them out of sub-issue and dependency lists.
func (x *gqlContext) readable(list []*state.Issue) []*state.Issue {
	out := make([]*state.Issue, 0, len(list))
	for _, is := range list {
		if !is.Deleted && x.canRead(is.Repo) {
			out = append(out, is)
		}
	}
	return out
}
