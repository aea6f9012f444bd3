package state

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// GitHub Actions as the REST API shows it: a workflow run is one check
// suite on a head commit, each of its jobs one check run, each job a list
// of steps and a log. The emulator keeps jobs as CheckRuns (so the
// check-runs, status rollup and mergeability views see them) with Run set.

// WorkflowRun is one run of a workflow file on a commit.
type WorkflowRun struct {
	ID     int64
	NodeID string
	// CheckSuiteID and CheckSuiteNodeID name the run's check suite.
	CheckSuiteID     int64
	CheckSuiteNodeID string
	Repo             *Repo
	// Name is the workflow's name ("CI"), Path its file, WorkflowID its id.
	Name       string
	Path       string
	WorkflowID int64
	RunNumber  int
	Attempt    int
	Event      string // pull_request | push | schedule | workflow_dispatch
	HeadBranch string
	HeadSHA    string
	Actor      *Account
	// Pull is the pull request that triggered the run, nil for none.
	Pull      *Issue
	CreatedAt time.Time
	Jobs      []*CheckRun
	// CancelledAt is when the run was cancelled, nil if it was not
	// (workflows.go): a run cancelled before any job started has no job
	// to carry the conclusion.
	CancelledAt *time.Time
	// LogsDeleted is set once the run's logs were deleted (workflows.go).
	LogsDeleted bool
}

// JobStep is one step of a job, numbered from 1.
type JobStep struct {
	Name        string
	Number      int
	Status      string  // queued | in_progress | completed
	Conclusion  *string // success | failure | cancelled | skipped, once completed
	StartedAt   *time.Time
	CompletedAt *time.Time
}

// Status is the run's: completed when all its jobs have finished,
// in_progress while any job runs, and queued before then (no job yet, or
// only finished ones and queued ones, as a re-run attempt starts).
func (w *WorkflowRun) Status() string {
	if w.CancelledAt != nil {
		return "completed"
	}
	out := "completed"
	if len(w.Jobs) == 0 {
		out = "queued"
	}
	for _, j := range w.Jobs {
		switch j.Status {
		case "in_progress":
			return "in_progress"
		case "queued":
			out = "queued"
		}
	}
	return out
}

// Conclusion sums the jobs' conclusions once the run is completed, as
// GitHub does: a failed, timed-out, cancelled or action-required job
// decides it (in that order), a run whose jobs were all skipped is
// skipped, and neutral and skipped jobs otherwise leave it a success.
func (w *WorkflowRun) Conclusion() *string {
	if w.Status() != "completed" {
		return nil
	}
	if w.CancelledAt != nil && len(w.Jobs) == 0 {
		c := "cancelled"
		return &c
	}
	seen := map[string]bool{}
	for _, j := range w.Jobs {
		seen[*j.Conclusion] = true
	}
	out := "success"
	switch {
	case seen["failure"]:
		out = "failure"
	case seen["timed_out"]:
		out = "timed_out"
	case seen["cancelled"]:
		out = "cancelled"
	case seen["action_required"]:
		out = "action_required"
	case len(seen) == 1 && seen["skipped"]:
		out = "skipped"
	}
	return &out
}

// UpdatedAt is when the run last changed: its last job's completion, or
// its creation while jobs run.
func (w *WorkflowRun) UpdatedAt() time.Time {
	at := w.CreatedAt
	for _, j := range w.Jobs {
		if j.CompletedAt != nil && j.CompletedAt.After(at) {
			at = *j.CompletedAt
		} else if j.StartedAt.After(at) {
			at = j.StartedAt
		}
	}
	return at
}

// StartedAt is when the run's first job started (its creation if none has).
func (w *WorkflowRun) StartedAt() time.Time {
	at := w.CreatedAt
	for i, j := range w.Jobs {
		if i == 0 || j.StartedAt.Before(at) {
			at = j.StartedAt
		}
	}
	return at
}

