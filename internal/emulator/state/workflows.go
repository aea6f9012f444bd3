package state

import (
	"cmp"
	"hash/fnv"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A workflow is a YAML file under .github/workflows that Actions runs.
// GitHub lists a repository's workflows from the files on its default
// branch and the files its runs ran; the emulator derives them the same
// way, so a workflow's id, name and path agree with its runs' workflow_id,
// name and path.

// Workflow is one workflow of a repository.
type Workflow struct {
	ID     int64
	NodeID string
	Name   string
	Path   string
	// State is active or disabled_manually.
	State     string
	CreatedAt time.Time
	UpdatedAt time.Time
	// Source is the file's text on the default branch, "" when the
	// workflow is known only from its runs.
	Source string
}

// workflowDir is where Actions reads workflow files.
const workflowDir = ".github/workflows/"

// Workflows are r's workflows by id: each run's file (its id is the run's
// workflow_id), then each workflow file on the default branch that has not
// run. A file that has never run has no run to take an id from; its id is
// derived from the repository and the path, above the ids the emulator
// mints, so it stays the same from one request to the next.
func (r *Repo) Workflows() []*Workflow {
	var out []*Workflow
	byPath := map[string]*Workflow{}
	for _, run := range r.Runs {
		if byPath[run.Path] != nil {
			continue
		}
		w := &Workflow{ID: run.WorkflowID, NodeID: NodeID("W", run.WorkflowID), Name: run.Name, Path: run.Path,
			CreatedAt: run.CreatedAt, UpdatedAt: run.CreatedAt, Source: r.Files[run.Path]}
		byPath[run.Path] = w
		out = append(out, w)
	}
	for p, text := range r.Files {
		if !strings.HasPrefix(p, workflowDir) || strings.Contains(p[len(workflowDir):], "/") || byPath[p] != nil {
			continue
		}
		if ext := path.Ext(p); ext != ".yml" && ext != ".yaml" {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(r.NodeID + ":" + p))
		id := int64(1)<<40 + int64(h.Sum32())
		name := workflowName(text)
		if name == "" {
			name = p // GitHub names an unnamed workflow by its path
		}
		w := &Workflow{ID: id, NodeID: NodeID("W", id), Name: name, Path: p, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Source: text}
		byPath[p] = w
		out = append(out, w)
	}
	for _, w := range out {
		w.State = "active"
		if st := r.WorkflowStates[w.Path]; st != "" {
			w.State = st
		}
	}
	slices.SortFunc(out, func(a, b *Workflow) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// FindWorkflow finds a workflow by its id or its file name ("ci.yml"), as
// GitHub's workflow_id parameter takes either.
func (r *Repo) FindWorkflow(idOrFile string) *Workflow {
	for _, w := range r.Workflows() {
		if idOrFile == path.Base(w.Path) || idOrFile == strconv.FormatInt(w.ID, 10) {
			return w
		}
	}
	return nil
}

// SetWorkflowState enables ("active") or disables ("disabled_manually") a
// workflow.
func (r *Repo) SetWorkflowState(w *Workflow, st string) {
	if r.WorkflowStates == nil {
		r.WorkflowStates = map[string]string{}
	}
	r.WorkflowStates[w.Path] = st
	w.State = st
}

// Dispatchable reports whether the workflow's file declares the
// workflow_dispatch trigger, which a dispatch needs.
func (w *Workflow) Dispatchable() bool {
	for _, line := range strings.Split(w.Source, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		if strings.Contains(line, "workflow_dispatch") {
			return true
		}
	}
	return false
}

// workflowName reads a workflow file's top-level name: key.
func workflowName(text string) string {
	for _, line := range strings.Split(text, "\n") {
		v, ok := strings.CutPrefix(line, "name:")
		if !ok {
			continue
		}
		if i := strings.Index(v, " #"); i >= 0 {
			v = v[:i]
		}
		return strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return ""
}

// DeleteRun removes a workflow run from its repository: it is no longer
// listed or found, and its logs go with it.
func (s *State) DeleteRun(r *Repo, w *WorkflowRun) {
	r.Runs = slices.DeleteFunc(r.Runs, func(x *WorkflowRun) bool { return x == w })
}

// CancelRun cancels a run that has not completed: its unfinished jobs and
// steps conclude cancelled now. ok is false for a completed run.
func (s *State) CancelRun(w *WorkflowRun) bool {
	if w.Status() == "completed" {
		return false
	}
	now := s.Now()
	w.CancelledAt = &now
	for _, j := range w.Jobs {
		if j.Status == "completed" {
			continue
		}
		c := "cancelled"
		j.Status, j.Conclusion, j.CompletedAt = "completed", &c, &now
		for _, st := range j.Steps {
			if st.Status != "completed" {
				sc := "cancelled"
				if st.Status == "queued" {
					sc = "skipped"
				}
				st.Status, st.Conclusion, st.CompletedAt = "completed", &sc, &now
			}
		}
	}
	return true
}

// rerunnable are the conclusions rerun-failed-jobs runs again.
var rerunnable = []string{"failure", "cancelled", "timed_out", "startup_failure"}

// RerunRun starts the run's next attempt: every job again, or with
// failedOnly the failed, cancelled and timed-out ones, the others kept as
// they concluded. The emulator keeps one attempt per run (the latest) and
// has no runners, so the jobs run again stay queued. ok is false for a
// run that has not completed, which GitHub refuses to re-run.
func (s *State) RerunRun(w *WorkflowRun, failedOnly bool) bool {
	if w.Status() != "completed" {
		return false
	}
	w.Attempt++
	w.CancelledAt, w.LogsDeleted = nil, false
	for _, j := range w.Jobs {
		if failedOnly && (j.Conclusion == nil || !slices.Contains(rerunnable, *j.Conclusion)) {
			continue
		}
		j.Status, j.Conclusion, j.CompletedAt = "queued", nil, nil
		for _, st := range j.Steps {
			st.Status, st.Conclusion, st.StartedAt, st.CompletedAt = "queued", nil, nil, nil
		}
	}
	return true
}
