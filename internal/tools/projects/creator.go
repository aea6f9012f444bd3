package projects

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// authorSearch is github_search_issues' arguments for one author's
// issues (the issues package, which owns the type, imports this one).
type authorSearch struct {
	Owner  string `json:"owner"`
	Repo   string `json:"repo,omitempty"`
	Author string `json:"author"`
}

// creatorRefusal refuses an item of an issue another user opened, under
// the creator scope (core.Service.AllowedIssueCreator), as
// github_get_issue refuses the issue itself, pointing at a search for
// the allowed user's issues.
func (s *Tools) creatorRefusal(field string, issue github.IssueRef) *contract.Error {
	e := refuse(contract.CodeIssueCreatorNotAllowed, field, "opened by another user",
		"%s/%s#%d was not opened by %s; this deployment only works on that user's issues; nothing was read or written on the board",
		issue.Owner, issue.Repo, issue.Number, s.AllowedIssueCreator)
	return e.WithRepair(contract.Repair{NextStep: "work on an issue " + s.AllowedIssueCreator + " opened instead; this search lists them",
		Tool: core.NameSearchIssues, Arguments: authorSearch{Owner: issue.Owner, Repo: issue.Repo, Author: s.AllowedIssueCreator}})
}

// withheldIssue reports whether the creator scope keeps an item's row
// out: an issue another user opened. Pull requests and drafts are no
// issues and pass.
func (s *Tools) withheldIssue(it *github.ProjectItem) bool {
	return it.Type == "ISSUE" && !s.CreatorAllowed(it.Author)
}
