package reports

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// CommitCI is github_report_ci_status's account of one pull request, for
// a caller that already holds the pull request's head SHA (the broker,
// adding CI to an upstream's pull request read): the same states, the same
// failing checks at the same verbosity tiers, read by the commit's SHA
// over REST instead of by the pull request over GraphQL.
//
// Its cost in GitHub calls: two at every tier (the commit's check runs
// and its commit statuses), and for each failing Actions job one more at
// verbosity 2 (the job, for its failed step) and two more at 3 (the job
// and its log). A failing check whose calls do not fit max_api_calls is
// left out and the answer says truncated.

// CommitCIIn asks for one commit's CI.
type CommitCIIn struct {
	Owner, Repo, SHA string
	// Pull is the pull request the commit heads, for FailingCheck.Pull.
	Pull      int
	Verbosity Verbosity
	// LogLines is how many lines of a failing job's log verbosity 3
	// shows; 0: github_report_ci_status's default.
	LogLines LogLines
	// MaxAPICalls bounds the GitHub calls; 0: DefaultCommitCICalls.
	MaxAPICalls int
}

// DefaultCommitCICalls is CommitCI's default budget: its two reads and
// the job and log of ten failing jobs.
const DefaultCommitCICalls = 22

// CommitCIOut is one commit's CI.
type CommitCIOut struct {
	Status  CIState `json:"status"`
	HeadSHA string  `json:"head_sha"`
	// ChecksCut says the commit has more check runs or statuses than one
	// page (100) holds: status and failing are those of the first page.
	ChecksCut       bool           `json:"checks_cut,omitempty"`
	Failing         []FailingCheck `json:"failing,omitempty"`
	APICalls        int            `json:"api_calls"`
	Truncated       bool           `json:"truncated,omitempty"`
	TruncatedReason CIStop         `json:"truncated_reason,omitempty"`
}

// CommitCI reports one commit's CI with the caller's read credential for
// in.Owner. A failure to read the checks at all is an error (a
// *contract.Error after [toolkit.MapError]); a failing job whose detail GitHub
// will not give is reported with the reason, as the report does.
func (s *Tools) CommitCI(ctx context.Context, in CommitCIIn) (CommitCIOut, error) {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return CommitCIOut{}, e
	}
	if !github.CheckSHA(in.SHA) {
		return CommitCIOut{}, errors.New("the head SHA is not a commit SHA")
	}
	if in.LogLines == 0 {
		in.LogLines = defaultLogLines
	}
	if in.MaxAPICalls <= 0 {
		in.MaxAPICalls = DefaultCommitCICalls
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return CommitCIOut{}, err
	}
	v := in.Verbosity
	r := &ciRun{run: s.newRun(ctx, c, in.MaxAPICalls, "checks"), c: c, pos: &ciResume{},
		in:            CIStatusIn{Owner: in.Owner, Repo: in.Repo, Pull: toolkit.IssueNumber(in.Pull), Verbosity: &v, LogLines: in.LogLines, MaxAPICalls: MaxAPICalls(in.MaxAPICalls)},
		reportedPulls: map[int]bool{}, reportedChecks: map[string]bool{}}
	out := CommitCIOut{HeadSHA: in.SHA}

	p := github.PullChecks{Number: in.Pull, HeadSHA: in.SHA}
	for _, read := range []func(context.Context, string, string, string) ([]github.Check, bool, github.Meta, error){c.CommitCheckRuns, c.CommitStatuses} {
		err := r.run.Call(r.run.Context(), func(ctx context.Context) (github.Meta, error) {
			checks, cut, m, err := read(ctx, in.Owner, in.Repo, in.SHA)
			p.Checks, p.ChecksCut = append(p.Checks, checks...), p.ChecksCut || cut
			return m, err
		})
		if err != nil {
			if errors.Is(err, fanout.ErrStopped) {
				return CommitCIOut{}, fmt.Errorf("the checks were not read: %s", r.run.Stopped())
			}
			return CommitCIOut{}, err
		}
	}
	caller.ReachFrom(r.run.Context()).Read(in.Owner, in.Repo)
	status, failing := classify(p)
	out.Status, out.ChecksCut = status, p.ChecksCut
	if in.Verbosity == 0 {
		failing = nil // verbosity 0 tells of no check
	}
	left := in.MaxAPICalls - r.run.Calls()
	short := false
	var todo []FailingCheck
	for _, ch := range failing {
		f := failingCheck(in.Pull, ch)
		cost := r.cost(f)
		if short || cost > left {
			short = true // the checks after it wait too: the order stays GitHub's
			continue
		}
		left -= cost
		todo = append(todo, f)
	}
	if err := r.run.Each(len(todo), func(ctx context.Context, i int) {
		f := todo[i]
		if r.detail(ctx, &f) {
			r.add(f)
		}
	}); err != nil {
		return CommitCIOut{}, err
	}
	out.Failing = r.failing
	slices.SortFunc(out.Failing, func(a, b FailingCheck) int {
		return cmp.Or(cmp.Compare(a.Workflow, b.Workflow), cmp.Compare(a.Job, b.Job), cmp.Compare(a.JobID, b.JobID))
	})
	out.APICalls = r.run.Calls()
	reason := r.run.Stopped()
	if reason == "" && short {
		reason = fanout.MaxAPICalls
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, CIStop(reason)
	}
	return out, nil
}
