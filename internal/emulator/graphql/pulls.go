package graphql

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// pullRequestsArgs are Repository.pullRequests' arguments: the issue
// list's, and the branch names gh pr list filters by.
type pullRequestsArgs struct {
	issuesArgs
	BaseRefName *string `json:"baseRefName"`
	HeadRefName *string `json:"headRefName"`
}

// reviewsArgs are PullRequest.reviews' filters besides paging.
type reviewsArgs struct {
	connArgs
	States []string `json:"states"`
	Author *string  `json:"author"`
}

// reviewRequest is one pending request for a review, of a user or a team.
type reviewRequest struct {
	pull     *state.Issue
	reviewer any // *Account or *Team
}

// pullCommit is a commit as one of a pull request's commits.
type pullCommit struct {
	pull   *state.Issue
	commit *state.GitCommit
}

// errNoBranches answers for a pull request created without git data
// (only tests build such); GitHub has none.
var errNoBranches = errors.New("emulator: this pull request has no branches")

// pullOf is a pull request's git side.
func pullOf(is *state.Issue) (*state.PullRequest, error) {
	if is.Pull == nil {
		return nil, errNoBranches
	}
	return is.Pull, nil
}

// pullField registers a PullRequest field that reads its git side.
func pullField(r *resolvers, name string, fn func(x *gqlContext, is *state.Issue, p *state.PullRequest) (any, error)) {
	resolve(r, "PullRequest."+name, func(x *gqlContext, is *state.Issue) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		return fn(x, is, p)
	})
}

