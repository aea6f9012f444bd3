package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GitHub Actions: workflow runs, their jobs and the jobs' logs, and the
// check suites the runs are (rest/actions/workflow-runs, rest/actions/
// workflow-jobs, rest/checks/suites).

// simpleCommitJSON is GitHub's simple-commit: a run's head commit.
type simpleCommitJSON struct {
	ID        string        `json:"id"`
	TreeID    string        `json:"tree_id"`
	Message   string        `json:"message"`
	Timestamp string        `json:"timestamp"`
	Author    nameEmailJSON `json:"author"`
	Committer nameEmailJSON `json:"committer"`
}

type nameEmailJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// pullMinimalJSON is GitHub's pull-request-minimal.
type pullMinimalJSON struct {
	ID     int64          `json:"id"`
	Number int            `json:"number"`
	URL    string         `json:"url"`
	Head   pullRefMinJSON `json:"head"`
	Base   pullRefMinJSON `json:"base"`
}

type pullRefMinJSON struct {
	Ref  string `json:"ref"`
	SHA  string `json:"sha"`
	Repo struct {
		ID   int64  `json:"id"`
		URL  string `json:"url"`
		Name string `json:"name"`
	} `json:"repo"`
}

// workflowRunJSON is GitHub's workflow-run.
type workflowRunJSON struct {
	ID                 int64             `json:"id"`
	Name               string            `json:"name"`
	NodeID             string            `json:"node_id"`
	CheckSuiteID       int64             `json:"check_suite_id"`
	CheckSuiteNodeID   string            `json:"check_suite_node_id"`
	HeadBranch         *string           `json:"head_branch"`
	HeadSHA            string            `json:"head_sha"`
	Path               string            `json:"path"`
	DisplayTitle       string            `json:"display_title"`
	RunNumber          int               `json:"run_number"`
	RunAttempt         int               `json:"run_attempt"`
	Event              string            `json:"event"`
	Status             string            `json:"status"`
	Conclusion         *string           `json:"conclusion"`
	WorkflowID         int64             `json:"workflow_id"`
	URL                string            `json:"url"`
	HTMLURL            string            `json:"html_url"`
	PullRequests       []pullMinimalJSON `json:"pull_requests"`
	CreatedAt          string            `json:"created_at"`
	UpdatedAt          string            `json:"updated_at"`
	RunStartedAt       string            `json:"run_started_at"`
	Actor              *userJSON         `json:"actor"`
	TriggeringActor    *userJSON         `json:"triggering_actor"`
	JobsURL            string            `json:"jobs_url"`
	LogsURL            string            `json:"logs_url"`
	CheckSuiteURL      string            `json:"check_suite_url"`
	ArtifactsURL       string            `json:"artifacts_url"`
	CancelURL          string            `json:"cancel_url"`
	RerunURL           string            `json:"rerun_url"`
	PreviousAttemptURL *string           `json:"previous_attempt_url"`
	WorkflowURL        string            `json:"workflow_url"`
	ReferencedWorkflow []any             `json:"referenced_workflows"`
	HeadCommit         *simpleCommitJSON `json:"head_commit"`
	Repository         repoJSON          `json:"repository"`
	HeadRepository     repoJSON          `json:"head_repository"`
}

func (c *call) headCommit(r *state.Repo, sha string) *simpleCommitJSON {
	cm := r.Git.Commits[sha]
	if cm == nil {
		return nil
	}
	return &simpleCommitJSON{ID: cm.SHA, TreeID: cm.TreeSHA, Message: cm.Message, Timestamp: wire.Timestamp(cm.Committer.When),
		Author:    nameEmailJSON{Name: cm.Author.Name, Email: cm.Author.Email},
		Committer: nameEmailJSON{Name: cm.Committer.Name, Email: cm.Committer.Email}}
}

