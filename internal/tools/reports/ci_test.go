package reports_test

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

var leadingTimestamp = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT`)

// Each verbosity adds its tier and no more, and costs what it says: the
// page of pull requests with their checks is one call at every tier; the
// failing job (2) and its log (3) one call each per failing job; nothing
// for the pull requests that pass or wait.
func TestReportCIStatusTiers(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "red", "pending", "cancelled")
	red, cancelled := pullOf(t, pulls, "red"), pullOf(t, pulls, "cancelled")
	args := func(v int) map[string]any {
		return map[string]any{"owner": emulator.FleetOrg, "repo": emulator.Fleet(i).Name, "verbosity": v}
	}
	for v := range 4 {
		env.Upstream()
		out := ciReport(t, env, args(v))
		sent := env.Upstream()
		wantCalls := 1 + max(v-1, 0)*2 // two failing jobs
		if out.APICalls != wantCalls {
			t.Errorf("verbosity %d: api_calls = %d, want %d", v, out.APICalls, wantCalls)
		}
		// At 3 each log is one GitHub call and one download from the
		// signed URL, which is not GitHub's API.
		if wantSent := wantCalls + min(v/3, 1)*2; len(sent) != wantSent {
			t.Errorf("verbosity %d: requests = %d, want %d: %v", v, len(sent), wantSent, sent)
		}
		want := map[int]reports.CIState{}
		for _, p := range pulls {
			want[p.Number] = map[string]reports.CIState{"red": "failed", "cancelled": "failed", "pending": "pending", "green": "passed", "draft": "passed", "timeout": "failed"}[p.Kind]
		}
		if got := statuses(out); !maps.Equal(got, want) {
			t.Errorf("verbosity %d: statuses %v, want %v", v, got, want)
		}
		for _, p := range out.Pulls {
			if p.HeadSHA == "" {
				t.Errorf("verbosity %d: pull #%d: head_sha = \"\", want one", v, p.Number)
			}
			if suffix := "/pull/" + strconv.Itoa(p.Number); !strings.HasSuffix(p.URL, suffix) {
				t.Errorf("verbosity %d: pull #%d: url = %q, want one ending %q", v, p.Number, p.URL, suffix)
			}
			if p.Title == "" {
				t.Errorf("verbosity %d: pull #%d: title = \"\", want one", v, p.Number)
			}
		}
		if v == 0 {
			if len(out.Failing) != 0 {
				t.Errorf("verbosity 0: failing = %+v, want none", out.Failing)
			}
			continue
		}
		if len(out.Failing) != 2 {
			t.Fatalf("verbosity %d: %d failing checks, want the red and the cancelled test job: %+v", v, len(out.Failing), out.Failing)
		}
		for _, f := range out.Failing {
			wantConclusion := map[int]string{red.Number: "failure", cancelled.Number: "cancelled"}[f.Pull]
			if f.Workflow != "CI" {
				t.Errorf("verbosity %d: failing check of #%d: workflow = %q, want %q", v, f.Pull, f.Workflow, "CI")
			}
			if f.Job != "test" {
				t.Errorf("verbosity %d: failing check of #%d: job = %q, want %q", v, f.Pull, f.Job, "test")
			}
			if f.Conclusion != wantConclusion {
				t.Errorf("verbosity %d: failing check of #%d: conclusion = %q, want %q", v, f.Pull, f.Conclusion, wantConclusion)
			}
			if f.RunID == 0 {
				t.Errorf("verbosity %d: failing check of #%d: run_id = 0, want one", v, f.Pull)
			}
			if f.JobID == 0 {
				t.Errorf("verbosity %d: failing check of #%d: job_id = 0, want one", v, f.Pull)
			}
			if suffix := "/actions/runs/" + strconv.Itoa(int(f.RunID)); !strings.HasSuffix(f.URL, suffix) {
				t.Errorf("verbosity %d: failing check of #%d: url = %q, want one ending %q", v, f.Pull, f.URL, suffix)
			}
			if run := runOfJob(t, env, emulator.Fleet(i).Name, f.JobID); f.RunID != run {
				t.Errorf("verbosity %d: run_id = %d, want %d (job %d's run)", v, f.RunID, run, f.JobID)
			}
			if got := f.Step != nil; got != (v >= 2) {
				t.Errorf("verbosity %d: step present = %v, want %v (step %+v)", v, got, v >= 2, f.Step)
			}
			if got := f.Log != ""; got != (v == 3) {
				t.Errorf("verbosity %d: log present = %v, want %v (log %q)", v, got, v == 3, f.Log)
			}
			if v >= 2 {
				want := reports.FailedStep{Name: "Run tests", Number: 4, Seconds: 312}
				if f.Step == nil {
					t.Fatalf("verbosity %d: step = nil, want %+v", v, want)
				}
				if f.Step.Name != want.Name {
					t.Errorf("verbosity %d: step.name = %q, want %q", v, f.Step.Name, want.Name)
				}
				if f.Step.Number != want.Number {
					t.Errorf("verbosity %d: step.number = %d, want %d", v, f.Step.Number, want.Number)
				}
				if f.Step.Seconds != want.Seconds {
					t.Errorf("verbosity %d: step.seconds = %v, want %v", v, f.Step.Seconds, want.Seconds)
				}
			}
			if v == 3 {
				last := map[int]string{red.Number: "##[error]Process completed with exit code 1.", cancelled.Number: "##[error]The operation was canceled."}[f.Pull]
				if !strings.HasSuffix(f.Log, last) {
					t.Errorf("log tail of #%d = %q, want one ending %q", f.Pull, f.Log, last)
				}
				if leadingTimestamp.MatchString(f.Log) {
					t.Errorf("log tail of #%d = %q, want leading timestamps stripped", f.Pull, f.Log)
				}
			}
		}
	}
}

// A pull request whose checks pass costs the one call that reads it, at
// the highest verbosity: no job, log or check-run request follows.
func TestReportCIStatusHealthyPullCostsOneCall(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "green")
	green := pullOf(t, pulls, "green")
	env.Upstream()
	out := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": emulator.Fleet(i).Name, "pull": green.Number, "verbosity": 3})
	sent := env.Upstream()
	if out.APICalls != 1 {
		t.Errorf("healthy pull request: api_calls = %d, want 1", out.APICalls)
	}
	if len(sent) != 1 || !strings.HasSuffix(sent[0], "/graphql") {
		t.Errorf("healthy pull request: requests = %v, want one GraphQL call", sent)
	}
	if len(out.Pulls) != 1 {
		t.Errorf("healthy pull request: pulls = %d, want 1: %+v", len(out.Pulls), out.Pulls)
	} else {
		if out.Pulls[0].Status != "passed" {
			t.Errorf("healthy pull request: status = %q, want %q", out.Pulls[0].Status, "passed")
		}
		if out.Pulls[0].HeadSHA != green.SHA {
			t.Errorf("healthy pull request: head_sha = %q, want %q", out.Pulls[0].HeadSHA, green.SHA)
		}
	}
	if len(out.Failing) != 0 {
		t.Errorf("healthy pull request: failing = %+v, want none", out.Failing)
	}
}

// cancelled and timed_out fail a pull request; neutral and skipped do
// not (the draft's test job was skipped and its lint neutral); a legacy
// commit status that fails fails it too, at no extra call.
func TestReportCIStatusConclusions(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "cancelled", "draft", "timeout")
	repo := emulator.Fleet(i).Name
	out := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "verbosity": 1})
	st := statuses(out)
	for _, p := range pulls {
		want := map[string]reports.CIState{"cancelled": "failed", "timeout": "failed", "draft": "passed"}[p.Kind]
		if want != "" && st[p.Number] != want {
			t.Errorf("%s pull request #%d: %s, want %s", p.Kind, p.Number, st[p.Number], want)
		}
	}
	var conclusions []string
	for _, f := range out.Failing {
		conclusions = append(conclusions, f.Conclusion)
	}
	slices.Sort(conclusions)
	if !slices.Equal(conclusions, []string{"cancelled", "timed_out"}) {
		t.Errorf("failing conclusions %v, want cancelled and timed_out only (not neutral, not skipped)", conclusions)
	}

	// A failing legacy commit status on the draft's head.
	draft := pullOf(t, pulls, "draft")
	s := env.Emu.Emu.State()
	s.Lock()
	r := s.Repo(emulator.FleetOrg, repo)
	s.AddStatus(r, draft.SHA, "failure", "ci/coverage", "Coverage fell to 61%", "https://coverage.example/"+repo, s.Account("alice"), emulator.DemoNow())
	s.Unlock()
	env.Upstream()
	one := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": draft.Number, "verbosity": 3})
	if len(one.Pulls) != 1 {
		t.Fatalf("draft with a failing status: pulls = %d, want 1: %+v", len(one.Pulls), one.Pulls)
	}
	if one.Pulls[0].Status != "failed" {
		t.Fatalf("draft with a failing status: status = %q, want %q", one.Pulls[0].Status, "failed")
	}
	if one.APICalls != 1 {
		t.Fatalf("draft with a failing status: api_calls = %d, want 1", one.APICalls)
	}
	if up := env.Upstream(); len(up) != 1 {
		t.Fatalf("draft with a failing status: requests = %d, want 1: %v", len(up), up)
	}
	wantFailing := []reports.FailingCheck{{Pull: draft.Number, Job: "ci/coverage", Conclusion: "failure", URL: "https://coverage.example/" + repo}}
	if diff := cmp.Diff(wantFailing, one.Failing); diff != "" {
		t.Errorf("failing status mismatch (-want +got):\n%s", diff)
	}
}

// log_lines bounds the tail; the lines are the log's last, without their
// timestamps; a credential the job printed is redacted and counted, and
// appears nowhere in the result.
func TestReportCIStatusLogTail(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "red")
	repo, red := emulator.Fleet(i).Name, pullOf(t, pulls, "red")
	args := map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": red.Number, "verbosity": 3, "log_lines": 3}
	out := ciReport(t, env, args)
	want := "FAIL\tgithub.com/fleet/" + repo + "/internal/queue\t5.214s\nFAIL\n##[error]Process completed with exit code 1."
	if len(out.Failing) != 1 {
		t.Fatalf("log_lines 3: failing = %d, want 1: %+v", len(out.Failing), out.Failing)
	}
	if out.Failing[0].Log != want {
		t.Fatalf("log_lines 3: log = %q, want %q", out.Failing[0].Log, want)
	}

	// The job prints a token (its code is the PR's: it can print anything).
	s := env.Emu.Emu.State()
	s.Lock()
	job := s.Repo(emulator.FleetOrg, repo).FindJob(out.Failing[0].JobID)
	old := job.Log
	job.Log = func() string {
		return old() + "2026-01-02T15:04:05.0000000Z \x1b[31mdebug: token=" + emulator.FleetCanarySecret + " github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz\x1b[0m\n"
	}
	s.Unlock()
	res := env.Call(t, ciTool, args)
	for _, leak := range []string{emulator.SecretCanary, "github_pat_11"} {
		if strings.Contains(string(res.JSON), leak) {
			t.Fatalf("a credential in the log reached the result: %q in %s", leak, res.JSON)
		}
	}
	var again reports.CIStatusOut
	res.Decode(t, &again)
	f := again.Failing[0]
	if f.Redacted != 2 {
		t.Errorf("redacted = %d, want 2 (both tokens)", f.Redacted)
	}
	if suffix := "debug: token=[redacted] [redacted]"; !strings.HasSuffix(f.Log, suffix) {
		t.Errorf("log = %q, want one ending %q", f.Log, suffix)
	}
	if strings.Contains(f.Log, "\x1b") {
		t.Errorf("log = %q, want colour codes gone", f.Log)
	}

	// Tokens split by what the cleanup removes (a colour code, a
	// zero-width space, a hyperlink's escape sequences, a stray carriage
	// return) are joined by it, and redacted after; so are a token glued
	// to a word and ghgate's own credential split the same way.
	tok, own := emulator.FleetCanarySecret, emulator.DemoTokenAlice
	s.Lock()
	job.Log = func() string {
		return old() + "2026-01-02T15:04:05.0000000Z ansi " + tok[:10] + "\x1b[0m" + tok[10:] + "\n" +
			"zw " + tok[:10] + "\u200b" + tok[10:] + "\n" +
			"glued x" + tok + "\n" +
			"osc \x1b]8;;https://example.com/\x07" + tok[:10] + "\x1b]8;;\x1b\\" + tok[10:] + "\n" +
			"cr " + tok[:10] + "\r" + tok[10:] + "\n" +
			"own " + own[:5] + "\x1b[1m" + own[5:] + "\n"
	}
	s.Unlock()
	args["log_lines"] = 6
	res = env.Call(t, ciTool, args)
	for _, leak := range []string{emulator.SecretCanary, own, `\u001b`, `\r`, "\u200b"} {
		if strings.Contains(string(res.JSON), leak) {
			t.Fatalf("result holds %q, want it left out: %s", leak, res.JSON)
		}
	}
	res.Decode(t, &again)
	f = again.Failing[0]
	want = "ansi [redacted]\nzw [redacted]\nglued x[redacted]\nosc [redacted]\ncr [redacted]\nown [redacted]"
	if f.Log != want {
		t.Errorf("log = %q, want %q", f.Log, want)
	}
	if f.Redacted != 6 {
		t.Errorf("redacted = %d, want 6", f.Redacted)
	}
	if f.Hidden != 1 {
		t.Errorf("hidden_removed = %d, want 1", f.Hidden)
	}
}

// A repository that is not there is repo_not_found, with a repair that
// runs as given; a pull request that is not there is issue_not_found,
// with the repository's report as its repair.
func TestReportCIStatusNotFound(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	e := servertest.Refused(t, env, ciTool, map[string]any{"owner": emulator.FleetOrg, "repo": "no-such-repo"})
	if e.Code != "repo_not_found" {
		t.Fatalf("missing repository: code = %q, want %q (%+v)", e.Code, "repo_not_found", e)
	}
	if e.Repair == nil || e.Repair.Tool == "" {
		t.Fatalf("missing repository: repair = %+v, want a call", e.Repair)
	}
	rep := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if rep.IsError {
		t.Errorf("repair %s %v: is_error = true, want a result: %s", e.Repair.Tool, e.Repair.Arguments, rep.JSON)
	}
	i, _ := fleetWith(t, env)
	e = servertest.Refused(t, env, ciTool, map[string]any{"owner": emulator.FleetOrg, "repo": emulator.Fleet(i).Name, "pull": 9999})
	contracttest.Code(t, "missing pull request", e, "issue_not_found")
	contracttest.MustRepair(t, "missing pull request", e.Repair, ciTool)
	if out := ciReport(t, env, e.Repair.Arguments); len(out.Pulls) == 0 {
		t.Errorf("repair %v: pulls = 0, want some", e.Repair.Arguments)
	}
}

// runOfJob is the Actions run a job belongs to, in the emulator's state.
func runOfJob(t *testing.T, env *servertest.Env, repo string, job int64) int64 {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	j := s.Repo(emulator.FleetOrg, repo).FindJob(job)
	if j == nil {
		t.Fatalf("job %d of %s: not found", job, repo)
	}
	if j.Run == nil {
		t.Fatalf("job %d of %s: run = nil, want an Actions run", job, repo)
	}
	return j.Run.ID
}
