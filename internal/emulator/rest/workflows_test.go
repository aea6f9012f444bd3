package rest_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
)

type workflowReply struct {
	ID    int64
	Name  string
	Path  string
	State string
}

type runsReply struct {
	TotalCount   int `json:"total_count"`
	WorkflowRuns []struct {
		ID         int64
		WorkflowID int64 `json:"workflow_id"`
		Event      string
		Status     string
		Conclusion *string
	} `json:"workflow_runs"`
}

// TestRESTWorkflows reads acme/widgets' workflows as gh workflow list and
// run list do: the CI workflow its runs ran, then a dispatchable workflow
// committed to main, and drives enabling, dispatching and cancelling.
func TestRESTWorkflows(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	read, write := emulator.DemoTokenCarol, emulator.DemoTokenBob
	var list struct {
		TotalCount int `json:"total_count"`
		Workflows  []workflowReply
	}
	getJSON(t, base+"/actions/workflows", read, &list)
	if list.TotalCount != 1 {
		t.Fatalf("workflows total_count = %d, want 1", list.TotalCount)
	}
	if len(list.Workflows) != 1 {
		t.Fatalf("workflows listed: %d, want 1: %+v", len(list.Workflows), list.Workflows)
	}
	ci := list.Workflows[0]
	if ci.Name != "CI" {
		t.Fatalf("workflow name = %q, want %q", ci.Name, "CI")
	}
	if ci.Path != ".github/workflows/ci.yml" {
		t.Fatalf("workflow %s path = %q, want %q", ci.Name, ci.Path, ".github/workflows/ci.yml")
	}
	if ci.State != "active" {
		t.Fatalf("workflow %s state = %q, want %q", ci.Name, ci.State, "active")
	}
	var byFile, byID workflowReply
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	getJSON(t, fmt.Sprintf("%s/actions/workflows/%d", base, ci.ID), read, &byID)
	if diff := cmp.Diff(ci, byFile); diff != "" {
		t.Errorf("workflow by file name mismatch with the listed one (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ci, byID); diff != "" {
		t.Errorf("workflow by id mismatch with the listed one (-want +got):\n%s", diff)
	}
	// Every run of the repository is a CI run, and names the workflow.
	var all, ofCI runsReply
	getJSON(t, base+"/actions/runs?per_page=100", read, &all)
	getJSON(t, base+"/actions/workflows/ci.yml/runs?per_page=100", read, &ofCI)
	if all.TotalCount == 0 {
		t.Fatalf("runs total_count = 0, want some")
	}
	if ofCI.TotalCount != all.TotalCount {
		t.Fatalf("runs of CI total_count = %d, want all runs' %d", ofCI.TotalCount, all.TotalCount)
	}
	for _, r := range all.WorkflowRuns {
		if r.WorkflowID != ci.ID {
			t.Errorf("run %d names workflow %d, want %d", r.ID, r.WorkflowID, ci.ID)
		}
	}
	page := get(t, base+"/actions/workflows/ci.yml/runs?per_page=2", read)
	if !nextLink.Match([]byte(page.header.Get("Link"))) {
		t.Errorf("runs of a workflow, page 1 of many: Link = %q, want a rel=\"next\"", page.header.Get("Link"))
	}

	// Refusals, in GitHub's shapes.
	checkReply(t, "unknown workflow", get(t, base+"/actions/workflows/nope.yml", read), http.StatusNotFound, `"message":"Not Found"`)
	if r := send(t, "PUT", base+"/actions/workflows/ci.yml/disable", read, nil); r.status != http.StatusForbidden {
		t.Errorf("disable with read access: status %d, want %d: %s", r.status, http.StatusForbidden, r.body)
	}
	checkReply(t, "dispatch of a workflow without the trigger",
		send(t, "POST", base+"/actions/workflows/ci.yml/dispatches", write, map[string]any{"ref": "main"}),
		http.StatusUnprocessableEntity, "Workflow does not have 'workflow_dispatch' trigger")

	// Disabling and enabling show in the workflow's state.
	if r := send(t, "PUT", base+"/actions/workflows/ci.yml/disable", write, nil); r.status != http.StatusNoContent {
		t.Fatalf("disable: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	if byFile.State != "disabled_manually" {
		t.Errorf("disabled workflow's state = %q, want %q", byFile.State, "disabled_manually")
	}
	send(t, "PUT", base+"/actions/workflows/ci.yml/enable", write, nil)
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	if byFile.State != "active" {
		t.Errorf("re-enabled workflow's state = %q, want %q", byFile.State, "active")
	}

	// A workflow file on the default branch is a workflow before it runs.
	release := "name: Release\non:\n  workflow_dispatch:\njobs:\n  publish: {runs-on: ubuntu-latest}\n"
	if r := send(t, "PUT", base+"/contents/.github/workflows/release.yml", write, map[string]any{
		"message": "Add the release workflow", "content": base64.StdEncoding.EncodeToString([]byte(release))}); r.status != http.StatusCreated {
		t.Fatalf("commit release.yml: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	first := getJSON(t, base+"/actions/workflows?per_page=1", read, &list)
	if list.TotalCount != 2 {
		t.Fatalf("workflows page 1: total_count = %d, want 2", list.TotalCount)
	}
	if len(list.Workflows) != 1 {
		t.Fatalf("workflows page 1: %d listed, want 1: %+v", len(list.Workflows), list.Workflows)
	}
	if link := first.header.Get("Link"); !nextLink.MatchString(link) {
		t.Fatalf("workflows page 1: Link = %q, want a rel=\"next\"", link)
	}
	getJSON(t, base+"/actions/workflows?per_page=1&page=2", read, &list)
	if len(list.Workflows) != 1 {
		t.Fatalf("workflows page 2: %d listed, want 1: %+v", len(list.Workflows), list.Workflows)
	}
	if w := list.Workflows[0]; w.Name != "Release" {
		t.Fatalf("workflows page 2: name = %q, want %q", w.Name, "Release")
	}
	if w := list.Workflows[0]; w.Path != ".github/workflows/release.yml" {
		t.Fatalf("workflows page 2: path = %q, want %q", w.Path, ".github/workflows/release.yml")
	}
	checkReply(t, "dispatch on an unknown ref",
		send(t, "POST", base+"/actions/workflows/release.yml/dispatches", write, map[string]any{"ref": "no-such-branch"}),
		http.StatusUnprocessableEntity, "No ref found for: no-such-branch")
	if r := send(t, "POST", base+"/actions/workflows/release.yml/dispatches", write, map[string]any{"ref": "main"}); r.status != http.StatusNoContent {
		t.Fatalf("dispatch: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	var dispatched runsReply
	getJSON(t, base+"/actions/workflows/release.yml/runs", read, &dispatched)
	if dispatched.TotalCount != 1 {
		t.Fatalf("runs of the dispatched workflow: total_count = %d, want 1", dispatched.TotalCount)
	}
	if len(dispatched.WorkflowRuns) == 0 {
		t.Fatalf("runs of the dispatched workflow: none listed, want 1")
	}
	if run := dispatched.WorkflowRuns[0]; run.Event != "workflow_dispatch" {
		t.Fatalf("dispatched run event = %q, want %q", run.Event, "workflow_dispatch")
	}
	if run := dispatched.WorkflowRuns[0]; run.Status != "queued" {
		t.Fatalf("dispatched run status = %q, want %q", run.Status, "queued")
	}
	cancel := fmt.Sprintf("%s/actions/runs/%d/cancel", base, dispatched.WorkflowRuns[0].ID)
	if r := send(t, "POST", cancel, write, nil); r.status != http.StatusAccepted {
		t.Fatalf("cancel: status %d, want %d: %s", r.status, http.StatusAccepted, r.body)
	}
	getJSON(t, base+"/actions/workflows/release.yml/runs?status=cancelled", read, &dispatched)
	if dispatched.TotalCount != 1 {
		t.Errorf("cancelled runs: total_count = %d, want 1", dispatched.TotalCount)
	}
	if len(dispatched.WorkflowRuns) == 0 {
		t.Errorf("cancelled runs: none listed, want the cancelled run")
	} else if got := dispatched.WorkflowRuns[0].Status; got != "completed" {
		t.Errorf("cancelled run status = %q, want %q", got, "completed")
	}
	checkReply(t, "cancel a completed run", send(t, "POST", cancel, write, nil),
		http.StatusConflict, "Cannot cancel a workflow run that is completed.")
	runPath := strings.TrimSuffix(cancel, "/cancel")
	if r := send(t, "DELETE", runPath, read, nil); r.status != http.StatusForbidden && r.status != http.StatusNotFound {
		t.Errorf("a reader deletes a run: %d %s, want 403 or 404", r.status, r.body)
	}
	if r := send(t, "DELETE", runPath, write, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete the run: %d %s, want 204", r.status, r.body)
	}
	if r := send(t, "GET", runPath, read, nil); r.status != http.StatusNotFound {
		t.Errorf("the deleted run: %d, want 404", r.status)
	}
	getJSON(t, base+"/actions/workflows/release.yml/runs", read, &dispatched)
	if dispatched.TotalCount != 0 {
		t.Errorf("runs after the delete: total_count = %d, want 0: %+v", dispatched.TotalCount, dispatched)
	}
}

// TestRESTRunLogs downloads a failed run's logs archive as gh run view
// --log does: a 302 to a signed URL, a zip with each job's log whole and
// per step, the job's log under its failed step.
func TestRESTRunLogs(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	tok := emulator.DemoTokenCarol
	var failed runsReply
	getJSON(t, base+"/actions/runs?status=failure&per_page=1", tok, &failed)
	if len(failed.WorkflowRuns) != 1 {
		t.Fatalf("failed runs, per_page=1: %d, want 1: %+v", len(failed.WorkflowRuns), failed)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/actions/runs/%d/logs", base, failed.WorkflowRuns[0].ID), nil)
	req.Header.Set("Authorization", "token "+tok)
	resp, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("run logs: status %d, want %d", resp.StatusCode, http.StatusFound)
	}
	if !strings.Contains(loc, "/_emulator/logs/runs/") {
		t.Fatalf("run logs: Location = %q, want a /_emulator/logs/runs/ URL", loc)
	}
	archive, err := http.Get(loc)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(archive.Body)
	archive.Body.Close()
	if archive.StatusCode != http.StatusOK {
		t.Fatalf("archive: status %d, want %d", archive.StatusCode, http.StatusOK)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("archive: not a zip: %v", err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	names := slices.Sorted(maps.Keys(files))
	if !strings.Contains(files["1_test.txt"], "--- FAIL:") {
		t.Errorf("1_test.txt = %q, want a \"--- FAIL:\" (archive files %v)", files["1_test.txt"], names)
	}
	if files["test/4_Run tests.txt"] != files["1_test.txt"] {
		t.Errorf("test/4_Run tests.txt = %q, want the job's log 1_test.txt %q (archive files %v)", files["test/4_Run tests.txt"], files["1_test.txt"], names)
	}
	if got := files["test/1_Set up job.txt"]; got != "" {
		t.Errorf("test/1_Set up job.txt = %q, want empty (archive files %v)", got, names)
	}
	if _, ok := files["test/2_Run actionscheckout@v4.txt"]; !ok {
		t.Errorf("a step name's slash is not dropped: %v", slices.Sorted(maps.Keys(files)))
	}
	if r, err := http.Get(strings.Replace(loc, "sig=", "sig=0", 1)); err != nil {
		t.Errorf("a tampered archive URL: %v", err)
	} else if r.StatusCode != http.StatusForbidden {
		t.Errorf("a tampered archive URL: status %d, want %d", r.StatusCode, http.StatusForbidden)
	}
	// A run still in progress has no archive yet.
	var running runsReply
	getJSON(t, base+"/actions/runs?status=in_progress&per_page=1", tok, &running)
	if len(running.WorkflowRuns) == 1 {
		if r := get(t, fmt.Sprintf("%s/actions/runs/%d/logs", base, running.WorkflowRuns[0].ID), tok); r.status != http.StatusNotFound {
			t.Errorf("logs of a run in progress: status %d, want %d", r.status, http.StatusNotFound)
		}
	} else {
		t.Errorf("runs in progress, per_page=1: %d, want 1 to ask for logs", len(running.WorkflowRuns))
	}
}

// TestRESTRerun re-runs runs as gh run rerun does (all jobs, or the failed
// ones with --failed), deletes a run's logs, and checks GitHub's refusals.
func TestRESTRerun(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	read, write := emulator.DemoTokenCarol, emulator.DemoTokenBob
	type job struct {
		ID         int64
		Name       string
		Status     string
		Conclusion *string
	}
	type run struct {
		ID                 int64
		Status             string
		Conclusion         *string
		RunAttempt         int     `json:"run_attempt"`
		PreviousAttemptURL *string `json:"previous_attempt_url"`
	}
	var failed runsReply
	getJSON(t, base+"/actions/runs?status=failure&per_page=2", read, &failed)
	if len(failed.WorkflowRuns) != 2 {
		t.Fatalf("failed runs, per_page=2: %d, want 2: %+v", len(failed.WorkflowRuns), failed)
	}
	all, some := fmt.Sprintf("%s/actions/runs/%d", base, failed.WorkflowRuns[0].ID), fmt.Sprintf("%s/actions/runs/%d", base, failed.WorkflowRuns[1].ID)
	jobs := func(path string) []job {
		var out struct{ Jobs []job }
		getJSON(t, path+"/jobs", read, &out)
		return out.Jobs
	}
	before := jobs(some)

	if r := send(t, "POST", all+"/rerun", read, nil); r.status != http.StatusForbidden {
		t.Errorf("rerun with read access: status %d, want %d", r.status, http.StatusForbidden)
	}
	r := send(t, "POST", all+"/rerun", write, nil)
	if r.status != http.StatusCreated {
		t.Fatalf("rerun: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	if string(r.body) != "{}" {
		t.Fatalf("rerun: body %s, want {}", r.body)
	}
	var got run
	getJSON(t, all, read, &got)
	if got.Status != "queued" {
		t.Errorf("re-run run status = %q, want %q", got.Status, "queued")
	}
	if got.Conclusion != nil {
		t.Errorf("re-run run conclusion = %q, want null", *got.Conclusion)
	}
	if got.RunAttempt != 2 {
		t.Errorf("re-run run run_attempt = %d, want 2", got.RunAttempt)
	}
	if u := got.PreviousAttemptURL; u == nil || !strings.HasSuffix(*u, "/attempts/1") {
		t.Errorf("re-run run previous_attempt_url = %s, want one ending /attempts/1", fmtStrPtr(u))
	}
	for _, j := range jobs(all) {
		if j.Status != "queued" {
			t.Errorf("job %s of a re-run run: status %q, want %q", j.Name, j.Status, "queued")
		}
		if j.Conclusion != nil {
			t.Errorf("job %s of a re-run run: conclusion %q, want null", j.Name, *j.Conclusion)
		}
	}
	checkReply(t, "rerun a queued run", send(t, "POST", all+"/rerun", write, nil),
		http.StatusForbidden, "This workflow is already running")

	if r := send(t, "POST", some+"/rerun-failed-jobs", write, nil); r.status != http.StatusCreated {
		t.Fatalf("rerun failed jobs: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	for i, j := range jobs(some) {
		failedBefore := before[i].Conclusion != nil && *before[i].Conclusion == "failure"
		if queued := j.Status == "queued"; queued != failedBefore {
			t.Errorf("job %s (conclusion before %s): queued = %v, want %v (only failed jobs re-run)", j.Name, fmtStrPtr(before[i].Conclusion), queued, failedBefore)
		}
		if !failedBefore && (j.Conclusion == nil || *j.Conclusion != *before[i].Conclusion) {
			t.Errorf("job %s not re-run: conclusion %s, want the earlier %s", j.Name, fmtStrPtr(j.Conclusion), fmtStrPtr(before[i].Conclusion))
		}
	}

	// Deleting a completed run's logs: the archive and the job logs are gone.
	var done runsReply
	getJSON(t, base+"/actions/runs?status=success&per_page=1", read, &done)
	logs := fmt.Sprintf("%s/actions/runs/%d/logs", base, done.WorkflowRuns[0].ID)
	if r := send(t, "DELETE", logs, write, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete logs: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	if r := get(t, logs, read); r.status != http.StatusNotFound {
		t.Errorf("deleted logs: status %d, want %d", r.status, http.StatusNotFound)
	}
	doneJobs := jobs(fmt.Sprintf("%s/actions/runs/%d", base, done.WorkflowRuns[0].ID))
	if r := get(t, fmt.Sprintf("%s/actions/jobs/%d/logs", base, doneJobs[0].ID), read); r.status != http.StatusNotFound {
		t.Errorf("a job's log after its run's logs were deleted: status %d, want %d", r.status, http.StatusNotFound)
	}
	if r := send(t, "DELETE", all+"/logs", write, nil); r.status != http.StatusForbidden {
		t.Errorf("delete the logs of a queued run: status %d, want %d: %s", r.status, http.StatusForbidden, r.body)
	}
}
