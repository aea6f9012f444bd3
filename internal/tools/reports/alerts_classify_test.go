package reports_test

import (
	"maps"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
)

// seedTiers gives the first four fleet repositories the shapes the
// default tiers tell apart: 0 a release workflow and a next branch one
// commit ahead (release_flow); 1 a release.yaml only (release_workflow);
// 2 a release workflow and a dev branch at the default branch's commit,
// which does not differ (release_workflow, not release_flow); 3 nothing
// (plain).
func seedTiers(t *testing.T, env *servertest.Env) {
	t.Helper()
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	alice := st.Account("alice")
	repo := func(i int) *state.Repo {
		r := st.Repo("fleet", emulator.Fleet(i).Name)
		if r == nil {
			t.Fatalf("fleet repository %d missing", i)
		}
		return r
	}
	wf := "name: release\non: {push: {tags: ['v*']}}\n"
	st.PushFile(repo(0), state.RepoDefaultBranch, alice, "Add the release workflow", ".github/workflows/release.yml", wf)
	next := "next"
	st.Commit(repo(0), next, alice, st.Now(), "Start the next release", map[string]*string{"NEXT.md": &next})
	st.PushFile(repo(1), state.RepoDefaultBranch, alice, "Add the release workflow", ".github/workflows/release.yaml", wf)
	r2 := repo(2)
	st.PushFile(r2, state.RepoDefaultBranch, alice, "Add the release workflow", ".github/workflows/release.yml", wf)
	r2.Git.Branches["dev"] = r2.Git.Branches[state.RepoDefaultBranch]
}

func tierRows(t *testing.T, out reports.AlertsOut) map[string]reports.RepoTier {
	t.Helper()
	m := map[string]reports.RepoTier{}
	for _, r := range out.Tiers {
		if _, dup := m[r.Repo]; dup {
			t.Errorf("tiers: %s twice, want once", r.Repo)
		}
		m[r.Repo] = r
	}
	return m
}

// classify with the default (example) rules: every repository the report
// covers gets a tier, each tier is present, the signals say why, and each
// repository cost one GitHub call.
func TestReportSecurityAlertsClassifyTiers(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{})
	seedTiers(t, env)
	plain := alerts(t, env, map[string]any{"owner": "fleet", "summary_only": true})
	if len(plain.Tiers) != 0 {
		t.Errorf("without classify: %d tier rows, want none", len(plain.Tiers))
	}
	out := alerts(t, env, map[string]any{"owner": "fleet", "summary_only": true, "classify": true})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	covered := 0
	for i := range 12 {
		if !emulator.Fleet(i).Archived {
			covered++
		}
	}
	if got := len(out.Tiers); got != covered {
		t.Errorf("tier rows = %d, want %d (the repositories not archived)", got, covered)
	}
	if got, want := out.APICalls, plain.APICalls+covered; got != want {
		t.Errorf("api_calls = %d, want %d (the report's %d and one per repository)", got, want, plain.APICalls)
	}
	rows := tierRows(t, out)
	want := map[int]string{0: "release_flow", 1: "release_workflow", 2: "release_workflow", 3: "plain"}
	for i, tier := range want {
		if got := rows[emulator.Fleet(i).Name].Tier; got != tier {
			t.Errorf("%s: tier = %q, want %q", emulator.Fleet(i).Name, got, tier)
		}
	}
	for name, r := range rows {
		if r.Tier == "" {
			t.Errorf("%s: tier = \"\", want one (plain catches all)", name)
		}
		if r.Failed != "" {
			t.Errorf("%s: failed = %q, want none", name, r.Failed)
		}
		if len(r.Files) != 2 {
			t.Errorf("%s: signals files = %v, want 2", name, r.Files)
		}
		if len(r.Branches) != 2 {
			t.Errorf("%s: signals branches = %v, want 2", name, r.Branches)
		}
	}
	r0 := rows[emulator.Fleet(0).Name]
	if !r0.Files[".github/workflows/release.yml"] {
		t.Errorf("repository 0 files = %v, want release.yml there", r0.Files)
	}
	if r0.Files[".github/workflows/release.yaml"] {
		t.Errorf("repository 0 files = %v, want release.yaml not there", r0.Files)
	}
	if got, want := r0.Branches["next"], (reports.BranchSignal{Exists: true, Differs: true, AheadBy: 1}); got != want {
		t.Errorf("repository 0 next = %+v, want %+v", got, want)
	}
	if got, want := r0.Branches["dev"], (reports.BranchSignal{}); got != want {
		t.Errorf("repository 0 dev = %+v, want %+v (no such branch)", got, want)
	}
	if got, want := rows[emulator.Fleet(2).Name].Branches["dev"], (reports.BranchSignal{Exists: true}); got != want {
		t.Errorf("repository 2 dev = %+v, want %+v (at the default branch's commit)", got, want)
	}
	if !rows[emulator.Fleet(1).Name].Files[".github/workflows/release.yaml"] {
		t.Errorf("repository 1 files = %v, want release.yaml", rows[emulator.Fleet(1).Name].Files)
	}
}

