package reports_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// CommitCI, read by the head SHA over REST, tells of every kind of pull
// request what github_report_ci_status tells of it over GraphQL, at every
// tier: the same state and failing checks (a workflow's name only from
// tier 2, where the job is read), for one call more (statuses and check
// runs are two reads).
func TestCommitCIAgreesWithTheReport(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	// The first pull request of each kind in the fleet.
	var pulls []ciPull
	seen := map[string]bool{}
	for i := range 8 {
		for _, p := range fleetPulls(t, env, i) {
			if !seen[p.Kind] {
				seen[p.Kind] = true
				pulls = append(pulls, p)
			}
		}
	}
	for _, kind := range []string{"red", "green", "pending", "cancelled", "draft", "timeout"} {
		if !seen[kind] {
			t.Fatalf("the fleet has no open pull request of kind %s", kind)
		}
	}
	tools := &reports.Tools{Service: env.Stack.Service}
	byJob := func(a, b reports.FailingCheck) int {
		return cmp.Or(cmp.Compare(a.Job, b.Job), cmp.Compare(a.JobID, b.JobID))
	}
	for _, p := range pulls {
		repo := p.Repo
		for v := range 4 {
			name := fmt.Sprintf("%s #%d (%s) verbosity %d", repo, p.Number, p.Kind, v)
			report := ciReport(t, env, map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": p.Number, "verbosity": v, "log_lines": 5})
			got, err := tools.CommitCI(context.Background(), reports.CommitCIIn{Owner: emulator.FleetOrg, Repo: repo, SHA: p.SHA, Pull: p.Number,
				Verbosity: reports.Verbosity(v), LogLines: 5})
			if err != nil {
				t.Fatalf("%s: CommitCI: %v", name, err)
			}
			if len(report.Pulls) != 1 {
				t.Errorf("%s: the report's pulls = %d, want 1: %+v", name, len(report.Pulls), report.Pulls)
			} else if got.Status != report.Pulls[0].Status {
				t.Errorf("%s: status = %q, want the report's %q", name, got.Status, report.Pulls[0].Status)
			}
			if got.HeadSHA != p.SHA {
				t.Errorf("%s: head_sha = %q, want %q", name, got.HeadSHA, p.SHA)
			}
			if got.APICalls != report.APICalls+1 {
				t.Errorf("%s: %d calls, want the report's %d and one", name, got.APICalls, report.APICalls)
			}
			want := slices.Clone(report.Failing)
			for j := range want {
				if v < 2 {
					want[j].Workflow = "" // a REST check run names no workflow
				}
			}
			slices.SortFunc(want, byJob)
			slices.SortFunc(got.Failing, byJob)
			g, _ := json.Marshal(got.Failing)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("%s: failing\n%s\nwant the report's\n%s", name, g, w)
			}
		}
	}
}