func (c *call) pullMinimal(is *state.Issue) pullMinimalJSON {
	p := is.Pull
	ref := func(repo *state.Repo, name, sha string) pullRefMinJSON {
		out := pullRefMinJSON{Ref: name, SHA: sha}
		out.Repo.ID, out.Repo.URL, out.Repo.Name = repo.ID, c.Links.Repo(repo), repo.Name
		return out
	}
	base := is.Repo.Git.Branches[p.BaseRef]
	baseSHA := p.Base.SHA
	if base != nil {
		baseSHA = base.SHA
	}
	return pullMinimalJSON{ID: is.ID, Number: is.Number, URL: c.Links.Repo(is.Repo) + "/pulls/" + itoa(is.Number),
		Head: ref(p.HeadRepo, p.HeadRef, p.Head.SHA), Base: ref(is.Repo, p.BaseRef, baseSHA)}
}

func (c *call) workflowRunJSON(w *state.WorkflowRun) workflowRunJSON {
	r := w.Repo
	u := c.Links.Repo(r) + "/actions/runs/" + strconv.FormatInt(w.ID, 10)
	title := w.Name
	if w.Pull != nil {
		title = w.Pull.Title
	} else if cm := r.Git.Commits[w.HeadSHA]; cm != nil {
		title, _, _ = strings.Cut(cm.Message, "\n")
	}
	branch := w.HeadBranch
	out := workflowRunJSON{ID: w.ID, Name: w.Name, NodeID: w.NodeID, CheckSuiteID: w.CheckSuiteID, CheckSuiteNodeID: w.CheckSuiteNodeID,
		HeadBranch: &branch, HeadSHA: w.HeadSHA, Path: w.Path, DisplayTitle: title, RunNumber: w.RunNumber, RunAttempt: w.Attempt,
		Event: w.Event, Status: w.Status(), Conclusion: w.Conclusion(), WorkflowID: w.WorkflowID, URL: u,
		HTMLURL:      c.Links.Web + "/" + r.FullName() + "/actions/runs/" + strconv.FormatInt(w.ID, 10),
		PullRequests: []pullMinimalJSON{}, CreatedAt: wire.Timestamp(w.CreatedAt), UpdatedAt: wire.Timestamp(w.UpdatedAt()),
		RunStartedAt: wire.Timestamp(w.StartedAt()), Actor: renderSimpleUser(c.Links, w.Actor), TriggeringActor: renderSimpleUser(c.Links, w.Actor),
		JobsURL: u + "/jobs", LogsURL: u + "/logs", CheckSuiteURL: c.Links.Repo(r) + "/check-suites/" + strconv.FormatInt(w.CheckSuiteID, 10),
		ArtifactsURL: u + "/artifacts", CancelURL: u + "/cancel", RerunURL: u + "/rerun",
		WorkflowURL: c.Links.Repo(r) + "/actions/workflows/" + strconv.FormatInt(w.WorkflowID, 10), ReferencedWorkflow: []any{},
		HeadCommit: c.headCommit(r, w.HeadSHA), Repository: c.repoJSON(r, false), HeadRepository: c.repoJSON(r, false)}
	if w.Attempt > 1 {
		prev := u + "/attempts/" + strconv.Itoa(w.Attempt-1)
		out.PreviousAttemptURL = &prev
	}
	// GitHub lists the open pull requests whose head is the run's commit.
	if w.Pull != nil && w.Pull.State == "open" && w.Pull.Pull.Head.SHA == w.HeadSHA && c.Req.URL.Query().Get("exclude_pull_requests") != "true" {
		out.PullRequests = append(out.PullRequests, c.pullMinimal(w.Pull))
	}
	return out
}

// runStatusMatches is the status filter: a status or a conclusion.
func runStatusMatches(w *state.WorkflowRun, want string) bool {
	if want == "" || w.Status() == want {
		return true
	}
	if cl := w.Conclusion(); cl != nil && *cl == want {
		return true
	}
	return false
}

// listWorkflowRuns is GET /repos/{o}/{r}/actions/runs.
func listWorkflowRuns(c *call) {
	if r := c.RepoFor(state.PermRead); r != nil {
		c.writeRuns(r, nil)
	}
}

