package issues

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// creatorRefusal refuses an issue another user opened, under the creator
// scope, pointing at a search for the allowed user's issues.
func (s *Tools) creatorRefusal(owner, repo string, number int) *contract.Error {
	e := contract.Errorf(contract.CodeIssueCreatorNotAllowed,
		"issue #%d was not opened by %s; this deployment only works on that user's issues", number, s.AllowedIssueCreator)
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "work on an issue " + s.AllowedIssueCreator + " opened instead; this search lists them",
		Tool: core.NameSearchIssues, Arguments: SearchIssuesIn{Owner: owner, Repo: repo, Author: s.AllowedIssueCreator}})
}
