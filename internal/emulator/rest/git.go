package rest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// REST over a repository's git data: branches, refs, commits, and the
// statuses and check runs reported on commits.

type gitUserJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type shaURLJSON struct {
	SHA     string `json:"sha"`
	URL     string `json:"url"`
	HTMLURL string `json:"html_url,omitempty"`
}

type verificationJSON struct {
	Verified   bool    `json:"verified"`
	Reason     string  `json:"reason"`
	Payload    *string `json:"payload"`
	Signature  *string `json:"signature"`
	VerifiedAt *string `json:"verified_at"`
}

type gitCommitJSON struct {
	URL          string           `json:"url"`
	Author       gitUserJSON      `json:"author"`
	Committer    gitUserJSON      `json:"committer"`
	Message      string           `json:"message"`
	CommentCount int              `json:"comment_count"`
	Tree         shaURLJSON       `json:"tree"`
	Verification verificationJSON `json:"verification"`
}

type statsJSON struct {
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
	Total     int `json:"total"`
}

// commitJSON is GitHub's commit; Stats and Files are set for one commit.
type commitJSON struct {
	URL         string          `json:"url"`
	SHA         string          `json:"sha"`
	NodeID      string          `json:"node_id"`
	HTMLURL     string          `json:"html_url"`
	CommentsURL string          `json:"comments_url"`
	Commit      gitCommitJSON   `json:"commit"`
	Author      any             `json:"author"`
	Committer   any             `json:"committer"`
	Parents     []shaURLJSON    `json:"parents"`
	Stats       *statsJSON      `json:"stats,omitempty"`
	Files       []diffEntryJSON `json:"files,omitempty"`
}

func gitUser(s state.GitSignature) gitUserJSON {
	return gitUserJSON{Name: s.Name, Email: s.Email, Date: wire.Timestamp(s.When)}
}

// commitJSON renders a commit of r; full adds its stats and files, as the
// single-commit route does.
func (c *call) commitJSON(r *state.Repo, cm *state.GitCommit, full bool) *commitJSON {
	api := c.Links.Repo(r)
	web := c.Links.Web + "/" + r.FullName()
	out := &commitJSON{URL: api + "/commits/" + cm.SHA, SHA: cm.SHA, NodeID: state.NodeID("C", r.ID) + cm.SHA[:10],
		HTMLURL: web + "/commit/" + cm.SHA, CommentsURL: api + "/commits/" + cm.SHA + "/comments",
		Commit: gitCommitJSON{URL: api + "/git/commits/" + cm.SHA, Author: gitUser(cm.Author), Committer: gitUser(cm.Committer),
			Message: strings.TrimSuffix(cm.Message, "\n"), Tree: shaURLJSON{SHA: cm.TreeSHA, URL: api + "/git/trees/" + cm.TreeSHA},
			Verification: verificationJSON{Reason: "unsigned"}},
		Parents: []shaURLJSON{}}
	// A signature whose email belongs to no account links no user.
	if u := renderSimpleUser(c.Links, cm.Author.User); u != nil {
		out.Author = u
	}
	if u := renderSimpleUser(c.Links, cm.Committer.User); u != nil {
		out.Committer = u
	}
	for _, p := range cm.Parents {
		out.Parents = append(out.Parents, shaURLJSON{SHA: p.SHA, URL: api + "/commits/" + p.SHA, HTMLURL: web + "/commit/" + p.SHA})
	}
	if full {
		var parent map[string]string
		if len(cm.Parents) > 0 {
			parent = cm.Parents[0].Files
		}
		out.Stats = &statsJSON{}
		out.Files = []diffEntryJSON{}
		for _, fc := range state.Changes(parent, cm.Files) {
			out.Stats.Additions += fc.Additions
			out.Stats.Deletions += fc.Deletions
			out.Files = append(out.Files, c.diffEntry(r, cm, fc))
		}
		out.Stats.Total = out.Stats.Additions + out.Stats.Deletions
	}
	return out
}

