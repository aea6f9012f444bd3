package fidelity

import (
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// reportsFixtures are what the routes reports read, added to the small
// world: a CI run on pull request 7's head (one job failed with a log),
// alerts of each kind on acme/widgets, and alice as acme's owner with a
// classic token's scopes, so the organization lists answer her.
type reportsFixtures struct {
	run *state.WorkflowRun
	job *state.CheckRun
}

func addReportsFixtures(t *testing.T, w *world) reportsFixtures {
	t.Helper()
	st := w.srv.Emu.State()
	st.Lock()
	defer st.Unlock()
	widgets := st.Repo("acme", "widgets")
	alice, acme := st.Account("alice"), st.Account("acme")
	// A classic token (scopes set), so the organization alert lists and
	// the boards both answer it.
	st.Token(tokAlice).Scopes = []string{"repo", "read:org", "project"}
	st.SetOrgRole(acme, alice, state.OrgRoleOwner)
	pr := widgets.Issue(7)
	at := epoch.Add(60 * time.Hour)
	run := st.AddWorkflowRun(widgets, "CI", ".github/workflows/ci.yml", "pull_request", pr.Pull.HeadRef, pr.Pull.Head.SHA, pr.User, pr, at)
	steps := []state.StepSpec{{Name: "Set up job", Conclusion: "success", Took: time.Second}, {Name: "Run tests", Conclusion: "failure", Took: time.Minute}}
	st.AddJob(run, "build", "success", at, steps[:1], func() string { return "ok\n" })
	job := st.AddJob(run, "test", "failure", at, steps, func() string { return "--- FAIL: TestMaxRatio\nFAIL\n" })
	st.AddDependabotAlert(widgets, &state.DependabotAlert{State: "open", Package: "lodash", Ecosystem: "npm", Manifest: "package-lock.json",
		Scope: "runtime", GHSA: "GHSA-emu1-0000-0001", CVE: "CVE-2025-00001", Severity: "high", Summary: "Prototype pollution",
		VulnerableRange: "< 4.17.21", PatchedVersion: "4.17.21", CVSS: 7.4, CreatedAt: at})
	st.AddCodeScanningAlert(widgets, &state.CodeScanningAlert{State: "open", RuleID: "go/sql-injection", RuleName: "SQL injection",
		RuleDescription: "Query built from user input", Severity: "error", SecuritySeverity: "critical", Tool: "CodeQL", ToolVersion: "2.20.1",
		Path: "gears/ratio.go", StartLine: 3, EndLine: 3, CommitSHA: pr.Pull.Head.SHA, Message: "Query built from user input.", CreatedAt: at})
	st.AddSecretScanningAlert(widgets, &state.SecretScanningAlert{State: "open", SecretType: "github_personal_access_token",
		SecretTypeDisplayName: "GitHub Personal Access Token", Provider: "GitHub", Secret: emulator.FleetCanarySecret, Validity: "active",
		Path: "deploy.env", Line: 1, CommitSHA: pr.Pull.Head.SHA, CreatedAt: at})
	return reportsFixtures{run: run, job: job}
}
