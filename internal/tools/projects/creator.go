package projects

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// authorSearch is github_search_issues' arguments for one author's
// issues (the issues package, which owns the type, imports this one).
type authorSearch struct {
	Owner  string `json:"owner"`
	Repo   string `json:"repo,omitempty"`
	Author string `json:"author"`
}

// creatorRefusal refuses an item of an issue another user opened, under
// the creator scope ([toolkit.Service.AllowedIssueCreator]), as
// github_get_issue refuses the issue itself, pointing at a search for
// the allowed user's issues.
func (s *Tools) creatorRefusal(field string, issue github.IssueRef) *contract.Error {
	e := refuse(contract.CodeIssueCreatorNotAllowed, field, "opened by another user",
		"%s/%s#%d was not opened by %s; this deployment only works on that user's issues; nothing was read or written on the board",
		issue.Owner, issue.Repo, issue.Number, s.AllowedIssueCreator)
	return e.WithRepair(contract.Repair{NextStep: "work on an issue " + s.AllowedIssueCreator + " opened instead; this search lists them",
		Tool: toolkit.NameSearchIssues, Arguments: authorSearch{Owner: issue.Owner, Repo: issue.Repo, Author: s.AllowedIssueCreator}})
}

// withheldIssue reports whether the creator scope keeps an item's row
// out: an issue another user opened. Pull requests and drafts are no
// issues and pass.
func (s *Tools) withheldIssue(it *github.ProjectItem) bool {
	return it.Type == "ISSUE" && !s.CreatorAllowed(it.Author)
}

// unreadable reports whether an item holds an issue or pull request of a
// repository the caller may not read ([caller.Identity.CanRead]). A board
// is its owner's, but its items may come from any repository: a row of
// one outside the caller's grant would read it. Drafts and items whose
// content the credential cannot see name no repository.
func unreadable(ctx context.Context, it *github.ProjectItem) bool {
	if it.Repo == "" {
		return false
	}
	owner, repo, ok := strings.Cut(it.Repo, "/")
	return !ok || !caller.From(ctx).CanRead(owner, repo)
}

// grantRefusal refuses an item of a repository the caller may not read,
// without naming the repository.
func grantRefusal(field string) *contract.Error {
	e := refuse(contract.CodeInsufficientScope, field, "in a repository this client may not read",
		"the item holds an issue or pull request of a repository this client may not read; nothing was read or written on the board")
	return e.WithRepair(contract.Repair{NextStep: "work on an item of a repository this client may read; " + NameListProjectItems + " lists only those"})
}
