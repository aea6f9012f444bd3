package seed

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// GitHub Actions runs for the seeded pull requests. A CI run has three
// jobs (build, test, lint), each with the steps a Go or Node workflow has
// and a log; a failing job fails in one step whose log ends with the
// error, as a maintainer reads it.

// ciSteps are a job's steps; the named step is the job's own work.
func ciSteps(job string, conclusion string) []state.StepSpec {
	work := map[string]string{"build": "Build", "test": "Run tests", "lint": "Lint"}[job]
	took := map[string]time.Duration{"build": 2*time.Minute + 41*time.Second, "test": 5*time.Minute + 12*time.Second, "lint": 38 * time.Second}[job]
	steps := []state.StepSpec{{Name: "Set up job", Conclusion: "success", Took: 2 * time.Second}, {Name: "Run actions/checkout@v4", Conclusion: "success", Took: 3 * time.Second},
		{Name: "Set up Go", Conclusion: "success", Took: 9 * time.Second}, {Name: work, Conclusion: "success", Took: took}, {Name: "Post Run actions/checkout@v4", Conclusion: "success", Took: time.Second},
		{Name: "Complete job", Conclusion: "success", Took: time.Second}}
	switch conclusion {
	case "failure":
		steps[3].Conclusion = "failure"
	case "timed_out":
		// The runner stops the step at the job's timeout-minutes.
		steps[3].Conclusion, steps[3].Took = "cancelled", 10*time.Minute
	case "cancelled":
		steps[3].Conclusion = "cancelled"
		steps[4].Conclusion = "skipped"
	case "skipped":
		for i := range steps {
			steps[i].Conclusion = "skipped"
		}
	case "":
		steps[3].Conclusion = ""
		steps[4].Conclusion, steps[5].Conclusion = "queued", "queued"
	}
	return steps
}

// ciLog is a job's log: timestamped lines per step, and for a failed test
// the failing test's output as the tail.
func ciLog(repo, job, conclusion string, started time.Time) string {
	var b strings.Builder
	at := started
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, "%s %s\n", at.UTC().Format("2006-01-02T15:04:05.0000000Z"), fmt.Sprintf(format, args...))
		at = at.Add(700 * time.Millisecond)
	}
	line("##[group]Run actions/checkout@v4")
	line("Syncing repository: %s", repo)
	line("##[endgroup]")
	line("##[group]Run actions/setup-go@v5")
	line("Setup go version spec 1.24")
	line("##[endgroup]")
	switch job {
	case "build":
		line("##[group]Run go build ./...")
		line("##[endgroup]")
	case "lint":
		line("##[group]Run go vet ./...")
		line("##[endgroup]")
	default:
		line("##[group]Run go test -count=1 ./...")
		for _, pkg := range []string{"config", "queue", "server", "store"} {
			if conclusion == "failure" && pkg == "queue" {
				continue
			}
			line("ok  \tgithub.com/%s/internal/%s\t0.%03ds", repo, pkg, 100+len(pkg)*37)
		}
		line("##[endgroup]")
	}
	switch conclusion {
	case "failure":
		line("--- FAIL: TestShutdownDrainsQueue (5.00s)")
		line("    queue_test.go:88: queue not drained after shutdown: 3 items left")
		line("FAIL")
		line("FAIL\tgithub.com/%s/internal/queue\t5.214s", repo)
		line("FAIL")
		line("##[error]Process completed with exit code 1.")
	case "cancelled":
		line("##[error]The operation was canceled.")
	case "timed_out":
		line("##[error]The job running on runner GitHub Actions 2 has exceeded the maximum execution time of 10 minutes.")
	default:
		line("Cleaning up orphan processes")
	}
	return b.String()
}

// ciRun records the CI workflow run on a pull request's head: green (all
// jobs pass), red (test fails), pending (test still running), cancelled
// (superseded: test cancelled, lint skipped), draft (green: tests skipped
// on a draft, lint neutral),
// timeout (test hit the job's time limit).
func (fs *fleetSeeder) ciRun(is *state.Issue, c *state.GitCommit, kind string, at time.Time) {
	conclusions := map[string][3]string{
		"green": {"success", "success", "success"}, "red": {"success", "failure", "success"},
		"pending": {"success", "", ""}, "cancelled": {"success", "cancelled", "skipped"}, "draft": {"success", "skipped", "neutral"},
		"timeout": {"success", "timed_out", "success"},
	}[kind]
	recordRun(fs.sd.s, is, c, "pull_request", is.User, at, conclusions)
}

// recordRun adds a CI run with build, test and lint jobs concluding as
// given ("" while a job runs).
func recordRun(s *state.State, is *state.Issue, c *state.GitCommit, event string, actor *state.Account, at time.Time, conclusions [3]string) *state.WorkflowRun {
	r := is.Repo
	run := s.AddWorkflowRun(r, "CI", ".github/workflows/ci.yml", event, is.Pull.HeadRef, c.SHA, actor, is, at)
	for k, job := range []string{"build", "test", "lint"} {
		cl := conclusions[k]
		started := at.Add(10 * time.Second)
		stepsFor := cl
		if cl == "neutral" {
			stepsFor = "success"
		}
		s.AddJob(run, job, cl, started, ciSteps(job, stepsFor), func() string { return ciLog(r.FullName(), job, cl, started) })
	}
	return run
}

// seedAcmeActions makes the acme pull requests' CI check runs the jobs of
// workflow runs, with steps and logs, keeping their names, conclusions and
// times; a pull request whose head moved after review also gets the run
// that push cancelled on its earlier commit.
func (sd *seeder) seedAcmeActions(w *world) {
	s := sd.s
	for _, r := range []*state.Repo{w.widgets, w.gadgets} {
		for _, is := range r.Issues {
			p := is.Pull
			if p == nil {
				continue
			}
			runs := r.Git.CheckRuns[p.Head.SHA]
			if len(runs) == 0 || runs[0].Run != nil {
				continue
			}
			first := slices.MinFunc(runs, func(a, b *state.CheckRun) int { return a.StartedAt.Compare(b.StartedAt) })
			run := s.AddWorkflowRun(r, "CI", ".github/workflows/ci.yml", "pull_request", p.HeadRef, p.Head.SHA, is.User, is,
				first.StartedAt.Add(-10*time.Second))
			for _, cr := range runs {
				cl := ""
				if cr.Conclusion != nil {
					cl = *cr.Conclusion
				}
				specs := ciSteps(cr.Name, cl)
				name, started := cr.Name, cr.StartedAt
				cr.Run, cr.Log = run, func() string { return ciLog(r.FullName(), name, cl, started) }
				cr.Steps, _ = state.LayoutSteps(specs, cr.StartedAt)
				run.Jobs = append(run.Jobs, cr)
			}
			if is.State == "open" && len(p.Head.Parents) > 0 && len(r.Git.CheckRuns[p.Head.Parents[0].SHA]) == 0 &&
				p.Head.Parents[0] != r.Git.Branches[state.RepoDefaultBranch] && len(p.Threads) > 0 && p.Threads[0].Outdated() {
				prev := p.Head.Parents[0]
				recordRun(s, is, prev, "pull_request", is.User, prev.Committer.When.Add(2*time.Minute), [3]string{"success", "cancelled", "skipped"})
			}
		}
	}
}
