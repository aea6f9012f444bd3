package issues

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// createAllowed refuses, under the creator scope, a create by a
// credential whose user is not the allowed creator, before any write:
// the issue it opened would be one this deployment then refuses to read
// or change. The credential's user is read once (GET /user, answered
// from the conditional-request cache after the first time); when it
// cannot be read, the create is refused too.
func (s *Tools) createAllowed(ctx context.Context, c *github.Client, in CreateIssueIn) error {
	if s.AllowedIssueCreator == "" {
		return nil
	}
	me, _, err := c.Viewer(ctx)
	if err != nil {
		e := toolkit.MapError(err)
		if e == nil {
			return err
		}
		e.Message = "this deployment only opens issues as " + s.AllowedIssueCreator +
			", and the credential's user could not be read to check it (" + e.Message + "); nothing was written"
		e.Settlement = contract.NotStarted
		return e
	}
	if s.CreatorAllowed(me.GetLogin()) {
		return nil
	}
	e := contract.Errorf(contract.CodeIssueCreatorNotAllowed,
		"this deployment only works on issues opened by %s, and its credential for %s acts as %s: the issue would be one it may not touch; nothing was written",
		s.AllowedIssueCreator, in.Owner, me.GetLogin())
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "leave opening this issue to a person, or ask the operator for a credential of " + s.AllowedIssueCreator})
}

// creatorRefusal refuses an issue another user opened, under the creator
// scope, pointing at a search for the allowed user's issues.
func (s *Tools) creatorRefusal(owner, repo string, number int) *contract.Error {
	e := contract.Errorf(contract.CodeIssueCreatorNotAllowed,
		"issue #%d was not opened by %s; this deployment only works on that user's issues", number, s.AllowedIssueCreator)
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "work on an issue " + s.AllowedIssueCreator + " opened instead; this search lists them",
		Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: owner, Repo: repo, Author: s.AllowedIssueCreator}})
}