// AddWorkflowRun records a run of the workflow at path (named name) on a
// commit of r; its jobs are added with AddJob. Runs of one workflow are
// numbered from 1 per repository, and the workflow's id is that of its
// first run's suite, so every run of a file shares it.
func (s *State) AddWorkflowRun(r *Repo, name, path, event, branch, sha string, actor *Account, pull *Issue, created time.Time) *WorkflowRun {
	id := s.nextID()
	suite := s.nextID()
	w := &WorkflowRun{ID: id, NodeID: NodeID("WFR", id), CheckSuiteID: suite, CheckSuiteNodeID: NodeID("CS", suite),
		Repo: r, Name: name, Path: path, RunNumber: 1, Attempt: 1, Event: event, HeadBranch: branch, HeadSHA: sha,
		Actor: actor, Pull: pull, CreatedAt: created, WorkflowID: suite}
	for _, prev := range r.Runs {
		if prev.Path == path {
			w.WorkflowID = prev.WorkflowID
			w.RunNumber = prev.RunNumber + 1
		}
	}
	r.Runs = append(r.Runs, w)
	return w
}

// StepSpec is a step to record: its name and conclusion ("" while it
// runs, "queued" before it starts), and how long it took.
type StepSpec struct {
	Name       string
	Conclusion string
	Took       time.Duration
}

// AddJob records a job of run as a check run on the run's commit, with
// its steps run one after the other from started and its log (written
// when read). conclusion "" leaves the job in progress.
func (s *State) AddJob(run *WorkflowRun, name, conclusion string, started time.Time, steps []StepSpec, log func() string) *CheckRun {
	out, end := LayoutSteps(steps, started)
	cr := s.AddCheckRun(run.Repo, run.HeadSHA, run.Name, name, conclusion, started, end.Sub(started))
	cr.Run, cr.Steps, cr.Log = run, out, log
	run.Jobs = append(run.Jobs, cr)
	return cr
}

// LayoutSteps runs steps one after the other from started and returns
// them with when the last finished one ended.
func LayoutSteps(specs []StepSpec, started time.Time) ([]*JobStep, time.Time) {
	at := started
	var out []*JobStep
	for i, sp := range specs {
		st := &JobStep{Name: sp.Name, Number: i + 1, Status: "queued"}
		switch sp.Conclusion {
		case "queued":
		case "":
			begin := at
			st.Status, st.StartedAt = "in_progress", &begin
		default:
			begin, end := at, at.Add(sp.Took)
			c := sp.Conclusion
			st.Status, st.Conclusion, st.StartedAt, st.CompletedAt = "completed", &c, &begin, &end
			at = end
		}
		out = append(out, st)
	}
	return out, at
}

// FindRun finds a workflow run of r by id.
func (r *Repo) FindRun(id int64) *WorkflowRun {
	i := slices.IndexFunc(r.Runs, func(w *WorkflowRun) bool { return w.ID == id })
	if i < 0 {
		return nil
	}
	return r.Runs[i]
}

// FindJob finds a job of one of r's workflow runs by id.
func (r *Repo) FindJob(id int64) *CheckRun {
	for _, w := range r.Runs {
		for _, j := range w.Jobs {
			if j.ID == id {
				return j
			}
		}
	}
	return nil
}

// logURLLifetime is how long a signed log URL works, as GitHub's do.
const logURLLifetime = time.Minute

// SignedLogPath is the path, on the emulator's own host, of a job's log:
// signed and expiring like the storage URL GitHub redirects to, so it
// needs no token.
func (s *State) SignedLogPath(jobID int64) string {
	exp := s.Clock().Add(logURLLifetime).Unix()
	return "/_emulator/logs/jobs/" + strconv.FormatInt(jobID, 10) + "?expires=" + strconv.FormatInt(exp, 10) + "&sig=" + s.urlSig("jobs", jobID, exp)
}

// urlSig signs a storage URL for the object of this kind ("jobs",
// "runs", "assets") and id, valid until exp.
func (s *State) urlSig(kind string, id, exp int64) string {
	s.logKeyOnce.Do(func() {
		s.logKey = make([]byte, 32)
		_, _ = rand.Read(s.logKey)
	})
	m := hmac.New(sha256.New, s.logKey)
	fmt.Fprintf(m, "%s:%d:%d", kind, id, exp)
	return hex.EncodeToString(m.Sum(nil))
}

// SignedJobLog checks a signed log URL's values and returns the job's log;
// ok is false for a bad signature, an expired URL or an unknown job.
func (s *State) SignedJobLog(jobID int64, expires, sig string) (log string, ok bool) {
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || s.Clock().Unix() > exp || !hmac.Equal([]byte(sig), []byte(s.urlSig("jobs", jobID, exp))) {
		return "", false
	}
	for _, r := range s.repoOrder {
		if j := r.FindJob(jobID); j != nil {
			if j.Log == nil {
				return "", true
			}
			return j.Log(), true
		}
	}
	return "", false
}
