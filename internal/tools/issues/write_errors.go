package issues

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// getIssueRepair re-reads an issue: the repair for a conflict and for a
// write whose outcome is not known.
func getIssueRepair(owner, repo string, number int, step string) *contract.Repair {
	return &contract.Repair{NextStep: step, Tool: toolkit.NameGetIssue,
		Arguments: GetIssueIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number)}}
}

// unknownName builds the label_not_found / milestone_not_found /
// assignee_not_found / issue_type_not_found refusal, which is always made before any write.
func unknownName(code contract.Code, field, kind, owner, repo, msg string, matches []string) *contract.Error {
	e := contract.Errorf(code, "%s; nothing was written", msg).WithField(field, "not found in "+owner+"/"+repo)
	if len(matches) > 0 {
		e.Details.Value = matches
	}
	e.Settlement = contract.NotStarted
	step := "list the repository's " + strings.ReplaceAll(kind, "_", " ") + " and call again with one of them"
	if len(matches) > 0 {
		step = "call again with one of details.value, or list the repository's " + strings.ReplaceAll(kind, "_", " ")
	}
	return e.WithRepair(contract.Repair{NextStep: step, Tool: toolkit.NameListRepoMetadata,
		Arguments: ListRepoMetadataIn{Owner: owner, Repo: repo, Kind: MetadataKind(kind)}})
}

// unknownLabels refuses names the repository lacks, with close matches
// from its label list. The list is read only on this error path.
func unknownLabels(ctx context.Context, c *github.Client, owner, repo, field string, names []string, canCreate bool) *contract.Error {
	var all []string
	for page := 1; page <= 10; page++ {
		list, m, err := c.ListLabels(ctx, owner, repo, gh.ListOptions{Page: page, PerPage: 100})
		if err != nil {
			break // the refusal stands without suggestions
		}
		for _, l := range list {
			all = append(all, l.GetName())
		}
		if m.NextPage == 0 {
			break
		}
	}
	var matches []string
	for _, n := range names {
		for _, m := range toolkit.CloseMatches(n, all) {
			if !containsFold(matches, m) {
				matches = append(matches, m)
			}
		}
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	e := unknownName(contract.CodeLabelNotFound, field, "labels", owner, repo,
		"label "+strings.Join(quoted, ", ")+" does not exist in "+owner+"/"+repo, matches)
	if canCreate {
		e.Repair.Alternative = "to create it, call again with labels.create_missing: true"
	}
	return e
}

// refusedField turns GitHub's 422 on a named field into the specific
// unknown_* code; other errors pass through mapped.
func refusedField(err error, owner, repo string) *contract.Error {
	e := toolkit.MapError(err)
	var ge *github.Error
	if e == nil || !errors.As(err, &ge) || ge.Code != github.ValidationFailed {
		return e
	}
	for _, f := range ge.Fields {
		var u *contract.Error
		switch f.Field {
		case "milestone":
			u = unknownName(contract.CodeMilestoneNotFound, "milestone", "milestones", owner, repo, "GitHub refused the milestone", nil)
		case "type":
			u = unknownName(contract.CodeIssueTypeNotFound, "type", "issue_types", owner, repo, "GitHub refused the issue type", nil)
		case "assignees", "assignee":
			u = unknownName(contract.CodeAssigneeNotFound, "assignees", "assignees", owner, repo, "GitHub refused an assignee", nil)
		default:
			continue
		}
		u.Settlement = e.Settlement
		return u
	}
	return e
}

// partialSuccess reports a write that was applied in part.
func partialSuccess(msg string, applied, notApplied []string, followUp *contract.Repair) *contract.Error {
	e := contract.Errorf(contract.CodePartialSuccess, "%s", msg)
	e.Details = &contract.Details{Applied: applied, NotApplied: notApplied}
	e.Settlement = contract.RemoteSuccessKnown
	e.FollowUp = followUp
	return e
}