// writeRuns answers a list of r's runs (those of workflow wf, or all when
// nil), newest first, filtered by branch, event, status (or conclusion),
// head_sha, actor, check_suite_id and created as GitHub does.
func (c *call) writeRuns(r *state.Repo, wf *state.Workflow) {
	q := c.Req.URL.Query()
	created := func(time.Time) bool { return true }
	// GitHub's description documents no error for this list: a created
	// value that is not a date qualifier filters nothing.
	if in, ok := search.DateRange(q.Get("created")); ok {
		created = in
	}
	var list []*state.WorkflowRun
	for _, w := range slices.Backward(r.Runs) {
		switch {
		case wf != nil && w.WorkflowID != wf.ID,
			q.Get("branch") != "" && w.HeadBranch != q.Get("branch"),
			q.Get("event") != "" && w.Event != q.Get("event"),
			q.Get("head_sha") != "" && w.HeadSHA != q.Get("head_sha"),
			q.Get("actor") != "" && (w.Actor == nil || !strings.EqualFold(w.Actor.Login, q.Get("actor"))),
			q.Get("check_suite_id") != "" && strconv.FormatInt(w.CheckSuiteID, 10) != q.Get("check_suite_id"),
			!runStatusMatches(w, q.Get("status")),
			!created(w.CreatedAt):
			continue
		}
		list = append(list, w)
	}
	out := struct {
		TotalCount   int               `json:"total_count"`
		WorkflowRuns []workflowRunJSON `json:"workflow_runs"`
	}{TotalCount: len(list), WorkflowRuns: []workflowRunJSON{}}
	for _, w := range paginate(c, list) {
		out.WorkflowRuns = append(out.WorkflowRuns, c.workflowRunJSON(w))
	}
	c.JSON(http.StatusOK, out)
}

// pathID reads a numeric path value; a malformed one answers 404.
func (c *call) pathID(name string) (int64, bool) {
	id, err := strconv.ParseInt(c.Req.PathValue(name), 10, 64)
	if err != nil {
		c.NotFound()
		return 0, false
	}
	return id, true
}

// runFor resolves {run_id} for reading the run.
func (c *call) runFor() *state.WorkflowRun { return c.runAt(state.PermRead) }

// runAt resolves {run_id} in a repository the token may use at need.
func (c *call) runAt(need state.Permission) *state.WorkflowRun {
	r := c.RepoFor(need)
	if r == nil {
		return nil
	}
	id, ok := c.pathID("run_id")
	if !ok {
		return nil
	}
	w := r.FindRun(id)
	if w == nil {
		c.NotFound()
	}
	return w
}

func getWorkflowRun(c *call) {
	if w := c.runFor(); w != nil {
		c.JSON(http.StatusOK, c.workflowRunJSON(w))
	}
}

// jobJSON is GitHub's job.
type jobJSON struct {
	ID              int64      `json:"id"`
	RunID           int64      `json:"run_id"`
	RunURL          string     `json:"run_url"`
	RunAttempt      int        `json:"run_attempt"`
	NodeID          string     `json:"node_id"`
	HeadSHA         string     `json:"head_sha"`
	URL             string     `json:"url"`
	HTMLURL         *string    `json:"html_url"`
	Status          string     `json:"status"`
	Conclusion      *string    `json:"conclusion"`
	CreatedAt       string     `json:"created_at"`
	StartedAt       string     `json:"started_at"`
	CompletedAt     *string    `json:"completed_at"`
	Name            string     `json:"name"`
	Steps           []stepJSON `json:"steps"`
	CheckRunURL     string     `json:"check_run_url"`
	Labels          []string   `json:"labels"`
	RunnerID        *int64     `json:"runner_id"`
	RunnerName      *string    `json:"runner_name"`
	RunnerGroupID   *int64     `json:"runner_group_id"`
	RunnerGroupName *string    `json:"runner_group_name"`
	WorkflowName    *string    `json:"workflow_name"`
	HeadBranch      *string    `json:"head_branch"`
}

type stepJSON struct {
	Name        string  `json:"name"`
	Status      string  `json:"status"`
	Conclusion  *string `json:"conclusion"`
	Number      int     `json:"number"`
	StartedAt   *string `json:"started_at"`
	CompletedAt *string `json:"completed_at"`
}

