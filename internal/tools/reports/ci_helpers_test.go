package reports_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

const ciTool = toolkit.NameReportCIStatus

// ciEnv is ghgate with the reports toolset over a small fleet: enough
// repositories for every kind of CI run the seed makes.
func ciEnv(t *testing.T, o servertest.Options) *servertest.Env {
	return fleetEnv(t, 8, o)
}

func ciReport(t *testing.T, env *servertest.Env, args any) reports.CIStatusOut {
	t.Helper()
	return servertest.CallOK[reports.CIStatusOut](t, env, ciTool, args)
}

// ciPull is an open pull request of a fleet repository and the kind of
// CI run the seed gave its head, read from the emulator's state: the
// test job's conclusion says it (green, red, pending, cancelled, draft:
// test skipped and lint neutral, timeout).
type ciPull struct {
	Repo   string
	Number int
	Kind   string
	SHA    string
}

// fleetPulls lists the open pull requests of fleet repository i.
func fleetPulls(t *testing.T, env *servertest.Env, i int) []ciPull {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	r := s.Repo(emulator.FleetOrg, emulator.Fleet(i).Name)
	var out []ciPull
	for _, is := range r.Issues {
		if is.Pull == nil || is.State != "open" {
			continue
		}
		kind := "none"
		for _, cr := range r.Git.CheckRuns[is.Pull.Head.SHA] {
			if cr.Name != "test" {
				continue
			}
			kind = "pending"
			if cr.Conclusion != nil {
				kind = map[string]string{"success": "green", "failure": "red", "cancelled": "cancelled", "skipped": "draft", "timed_out": "timeout"}[*cr.Conclusion]
			}
		}
		out = append(out, ciPull{Repo: r.Name, Number: is.Number, Kind: kind, SHA: is.Pull.Head.SHA})
	}
	return out
}

// fleetWith finds a fleet repository (of the first 8) whose open pull
// requests include every kind named.
func fleetWith(t *testing.T, env *servertest.Env, kinds ...string) (int, []ciPull) {
	t.Helper()
	for i := range 8 {
		pulls := fleetPulls(t, env, i)
		have := map[string]bool{}
		for _, p := range pulls {
			have[p.Kind] = true
		}
		ok := true
		for _, k := range kinds {
			ok = ok && have[k]
		}
		if ok {
			return i, pulls
		}
	}
	t.Fatalf("no fleet repository has open pull requests of kinds %v", kinds)
	return 0, nil
}

func pullOf(t *testing.T, pulls []ciPull, kind string) ciPull {
	t.Helper()
	for _, p := range pulls {
		if p.Kind == kind {
			return p
		}
	}
	t.Fatalf("no %s pull request in %+v", kind, pulls)
	return ciPull{}
}

// statuses maps each reported pull request to its status.
func statuses(out reports.CIStatusOut) map[int]reports.CIState {
	m := map[int]reports.CIState{}
	for _, p := range out.Pulls {
		m[p.Number] = p.Status
	}
	return m
}

// ciNext is the report's next_call arguments as an agent passes them back.
func ciNext(t *testing.T, out reports.CIStatusOut) json.RawMessage {
	t.Helper()
	return nextArgs(t, ciTool, out.NextCall)
}

// ciAll follows next_call until the report is complete.
func ciAll(t *testing.T, env *servertest.Env, args any) (reports.CIStatusOut, []reports.CIStatusOut) {
	t.Helper()
	var all reports.CIStatusOut
	var outs []reports.CIStatusOut
	for range 50 {
		out := ciReport(t, env, args)
		outs = append(outs, out)
		all.Pulls = append(all.Pulls, out.Pulls...)
		all.Failing = append(all.Failing, out.Failing...)
		all.APICalls += out.APICalls
		if !out.Truncated {
			return all, outs
		}
		args = ciNext(t, out)
	}
	t.Fatal("report never finished")
	return all, nil
}

// sameReport fails unless got holds exactly want's pull requests and
// failing checks, each once.
func sameReport(t *testing.T, got, want reports.CIStatusOut) {
	t.Helper()
	count := func(o reports.CIStatusOut) map[string]int {
		m := map[string]int{}
		for _, p := range o.Pulls {
			m[fmt.Sprintf("pull %d %s", p.Number, p.Status)]++
		}
		for _, f := range o.Failing {
			step := ""
			if f.Step != nil {
				step = f.Step.Name
			}
			m[fmt.Sprintf("check %d %s/%s %s %d step=%q log=%d", f.Pull, f.Workflow, f.Job, f.Conclusion, f.JobID, step, len(f.Log))]++
		}
		return m
	}
	g, w := count(got), count(want)
	for k, n := range g {
		if n != 1 {
			t.Errorf("%s: %d times in the continued report, want 1", k, n)
		}
		if w[k] != 1 {
			t.Errorf("%s: %d times in the whole report, want 1", k, w[k])
		}
	}
	for k := range w {
		if g[k] == 0 {
			t.Errorf("%s: 0 times in the continued report, want 1", k)
		}
	}
}
