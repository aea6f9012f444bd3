package rest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

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
	if len(page) != 5 || page[0].Number != emulator.DemoFirstPull || !strings.Contains(r.header.Get("Link"), `rel="next"`) {
		t.Errorf("first page of all pulls: %d items from #%d, Link %q", len(page), page[0].Number, r.header.Get("Link"))
	}

	var one restPull
	getJSON(t, base+"/pulls/146", tok, &one)
	if one.Mergeable == nil || !*one.Mergeable || one.MergeableState != "clean" || one.Commits != 2 || one.ChangedFiles != 2 ||
		one.Additions != 11 || one.Deletions != 0 || one.Head.Ref != "fix/145-chart-widget-loses-unsaved-changes-after" ||
		one.Base.Ref != "main" || one.Head.Label != "acme:"+one.Head.Ref {
		t.Errorf("pull 146 = %+v", one)
	}
	var byHead []restPull
	getJSON(t, base+"/pulls?head=acme:"+one.Head.Ref, tok, &byHead)
	if len(byHead) != 1 || byHead[0].Number != 146 {
		t.Errorf("head filter found %+v", byHead)
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
	if !merged.Merged || merged.MergedAt == nil || merged.MergeCommitSHA == nil || merged.Mergeable != nil ||
		asIssue.PullRequest.MergedAt == nil || *asIssue.PullRequest.MergedAt != *merged.MergedAt {
		t.Errorf("merged pull 96 = %+v; as an issue merged_at %v", merged, asIssue.PullRequest.MergedAt)
	}
	var draftIssue struct{ Draft bool }
	getJSON(t, base+"/issues/155", tok, &draftIssue)
	if !draftIssue.Draft {
		t.Error("the draft pull request's issue says draft: false")
	}
	if r := get(t, base+"/pulls/145", tok); r.status != http.StatusNotFound {
		t.Errorf("an issue number as a pull request: %d", r.status)
	}

	// The diff and patch media types.
	status, h, diff := getAs(t, base+"/pulls/146", "application/vnd.github.v3.diff")
	if status != http.StatusOK || !strings.HasPrefix(diff, "diff --git a/web/src/widgets/ChartWidget.issue145.test.tsx") ||
		!strings.HasPrefix(h.Get("Content-Type"), "application/vnd.github.diff") || h.Get("X-GitHub-Media-Type") != "github.v3; param=diff" {
		t.Errorf("diff: %d %q %q\n%s", status, h.Get("Content-Type"), h.Get("X-GitHub-Media-Type"), diff)
	}

	var files []struct {
		Filename, Status, Patch string
		Additions               int
	}
	getJSON(t, base+"/pulls/146/files", tok, &files)
	if len(files) != 2 || files[0].Status != "added" || files[1].Status != "modified" || !strings.HasPrefix(files[1].Patch, "@@ ") {
		t.Errorf("files = %+v", files)
	}
	var commits []struct {
		SHA    string
		Commit struct{ Message string }
	}
	getJSON(t, base+"/pulls/146/commits", tok, &commits)
	if len(commits) != 2 || commits[1].SHA != one.Head.SHA || commits[1].Commit.Message != "Add a regression test for #145" {
		t.Errorf("commits = %+v", commits)
	}
	_, _, patch := getAs(t, base+"/pulls/146", "application/vnd.github.patch")
	if strings.Count(patch, "\nSubject: [PATCH ") != 2 || !strings.HasPrefix(patch, "From "+commits[0].SHA+" ") {
		t.Errorf("patch:\n%s", patch)
	}
	var reviews []struct{ State string }
	getJSON(t, base+"/pulls/121/reviews", tok, &reviews)
	if len(reviews) != 1 || reviews[0].State != "CHANGES_REQUESTED" {
		t.Errorf("reviews of 121 = %+v", reviews)
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
	if len(comments) != 1 || comments[0].Line != nil || comments[0].OriginalLine == 0 || !strings.HasPrefix(comments[0].DiffHunk, "@@ ") {
		t.Errorf("comments of 121 = %+v", comments)
	}
	var requested struct {
		Users []struct{ Login string }
		Teams []struct{ Slug string }
	}
	getJSON(t, base+"/pulls/133/requested_reviewers", tok, &requested)
	if len(requested.Users) != 1 || len(requested.Teams) != 1 || requested.Teams[0].Slug != "maintainers" {
		t.Errorf("requested reviewers of 133 = %+v", requested)
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
	if i < 0 || branches[i].Commit.SHA != pull.Head.SHA || branches[i].Protected {
		t.Errorf("branch %s not listed at %s: %+v", pull.Head.Ref, pull.Head.SHA, branches)
	}
	var main struct {
		Protected bool
		Commit    struct{ SHA string }
	}
	getJSON(t, base+"/branches/main", tok, &main)
	if !main.Protected || main.Commit.SHA == "" {
		t.Errorf("main = %+v", main)
	}
	var ref struct {
		Ref    string
		Object struct{ SHA string }
	}
	getJSON(t, base+"/git/ref/heads/"+pull.Head.Ref, tok, &ref)
	if ref.Ref != "refs/heads/"+pull.Head.Ref || ref.Object.SHA != pull.Head.SHA {
		t.Errorf("ref = %+v", ref)
	}
	var history []struct {
		SHA     string
		Parents []struct{ SHA string }
	}
	getJSON(t, base+"/commits?per_page=3", tok, &history)
	if len(history) != 3 || history[0].SHA != main.Commit.SHA {
		t.Errorf("main's history starts %+v", history)
	}
	var commit struct {
		SHA   string
		Stats struct{ Total int }
		Files []struct{ Filename string }
	}
	getJSON(t, base+"/commits/"+pull.Head.SHA[:12], tok, &commit)
	if commit.SHA != pull.Head.SHA || commit.Stats.Total == 0 || len(commit.Files) == 0 {
		t.Errorf("commit = %+v", commit)
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
	if runs.TotalCount != 3 || runs.CheckRuns[1].Name != "test" || runs.CheckRuns[1].Status != "in_progress" || runs.CheckRuns[1].Conclusion != nil {
		t.Errorf("check runs = %+v", runs)
	}
	var p146 restPull
	getJSON(t, base+"/pulls/146", tok, &p146)
	var combined struct {
		State      string
		TotalCount int `json:"total_count"`
	}
	getJSON(t, base+"/commits/"+p146.Head.SHA+"/status", tok, &combined)
	if combined.State != "success" || combined.TotalCount != 1 {
		t.Errorf("combined status of 146's head = %+v", combined)
	}
	// The contents API reads a branch when asked.
	var file struct{ Path string }
	getJSON(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx?ref="+p146.Head.Ref, tok, &file)
	if file.Path == "" {
		t.Error("the pull request's new file is not at its branch")
	}
	if r := get(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx", tok); r.status != http.StatusNotFound {
		t.Errorf("the unmerged file is on main: %d", r.status)
	}
	if r := get(t, base+"/contents/README.md?ref=no-such-branch", tok); r.status != http.StatusNotFound {
		t.Errorf("unknown ref: %d", r.status)
	}
	if r := get(t, base+"/commits/"+strings.Repeat("0", 40), tok); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown commit: %d %s", r.status, r.body)
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
		if r.status != c.status || !strings.Contains(string(r.body), c.msg) {
			t.Errorf("merge #%d %v: %d %s, want %d %q", c.n, c.body, r.status, r.body, c.status, c.msg)
		}
	}
	if r := get(t, base+"/pulls/146/merge", carol); r.status != http.StatusNotFound {
		t.Errorf("unmerged pull request: %d", r.status)
	}
	var before restPull
	getJSON(t, base+"/pulls/146", carol, &before)
	r := put(bob, 146, map[string]any{"merge_method": "squash", "sha": before.Head.SHA})
	var out struct {
		SHA    string
		Merged bool
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &out) != nil || !out.Merged {
		t.Fatalf("merge: %d %s", r.status, r.body)
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
	if !after.Merged || after.State != "closed" || after.MergeCommitSHA == nil || *after.MergeCommitSHA != out.SHA ||
		main.Commit.SHA != out.SHA || len(squash.Parents) != 1 ||
		!strings.HasPrefix(squash.Commit.Message, "Fix #145: Chart widget loses unsaved changes after resizing the panel (#146)\n\n* ") {
		t.Errorf("after the merge: pull %+v, main %s, commit %+v", after, main.Commit.SHA, squash)
	}
	if r := get(t, base+"/pulls/146/merge", carol); r.status != http.StatusNoContent {
		t.Errorf("merged pull request: %d", r.status)
	}
	// The merged file is on main now.
	if r := get(t, base+"/contents/web/src/widgets/ChartWidget.issue145.test.tsx", carol); r.status != http.StatusOK {
		t.Errorf("the merged file on main: %d", r.status)
	}
}