// gitFor resolves a repository and its git data. A repository without
// any (one created through the API, which has no commits) answers as an
// empty repository does on GitHub: 409 "Git Repository is empty.".
func (c *call) gitFor(need state.Permission) (*state.Repo, *state.GitRepo) {
	r := c.RepoFor(need)
	if r == nil {
		return nil, nil
	}
	if r.Git == nil {
		c.Fail(http.StatusConflict, "Git Repository is empty.", "rest")
		return nil, nil
	}
	return r, r.Git
}

type shortBranchJSON struct {
	Name      string     `json:"name"`
	Commit    shaURLJSON `json:"commit"`
	Protected bool       `json:"protected"`
}

func listBranches(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	q := c.Req.URL.Query()
	var names []string
	for _, n := range g.BranchNames() {
		if v := q.Get("protected"); v != "" && (v == "true") != state.ProtectedBranch(n) {
			continue
		}
		names = append(names, n)
	}
	out := []shortBranchJSON{}
	for _, n := range paginate(c, names) {
		sha := g.Branches[n].SHA
		out = append(out, shortBranchJSON{Name: n, Commit: shaURLJSON{SHA: sha, URL: c.Links.Repo(r) + "/commits/" + sha},
			Protected: state.ProtectedBranch(n)})
	}
	c.JSON(http.StatusOK, out)
}

type requiredCheckJSON struct {
	Context string `json:"context"`
	AppID   *int64 `json:"app_id"`
}

type requiredChecksJSON struct {
	EnforcementLevel string              `json:"enforcement_level"`
	Contexts         []string            `json:"contexts"`
	Checks           []requiredCheckJSON `json:"checks"`
}

type branchProtectionJSON struct {
	Enabled              bool               `json:"enabled"`
	RequiredStatusChecks requiredChecksJSON `json:"required_status_checks"`
}

type branchJSON struct {
	Name   string      `json:"name"`
	Commit *commitJSON `json:"commit"`
	Links  struct {
		HTML string `json:"html"`
		Self string `json:"self"`
	} `json:"_links"`
	Protected     bool                 `json:"protected"`
	Protection    branchProtectionJSON `json:"protection"`
	ProtectionURL string               `json:"protection_url"`
}

func getBranch(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	name := c.Req.PathValue("branch")
	if name == "" {
		// "/branches/" routes here, as the list.
		listBranches(c)
		return
	}
	tip := g.Branches[name]
	if tip == nil {
		c.Fail(http.StatusNotFound, "Branch not found", "rest/branches/branches#get-a-branch")
		return
	}
	out := branchJSON{Name: name, Commit: c.commitJSON(r, tip, false), Protected: state.ProtectedBranch(name),
		ProtectionURL: c.Links.Repo(r) + "/branches/" + escapePath(name) + "/protection"}
	out.Links.HTML = c.Links.Web + "/" + r.FullName() + "/tree/" + escapePath(name)
	out.Links.Self = c.Links.Repo(r) + "/branches/" + escapePath(name)
	out.Protection.RequiredStatusChecks = requiredChecksJSON{EnforcementLevel: "off", Contexts: []string{}, Checks: []requiredCheckJSON{}}
	if out.Protected {
		out.Protection.Enabled = true
		out.Protection.RequiredStatusChecks.EnforcementLevel = "non_admins"
		for _, ctx := range state.RequiredChecks {
			out.Protection.RequiredStatusChecks.Contexts = append(out.Protection.RequiredStatusChecks.Contexts, ctx)
			out.Protection.RequiredStatusChecks.Checks = append(out.Protection.RequiredStatusChecks.Checks, requiredCheckJSON{Context: ctx})
		}
	}
	c.JSON(http.StatusOK, out)
}

// gitRefJSON is GitHub's git-ref.
type gitRefJSON struct {
	Ref    string `json:"ref"`
	NodeID string `json:"node_id"`
	URL    string `json:"url"`
	Object struct {
		Type string `json:"type"`
		SHA  string `json:"sha"`
		URL  string `json:"url"`
	} `json:"object"`
}

