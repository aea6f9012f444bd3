package reports_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// The workflow's, job's and failing step's names are the pull request's
// own workflow's: they come cleaned like its log, and what was removed of
// them is counted.
func TestReportCIStatusNamesCleaned(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "red")
	repo, red := emulator.Fleet(i).Name, pullOf(t, pulls, "red")
	args := map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": red.Number, "verbosity": 2}
	out := ciReport(t, env, args)
	if len(out.Failing) != 1 {
		t.Fatalf("failing %+v", out.Failing)
	}
	s := env.Emu.Emu.State()
	s.Lock()
	job := s.Repo(emulator.FleetOrg, repo).FindJob(out.Failing[0].JobID)
	job.Name = "te\u200bst\x1b[31m"
	job.Workflow, job.Run.Name = "C\u202eI", "C\u202eI"
	for _, st := range job.Steps {
		if st.Name == "Run tests" {
			st.Name = "Run\u2060 tests\r"
		}
	}
	s.Unlock()
	res := env.Call(t, ciTool, args)
	var got reports.CIStatusOut
	res.Decode(t, &got)
	if len(got.Failing) != 1 {
		t.Fatalf("failing %+v", got.Failing)
	}
	f := got.Failing[0]
	if f.Job != "test" || f.Workflow != "CI" || f.Step == nil || f.Step.Name != "Run tests" || f.Hidden != 3 {
		t.Errorf("failing check %+v, step %+v; want the names cleaned and 3 invisible characters counted", f, f.Step)
	}
}

// A call returns at most 256 KiB of log text across its jobs: the jobs
// past it say their log was left out, and the logs returned fit in it.
func TestReportCIStatusLogBytesPerCall(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "red", "cancelled")
	repo := emulator.Fleet(i).Name
	first := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "verbosity": 1})
	if len(first.Failing) != 2 {
		t.Fatalf("failing %+v", first.Failing)
	}
	// Each failing job's log is 1,500 lines of 80 bytes (120,000 bytes
	// shown, under the 128 KiB a job may show), and the red run gets two
	// more failing jobs: four logs of which two fit.
	big := func() string {
		var b strings.Builder
		for n := range 1500 {
			fmt.Fprintf(&b, "%04d %s\n", n, strings.Repeat("x", 74))
		}
		return b.String()
	}
	s := env.Emu.Emu.State()
	s.Lock()
	r := s.Repo(emulator.FleetOrg, repo)
	for _, f := range first.Failing {
		job := r.FindJob(f.JobID)
		job.Log = big
		if f.Pull == pullOf(t, pulls, "red").Number {
			for _, name := range []string{"test-2", "test-3"} {
				s.AddJob(job.Run, name, "failure", emulator.DemoNow(), []state.StepSpec{{Name: "Run tests", Conclusion: "failure", Took: time.Minute}}, big)
			}
		}
	}
	s.Unlock()
	out := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "verbosity": 3, "log_lines": 2000})
	shown, omitted, total := 0, 0, 0
	for _, f := range out.Failing {
		switch {
		case f.LogOmitted && f.Log == "":
			omitted++
		case !f.LogOmitted && len(f.Log) == 120000-1:
			shown++
		default:
			t.Errorf("job %s of #%d: log of %d bytes, log_omitted %v", f.Job, f.Pull, len(f.Log), f.LogOmitted)
		}
		total += len(f.Log)
	}
	if len(out.Failing) != 4 || shown != 2 || omitted != 2 || total > 256<<10 || out.Truncated {
		t.Errorf("%d failing jobs, %d logs shown (%d bytes), %d left out; want 4, 2 and 2", len(out.Failing), shown, total, omitted)
	}
}

// The cursor is bound to the verbosity and max_pulls it was minted for:
// a next_call edited to change them is refused as cursor_invalid, with
// the report from the start as its repair.
func TestReportCIStatusCursorBoundToVerbosity(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	first := ciReport(t, env, ciArgs(t, env, map[string]any{"max_pulls": 1}))
	if first.NextCall == nil {
		t.Fatalf("no next_call: %+v", first)
	}
	for k, v := range map[string]any{"verbosity": 1, "max_pulls": 2} {
		next := ciNext(t, first)
		var args map[string]any
		if err := json.Unmarshal(next, &args); err != nil {
			t.Fatal(err)
		}
		args[k] = v
		e := servertest.Refused(t, env, ciTool, args)
		if e.Code != "cursor_invalid" || e.Repair == nil || e.Repair.Tool != ciTool {
			t.Fatalf("%s edited: %+v", k, e)
		}
		if out := ciReport(t, env, e.Repair.Arguments); len(out.Pulls) == 0 {
			t.Errorf("%s edited: the repair %v reported nothing", k, e.Repair.Arguments)
		}
	}
}

// A head commit with more checks than one page whose failing one is past
// it is failed (GitHub's rollup says so) with no failing row: the row
// says the checks were cut.
func TestReportCIStatusChecksCut(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "green")
	repo, green := emulator.Fleet(i).Name, pullOf(t, pulls, "green")
	s := env.Emu.Emu.State()
	s.Lock()
	r := s.Repo(emulator.FleetOrg, repo)
	for n := range 100 {
		s.AddCheckRun(r, green.SHA, "CI", fmt.Sprintf("shard-%03d", n), "success", emulator.DemoNow(), time.Minute)
	}
	// Statuses come after check runs in the rollup.
	s.AddStatus(r, green.SHA, "failure", "ci/coverage", "Coverage fell", "https://coverage.example/", s.Account("alice"), emulator.DemoNow())
	s.Unlock()
	out := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": green.Number})
	if len(out.Pulls) != 1 || out.Pulls[0].Status != "failed" || !out.Pulls[0].ChecksCut || len(out.Failing) != 0 {
		t.Errorf("report %+v; want failed, checks_cut, no failing row", out)
	}
}
