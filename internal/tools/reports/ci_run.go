package reports

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// ciResume is where a truncated CI report goes on, in its signed cursor.
// Open pull requests are read a page at a time, oldest first, each with
// its checks in the same GraphQL answer; After is the cursor that page
// starts after. A pull request's row costs nothing once its page is read,
// a failing check's detail may cost calls, so a call stopped by a bound
// has reported some rows and checks of its page and not others: Pulls and
// Checks name those reported, and the next call reads the same page again
// and reports only the rest.
type ciResume struct {
	After  string   `json:"a,omitempty"`
	Pulls  []int    `json:"p,omitempty"`
	Checks []string `json:"c,omitempty"`
}

// ciRun is one call of github_report_ci_status.
type ciRun struct {
	run *fanout.Run
	c   *github.Client
	in  CIStatusIn
	pos *ciResume

	mu      sync.Mutex
	pulls   []CIPull
	failing []FailingCheck
	// reported are the pull requests and checks reported by this call or
	// an earlier one of the same page.
	reportedPulls  map[int]bool
	reportedChecks map[string]bool
	// logBytes is the log text this call has returned, up to logCallBytes.
	logBytes int
	// next is the cursor after the page read, "" on the last page.
	next string
}

// report reads a page of open pull requests (or the one named) with their
// checks, reports each not yet reported, and fetches the detail the
// verbosity asks for of each failing check: only failing Actions jobs
// cost calls beyond the page.
func (r *ciRun) report() error {
	r.reportedPulls, r.reportedChecks = map[int]bool{}, map[string]bool{}
	for _, n := range r.pos.Pulls {
		r.reportedPulls[n] = true
	}
	for _, k := range r.pos.Checks {
		r.reportedChecks[k] = true
	}
	page, err := r.list()
	if errors.Is(err, fanout.ErrStopped) || err != nil && r.run.Stopped() != "" {
		return nil
	}
	if err != nil {
		return r.failure(err)
	}
	caller.ReachFrom(r.run.Context()).Read(r.in.Owner, r.in.Repo)
	r.next = page.Next
	// Each failing check's detail costs a known number of calls, so the
	// budget left after the page is shared out before any is spent: a
	// check is started only when all its calls fit. Calls in flight
	// together would otherwise split the budget so that none finished,
	// and the next call would do the same.
	left := int(r.in.MaxAPICalls) - r.run.Calls()
	short := false
	var work [][]FailingCheck
	for _, p := range page.Pulls {
		status, failing := classify(p)
		if !r.reportedPulls[p.Number] {
			r.reportedPulls[p.Number] = true
			r.pulls = append(r.pulls, CIPull{Number: p.Number, Title: cleanTitle(p.Title), URL: p.URL, HeadSHA: p.HeadSHA, Status: status, ChecksCut: p.ChecksCut})
		}
		var todo []FailingCheck
		if r.in.level() == 0 {
			failing = nil // verbosity 0 tells of no check
		}
		for _, ch := range failing {
			f := failingCheck(p.Number, ch)
			if r.reportedChecks[checkKey(f.Pull, f.JobID, f.Job)] {
				continue
			}
			cost := r.cost(f)
			if short || cost > left {
				short = true
				continue
			}
			left -= cost
			todo = append(todo, f)
		}
		// Every pull request of the page is a unit, those with nothing to
		// fetch too, so progress counts pull requests done of the page.
		work = append(work, todo)
	}
	if err := r.run.Each(len(work), func(ctx context.Context, i int) {
		for _, f := range work[i] {
			if !r.detail(ctx, &f) {
				return // the run stopped: the rest of this pull request goes on next call
			}
			r.add(f)
		}
	}); err != nil {
		return err
	}
	if short {
		if len(r.pulls) == 0 && len(r.failing) == 0 {
			return r.tooFewCalls()
		}
		r.run.Stop(fanout.MaxAPICalls)
	}
	return nil
}

// cost is the calls a failing check's detail takes at the verbosity
// asked: the job (2), and its log (3); none for a commit status or
// another app's check run, which have no job.
func (r *ciRun) cost(f FailingCheck) int {
	if f.RunID == 0 {
		return 0
	}
	return max(r.in.level()-1, 0)
}

// tooFewCalls refuses a call whose budget cannot report anything new: the
// page takes one call and the next failing check's detail more than is
// left, so the same call again would never finish the report.
func (r *ciRun) tooFewCalls() error {
	need := 1 + max(r.in.level()-1, 0)
	more := r.in
	more.MaxAPICalls = MaxAPICalls(need)
	msg := fmt.Sprintf("max_api_calls %d is too few to report the next failing check at verbosity %d: it takes %d", r.in.MaxAPICalls, r.in.level(), need)
	return contract.Errorf(contract.CodeInvalidField, "%s", msg).WithField("max_api_calls", msg).
		WithRepair(contract.Repair{NextStep: "call again with enough calls for one check", Tool: toolkit.NameReportCIStatus, Arguments: more})
}

// list reads the page: the pull request named, or up to max_pulls open
// ones after the cursor's position. It is one call.
func (r *ciRun) list() (github.PullChecksPage, error) {
	var page github.PullChecksPage
	err := r.run.Call(r.run.Context(), func(ctx context.Context) (github.Meta, error) {
		if r.in.Pull != 0 {
			p, err := r.c.GetPullChecks(ctx, r.in.Owner, r.in.Repo, int(r.in.Pull))
			page.Pulls = []github.PullChecks{p}
			return github.Meta{}, err
		}
		var err error
		page, err = r.c.ListPullsChecks(ctx, r.in.Owner, r.in.Repo, int(r.in.MaxPulls), r.pos.After)
		return github.Meta{}, err
	})
	return page, err
}