// gitRef renders a ref ("heads/main", "tags/v1.0.0"). Tags are
// lightweight: they point at the commit itself.
func (c *call) gitRef(r *state.Repo, ref string, tip *state.GitCommit) gitRefJSON {
	full := "refs/" + ref
	out := gitRefJSON{Ref: full, NodeID: state.NodeID("REF", r.ID) + strings.ReplaceAll(ref, "/", "_"),
		URL: c.Links.Repo(r) + "/git/" + escapePath(full)}
	out.Object.Type, out.Object.SHA, out.Object.URL = "commit", tip.SHA, c.Links.Repo(r)+"/git/commits/"+tip.SHA
	return out
}

func getGitRef(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	ref := c.Req.PathValue("ref")
	_, tips := state.Refs(g)
	tip := tips[ref]
	if tip == nil {
		c.Fail(http.StatusNotFound, "Not Found", "rest/git/refs#get-a-reference")
		return
	}
	c.JSON(http.StatusOK, c.gitRef(r, ref, tip))
}

// listMatchingRefs lists the refs whose name starts with refs/<ref>.
func listMatchingRefs(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	prefix := c.Req.PathValue("ref")
	names, tips := state.Refs(g)
	out := []gitRefJSON{}
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, c.gitRef(r, n, tips[n]))
		}
	}
	c.JSON(http.StatusOK, out)
}

// refCommit resolves a readable repository's {ref} path value to a
// commit; cm is nil (the answer already written) when either fails.
func (c *call) refCommit() (r *state.Repo, g *state.GitRepo, cm *state.GitCommit) {
	r, g = c.gitFor(state.PermRead)
	if r == nil {
		return nil, nil, nil
	}
	return r, g, c.commitFor(g, c.Req.PathValue("ref"))
}

// commitFor resolves {ref} (a branch, or a full or abbreviated sha) with
// GitHub's 422 for a ref that names nothing.
func (c *call) commitFor(g *state.GitRepo, ref string) *state.GitCommit {
	cm := g.Resolve(ref)
	if cm == nil {
		c.Invalid("No commit found for SHA: "+ref, "rest/commits/commits#get-a-commit")
	}
	return cm
}

func listCommits(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	q := c.Req.URL.Query()
	start := g.Branches[state.RepoDefaultBranch]
	if sha := q.Get("sha"); sha != "" {
		if start = g.Resolve(sha); start == nil {
			c.Fail(http.StatusNotFound, "Not Found", "rest/commits/commits#list-commits")
			return
		}
	}
	var since, until time.Time
	for _, b := range []struct {
		name string
		t    *time.Time
	}{{"since", &since}, {"until", &until}} {
		if v := q.Get(b.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				c.Invalid("", "rest/commits/commits#list-commits", wire.FieldError{Resource: "Commit", Field: b.name, Code: "invalid"})
				return
			}
			*b.t = t
		}
	}
	var list []*state.GitCommit
	for _, cm := range state.History(start) {
		if p := q.Get("path"); p != "" && !touches(cm, strings.Trim(p, "/")) {
			continue
		}
		if a := q.Get("author"); a != "" && !(cm.Author.User != nil && strings.EqualFold(cm.Author.User.Login, a) ||
			strings.EqualFold(cm.Author.Email, a)) {
			continue
		}
		if !since.IsZero() && cm.Committer.When.Before(since) || !until.IsZero() && cm.Committer.When.After(until) {
			continue
		}
		list = append(list, cm)
	}
	out := []*commitJSON{}
	for _, cm := range paginate(c, list) {
		out = append(out, c.commitJSON(r, cm, false))
	}
	c.JSON(http.StatusOK, out)
}

// touches reports whether a commit changed path (a file, or anything
// under a directory) against its first parent.
func touches(cm *state.GitCommit, path string) bool {
	var parent map[string]string
	if len(cm.Parents) > 0 {
		parent = cm.Parents[0].Files
	}
	for _, fc := range state.Changes(parent, cm.Files) {
		if fc.Path == path || strings.HasPrefix(fc.Path, path+"/") {
			return true
		}
	}
	return false
}

