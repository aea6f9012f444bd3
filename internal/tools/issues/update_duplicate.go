package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// duplicateStep closes the issue as a duplicate of in.DuplicateOf through
// GitHub's closeIssue mutation, so GitHub itself records which issue it
// duplicates ("marked this as a duplicate of #N"); a PATCH with
// state_reason duplicate records only the reason.
func (u *update) duplicateStep() step {
	in := u.in
	original := in.originalName()
	return step{
		done: "closed as a duplicate of " + original, todo: "close as a duplicate of " + original,
		request: "POST /graphql (mutation closeIssue, stateReason DUPLICATE, duplicateIssueId of " + original + ")",
		predict: func(is *gh.Issue) { is.State, is.StateReason = gh.Ptr("closed"), gh.Ptr("duplicate") },
		run: func(ctx context.Context) error {
			owner, repo := in.duplicateOf()
			state, reason, err := u.c.CloseAsDuplicate(ctx, github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)},
				github.IssueRef{Owner: owner, Repo: repo, Number: int(in.DuplicateOf)})
			if err != nil {
				return duplicateFailed(err, in)
			}
			if u.after != nil {
				u.after.State, u.after.StateReason = gh.Ptr(strings.ToLower(state)), gh.Ptr(strings.ToLower(reason))
			}
			u.duplicated = true
			return nil
		},
		remaining: func(f *UpdateIssueIn) { f.DuplicateOf, f.DuplicateOfRepo = in.DuplicateOf, in.DuplicateOfRepo },
	}
}

// originalName names the original for a message: #N, or owner/name#N in
// another repository.
func (in UpdateIssueIn) originalName() string {
	if in.duplicateSameRepo() {
		return fmt.Sprintf("#%d", in.DuplicateOf)
	}
	owner, repo := in.duplicateOf()
	return fmt.Sprintf("%s/%s#%d", owner, repo, in.DuplicateOf)
}

// duplicateFailed names duplicate_of when the original is not there: the
// issue being closed was read first, so a missing issue is the original.
func duplicateFailed(err error, in UpdateIssueIn) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeIssueNotFound
	owner, repo := in.duplicateOf()
	e.Message = fmt.Sprintf("%s/%s#%d, named by duplicate_of, does not exist or is not visible to this credential; nothing was written", owner, repo, in.DuplicateOf)
	e.WithField("duplicate_of", "no such issue in "+owner+"/"+repo)
	e.Repair = &contract.Repair{NextStep: "search for the original issue, then call again with its number",
		Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: owner, Repo: repo, State: "all"}}
	return e
}
