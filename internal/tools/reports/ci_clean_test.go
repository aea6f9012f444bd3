package reports_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
		t.Fatalf("failing = %d, want 1: %+v", len(out.Failing), out.Failing)
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
		t.Fatalf("failing = %d, want 1: %+v", len(got.Failing), got.Failing)
	}
	f := got.Failing[0]
	if f.Job != "test" {
		t.Errorf("job = %q, want %q (cleaned)", f.Job, "test")
	}
	if f.Workflow != "CI" {
		t.Errorf("workflow = %q, want %q (cleaned)", f.Workflow, "CI")
	}
	if f.Step == nil {
		t.Errorf("step = nil, want %q", "Run tests")
	} else if f.Step.Name != "Run tests" {
		t.Errorf("step.name = %q, want %q (cleaned)", f.Step.Name, "Run tests")
	}
	if f.Hidden != 3 {
		t.Errorf("hidden_removed = %d, want 3", f.Hidden)
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
		t.Fatalf("failing = %d, want 2: %+v", len(first.Failing), first.Failing)
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
			t.Errorf("job %s of #%d: log = %d bytes with log_omitted %v, want %d bytes shown, or none and log_omitted", f.Job, f.Pull, len(f.Log), f.LogOmitted, 120000-1)
		}
		total += len(f.Log)
	}
	if len(out.Failing) != 4 {
		t.Errorf("failing jobs = %d, want 4", len(out.Failing))
	}
	if shown != 2 {
		t.Errorf("logs shown = %d, want 2", shown)
	}
	if omitted != 2 {
		t.Errorf("logs left out = %d, want 2", omitted)
	}
	if total > 256<<10 {
		t.Errorf("log bytes = %d, want at most %d", total, 256<<10)
	}
	if out.Truncated {
		t.Errorf("truncated = true (%s), want false", out.TruncatedReason)
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
		t.Fatalf("next_call = nil, want one: %+v", first)
	}
	for k, v := range map[string]any{"verbosity": 1, "max_pulls": 2} {
		next := ciNext(t, first)
		var args map[string]any
		if err := json.Unmarshal(next, &args); err != nil {
			t.Fatal(err)
		}
		args[k] = v
		e := servertest.Refused(t, env, ciTool, args)
		contracttest.Code(t, k+" edited", e, "cursor_invalid")
		contracttest.MustRepair(t, k+" edited", e.Repair, ciTool)
		if out := ciReport(t, env, e.Repair.Arguments); len(out.Pulls) == 0 {
			t.Errorf("%s edited: the repair %v: pulls = 0, want some", k, e.Repair.Arguments)
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
	if len(out.Pulls) != 1 {
		t.Fatalf("pulls = %d, want 1: %+v", len(out.Pulls), out.Pulls)
	}
	if out.Pulls[0].Status != "failed" {
		t.Errorf("status = %q, want %q", out.Pulls[0].Status, "failed")
	}
	if !out.Pulls[0].ChecksCut {
		t.Errorf("checks_cut = false, want true")
	}
	if len(out.Failing) != 0 {
		t.Errorf("failing = %+v, want none", out.Failing)
	}
}