func getCommit(c *call) {
	r, _, cm := c.refCommit()
	if cm == nil {
		return
	}
	switch mediaParam(c.Req.Header.Get("Accept")) {
	case "diff":
		var parent map[string]string
		if len(cm.Parents) > 0 {
			parent = cm.Parents[0].Files
		}
		c.text("diff", state.GitDiff(state.Changes(parent, cm.Files)))
	case "patch":
		c.text("patch", state.FormatPatch([]*state.GitCommit{cm}))
	default:
		c.JSON(http.StatusOK, c.commitJSON(r, cm, true))
	}
}

// statusJSON is GitHub's status (and, without creator, simple-commit-status).
type statusJSON struct {
	URL         string    `json:"url"`
	AvatarURL   *string   `json:"avatar_url"`
	ID          int64     `json:"id"`
	NodeID      string    `json:"node_id"`
	State       string    `json:"state"`
	Description *string   `json:"description"`
	TargetURL   *string   `json:"target_url"`
	Context     string    `json:"context"`
	CreatedAt   string    `json:"created_at"`
	UpdatedAt   string    `json:"updated_at"`
	Creator     *userJSON `json:"creator,omitempty"`
}

func (c *call) statusJSON(r *state.Repo, sha string, st *state.CommitStatus, withCreator bool) statusJSON {
	avatar := renderSimpleUser(c.Links, st.Creator).AvatarURL
	out := statusJSON{URL: c.Links.Repo(r) + "/statuses/" + sha, AvatarURL: &avatar, ID: st.ID, NodeID: st.NodeID,
		State: st.State, Context: st.Context, CreatedAt: wire.Timestamp(st.CreatedAt), UpdatedAt: wire.Timestamp(st.UpdatedAt)}
	if st.Description != "" {
		out.Description = &st.Description
	}
	if st.TargetURL != "" {
		out.TargetURL = &st.TargetURL
	}
	if withCreator {
		out.Creator = renderSimpleUser(c.Links, st.Creator)
	}
	return out
}

// getCombinedStatus sums a commit's latest status per context: failure if
// any failed or errored, pending if any is pending or there are none,
// success otherwise, as GitHub documents.
func getCombinedStatus(c *call) {
	r, g, cm := c.refCommit()
	if cm == nil {
		return
	}
	latest := state.LatestStatuses(g.Statuses[cm.SHA])
	state := "success"
	if len(latest) == 0 {
		state = "pending"
	}
	for _, st := range latest {
		switch {
		case st.State == "error" || st.State == "failure":
			state = "failure"
		case st.State == "pending" && state != "failure":
			state = "pending"
		}
	}
	out := struct {
		State      string       `json:"state"`
		Statuses   []statusJSON `json:"statuses"`
		SHA        string       `json:"sha"`
		TotalCount int          `json:"total_count"`
		Repository repoJSON     `json:"repository"`
		CommitURL  string       `json:"commit_url"`
		URL        string       `json:"url"`
	}{State: state, Statuses: []statusJSON{}, SHA: cm.SHA, TotalCount: len(latest), Repository: c.repoJSON(r, false),
		CommitURL: c.Links.Repo(r) + "/commits/" + cm.SHA, URL: c.Links.Repo(r) + "/commits/" + cm.SHA + "/status"}
	for _, st := range latest {
		out.Statuses = append(out.Statuses, c.statusJSON(r, cm.SHA, st, false))
	}
	c.JSON(http.StatusOK, out)
}

func listCommitStatuses(c *call) {
	r, g, cm := c.refCommit()
	if cm == nil {
		return
	}
	// Newest first, as GitHub lists them.
	list := slices.Clone(g.Statuses[cm.SHA])
	slices.Reverse(list)
	out := []statusJSON{}
	for _, st := range paginate(c, list) {
		out = append(out, c.statusJSON(r, cm.SHA, st, true))
	}
	c.JSON(http.StatusOK, out)
}

