package issues

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// An issue write's `project` puts the issue on a board with its field
// values in the same call. The board's fields and options are checked
// before the issue is written (projects.Prepare), so a bad value refuses
// the whole call; a board write that fails after the issue write is a
// partial success whose follow-up is github_update_issue with the same
// `project` alone: it is in the default toolset whatever else is served,
// and, taken as given, it adds the issue (or finds it there) and sets
// what is still missing.

// placeFollowUp is the call that finishes a placement.
func placeFollowUp(owner, repo string, number int, p *projects.Placement) *contract.Repair {
	return &contract.Repair{NextStep: fmt.Sprintf("put #%d on the board with this call; do not repeat the issue write", number),
		Tool: toolkit.NameUpdateIssue, Arguments: UpdateIssueIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number), IssueChanges: IssueChanges{Project: p}}}
}

// placeFailed is the partial success of an issue write whose placement
// failed: what was written stays.
func placeFailed(err error, done string, owner, repo string, number int, p *projects.Placement) *contract.Error {
	reason := err.Error()
	if e := toolkit.MapError(err); e != nil {
		reason = e.Message
	}
	return partialSuccess(fmt.Sprintf("%s, but putting it on project #%d failed (%s)", done, p.ProjectNumber, reason),
		[]string{done}, []string{fmt.Sprintf("put #%d on %s's project #%d with its fields", number, p.Owner, p.ProjectNumber)},
		placeFollowUp(owner, repo, number, p))
}

// projectStep is update_issue's placement, run after the issue's own
// writes.
func (u *update) projectStep(pr *projects.Prepared) step {
	in := u.in
	ref := github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)}
	what := fmt.Sprintf("put #%d on project #%d %q", in.IssueNumber, in.Project.ProjectNumber, pr.Title())
	return step{done: what, todo: what,
		request: fmt.Sprintf("POST /graphql (add #%d to %s's project #%d and set its fields)", in.IssueNumber, in.Project.Owner, in.Project.ProjectNumber),
		run: func(ctx context.Context) error {
			placed, err := pr.Apply(ctx, ref, "")
			if err != nil && placed != nil {
				// On the board, its values not set: finish with the
				// same placement.
				return placeFailed(err, fmt.Sprintf("put #%d on the board", in.IssueNumber), in.Owner, in.Repo, int(in.IssueNumber), in.Project)
			}
			u.placed = placed
			return err
		},
		remaining: func(f *UpdateIssueIn) { f.Project = in.Project },
	}
}

// prepareProject checks update_issue's placement against the board.
func (u *update) prepareProject(ctx context.Context) error {
	in := u.in
	ref := github.IssueRef{Owner: in.Owner, Repo: in.Repo, Number: int(in.IssueNumber)}
	pr, err := projects.Prepare(ctx, u.s.Service, u.c, *in.Project, &ref, "project")
	if err != nil {
		return err
	}
	u.steps = append(u.steps, u.projectStep(pr))
	return nil
}

// withoutProject is the repair for an issue write naming another owner's
// board: the same write without project. The board is out of reach of
// this call: it is routed and authorized by the issue owner's
// credential, and github_update_project_item, routed by the board's
// owner, takes only that owner's issues (another owner's item by the
// item_id a board listing gives).
func withoutProject(in UpdateIssueIn) contract.Repair {
	in.Project = nil
	return contract.Repair{NextStep: "make the issue's changes without project; a board of another owner than the issue's cannot be reached from this call",
		Tool: toolkit.NameUpdateIssue, Arguments: in}
}