// failure names what a failed listing means: the pull request named is
// not there (issue_not_found: pull requests are issues), or the
// repository is not (repo_not_found); else GitHub's refusal.
func (r *ciRun) failure(err error) error {
	if r.in.Pull != 0 && github.PullMissing(err) {
		e := toolkit.MapError(err)
		e.Code = contract.CodeIssueNotFound
		e.Message = fmt.Sprintf("%s/%s has no pull request #%d visible to this credential", r.in.Owner, r.in.Repo, r.in.Pull)
		all := r.in
		all.Pull, all.Cursor = 0, ""
		return e.WithRepair(contract.Repair{NextStep: "report on the repository's open pull requests to find it",
			Tool: toolkit.NameReportCIStatus, Arguments: all})
	}
	// The CI report needs a repository: the pull requests of every one
	// are what the unlabeled report lists.
	return repoFailure(err, r.in.Owner, r.in.Repo, toolkit.NameReportUnlabeled, map[string]any{"target": "pulls"})
}

// detail fetches what the verbosity asks for of an Actions job: the job
// and its steps (2), then its log (3). It returns false when the run
// stopped before the detail was complete; a job or log GitHub will not
// give (gone, not permitted) is reported with the reason instead.
func (r *ciRun) detail(ctx context.Context, f *FailingCheck) bool {
	if r.in.level() < 2 || f.RunID == 0 {
		return true // a commit status or another app's check run: no job to read
	}
	var job *gh.WorkflowJob
	if ok, stopped := r.call(ctx, f, func(ctx context.Context) (m github.Meta, err error) {
		job, m, err = r.c.GetWorkflowJob(ctx, r.in.Owner, r.in.Repo, f.JobID)
		return m, err
	}); !ok {
		return !stopped
	}
	var hidden int
	f.Step, hidden = failedStep(job)
	f.Hidden += hidden
	if f.Workflow == "" {
		// A check run read over REST (CommitCI) names no workflow; its
		// job does. The GraphQL rollup's always named it already.
		f.Workflow, hidden = cleanText(job.GetWorkflowName())
		f.Hidden += hidden
	}
	if r.in.level() < 3 {
		return true
	}
	if r.logsFull() {
		f.LogOmitted = true // the call's log bytes are spent: the log is not read
		return true
	}
	var tail github.LogTail
	if ok, stopped := r.call(ctx, f, func(ctx context.Context) (m github.Meta, err error) {
		// The log is shaped inside JobLogTail so that its credentials are
		// redacted in the text shown, after every removal.
		tail, m, err = r.c.JobLogTail(ctx, r.in.Owner, r.in.Repo, f.JobID, logReadBytes, func(raw string) string {
			var text string
			text, hidden = logTail(raw, int(r.in.LogLines))
			return text
		})
		return m, err
	}); !ok {
		return !stopped
	}
	if !r.takeLog(len(tail.Text)) {
		f.LogOmitted = true
		return true
	}
	f.Log, f.Hidden, f.Redacted = tail.Text, f.Hidden+hidden, tail.Redacted
	return true
}

// takeLog takes n bytes of the call's log budget (logCallBytes) when they
// fit, and reports whether they did.
func (r *ciRun) takeLog(n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.logBytes+n > logCallBytes {
		return false
	}
	r.logBytes += n
	return true
}

// logsFull reports whether the call's log budget is spent.
func (r *ciRun) logsFull() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logBytes >= logCallBytes
}

// call makes one call of the run for f's detail: ok when it answered;
// else stopped when the run stopped (a bound, a rate limit, cancellation:
// the detail goes on next call), or f says why GitHub would not give it.
func (r *ciRun) call(ctx context.Context, f *FailingCheck, do func(context.Context) (github.Meta, error)) (ok, stopped bool) {
	err := r.run.Call(ctx, do)
	switch {
	case err == nil:
		return true, false
	case errors.Is(err, fanout.ErrStopped), r.run.Stopped() != "":
		return false, true
	}
	f.Unavailable = skipCode(err)
	return false, false
}

func (r *ciRun) add(f FailingCheck) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failing = append(r.failing, f)
	r.reportedChecks[checkKey(f.Pull, f.JobID, f.Job)] = true
}

// result assembles the report in pull request order and moves the resume
// position: past the page when it is done, else to what of it is done.
func (r *ciRun) result() CIStatusOut {
	out := CIStatusOut{Pulls: r.pulls, Failing: r.failing, APICalls: r.run.Calls()}
	if out.Pulls == nil {
		out.Pulls = []CIPull{}
	}
	slices.SortFunc(out.Pulls, func(a, b CIPull) int { return a.Number - b.Number })
	slices.SortFunc(out.Failing, func(a, b FailingCheck) int {
		return cmp.Or(a.Pull-b.Pull, cmp.Compare(a.Workflow, b.Workflow), cmp.Compare(a.Job, b.Job), cmp.Compare(a.JobID, b.JobID))
	})
	reason := r.run.Stopped()
	switch {
	case reason != "":
		r.pos.Pulls, r.pos.Checks = slices.Sorted(maps.Keys(r.reportedPulls)), slices.Sorted(maps.Keys(r.reportedChecks))
	case r.next != "":
		reason = fanout.MaxItems
		*r.pos = ciResume{After: r.next}
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, CIStop(reason)
	}
	return out
}