// checkRunJSON is GitHub's check-run.
type checkRunJSON struct {
	ID          int64   `json:"id"`
	HeadSHA     string  `json:"head_sha"`
	NodeID      string  `json:"node_id"`
	ExternalID  *string `json:"external_id"`
	URL         string  `json:"url"`
	HTMLURL     *string `json:"html_url"`
	DetailsURL  *string `json:"details_url"`
	Status      string  `json:"status"`
	Conclusion  *string `json:"conclusion"`
	StartedAt   *string `json:"started_at"`
	CompletedAt *string `json:"completed_at"`
	Output      struct {
		Title            *string `json:"title"`
		Summary          *string `json:"summary"`
		Text             *string `json:"text"`
		AnnotationsCount int     `json:"annotations_count"`
		AnnotationsURL   string  `json:"annotations_url"`
	} `json:"output"`
	Name       string `json:"name"`
	CheckSuite *struct {
		ID int64 `json:"id"`
	} `json:"check_suite"`
	App          *struct{} `json:"app"`
	PullRequests []any     `json:"pull_requests"`
}

func (c *call) checkRunJSON(r *state.Repo, cr *state.CheckRun) checkRunJSON {
	u := c.Links.Repo(r) + "/check-runs/" + itoa(int(cr.ID))
	html := c.Links.Web + wire.CheckRunPath(c.State, cr)
	ext := ""
	out := checkRunJSON{ID: cr.ID, HeadSHA: cr.HeadSHA, NodeID: cr.NodeID, ExternalID: &ext, URL: u, HTMLURL: &html,
		DetailsURL: &html, Status: cr.Status, Conclusion: cr.Conclusion, StartedAt: wire.TimestampPtr(&cr.StartedAt),
		CompletedAt: wire.TimestampPtr(cr.CompletedAt), Name: cr.Name, PullRequests: []any{}}
	out.Output.AnnotationsURL = u + "/annotations"
	suite := cr.ID // a check run without a workflow run is its own suite
	if cr.Run != nil {
		suite = cr.Run.CheckSuiteID
	}
	out.CheckSuite = &struct {
		ID int64 `json:"id"`
	}{ID: suite}
	return out
}

func listCommitCheckRuns(c *call) {
	r, g, cm := c.refCommit()
	if cm == nil {
		return
	}
	q := c.Req.URL.Query()
	var list []*state.CheckRun
	for _, cr := range g.CheckRuns[cm.SHA] {
		if n := q.Get("check_name"); n != "" && cr.Name != n {
			continue
		}
		if s := q.Get("status"); s != "" && cr.Status != s {
			continue
		}
		list = append(list, cr)
	}
	out := struct {
		TotalCount int            `json:"total_count"`
		CheckRuns  []checkRunJSON `json:"check_runs"`
	}{TotalCount: len(list), CheckRuns: []checkRunJSON{}}
	for _, cr := range paginate(c, list) {
		out.CheckRuns = append(out.CheckRuns, c.checkRunJSON(r, cr))
	}
	c.JSON(http.StatusOK, out)
}

// filesAt is the tree the contents API reads: the default branch's (the
// repository's files) unless ?ref= names another branch or a commit. A ref
// that names nothing answers 404, as on GitHub, and ok is false.
func (c *call) filesAt(r *state.Repo) (files map[string]string, ok bool) {
	ref := c.Req.URL.Query().Get("ref")
	if ref == "" || ref == state.RepoDefaultBranch || ref == "refs/heads/"+state.RepoDefaultBranch {
		return r.Files, true
	}
	var cm *state.GitCommit
	if r.Git != nil {
		cm = r.Git.Resolve(ref)
	}
	if cm == nil {
		c.Fail(http.StatusNotFound, "No commit found for the ref "+ref, "rest/repos/contents#get-repository-content")
		return nil, false
	}
	return cm.Files, true
}
