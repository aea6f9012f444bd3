// Package pullrequests is the pull_requests toolset: a pull request's review
// threads, answered, resolved and unresolved. It is opt-in
// (--toolsets pull_requests); listing the threads is in the default set
// (github_list_issue_items' review_threads collection).
package pullrequests

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Toolset is this toolset's name.
const Toolset = "pull_requests"

// Tools builds the pull request tools over a Service.
type Tools struct{ *toolkit.Service }

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{s}
	return []tooldef.Spec{t.UpdateReviewThread()}
}

// maxThreadPages bounds how many pages of 100 threads a comment_id is
// looked for in.
const maxThreadPages = 10

// findThread reads the thread in.ThreadID names, or the one holding
// review comment in.CommentID, and refuses one that is not on the pull
// request named: credentials are chosen by owner, so a thread elsewhere
// must not be acted on under this repository's name.
func findThread(ctx context.Context, c *github.Client, in UpdateReviewThreadIn) (*github.ReviewThread, error) {
	pull := int(in.Pull)
	if in.ThreadID != "" {
		t, err := c.GetReviewThread(ctx, in.ThreadID)
		if err != nil {
			return nil, toolkit.NotStarted(err)
		}
		if t == nil || !strings.EqualFold(t.Repo, in.Owner+"/"+in.Repo) || t.Pull != pull {
			return nil, notOnPull(in, "thread_id", "thread_id is not a review thread of %s/%s#%d (or does not exist); nothing was written")
		}
		return t, nil
	}
	after := ""
	for range maxThreadPages {
		page, err := c.ListReviewThreads(ctx, in.Owner, in.Repo, pull, toolkit.MaxPageSize, after)
		if err != nil {
			return nil, toolkit.NotStarted(toolkit.NotFoundIssue(err, in.Owner, in.Repo, pull))
		}
		if !page.IsPull {
			e := issues.NotAPullRequest(in.Owner, in.Repo, pull, "pull")
			e.Settlement = contract.NotStarted
			return nil, e
		}
		for _, t := range page.Threads {
			for _, cm := range t.Comments {
				if cm.ID == int64(in.CommentID) {
					return t, nil
				}
			}
		}
		if after = page.Next; after == "" {
			break
		}
	}
	return nil, notOnPull(in, "comment_id", "comment_id is not a review comment on %s/%s#%d (or does not exist); nothing was written")
}

// notOnPull refuses a thread or comment outside the pull request named,
// with the pull request's threads as the repair.
func notOnPull(in UpdateReviewThreadIn, field, format string) *contract.Error {
	e := contract.Errorf(contract.CodeThreadNotOnPull, format, in.Owner, in.Repo, in.Pull).WithField(field, "not on this pull request")
	e.Settlement = contract.NotStarted
	return e.WithRepair(listThreads(in))
}

// listThreads is the repair that reads the pull request's threads.
func listThreads(in UpdateReviewThreadIn) contract.Repair {
	return contract.Repair{NextStep: "list the pull request's review threads and use a thread_id from its rows",
		Tool: toolkit.NameListIssueItems, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": int(in.Pull), "collection": "review_threads"}}
}
