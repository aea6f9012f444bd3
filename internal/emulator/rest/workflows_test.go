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
	if list.TotalCount != 1 || len(list.Workflows) != 1 || list.Workflows[0].Name != "CI" || list.Workflows[0].Path != ".github/workflows/ci.yml" || list.Workflows[0].State != "active" {
		t.Fatalf("workflows = %+v", list)
	}
	ci := list.Workflows[0]
	var byFile, byID workflowReply
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	getJSON(t, fmt.Sprintf("%s/actions/workflows/%d", base, ci.ID), read, &byID)
	if byFile != ci || byID != ci {
		t.Errorf("by file %+v, by id %+v, listed %+v", byFile, byID, ci)
	}
	// Every run of the repository is a CI run, and names the workflow.
	var all, ofCI runsReply
	getJSON(t, base+"/actions/runs?per_page=100", read, &all)
	getJSON(t, base+"/actions/workflows/ci.yml/runs?per_page=100", read, &ofCI)
	if all.TotalCount == 0 || ofCI.TotalCount != all.TotalCount {
		t.Fatalf("runs of CI: %d, runs: %d", ofCI.TotalCount, all.TotalCount)
	}
	for _, r := range all.WorkflowRuns {
		if r.WorkflowID != ci.ID {
			t.Errorf("run %d names workflow %d, want %d", r.ID, r.WorkflowID, ci.ID)
		}
	}
	page := get(t, base+"/actions/workflows/ci.yml/runs?per_page=2", read)
	if !nextLink.Match([]byte(page.header.Get("Link"))) {
		t.Errorf("runs of a workflow, page 1 of many: Link %q", page.header.Get("Link"))
	}

	// Refusals, in GitHub's shapes.
	if r := get(t, base+"/actions/workflows/nope.yml", read); r.status != http.StatusNotFound || !strings.Contains(string(r.body), `"message":"Not Found"`) {
		t.Errorf("unknown workflow: %d %s", r.status, r.body)
	}
	if r := send(t, "PUT", base+"/actions/workflows/ci.yml/disable", read, nil); r.status != http.StatusForbidden {
		t.Errorf("disable with read access: %d %s", r.status, r.body)
	}
	if r := send(t, "POST", base+"/actions/workflows/ci.yml/dispatches", write, map[string]any{"ref": "main"}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.body), "Workflow does not have 'workflow_dispatch' trigger") {
		t.Errorf("dispatch of a workflow without the trigger: %d %s", r.status, r.body)
	}

	// Disabling and enabling show in the workflow's state.
	if r := send(t, "PUT", base+"/actions/workflows/ci.yml/disable", write, nil); r.status != http.StatusNoContent {
		t.Fatalf("disable: %d %s", r.status, r.body)
	}
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	if byFile.State != "disabled_manually" {
		t.Errorf("disabled workflow's state = %q", byFile.State)
	}
	send(t, "PUT", base+"/actions/workflows/ci.yml/enable", write, nil)
	getJSON(t, base+"/actions/workflows/ci.yml", read, &byFile)
	if byFile.State != "active" {
		t.Errorf("re-enabled workflow's state = %q", byFile.State)
	}

	// A workflow file on the default branch is a workflow before it runs.
	release := "name: Release\non:\n  workflow_dispatch:\njobs:\n  publish: {runs-on: ubuntu-latest}\n"
	if r := send(t, "PUT", base+"/contents/.github/workflows/release.yml", write, map[string]any{
		"message": "Add the release workflow", "content": base64.StdEncoding.EncodeToString([]byte(release))}); r.status != http.StatusCreated {
		t.Fatalf("commit release.yml: %d %s", r.status, r.body)
	}
	first := getJSON(t, base+"/actions/workflows?per_page=1", read, &list)
	if list.TotalCount != 2 || len(list.Workflows) != 1 || !nextLink.Match([]byte(first.header.Get("Link"))) {
		t.Fatalf("workflows page 1: %+v, Link %q", list, first.header.Get("Link"))
	}
	getJSON(t, base+"/actions/workflows?per_page=1&page=2", read, &list)
	if len(list.Workflows) != 1 || list.Workflows[0].Name != "Release" || list.Workflows[0].Path != ".github/workflows/release.yml" {
		t.Fatalf("workflows page 2: %+v", list)
	}
	if r := send(t, "POST", base+"/actions/workflows/release.yml/dispatches", write, map[string]any{"ref": "no-such-branch"}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.body), "No ref found for: no-such-branch") {
		t.Errorf("dispatch on an unknown ref: %d %s", r.status, r.body)
	}
	if r := send(t, "POST", base+"/actions/workflows/release.yml/dispatches", write, map[string]any{"ref": "main"}); r.status != http.StatusNoContent {
		t.Fatalf("dispatch: %d %s", r.status, r.body)
	}
	var dispatched runsReply
	getJSON(t, base+"/actions/workflows/release.yml/runs", read, &dispatched)
	if dispatched.TotalCount != 1 || dispatched.WorkflowRuns[0].Event != "workflow_dispatch" || dispatched.WorkflowRuns[0].Status != "queued" {
		t.Fatalf("runs of the dispatched workflow: %+v", dispatched)
	}
	cancel := fmt.Sprintf("%s/actions/runs/%d/cancel", base, dispatched.WorkflowRuns[0].ID)
	if r := send(t, "POST", cancel, write, nil); r.status != http.StatusAccepted {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	getJSON(t, base+"/actions/workflows/release.yml/runs?status=cancelled", read, &dispatched)
	if dispatched.TotalCount != 1 || dispatched.WorkflowRuns[0].Status != "completed" {
		t.Errorf("cancelled run: %+v", dispatched)
	}
	if r := send(t, "POST", cancel, write, nil); r.status != http.StatusConflict || !strings.Contains(string(r.body), "Cannot cancel a workflow run that is completed.") {
		t.Errorf("cancel a completed run: %d %s", r.status, r.body)
	}
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
		t.Errorf("the deleted run is still listed: %+v", dispatched)
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
		t.Fatalf("no failed run: %+v", failed)
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
	if resp.StatusCode != http.StatusFound || !strings.Contains(loc, "/_emulator/logs/runs/") {
		t.Fatalf("run logs: %d Location %q", resp.StatusCode, loc)
	}
	archive, err := http.Get(loc)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(archive.Body)
	archive.Body.Close()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if archive.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("archive: %d %v", archive.StatusCode, err)
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
	if !strings.Contains(files["1_test.txt"], "--- FAIL:") || files["test/4_Run tests.txt"] != files["1_test.txt"] || files["test/1_Set up job.txt"] != "" {
		t.Errorf("archive files: %v", slices.Sorted(maps.Keys(files)))
	}
	if _, ok := files["test/2_Run actionscheckout@v4.txt"]; !ok {
		t.Errorf("a step name's slash is not dropped: %v", slices.Sorted(maps.Keys(files)))
	}
	if r, err := http.Get(strings.Replace(loc, "sig=", "sig=0", 1)); err != nil || r.StatusCode != http.StatusForbidden {
		t.Errorf("a tampered archive URL: %v %v", r.StatusCode, err)
	}
	// A run still in progress has no archive yet.
	var running runsReply
	getJSON(t, base+"/actions/runs?status=in_progress&per_page=1", tok, &running)
	if len(running.WorkflowRuns) == 1 {
		if r := get(t, fmt.Sprintf("%s/actions/runs/%d/logs", base, running.WorkflowRuns[0].ID), tok); r.status != http.StatusNotFound {
			t.Errorf("logs of a run in progress: %d", r.status)
		}
	} else {
		t.Error("no run in progress to ask for logs")
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
		t.Fatalf("want two failed runs: %+v", failed)
	}
	all, some := fmt.Sprintf("%s/actions/runs/%d", base, failed.WorkflowRuns[0].ID), fmt.Sprintf("%s/actions/runs/%d", base, failed.WorkflowRuns[1].ID)
	jobs := func(path string) []job {
		var out struct{ Jobs []job }
		getJSON(t, path+"/jobs", read, &out)
		return out.Jobs
	}
	before := jobs(some)

	if r := send(t, "POST", all+"/rerun", read, nil); r.status != http.StatusForbidden {
		t.Errorf("rerun with read access: %d", r.status)
	}
	if r := send(t, "POST", all+"/rerun", write, nil); r.status != http.StatusCreated || string(r.body) != "{}" {
		t.Fatalf("rerun: %d %s", r.status, r.body)
	}
	var got run
	getJSON(t, all, read, &got)
	if got.Status != "queued" || got.Conclusion != nil || got.RunAttempt != 2 || got.PreviousAttemptURL == nil || !strings.HasSuffix(*got.PreviousAttemptURL, "/attempts/1") {
		t.Errorf("re-run run: %+v", got)
	}
	for _, j := range jobs(all) {
		if j.Status != "queued" || j.Conclusion != nil {
			t.Errorf("a job of a re-run run: %+v", j)
		}
	}
	if r := send(t, "POST", all+"/rerun", write, nil); r.status != http.StatusForbidden || !strings.Contains(string(r.body), "This workflow is already running") {
		t.Errorf("rerun a queued run: %d %s", r.status, r.body)
	}

	if r := send(t, "POST", some+"/rerun-failed-jobs", write, nil); r.status != http.StatusCreated {
		t.Fatalf("rerun failed jobs: %d %s", r.status, r.body)
	}
	for i, j := range jobs(some) {
		failedBefore := before[i].Conclusion != nil && *before[i].Conclusion == "failure"
		if failedBefore != (j.Status == "queued") || (!failedBefore && (j.Conclusion == nil || *j.Conclusion != *before[i].Conclusion)) {
			t.Errorf("job %s: before %+v, after %+v", j.Name, before[i], j)
		}
	}

	// Deleting a completed run's logs: the archive and the job logs are gone.
	var done runsReply
	getJSON(t, base+"/actions/runs?status=success&per_page=1", read, &done)
	logs := fmt.Sprintf("%s/actions/runs/%d/logs", base, done.WorkflowRuns[0].ID)
	if r := send(t, "DELETE", logs, write, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete logs: %d %s", r.status, r.body)
	}
	if r := get(t, logs, read); r.status != http.StatusNotFound {
		t.Errorf("deleted logs: %d", r.status)
	}
	doneJobs := jobs(fmt.Sprintf("%s/actions/runs/%d", base, done.WorkflowRuns[0].ID))
	if r := get(t, fmt.Sprintf("%s/actions/jobs/%d/logs", base, doneJobs[0].ID), read); r.status != http.StatusNotFound {
		t.Errorf("a job's log after its run's logs were deleted: %d", r.status)
	}
	if r := send(t, "DELETE", all+"/logs", write, nil); r.status != http.StatusForbidden {
		t.Errorf("delete the logs of a queued run: %d %s", r.status, r.body)
	}
}
