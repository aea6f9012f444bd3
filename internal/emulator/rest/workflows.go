package rest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GitHub Actions workflows (rest/actions/workflows): the workflows of a
// repository as state.Repo.Workflows derives them from its workflow files
// and runs, their runs, enabling and disabling them, and dispatching one.
// The emulator has no runners: a dispatched run is queued and stays so
// until it is cancelled.

// workflowJSON is GitHub's workflow.
type workflowJSON struct {
	ID        int64  `json:"id"`
	NodeID    string `json:"node_id"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	State     string `json:"state"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	URL       string `json:"url"`
	HTMLURL   string `json:"html_url"`
	BadgeURL  string `json:"badge_url"`
}

func (c *call) workflowJSON(r *state.Repo, w *state.Workflow) workflowJSON {
	web := c.Links.Web + "/" + r.FullName()
	return workflowJSON{ID: w.ID, NodeID: w.NodeID, Name: w.Name, Path: w.Path, State: w.State,
		CreatedAt: wire.Timestamp(w.CreatedAt), UpdatedAt: wire.Timestamp(w.UpdatedAt),
		URL:      c.Links.Repo(r) + "/actions/workflows/" + strconv.FormatInt(w.ID, 10),
		HTMLURL:  web + "/blob/" + state.RepoDefaultBranch + "/" + w.Path,
		BadgeURL: web + "/workflows/" + url.PathEscape(w.Name) + "/badge.svg"}
}

// listWorkflows is GET /repos/{o}/{r}/actions/workflows, by id.
func listWorkflows(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	all := r.Workflows()
	out := struct {
		TotalCount int            `json:"total_count"`
		Workflows  []workflowJSON `json:"workflows"`
	}{TotalCount: len(all), Workflows: []workflowJSON{}}
	for _, w := range paginate(c, all) {
		out.Workflows = append(out.Workflows, c.workflowJSON(r, w))
	}
	c.JSON(http.StatusOK, out)
}

// workflowFor resolves {workflow_id}, an id or a file name, in a
// repository the token may use at need.
func (c *call) workflowFor(need state.Permission) (*state.Repo, *state.Workflow) {
	r := c.RepoFor(need)
	if r == nil {
		return nil, nil
	}
	w := r.FindWorkflow(c.Req.PathValue("workflow_id"))
	if w == nil {
		c.NotFound()
		return nil, nil
	}
	return r, w
}

func getWorkflow(c *call) {
	if r, w := c.workflowFor(state.PermRead); w != nil {
		c.JSON(http.StatusOK, c.workflowJSON(r, w))
	}
}

// listRunsOfWorkflow is GET .../actions/workflows/{workflow_id}/runs.
func listRunsOfWorkflow(c *call) {
	if r, w := c.workflowFor(state.PermRead); w != nil {
		c.writeRuns(r, w)
	}
}

func enableWorkflow(c *call)  { c.setWorkflowState("active") }
func disableWorkflow(c *call) { c.setWorkflowState("disabled_manually") }

func (c *call) setWorkflowState(st string) {
	if r, w := c.workflowFor(state.PermWrite); w != nil {
		r.SetWorkflowState(w, st)
		c.NoContent()
	}
}

// dispatchWorkflow is POST .../actions/workflows/{workflow_id}/dispatches:
// a workflow_dispatch run of the workflow on ref's commit, queued. GitHub
// refuses a workflow whose file has no workflow_dispatch trigger, a
// disabled one, and a ref that names no branch or tag.
func dispatchWorkflow(c *call) {
	r, w := c.workflowFor(state.PermWrite)
	if w == nil {
		return
	}
	var in struct {
		Ref              string         `json:"ref"`
		Inputs           map[string]any `json:"inputs"`
		ReturnRunDetails bool           `json:"return_run_details"`
	}
	if !c.Decode(&in) {
		return
	}
	const doc = "rest/actions/workflows#create-a-workflow-dispatch-event"
	if in.Ref == "" {
		c.Invalid("Invalid request.\n\n\"ref\" wasn't supplied.", doc)
		return
	}
	if !w.Dispatchable() {
		c.Invalid("Workflow does not have 'workflow_dispatch' trigger", doc)
		return
	}
	if w.State != "active" {
		c.Invalid("Cannot trigger a 'workflow_dispatch' on a disabled workflow", doc)
		return
	}
	g := c.State.EnsureGit(r)
	name := strings.TrimPrefix(strings.TrimPrefix(in.Ref, "refs/heads/"), "refs/tags/")
	head := g.Branches[name]
	if head == nil {
		head = g.Tags[name]
	}
	if head == nil {
		c.Invalid("No ref found for: "+in.Ref, doc)
		return
	}
	run := c.State.AddWorkflowRun(r, w.Name, w.Path, "workflow_dispatch", name, head.SHA, c.Viewer, nil, c.State.Now())
	if !in.ReturnRunDetails {
		c.NoContent()
		return
	}
	id := strconv.FormatInt(run.ID, 10)
	c.JSON(http.StatusOK, struct {
		WorkflowRunID int64  `json:"workflow_run_id"`
		RunURL        string `json:"run_url"`
		HTMLURL       string `json:"html_url"`
	}{run.ID, c.Links.Repo(r) + "/actions/runs/" + id, c.Links.Web + "/" + r.FullName() + "/actions/runs/" + id})
}