func (c *call) jobJSON(j *state.CheckRun) jobJSON {
	w := j.Run
	r := w.Repo
	html := c.Links.Web + wire.CheckRunPath(c.State, j)
	out := jobJSON{ID: j.ID, RunID: w.ID, RunURL: c.Links.Repo(r) + "/actions/runs/" + strconv.FormatInt(w.ID, 10), RunAttempt: w.Attempt,
		NodeID: j.NodeID, HeadSHA: j.HeadSHA, URL: c.Links.Repo(r) + "/actions/jobs/" + strconv.FormatInt(j.ID, 10), HTMLURL: &html,
		Status: j.Status, Conclusion: j.Conclusion, CreatedAt: wire.Timestamp(w.CreatedAt), StartedAt: wire.Timestamp(j.StartedAt),
		CompletedAt: wire.TimestampPtr(j.CompletedAt), Name: j.Name, Steps: []stepJSON{},
		CheckRunURL: c.Links.Repo(r) + "/check-runs/" + strconv.FormatInt(j.ID, 10), Labels: []string{"ubuntu-latest"},
		WorkflowName: &w.Name, HeadBranch: &w.HeadBranch}
	if j.Status != "queued" {
		// GitHub-hosted runners: one per job, in the Azure Pipelines group.
		id, group := int64(1000+j.ID%97), int64(2)
		name, gname := "GitHub Actions "+strconv.FormatInt(id, 10), "GitHub Actions"
		out.RunnerID, out.RunnerName, out.RunnerGroupID, out.RunnerGroupName = &id, &name, &group, &gname
	}
	for _, s := range j.Steps {
		out.Steps = append(out.Steps, stepJSON{Name: s.Name, Status: s.Status, Conclusion: s.Conclusion, Number: s.Number,
			StartedAt: wire.TimestampPtr(s.StartedAt), CompletedAt: wire.TimestampPtr(s.CompletedAt)})
	}
	return out
}

// listRunJobs is GET .../actions/runs/{run_id}/jobs; the emulator keeps
// one attempt per run, so filter=latest and filter=all agree.
func listRunJobs(c *call) {
	w := c.runFor()
	if w == nil {
		return
	}
	out := struct {
		TotalCount int       `json:"total_count"`
		Jobs       []jobJSON `json:"jobs"`
	}{TotalCount: len(w.Jobs), Jobs: []jobJSON{}}
	for _, j := range paginate(c, w.Jobs) {
		out.Jobs = append(out.Jobs, c.jobJSON(j))
	}
	c.JSON(http.StatusOK, out)
}

func (c *call) jobFor() *state.CheckRun {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return nil
	}
	id, ok := c.pathID("job_id")
	if !ok {
		return nil
	}
	j := r.FindJob(id)
	if j == nil {
		c.NotFound()
	}
	return j
}

func getJob(c *call) {
	if j := c.jobFor(); j != nil {
		c.JSON(http.StatusOK, c.jobJSON(j))
	}
}

// downloadJobLogs answers 302 to a short-lived signed URL the emulator
// serves without a token, as GitHub redirects to its log storage ("The URL
// expires after 1 minute"). A job that has not finished has no log yet.
func downloadJobLogs(c *call) {
	j := c.jobFor()
	if j == nil {
		return
	}
	if j.Status != "completed" || j.Run.LogsDeleted {
		c.NotFound()
		return
	}
	root := strings.TrimSuffix(c.Links.API, "/api/v3")
	c.W.Header().Set("Location", root+c.State.SignedLogPath(j.ID))
	c.W.WriteHeader(http.StatusFound)
}

// checkSuiteJSON is GitHub's check-suite.
type checkSuiteJSON struct {
	ID                   int64             `json:"id"`
	NodeID               string            `json:"node_id"`
	HeadBranch           *string           `json:"head_branch"`
	HeadSHA              string            `json:"head_sha"`
	Status               string            `json:"status"`
	Conclusion           *string           `json:"conclusion"`
	URL                  string            `json:"url"`
	Before               *string           `json:"before"`
	After                *string           `json:"after"`
	PullRequests         []pullMinimalJSON `json:"pull_requests"`
	App                  *actionsAppJSON   `json:"app"`
	Repository           repoJSON          `json:"repository"`
	CreatedAt            string            `json:"created_at"`
	UpdatedAt            string            `json:"updated_at"`
	HeadCommit           *simpleCommitJSON `json:"head_commit"`
	LatestCheckRunsCount int               `json:"latest_check_runs_count"`
	CheckRunsURL         string            `json:"check_runs_url"`
	Rerequestable        bool              `json:"rerequestable"`
	RunsRerequestable    bool              `json:"runs_rerequestable"`
}