func registerPulls(r *resolvers) {
	resolveArgs(r, "Repository.pullRequests", func(x *gqlContext, repo *state.Repo, a pullRequestsArgs) (any, error) {
		list := filterIssues(repo, true, a.issuesArgs)
		list = slices.DeleteFunc(list, func(is *state.Issue) bool {
			p := is.Pull
			return p != nil && (a.BaseRefName != nil && p.BaseRef != *a.BaseRefName ||
				a.HeadRefName != nil && p.HeadRef != *a.HeadRefName)
		})
		return pageOf(x, list, a.connArgs)
	})

	// fullDatabaseId is a BigInt, which GitHub writes as a string.
	resolve(r, "PullRequest.fullDatabaseId", func(_ *gqlContext, is *state.Issue) (any, error) { return strconv.FormatInt(is.ID, 10), nil })
	pullField(r, "isDraft", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.Draft, nil })
	pullField(r, "headRefName", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.HeadRef, nil })
	pullField(r, "baseRefName", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.BaseRef, nil })
	pullField(r, "headRefOid", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.Head.SHA, nil })
	pullField(r, "baseRefOid", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.Base.SHA, nil })
	pullField(r, "headRef", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) {
		if p.HeadRepo.Git.Branches[p.HeadRef] == nil {
			return nil, nil // the head branch was deleted
		}
		return &gitRef{repo: p.HeadRepo, name: p.HeadRef}, nil
	})
	pullField(r, "baseRef", func(_ *gqlContext, is *state.Issue, p *state.PullRequest) (any, error) {
		return &gitRef{repo: is.Repo, name: p.BaseRef}, nil
	})
	pullField(r, "headRepository", func(x *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) {
		if !x.canRead(p.HeadRepo) {
			return nil, nil
		}
		return p.HeadRepo, nil
	})
	pullField(r, "headRepositoryOwner", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.HeadRepo.Owner, nil })
	resolve(r, "PullRequest.baseRepository", func(_ *gqlContext, is *state.Issue) (any, error) { return is.Repo, nil })
	pullField(r, "isCrossRepository", func(_ *gqlContext, is *state.Issue, p *state.PullRequest) (any, error) {
		return p.HeadRepo != is.Repo, nil
	})
	pullField(r, "maintainerCanModify", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) {
		return p.MaintainerCanModify, nil
	})
	// Auto-merge is never enabled in the emulator.
	resolve(r, "PullRequest.autoMergeRequest", func(_ *gqlContext, _ *state.Issue) (any, error) { return (*autoMerge)(nil), nil })
	pullField(r, "mergeable", func(_ *gqlContext, is *state.Issue, p *state.PullRequest) (any, error) {
		switch {
		case is.State != "open":
			return "UNKNOWN", nil
		case p.Conflicts(is.Repo):
			return "CONFLICTING", nil
		}
		return "MERGEABLE", nil
	})
	pullField(r, "mergeStateStatus", func(_ *gqlContext, is *state.Issue, p *state.PullRequest) (any, error) {
		return state.EnumValue(p.MergeState(is)), nil
	})
	pullField(r, "reviewDecision", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.ReviewDecision(), nil })
	pullField(r, "mergedBy", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return p.MergedBy, nil })
	pullField(r, "mergeCommit", func(_ *gqlContext, is *state.Issue, p *state.PullRequest) (any, error) {
		if p.MergeCommit == nil {
			return nil, nil
		}
		return &commitRef{repo: is.Repo, commit: p.MergeCommit}, nil
	})
	resolve(r, "PullRequest.potentialMergeCommit", func(_ *gqlContext, _ *state.Issue) (any, error) { return (*commitRef)(nil), nil })
	pullField(r, "additions", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) {
		n := 0
		for _, fc := range p.Changes() {
			n += fc.Additions
		}
		return n, nil
	})
	pullField(r, "deletions", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) {
		n := 0
		for _, fc := range p.Changes() {
			n += fc.Deletions
		}
		return n, nil
	})
	pullField(r, "changedFiles", func(_ *gqlContext, _ *state.Issue, p *state.PullRequest) (any, error) { return len(p.Changes()), nil })
	resolveArgs(r, "PullRequest.files", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		changes := p.Changes()
		list := make([]*state.FileChange, len(changes))
		for i := range changes {
			list[i] = &changes[i]
		}
		return pageOf(x, list, a)
	})
	resolveArgs(r, "PullRequest.commits", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		var list []*pullCommit
		for _, c := range p.Commits() {
			list = append(list, &pullCommit{pull: is, commit: c})
		}
		return pageOf(x, list, a)
	})
	resolveArgs(r, "PullRequest.reviews", func(x *gqlContext, is *state.Issue, a reviewsArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		list := slices.DeleteFunc(p.VisibleReviews(x.c.Viewer), func(rv *state.Review) bool {
			return len(a.States) > 0 && !slices.Contains(a.States, rv.State) ||
				a.Author != nil && !strings.EqualFold(rv.User.Login, *a.Author)
		})
		return pageOf(x, list, a.connArgs)
	})
	resolveArgs(r, "PullRequest.latestReviews", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		return pageOf(x, p.LatestReviews(), a)
	})
	resolveArgs(r, "PullRequest.reviewRequests", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		var list []*reviewRequest
		for _, u := range p.RequestedReviewers {
			list = append(list, &reviewRequest{pull: is, reviewer: u})
		}
		for _, t := range p.RequestedTeams {
			list = append(list, &reviewRequest{pull: is, reviewer: t})
		}
		return pageOf(x, list, a)
	})
	resolveArgs(r, "PullRequest.reviewThreads", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		p, err := pullOf(is)
		if err != nil {
			return nil, err
		}
		return pageOf(x, p.Threads, a)
	})
	resolveArgs(r, "PullRequest.closingIssuesReferences", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		return pageOf(x, x.readable(state.ClosingIssues(is)), a)
	})

	objectType(r, func(*reviewRequest) string { return "ReviewRequest" })
	resolve(r, "ReviewRequest.requestedReviewer", func(_ *gqlContext, rr *reviewRequest) (any, error) { return rr.reviewer, nil })
	resolve(r, "ReviewRequest.pullRequest", func(_ *gqlContext, rr *reviewRequest) (any, error) { return rr.pull, nil })
	resolve(r, "ReviewRequest.asCodeOwner", func(_ *gqlContext, _ *reviewRequest) (any, error) { return false, nil })

	resolve(r, "Team.combinedSlug", func(_ *gqlContext, t *state.Team) (any, error) { return t.Org.Login + "/" + t.Slug, nil })

	objectType(r, func(*autoMerge) string { return "AutoMergeRequest" })
	resolve(r, "AutoMergeRequest.authorEmail", func(_ *gqlContext, _ *autoMerge) (any, error) { return nil, nil })
	resolve(r, "AutoMergeRequest.commitBody", func(_ *gqlContext, _ *autoMerge) (any, error) { return nil, nil })
	resolve(r, "AutoMergeRequest.commitHeadline", func(_ *gqlContext, _ *autoMerge) (any, error) { return nil, nil })
	resolve(r, "AutoMergeRequest.mergeMethod", func(_ *gqlContext, _ *autoMerge) (any, error) { return "MERGE", nil })
	resolve(r, "AutoMergeRequest.enabledAt", func(_ *gqlContext, _ *autoMerge) (any, error) { return nil, nil })
	resolve(r, "AutoMergeRequest.enabledBy", func(_ *gqlContext, _ *autoMerge) (any, error) { return nil, nil })

	objectType(r, func(*state.FileChange) string { return "PullRequestChangedFile" })
	resolve(r, "PullRequestChangedFile.path", func(_ *gqlContext, fc *state.FileChange) (any, error) { return fc.Path, nil })
	resolve(r, "PullRequestChangedFile.additions", func(_ *gqlContext, fc *state.FileChange) (any, error) { return fc.Additions, nil })
	resolve(r, "PullRequestChangedFile.deletions", func(_ *gqlContext, fc *state.FileChange) (any, error) { return fc.Deletions, nil })
	resolve(r, "PullRequestChangedFile.changeType", func(_ *gqlContext, fc *state.FileChange) (any, error) {
		return map[string]string{"added": "ADDED", "removed": "DELETED", "modified": "MODIFIED"}[fc.Status], nil
	})

	objectType(r, func(*pullCommit) string { return "PullRequestCommit" })
	resolve(r, "PullRequestCommit.id", func(_ *gqlContext, pc *pullCommit) (any, error) {
		return state.NodeID("PURC", pc.pull.ID) + pc.commit.SHA[:8], nil
	})
	resolve(r, "PullRequestCommit.commit", func(_ *gqlContext, pc *pullCommit) (any, error) {
		return &commitRef{repo: pc.pull.Repo, commit: pc.commit}, nil
	})
	resolve(r, "PullRequestCommit.pullRequest", func(_ *gqlContext, pc *pullCommit) (any, error) { return pc.pull, nil })
	resolve(r, "PullRequestCommit.url", func(x *gqlContext, pc *pullCommit) (any, error) {
		return x.webURL(fmt.Sprintf("%s/commits/%s", wire.IssuePath(pc.pull), pc.commit.SHA)), nil
	})

	registerReviews(r)
	registerUpdatable(r)
	registerMinimizable(r)
	registerCommits(r)
	registerDerivedIDs(r)
	registerPullMutations(r)
	registerRefs(r)
	for _, ct := range []struct{ conn, edge string }{
		{"PullRequestCommitConnection", "PullRequestCommitEdge"},
		{"PullRequestReviewConnection", "PullRequestReviewEdge"},
		{"ReviewRequestConnection", "ReviewRequestEdge"},
		{"PullRequestChangedFileConnection", "PullRequestChangedFileEdge"},
		{"PullRequestReviewThreadConnection", "PullRequestReviewThreadEdge"},
		{"PullRequestReviewCommentConnection", "PullRequestReviewCommentEdge"},
		{"GitActorConnection", "GitActorEdge"},
	} {
		registerConnectionType(r, ct.conn, ct.edge)
	}
}

// autoMerge is GitHub's AutoMergeRequest, which the emulator never has.
type autoMerge struct{}