// cancelRun is POST .../actions/runs/{run_id}/cancel: 202 with an empty
// object, 409 for a run that has completed.
func cancelRun(c *call) {
	w := c.runAt(state.PermWrite)
	if w == nil {
		return
	}
	if !c.State.CancelRun(w) {
		c.Fail(http.StatusConflict, "Cannot cancel a workflow run that is completed.", "rest/actions/workflow-runs#cancel-a-workflow-run")
		return
	}
	c.JSON(http.StatusAccepted, struct{}{})
}

// deleteRun is DELETE .../actions/runs/{run_id}: anyone with write access
// may delete a run; 204, and the run is gone from every list.
func deleteRun(c *call) {
	w := c.runAt(state.PermWrite)
	if w == nil {
		return
	}
	c.State.DeleteRun(c.RepoFor(state.PermWrite), w)
	c.NoContent()
}

// listRunArtifacts is GET .../actions/runs/{run_id}/artifacts. The
// emulator's runs upload no artifacts, so the list is empty.
func listRunArtifacts(c *call) {
	if w := c.runFor(); w != nil {
		c.JSON(http.StatusOK, struct {
			TotalCount int   `json:"total_count"`
			Artifacts  []any `json:"artifacts"`
		}{0, []any{}})
	}
}

// usageJSON is GitHub's workflow-run-usage: billable time per runner OS
// (every emulated job runs on ubuntu-latest) and the run's duration.
type usageJSON struct {
	Billable struct {
		UBUNTU *osUsageJSON `json:"UBUNTU,omitempty"`
	} `json:"billable"`
	RunDurationMS *int64 `json:"run_duration_ms,omitempty"`
}

type osUsageJSON struct {
	TotalMS int64         `json:"total_ms"`
	Jobs    int           `json:"jobs"`
	JobRuns []jobUsageRun `json:"job_runs"`
}

type jobUsageRun struct {
	JobID      int64 `json:"job_id"`
	DurationMS int64 `json:"duration_ms"`
}

// getRunUsage is GET .../actions/runs/{run_id}/timing. GitHub bills each
// job rounded up to the minute; a job still running has no duration yet.
func getRunUsage(c *call) {
	w := c.runFor()
	if w == nil {
		return
	}
	var out usageJSON
	u := &osUsageJSON{JobRuns: []jobUsageRun{}}
	for _, j := range w.Jobs {
		if j.CompletedAt == nil {
			continue
		}
		ms := j.CompletedAt.Sub(j.StartedAt).Milliseconds()
		u.Jobs++
		u.TotalMS += (ms + 59_999) / 60_000 * 60_000
		u.JobRuns = append(u.JobRuns, jobUsageRun{JobID: j.ID, DurationMS: ms})
	}
	if u.Jobs > 0 {
		out.Billable.UBUNTU = u
	}
	if w.Status() == "completed" {
		d := w.UpdatedAt().Sub(w.StartedAt()).Milliseconds()
		out.RunDurationMS = &d
	}
	c.JSON(http.StatusOK, out)
}

// rerunRun is POST .../actions/runs/{run_id}/rerun: the run's next
// attempt, every job queued again; 201 with an empty object. GitHub
// refuses a run that is still going: 403 "This workflow is already
// running".
func rerunRun(c *call) { c.rerun(false) }

// rerunFailedJobs is POST .../actions/runs/{run_id}/rerun-failed-jobs: the
// next attempt runs the failed, cancelled and timed-out jobs again.
func rerunFailedJobs(c *call) { c.rerun(true) }

func (c *call) rerun(failedOnly bool) {
	w := c.runAt(state.PermWrite)
	if w == nil {
		return
	}
	// The emulator writes no debug logs; the option changes nothing else.
	var in struct {
		EnableDebugLogging bool `json:"enable_debug_logging"`
	}
	if !c.Decode(&in) {
		return
	}
	if !c.State.RerunRun(w, failedOnly) {
		c.Fail(http.StatusForbidden, "This workflow is already running", "rest/actions/workflow-runs#re-run-a-workflow")
		return
	}
	c.JSON(http.StatusCreated, struct{}{})
}

// deleteRunLogs is DELETE .../actions/runs/{run_id}/logs: the run's and
// its jobs' logs are gone (404) until a re-run writes new ones. A run still
// going has logs being written: refused.
func deleteRunLogs(c *call) {
	w := c.runAt(state.PermWrite)
	if w == nil {
		return
	}
	if w.Status() != "completed" {
		c.Fail(http.StatusForbidden, "Cannot delete the logs of a workflow run that has not completed", "rest/actions/workflow-runs#delete-workflow-run-logs")
		return
	}
	w.LogsDeleted = true
	c.NoContent()
}

// downloadRunLogs is GET .../actions/runs/{run_id}/logs: 302 to the run's
// logs archive at a signed URL that expires after a minute, as GitHub
// redirects to its log storage. A run that has not completed has no
// archive yet.
func downloadRunLogs(c *call) {
	w := c.runFor()
	if w == nil {
		return
	}
	if w.Status() != "completed" || w.LogsDeleted {
		c.NotFound()
		return
	}
	root := strings.TrimSuffix(c.Links.API, "/api/v3")
	c.W.Header().Set("Location", root+c.State.SignedRunLogPath(w.ID))
	c.W.WriteHeader(http.StatusFound)
}
