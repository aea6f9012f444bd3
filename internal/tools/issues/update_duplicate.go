package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/core"
	gh "github.com/google/go-github/v88/github"
)

// duplicateStep closes the issue as a duplicate of in.DuplicateOf through
// GitHub's closeIssue mutation, so GitHub itself records which issue it
// duplicates ("marked this as a duplicate of #N"); a PATCH with
// state_reason duplicate records only the reason.
func (u *update) duplicateStep() step {
	in := u.in
	return step{
		done: fmt.Sprintf("closed as a duplicate of #%d", in.DuplicateOf), todo: fmt.Sprintf("close as a duplicate of #%d", in.DuplicateOf),
		run: func(ctx context.Context) error {
			state, reason, err := u.c.CloseAsDuplicate(ctx, github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)},
				github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: int(in.DuplicateOf)})
			if err != nil {
				return duplicateFailed(err, in)
			}
			if u.after != nil {
				u.after.State, u.after.StateReason = gh.Ptr(strings.ToLower(state)), gh.Ptr(strings.ToLower(reason))
			}
			u.duplicated = true
			return nil
		},
		remaining: func(f *UpdateIssueIn) { f.DuplicateOf = in.DuplicateOf },
	}
}

// duplicateFailed names duplicate_of when the original is not there: the
// issue being closed was read first, so a missing issue is the original.
func duplicateFailed(err error, in UpdateIssueIn) error {
	e := core.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeIssueNotFound
	e.Message = fmt.Sprintf("%s/%s#%d, named by duplicate_of, does not exist or is not visible to this credential; nothing was written", in.Owner, in.Repo, in.DuplicateOf)
	e.WithField("duplicate_of", "no such issue in the repository")
	e.Repair = &contract.Repair{NextStep: "search the repository for the original issue, then call again with its number",
		Tool: core.NameSearchIssues, Arguments: SearchIssuesIn{Owner: in.Owner, Repo: in.Repo, State: "all"}}
	return e
}
