package rest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
)

// getAs sends a GET with an Accept header of its own.
func getAs(t *testing.T, url, accept string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+emulator.DemoTokenCarol)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// pullNumbers lists the pull requests' numbers in order.
func pullNumbers(ps []restPull) []int {
	var nums []int
	for _, p := range ps {
		nums = append(nums, p.Number)
	}
	return nums
}

type restPull struct {
	Number         int
	State          string
	Draft          bool
	Merged         bool
	Mergeable      *bool
	MergeableState string  `json:"mergeable_state"`
	MergedAt       *string `json:"merged_at"`
	MergeCommitSHA *string `json:"merge_commit_sha"`
	Commits        int
	Additions      int
	Deletions      int
	ChangedFiles   int `json:"changed_files"`
	ReviewComments int `json:"review_comments"`
	Head, Base     struct{ Ref, SHA, Label string }
	RequestedTeams []struct{ Slug string } `json:"requested_teams"`
}

func TestRESTPulls(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	tok := emulator.DemoTokenCarol

	var open []restPull
	getJSON(t, base+"/pulls", tok, &open)
	var nums []int
	for _, p := range open {
		nums = append(nums, p.Number)
	}
	if !slices.Equal(nums, []int{155, 146, 133, 121}) {
		t.Errorf("open pulls = %v, want newest first", nums)
	}
	var page []restPull
	r := getJSON(t, base+"/pulls?state=all&direction=asc&per_page=5", tok, &page)
	if len(page) != 5 {
		t.Errorf("first page of all pulls: %d items, want 5", len(page))
	}
	if len(page) > 0 && page[0].Number != emulator.DemoFirstPull {
		t.Errorf("first page of all pulls starts at #%d, want DemoFirstPull #%d", page[0].Number, emulator.DemoFirstPull)
	}
	if link := r.header.Get("Link"); !strings.Contains(link, `rel="next"`) {
		t.Errorf("first page of all pulls: Link = %q, want a rel=\"next\"", link)
	}

	var one restPull
	getJSON(t, base+"/pulls/146", tok, &one)
	if one.Mergeable == nil || !*one.Mergeable {
		t.Errorf("pull 146 mergeable = %v, want true", fmtBoolPtr(one.Mergeable))
	}
	if one.MergeableState != "clean" {
		t.Errorf("pull 146 mergeable_state = %q, want %q", one.MergeableState, "clean")
	}
	if one.Commits != 2 {
		t.Errorf("pull 146 commits = %d, want 2", one.Commits)
	}
	if one.ChangedFiles != 2 {
		t.Errorf("pull 146 changed_files = %d, want 2", one.ChangedFiles)
	}
	if one.Additions != 11 {
		t.Errorf("pull 146 additions = %d, want 11", one.Additions)
	}
	if one.Deletions != 0 {
		t.Errorf("pull 146 deletions = %d, want 0", one.Deletions)
	}
	if want := "fix/145-chart-widget-loses-unsaved-changes-after"; one.Head.Ref != want {
		t.Errorf("pull 146 head.ref = %q, want %q", one.Head.Ref, want)
	}
	if one.Base.Ref != "main" {
		t.Errorf("pull 146 base.ref = %q, want %q", one.Base.Ref, "main")
	}
	if want := "acme:" + one.Head.Ref; one.Head.Label != want {
		t.Errorf("pull 146 head.label = %q, want %q", one.Head.Label, want)
	}
	var byHead []restPull
	getJSON(t, base+"/pulls?head=acme:"+one.Head.Ref, tok, &byHead)
	if got := pullNumbers(byHead); !slices.Equal(got, []int{146}) {
		t.Errorf("head filter found %v, want [146]", got)
	}

	// A merged pull request, and the issue it also is, agree.
	var merged restPull
	getJSON(t, base+"/pulls/96", tok, &merged)
	var asIssue struct {
		PullRequest struct {
			MergedAt *string `json:"merged_at"`
		} `json:"pull_request"`
	}
	getJSON(t, base+"/issues/96", tok, &asIssue)
	if !merged.Merged {
		t.Errorf("pull 96 merged = false, want true")
	}
	if merged.MergeCommitSHA == nil {
		t.Errorf("pull 96 merge_commit_sha = null, want a SHA")
	}
	if merged.Mergeable != nil {
		t.Errorf("pull 96 mergeable = %v, want null once merged", *merged.Mergeable)
	}
	if merged.MergedAt == nil {
		t.Errorf("pull 96 merged_at = null, want a time")
	} else if got := asIssue.PullRequest.MergedAt; got == nil || *got != *merged.MergedAt {
		t.Errorf("issue 96 pull_request.merged_at = %v, want the pull's %q", fmtStrPtr(got), *merged.MergedAt)
	}
	var draftIssue struct{ Draft bool }
	getJSON(t, base+"/issues/155", tok, &draftIssue)
	if !draftIssue.Draft {
		t.Error("issue 155 (a draft pull request) draft = false, want true")
	}
	if r := get(t, base+"/pulls/145", tok); r.status != http.StatusNotFound {
		t.Errorf("GET pulls/145 (an issue): status %d, want %d", r.status, http.StatusNotFound)
	}

	// The diff and patch media types.
	status, h, diff := getAs(t, base+"/pulls/146", "application/vnd.github.v3.diff")
	if status != http.StatusOK {
		t.Errorf("diff: status %d, want %d", status, http.StatusOK)
	}
	if want := "diff --git a/web/src/widgets/ChartWidget.issue145.test.tsx"; !strings.HasPrefix(diff, want) {
		t.Errorf("diff does not start with %q:\n%s", want, diff)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/vnd.github.diff") {
		t.Errorf("diff: Content-Type = %q, want application/vnd.github.diff", ct)
	}
	if mt := h.Get("X-GitHub-Media-Type"); mt != "github.v3; param=diff" {
		t.Errorf("diff: X-GitHub-Media-Type = %q, want %q", mt, "github.v3; param=diff")
	}

	var files []struct {
		Filename, Status, Patch string
		Additions               int
	}
	getJSON(t, base+"/pulls/146/files", tok, &files)
	var statuses []string
	for _, f := range files {
		statuses = append(statuses, f.Status)
	}
	if want := []string{"added", "modified"}; !slices.Equal(statuses, want) {
		t.Errorf("files of 146: statuses %q, want %q", statuses, want)
	}
	if len(files) > 1 && !strings.HasPrefix(files[1].Patch, "@@ ") {
		t.Errorf("files[1] (%s) patch = %q, want one starting with \"@@ \"", files[1].Filename, files[1].Patch)
	}
	var commits []struct {
		SHA    string
		Commit struct{ Message string }
	}
	getJSON(t, base+"/pulls/146/commits", tok, &commits)
	if len(commits) != 2 {
		t.Errorf("commits of 146: %d, want 2: %+v", len(commits), commits)
	}
	if len(commits) > 1 {
		if commits[1].SHA != one.Head.SHA {
			t.Errorf("commits[1].sha = %s, want the head %s", commits[1].SHA, one.Head.SHA)
		}
		if want := "Add a regression test for #145"; commits[1].Commit.Message != want {
			t.Errorf("commits[1] message = %q, want %q", commits[1].Commit.Message, want)
		}
	}
	_, _, patch := getAs(t, base+"/pulls/146", "application/vnd.github.patch")
	if n := strings.Count(patch, "\nSubject: [PATCH "); n != 2 {
		t.Errorf("patch has %d Subject: [PATCH lines, want 2:\n%s", n, patch)
	}
	if len(commits) > 0 {
		if want := "From " + commits[0].SHA + " "; !strings.HasPrefix(patch, want) {
			t.Errorf("patch does not start with %q:\n%s", want, patch)
		}
	}
	var reviews []struct{ State string }
	getJSON(t, base+"/pulls/121/reviews", tok, &reviews)
	if diff := cmp.Diff([]struct{ State string }{{"CHANGES_REQUESTED"}}, reviews); diff != "" {
		t.Errorf("reviews of 121 mismatch (-want +got):\n%s", diff)
	}
	// #121's thread was outdated by a later push: no line any more.
	var comments []struct {
		Line             *int
		OriginalLine     int    `json:"original_line"`
		CommitID         string `json:"commit_id"`
		OriginalCommitID string `json:"original_commit_id"`
		DiffHunk         string `json:"diff_hunk"`
	}
	getJSON(t, base+"/pulls/121/comments", tok, &comments)
	if len(comments) != 1 {
		t.Errorf("review comments of 121: %d, want 1: %+v", len(comments), comments)
	}
	if len(comments) > 0 {
		c := comments[0]
		if c.Line != nil {
			t.Errorf("comment of 121 line = %d, want null (outdated)", *c.Line)
		}
		if c.OriginalLine == 0 {
			t.Errorf("comment of 121 original_line = 0, want a line")
		}
		if !strings.HasPrefix(c.DiffHunk, "@@ ") {
			t.Errorf("comment of 121 diff_hunk = %q, want one starting with \"@@ \"", c.DiffHunk)
		}
	}
	var requested struct {
		Users []struct{ Login string }
		Teams []struct{ Slug string }
	}
	getJSON(t, base+"/pulls/133/requested_reviewers", tok, &requested)
	if len(requested.Users) != 1 {
		t.Errorf("requested reviewers of 133: %d users, want 1: %+v", len(requested.Users), requested.Users)
	}
	if diff := cmp.Diff([]struct{ Slug string }{{"maintainers"}}, requested.Teams); diff != "" {
		t.Errorf("requested teams of 133 mismatch (-want +got):\n%s", diff)
	}
}