// The operator's own tiers, from the config file's TOML, replace the
// default: only the files and branches they name are signals. A named
// repository that does not exist is a row that failed, repo_not_found.
func TestReportSecurityAlertsClassifyCustomTiers(t *testing.T) {
	t.Parallel()
	var file struct {
		Reports struct {
			Classify tiers.Rules `toml:"classify"`
		} `toml:"reports"`
	}
	const config = `
[[reports.classify.tier]]
name = "go_next"
files_all = ["go.mod", "main.go"]
branches_any = ["next"]

[[reports.classify.tier]]
name = "go_module"
files_any = ["go.mod"]
`
	if _, err := toml.Decode(config, &file); err != nil {
		t.Fatal(err)
	}
	rules := file.Reports.Classify
	if err := rules.Validate("reports.classify"); err != nil {
		t.Fatalf("Validate = %v, want nil", err)
	}
	env := fleetEnv(t, 6, servertest.Options{Tiers: rules})
	seedTiers(t, env)
	out := alerts(t, env, map[string]any{"owner": "fleet", "repos": []string{emulator.Fleet(0).Name, emulator.Fleet(1).Name, "no-such-repo"},
		"types": []string{"dependabot"}, "classify": true})
	rows := tierRows(t, out)
	missing := rows["no-such-repo"]
	if missing.Failed != "repo_not_found" {
		t.Errorf("a missing repository's row: failed = %q, want %q", missing.Failed, "repo_not_found")
	}
	if missing.Tier != "" {
		t.Errorf("a missing repository's row: tier = %q, want none", missing.Tier)
	}
	if missing.Files != nil {
		t.Errorf("a missing repository's row: files = %v, want none", missing.Files)
	}
	if got := rows[emulator.Fleet(0).Name].Tier; got != "go_next" {
		t.Errorf("repository 0: tier = %q, want go_next", got)
	}
	r1 := rows[emulator.Fleet(1).Name]
	if r1.Tier != "go_module" {
		t.Errorf("repository 1: tier = %q, want go_module", r1.Tier)
	}
	if want := map[string]bool{"go.mod": true, "main.go": true}; !maps.Equal(r1.Files, want) {
		t.Errorf("repository 1 files = %v, want %v", r1.Files, want)
	}
	if _, ok := r1.Branches["next"]; !ok {
		t.Errorf("repository 1 branches = %v, want next among them", r1.Branches)
	}
	if len(r1.Branches) != 1 {
		t.Errorf("repository 1 branches = %d, want 1 (next only)", len(r1.Branches))
	}
}

// classify's queries are spent from max_api_calls: a budget that reads
// the lists and two repositories' signals stops there, and next_call,
// taken as given, classifies the rest, each repository once.
func TestReportSecurityAlertsClassifyCountsCalls(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 6, servertest.Options{})
	seedTiers(t, env)
	var named []string
	for i := range 4 {
		named = append(named, emulator.Fleet(i).Name)
	}
	// Each named repository: its lookup and its Dependabot list (8
	// calls), then two of the four queries.
	const budget = 10
	outs := follow(t, env, alertsTool, map[string]any{"owner": "fleet", "repos": named, "types": []string{"dependabot"},
		"classify": true, "max_api_calls": budget}, func(o reports.AlertsOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall })
	if len(outs) < 2 {
		t.Fatalf("calls = %d, want at least 2 (the budget stops the first)", len(outs))
	}
	if got := outs[0].TruncatedReason; got != "max_api_calls" {
		t.Errorf("first call truncated_reason = %q, want max_api_calls", got)
	}
	if got := len(outs[0].Tiers); got != budget-8 {
		t.Errorf("first call classified %d, want %d (the budget left after the lists)", got, budget-8)
	}
	seen := map[string]int{}
	for i, o := range outs {
		if o.APICalls > budget {
			t.Errorf("call %d: api_calls = %d, want at most %d (max_api_calls)", i, o.APICalls, budget)
		}
		for _, r := range o.Tiers {
			seen[r.Repo]++
		}
	}
	for _, name := range named {
		if seen[name] != 1 {
			t.Errorf("%s classified %d times, want once", name, seen[name])
		}
	}
}
