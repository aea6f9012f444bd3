package fidelity

import (
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// workflowSteps drive the Actions workflow routes: the CI workflow known
// from the fixtures' run, a workflow file that declares workflow_dispatch
// (committed by a step first), and a run still in progress to cancel.
func workflowSteps(w *world, fx reportsFixtures) []step {
	const repo = "/repos/acme/widgets"
	st := w.srv.Emu.State()
	st.Lock()
	widgets := st.Repo("acme", "widgets")
	pending := st.AddWorkflowRun(widgets, "CI", ".github/workflows/ci.yml", "push", "main", widgets.Git.Branches["main"].SHA,
		st.Account("bob"), nil, epoch.Add(70*time.Hour))
	st.AddJob(pending, "build", "", epoch.Add(70*time.Hour), []state.StepSpec{{Name: "Set up job", Conclusion: ""}}, nil)
	st.Unlock()
	release := "name: Release\non:\n  workflow_dispatch:\n    inputs:\n      version: {required: true}\njobs:\n  publish: {runs-on: ubuntu-latest}\n"
	runPath := fmt.Sprintf("%s/actions/runs/%d", repo, fx.run.ID)
	return []step{
		{"PUT", repo + "/contents/.github/workflows/release.yml", tokBob, map[string]any{
			"message": "Add the release workflow", "content": base64.StdEncoding.EncodeToString([]byte(release)), "branch": "main"}, 201},
		{"GET", repo + "/actions/workflows?per_page=1", tokCarol, nil, 200},
		{"GET", repo + "/actions/workflows/ci.yml", tokCarol, nil, 200},
		{"GET", repo + fmt.Sprintf("/actions/workflows/%d", fx.run.WorkflowID), tokCarol, nil, 200},
		{"GET", repo + "/actions/workflows/ci.yml/runs?status=completed&created=%3E%3D2025-01-01&exclude_pull_requests=true", tokCarol, nil, 200},
		{"PUT", repo + "/actions/workflows/ci.yml/disable", tokBob, nil, 204},
		{"PUT", repo + "/actions/workflows/ci.yml/enable", tokBob, nil, 204},
		{"POST", repo + "/actions/workflows/release.yml/dispatches", tokBob, map[string]any{"ref": "main", "inputs": map[string]any{"version": "1.2.0"}}, 204},
		{"POST", repo + "/actions/workflows/release.yml/dispatches", tokBob, map[string]any{"ref": "main", "return_run_details": true}, 200},
		{"GET", runPath + "/artifacts", tokCarol, nil, 200},
		{"GET", runPath + "/timing", tokCarol, nil, 200},
		{"GET", runPath + "/logs", tokCarol, nil, 302},
		{"POST", fmt.Sprintf("%s/actions/runs/%d/cancel", repo, pending.ID), tokBob, nil, 202},
		{"POST", fmt.Sprintf("%s/actions/runs/%d/rerun", repo, pending.ID), tokBob, map[string]any{"enable_debug_logging": false}, 201},
		{"DELETE", runPath + "/logs", tokBob, nil, 204},
		{"POST", runPath + "/rerun-failed-jobs", tokBob, nil, 201},
		{"GET", runPath, tokCarol, nil, 200},
		{"DELETE", fmt.Sprintf("%s/actions/runs/%d", repo, pending.ID), tokCarol, nil, 403},
		{"DELETE", fmt.Sprintf("%s/actions/runs/%d", repo, pending.ID), tokBob, nil, 204},
		{"GET", fmt.Sprintf("%s/actions/runs/%d", repo, pending.ID), tokCarol, nil, 404},
	}
}

// activitySteps drive the README, starring, review-reply and notification
// routes.
func activitySteps(t *testing.T, w *world) []step {
	t.Helper()
	const repo = "/repos/acme/widgets"
	st := w.srv.Emu.State()
	st.Lock()
	widgets := st.Repo("acme", "widgets")
	pull := widgets.Issue(7).Pull
	threads := pull.Threads
	// A line of pull request 7's diff to start a review thread on.
	path, line := "", 0
	for _, fc := range pull.Changes() {
		for n := 1; n < 500 && path == ""; n++ {
			if pull.LineInDiff(fc.Path, n) {
				path, line = fc.Path, n
			}
		}
	}
	head := pull.Head.SHA
	// bob is assigned issue 2: a notification thread of his.
	assigned := widgets.Issue(2)
	assigned.Assignees = append(assigned.Assignees, st.Account("bob"))
	st.Unlock()
	thread := "/notifications/threads/" + fmt.Sprint(assigned.ID)
	if len(threads) == 0 {
		t.Fatal("pull request 7 has no review thread to reply in")
	}
	comment := fmt.Sprint(threads[0].Comments[0].ID)
	return []step{
		{"PUT", repo + "/contents/docs/README.md", tokBob, map[string]any{
			"message": "Docs index", "content": base64.StdEncoding.EncodeToString([]byte("# Docs\n")), "branch": "main"}, 201},
		{"GET", repo + "/readme", tokCarol, nil, 200},
		{"GET", repo + "/readme/docs?ref=main", tokCarol, nil, 200},
		{"PUT", "/user/starred/acme/widgets", tokCarol, nil, 204},
		{"PUT", "/user/starred/acme/vault", tokBob, nil, 204},
		{"GET", "/user/starred/acme/widgets", tokCarol, nil, 204},
		{"GET", "/user/starred?sort=created&direction=desc", tokCarol, nil, 200},
		{"GET", "/users/bob/starred", tokAlice, nil, 200},
		{"GET", repo + "/stargazers", tokAlice, nil, 200},
		{"DELETE", "/user/starred/acme/vault", tokBob, nil, 204},
		{"POST", repo + "/pulls/7/comments/" + comment + "/replies", tokCarol, map[string]any{"body": "Agreed, capped at 9:1 now."}, 201},
		{"POST", repo + "/pulls/7/comments", tokCarol, map[string]any{"body": "And documented?", "in_reply_to": threads[0].Comments[0].ID}, 201},
		{"POST", repo + "/pulls/7/comments", tokBob, map[string]any{"body": "Name this constant.", "commit_id": head, "path": path, "line": line, "side": "RIGHT"}, 201},
		{"POST", repo + "/pulls/comments/" + comment + "/reactions", tokCarol, map[string]any{"content": "rocket"}, 201},
		{"GET", repo + "/pulls/comments/" + comment + "/reactions?content=rocket", tokCarol, nil, 200},

		{"GET", "/notifications?all=true&participating=true&since=2020-01-01T00:00:00Z", tokBob, nil, 200},
		{"GET", repo + "/notifications?per_page=5", tokBob, nil, 200},
		{"GET", thread, tokBob, nil, 200},
		{"PATCH", thread, tokBob, nil, 205},
		{"DELETE", thread, tokBob, nil, 204},
		{"PUT", repo + "/notifications", tokBob, map[string]any{"last_read_at": "2030-01-01T00:00:00Z"}, 205},
		{"PUT", "/notifications", tokBob, map[string]any{"read": true}, 205},
		{"GET", thread + "/subscription", tokBob, nil, 200},
		{"PUT", thread + "/subscription", tokBob, map[string]any{"ignored": true}, 200},
		{"DELETE", thread + "/subscription", tokBob, nil, 204},
		{"PUT", repo + "/subscription", tokBob, map[string]any{"subscribed": true}, 200},
		{"GET", repo + "/subscription", tokBob, nil, 200},
		{"DELETE", repo + "/subscription", tokBob, nil, 204},
	}
}