func TestRESTGitData(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	tok := emulator.DemoTokenCarol
	var pull restPull
	getJSON(t, base+"/pulls/133", tok, &pull)

	var branches []struct {
		Name      string
		Protected bool
		Commit    struct{ SHA string }
	}
	getJSON(t, base+"/branches?per_page=100", tok, &branches)
	i := slices.IndexFunc(branches, func(b struct {
		Name      string
		Protected bool
		Commit    struct{ SHA string }
	}) bool {
		return b.Name == pull.Head.Ref
	})
	if i < 0 {
		t.Errorf("branch %s not listed: %+v", pull.Head.Ref, branches)
	} else {
		if got := branches[i].Commit.SHA; got != pull.Head.SHA {
			t.Errorf("branch %s commit = %s, want the pull's head %s", pull.Head.Ref, got, pull.Head.SHA)
		}
		if branches[i].Protected {
			t.Errorf("branch %s protected = true, want false", pull.Head.Ref)
		}
	}
	var main struct {
		Protected bool
		Commit    struct{ SHA string }
	}
	getJSON(t, base+"/branches/main", tok, &main)
	if !main.Protected {
		t.Errorf("branch main protected = false, want true")
	}
	if main.Commit.SHA == "" {
		t.Errorf("branch main commit.sha is empty, want a SHA")
	}
	var ref struct {
		Ref    string
		Object struct{ SHA string }
	}
	getJSON(t, base+"/git/ref/heads/"+pull.Head.Ref, tok, &ref)
	if want := "refs/heads/" + pull.Head.Ref; ref.Ref != want {
		t.Errorf("ref = %q, want %q", ref.Ref, want)
	}
	if ref.Object.SHA != pull.Head.SHA {
		t.Errorf("ref object.sha = %s, want the pull's head %s", ref.Object.SHA, pull.Head.SHA)
	}
	var history []struct {
		SHA     string
		Parents []struct{ SHA string }
	}
	getJSON(t, base+"/commits?per_page=3", tok, &history)
	if len(history) != 3 {
		t.Errorf("commits?per_page=3: %d commits, want 3", len(history))
	}
	if len(history) > 0 && history[0].SHA != main.Commit.SHA {
		t.Errorf("history[0].sha = %s, want main's %s", history[0].SHA, main.Commit.SHA)
	}
	var commit struct {
		SHA   string
		Stats struct{ Total int }
		Files []struct{ Filename string }
	}
	getJSON(t, base+"/commits/"+pull.Head.SHA[:12], tok, &commit)
	if commit.SHA != pull.Head.SHA {
		t.Errorf("commit by short SHA: sha = %s, want %s", commit.SHA, pull.Head.SHA)
	}
	if commit.Stats.Total == 0 {
		t.Errorf("commit %s stats.total = 0, want some", pull.Head.SHA)
	}
	if len(commit.Files) == 0 {
		t.Errorf("commit %s has no files, want some", pull.Head.SHA)
	}
	// #133's checks are still running: the test check has no conclusion.
	var runs struct {
		TotalCount int `json:"total_count"`
		CheckRuns  []struct {
			Name, Status string
			Conclusion   *string
		} `json:"check_runs"`
	}
	getJSON(t, base+"/commits/"+pull.Head.SHA+"/check-runs", tok, &runs)
	if runs.TotalCount != 3 {
		t.Errorf("check runs total_count = %d, want 3", runs.TotalCount)
	}
	if len(runs.CheckRuns) < 2 {
		t.Fatalf("check runs: %d listed, want 3: %+v", len(runs.CheckRuns), runs.CheckRuns)
	}
	if test := runs.CheckRuns[1]; test.Name != "test" {
		t.Errorf("check_runs[1].name = %q, want %q", test.Name, "test")
	}
	if test := runs.CheckRuns[1]; test.Status != "in_progress" {
		t.Errorf("check run %q status = %q, want %q", test.Name, test.Status, "in_progress")
	}
	if test := runs.CheckRuns[1]; test.Conclusion != nil {
		t.Errorf("check run %q conclusion = %q, want null", test.Name, *test.Conclusion)
	}
	var p146 restPull
	getJSON(t, base+"/pulls/146", tok, &p146)
	var combined struct {
		State      string
		TotalCount int `json:"total_count"`
	}
	getJSON(t, base+"/commits/"+p146.Head.SHA+"/status", tok, &combined)
	if combined.State != "success" {
		t.Errorf("combined status of 146's head: state = %q, want %q", combined.State, "success")
	}
	if combined.TotalCount != 1 {
		t.Errorf("combined status of 146's head: total_count = %d, want 1", combined.TotalCount)
	}
	// The contents API reads a branch when asked.
	var file struct{ Path string }
	getJSON(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx?ref="+p146.Head.Ref, tok, &file)
	if file.Path == "" {
		t.Error("the pull request's new file is not at its branch")
	}
	if r := get(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx", tok); r.status != http.StatusNotFound {
		t.Errorf("the unmerged file on main: status %d, want %d", r.status, http.StatusNotFound)
	}
	if r := get(t, base+"/contents/README.md?ref=no-such-branch", tok); r.status != http.StatusNotFound {
		t.Errorf("contents at an unknown ref: status %d, want %d", r.status, http.StatusNotFound)
	}
	if r := get(t, base+"/commits/"+strings.Repeat("0", 40), tok); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown commit: status %d, want %d: %s", r.status, http.StatusUnprocessableEntity, r.body)
	}
}

