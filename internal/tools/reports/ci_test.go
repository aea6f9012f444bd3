package reports_test

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

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
		if out.APICalls != wantCalls || len(sent) != wantCalls+min(v/3, 1)*2 {
			// At 3 each log is one GitHub call and one download from the
			// signed URL, which is not GitHub's API.
			t.Errorf("verbosity %d: api_calls %d, requests %v; want %d calls", v, out.APICalls, sent, wantCalls)
		}
		want := map[int]reports.CIState{}
		for _, p := range pulls {
			want[p.Number] = map[string]reports.CIState{"red": "failed", "cancelled": "failed", "pending": "pending", "green": "passed", "draft": "passed", "timeout": "failed"}[p.Kind]
		}
		if got := statuses(out); !maps.Equal(got, want) {
			t.Errorf("verbosity %d: statuses %v, want %v", v, got, want)
		}
		for _, p := range out.Pulls {
			if p.HeadSHA == "" || !strings.HasSuffix(p.URL, "/pull/"+strconv.Itoa(p.Number)) || p.Title == "" {
				t.Errorf("verbosity %d: pull %+v", v, p)
			}
		}
		if v == 0 {
			if len(out.Failing) != 0 {
				t.Errorf("verbosity 0 told of failing checks: %+v", out.Failing)
			}
			continue
		}
		if len(out.Failing) != 2 {
			t.Fatalf("verbosity %d: %d failing checks, want the red and the cancelled test job: %+v", v, len(out.Failing), out.Failing)
		}
		for _, f := range out.Failing {
			wantConclusion := map[int]string{red.Number: "failure", cancelled.Number: "cancelled"}[f.Pull]
			if f.Workflow != "CI" || f.Job != "test" || f.Conclusion != wantConclusion || f.RunID == 0 || f.JobID == 0 ||
				!strings.HasSuffix(f.URL, "/actions/runs/"+strconv.Itoa(int(f.RunID))) {
				t.Errorf("verbosity %d: failing check %+v", v, f)
			}
			if run := runOfJob(t, env, emulator.Fleet(i).Name, f.JobID); f.RunID != run {
				t.Errorf("verbosity %d: run_id %d, but job %d is of run %d", v, f.RunID, f.JobID, run)
			}
			if (f.Step != nil) != (v >= 2) || (f.Log != "") != (v == 3) {
				t.Errorf("verbosity %d: step %+v, log %q: tiers above the one asked, or missing", v, f.Step, f.Log)
			}
			if v >= 2 && (f.Step.Name != "Run tests" || f.Step.Number != 4 || f.Step.Seconds != 312) {
				t.Errorf("verbosity %d: failing step %+v, want Run tests (4), 312 s", v, f.Step)
			}
			if v == 3 {
				last := map[int]string{red.Number: "##[error]Process completed with exit code 1.", cancelled.Number: "##[error]The operation was canceled."}[f.Pull]
				if !strings.HasSuffix(f.Log, last) || leadingTimestamp.MatchString(f.Log) {
					t.Errorf("log tail of #%d: %q; want timestamps stripped, ending %q", f.Pull, f.Log, last)
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
	if out.APICalls != 1 || len(sent) != 1 || !strings.HasSuffix(sent[0], "/graphql") {
		t.Errorf("healthy pull request: api_calls %d, requests %v; want one GraphQL call", out.APICalls, sent)
	}
	if len(out.Pulls) != 1 || out.Pulls[0].Status != "passed" || out.Pulls[0].HeadSHA != green.SHA || len(out.Failing) != 0 {
		t.Errorf("healthy pull request: %+v", out)
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
	if len(one.Pulls) != 1 || one.Pulls[0].Status != "failed" || one.APICalls != 1 || len(env.Upstream()) != 1 {
		t.Fatalf("draft with a failing status: %+v", one)
	}
	if len(one.Failing) != 1 || one.Failing[0] != (reports.FailingCheck{Pull: draft.Number, Job: "ci/coverage", Conclusion: "failure", URL: "https://coverage.example/" + repo}) {
		t.Errorf("failing status: %+v", one.Failing)
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
	if len(out.Failing) != 1 || out.Failing[0].Log != want {
		t.Fatalf("log_lines 3: %+v, want the tail %q", out.Failing, want)
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
	if strings.Contains(string(res.JSON), emulator.SecretCanary) || strings.Contains(string(res.JSON), "github_pat_11") {
		t.Fatalf("a credential in the log reached the result: %s", res.JSON)
	}
	var again reports.CIStatusOut
	res.Decode(t, &again)
	f := again.Failing[0]
	if f.Redacted != 2 || !strings.HasSuffix(f.Log, "debug: token=[redacted] [redacted]") || strings.Contains(f.Log, "\x1b") {
		t.Errorf("redacted %d, log %q; want both tokens redacted, colour codes gone", f.Redacted, f.Log)
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
			t.Fatalf("%q reached the result: %s", leak, res.JSON)
		}
	}
	res.Decode(t, &again)
	f = again.Failing[0]
	want = "ansi [redacted]\nzw [redacted]\nglued x[redacted]\nosc [redacted]\ncr [redacted]\nown [redacted]"
	if f.Log != want || f.Redacted != 6 || f.Hidden != 1 {
		t.Errorf("log %q, redacted %d, hidden_removed %d; want %q, 6 and 1", f.Log, f.Redacted, f.Hidden, want)
	}
}

// A repository that is not there is repo_not_found, with a repair that
// runs as given; a pull request that is not there is issue_not_found,
// with the repository's report as its repair.
func TestReportCIStatusNotFound(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	e := servertest.Refused(t, env, ciTool, map[string]any{"owner": emulator.FleetOrg, "repo": "no-such-repo"})
	if e.Code != "repo_not_found" || e.Repair == nil || e.Repair.Tool == "" {
		t.Fatalf("missing repository: %+v", e)
	}
	rep := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if rep.IsError {
		t.Errorf("repair %s %v failed: %s", e.Repair.Tool, e.Repair.Arguments, rep.JSON)
	}
	i, _ := fleetWith(t, env)
	e = servertest.Refused(t, env, ciTool, map[string]any{"owner": emulator.FleetOrg, "repo": emulator.Fleet(i).Name, "pull": 9999})
	if e.Code != "issue_not_found" || e.Repair == nil || e.Repair.Tool != ciTool {
		t.Fatalf("missing pull request: %+v", e)
	}
	if out := ciReport(t, env, e.Repair.Arguments); len(out.Pulls) == 0 {
		t.Errorf("repair %v reported no pull requests", e.Repair.Arguments)
	}
}

// runOfJob is the Actions run a job belongs to, in the emulator's state.
func runOfJob(t *testing.T, env *servertest.Env, repo string, job int64) int64 {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	j := s.Repo(emulator.FleetOrg, repo).FindJob(job)
	if j == nil || j.Run == nil {
		t.Fatalf("job %d of %s is no Actions job", job, repo)
	}
	return j.Run.ID
}