// actionsAppJSON is the GitHub Actions App (an integration), which owns
// every workflow run's check suite.
type actionsAppJSON struct {
	ID          int64             `json:"id"`
	Slug        string            `json:"slug"`
	NodeID      string            `json:"node_id"`
	Owner       *userJSON         `json:"owner"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	ExternalURL string            `json:"external_url"`
	HTMLURL     string            `json:"html_url"`
	CreatedAt   string            `json:"created_at"`
	UpdatedAt   string            `json:"updated_at"`
	Permissions map[string]string `json:"permissions"`
	Events      []string          `json:"events"`
}

func (c *call) actionsApp() *actionsAppJSON {
	owner := &state.Account{ID: 9919, NodeID: "MDEyOk9yZ2FuaXphdGlvbjk5MTk=", Login: "github", IsOrg: true}
	return &actionsAppJSON{ID: 15368, Slug: "github-actions", NodeID: "MDM6QXBwMTUzNjg=", Owner: renderSimpleUser(c.Links, owner),
		Name: "GitHub Actions", Description: "Automate your workflow from idea to production",
		ExternalURL: "https://help.github.com/en/actions", HTMLURL: c.Links.Web + "/apps/github-actions",
		CreatedAt: "2018-07-30T09:30:17Z", UpdatedAt: "2024-04-10T20:33:16Z",
		Permissions: map[string]string{"actions": "write", "checks": "write", "contents": "write", "metadata": "read", "pull_requests": "write", "statuses": "write"},
		Events:      []string{"check_run", "check_suite", "pull_request", "push", "workflow_dispatch"}}
}

func (c *call) checkSuiteJSON(w *state.WorkflowRun) checkSuiteJSON {
	r := w.Repo
	u := c.Links.Repo(r) + "/check-suites/" + strconv.FormatInt(w.CheckSuiteID, 10)
	branch := w.HeadBranch
	var before *string
	if cm := r.Git.Commits[w.HeadSHA]; cm != nil && len(cm.Parents) > 0 {
		before = &cm.Parents[0].SHA
	}
	after := w.HeadSHA
	out := checkSuiteJSON{ID: w.CheckSuiteID, NodeID: w.CheckSuiteNodeID, HeadBranch: &branch, HeadSHA: w.HeadSHA, Status: w.Status(),
		Conclusion: w.Conclusion(), URL: u, Before: before, After: &after, PullRequests: []pullMinimalJSON{}, App: c.actionsApp(),
		Repository: c.repoJSON(r, false), CreatedAt: wire.Timestamp(w.CreatedAt), UpdatedAt: wire.Timestamp(w.UpdatedAt()),
		HeadCommit: c.headCommit(r, w.HeadSHA), LatestCheckRunsCount: len(w.Jobs), CheckRunsURL: u + "/check-runs",
		Rerequestable: true, RunsRerequestable: true}
	if w.Pull != nil && w.Pull.State == "open" && w.Pull.Pull.Head.SHA == w.HeadSHA {
		out.PullRequests = append(out.PullRequests, c.pullMinimal(w.Pull))
	}
	return out
}

// listCommitCheckSuites is GET .../commits/{ref}/check-suites: the
// suites of the workflow runs on the commit.
func listCommitCheckSuites(c *call) {
	r, _, cm := c.refCommit()
	if cm == nil {
		return
	}
	var list []*state.WorkflowRun
	for _, w := range r.Runs {
		if w.HeadSHA == cm.SHA {
			list = append(list, w)
		}
	}
	if name := c.Req.URL.Query().Get("check_name"); name != "" {
		list = slices.DeleteFunc(list, func(w *state.WorkflowRun) bool {
			return !slices.ContainsFunc(w.Jobs, func(j *state.CheckRun) bool { return j.Name == name })
		})
	}
	out := struct {
		TotalCount  int              `json:"total_count"`
		CheckSuites []checkSuiteJSON `json:"check_suites"`
	}{TotalCount: len(list), CheckSuites: []checkSuiteJSON{}}
	for _, w := range paginate(c, list) {
		out.CheckSuites = append(out.CheckSuites, c.checkSuiteJSON(w))
	}
	c.JSON(http.StatusOK, out)
}