func TestRESTMergePull(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	put := func(tok string, n int, body map[string]any) reply {
		t.Helper()
		return send(t, http.MethodPut, fmt.Sprintf("%s/pulls/%d/merge", base, n), tok, body)
	}
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	for _, c := range []struct {
		tok    string
		n      int
		body   map[string]any
		status int
		msg    string
	}{
		{carol, 146, nil, http.StatusForbidden, ""},
		{bob, 155, nil, http.StatusMethodNotAllowed, "Pull Request is still a draft"},
		{bob, 133, nil, http.StatusMethodNotAllowed, "At least 1 approving review is required"},
		{bob, 96, nil, http.StatusMethodNotAllowed, "Pull Request is not mergeable"},
		{bob, 146, map[string]any{"merge_method": "octopus"}, http.StatusUnprocessableEntity, ""},
		{bob, 146, map[string]any{"sha": strings.Repeat("a", 40)}, http.StatusConflict, "Head branch was modified"},
	} {
		r := put(c.tok, c.n, c.body)
		if r.status != c.status {
			t.Errorf("merge #%d %v: status %d, want %d (body %s)", c.n, c.body, r.status, c.status, r.body)
		}
		if !strings.Contains(string(r.body), c.msg) {
			t.Errorf("merge #%d %v: body %s, want one saying %q", c.n, c.body, r.body, c.msg)
		}
	}
	if r := get(t, base+"/pulls/146/merge", carol); r.status != http.StatusNotFound {
		t.Errorf("GET pulls/146/merge before the merge: status %d, want %d", r.status, http.StatusNotFound)
	}
	var before restPull
	getJSON(t, base+"/pulls/146", carol, &before)
	r := put(bob, 146, map[string]any{"merge_method": "squash", "sha": before.Head.SHA})
	var out struct {
		SHA    string
		Merged bool
	}
	if r.status != http.StatusOK {
		t.Fatalf("merge: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("merge: decode %s: %v", r.body, err)
	}
	if !out.Merged {
		t.Fatalf("merge: merged = false, want true: %s", r.body)
	}
	var after restPull
	getJSON(t, base+"/pulls/146", carol, &after)
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", carol, &main)
	var squash struct {
		Commit  struct{ Message string }
		Parents []struct{ SHA string }
	}
	getJSON(t, base+"/commits/"+out.SHA, carol, &squash)
	if !after.Merged {
		t.Errorf("after the merge: pull merged = false, want true")
	}
	if after.State != "closed" {
		t.Errorf("after the merge: pull state = %q, want %q", after.State, "closed")
	}
	if got := after.MergeCommitSHA; got == nil || *got != out.SHA {
		t.Errorf("after the merge: pull merge_commit_sha = %v, want %s", fmtStrPtr(got), out.SHA)
	}
	if main.Commit.SHA != out.SHA {
		t.Errorf("after the merge: main at %s, want the merge's %s", main.Commit.SHA, out.SHA)
	}
	if len(squash.Parents) != 1 {
		t.Errorf("squash commit has %d parents, want 1", len(squash.Parents))
	}
	if want := "Fix #145: Chart widget loses unsaved changes after resizing the panel (#146)\n\n* "; !strings.HasPrefix(squash.Commit.Message, want) {
		t.Errorf("squash commit message = %q, want one starting with %q", squash.Commit.Message, want)
	}
	if r := get(t, base+"/pulls/146/merge", carol); r.status != http.StatusNoContent {
		t.Errorf("GET pulls/146/merge after the merge: status %d, want %d", r.status, http.StatusNoContent)
	}
	// The merged file is on main now.
	if r := get(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx", carol); r.status != http.StatusOK {
		t.Errorf("the merged file on main: status %d, want %d", r.status, http.StatusOK)
	}
}
