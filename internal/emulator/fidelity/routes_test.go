package fidelity

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// step is one realistic request and the status GitHub answers it with.
type step struct {
	method, path, token string
	body                any
	want                int
}

// TestEveryRouteSucceeds drives every route the emulator serves, in an
// order a client would (create before update before delete), and checks
// that each answered its documented success status with a body GitHub's
// description accepts (the harness validates every response).
func TestEveryRouteSucceeds(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const repo = "/repos/acme/widgets"
	id := func(n int) int64 { return w.ids[n] }
	appJWT := installApp(t, w)
	fx := addReportsFixtures(t, w)
	runPath := fmt.Sprintf("%s/actions/runs/%d", repo, fx.run.ID)
	jobPath := fmt.Sprintf("%s/actions/jobs/%d", repo, fx.job.ID)
	st := w.srv.Emu.State()
	st.Lock()
	mainSHA := st.Repo("acme", "widgets").Git.Branches["main"].SHA
	mainTree := st.Repo("acme", "widgets").Git.Branches["main"].TreeSHA
	st.Unlock()
	// The Git Data steps chain: a tree, a commit of it, the branch moved
	// to it. Their bodies read what the step before created.
	var created struct{ tree, commit string }
	captures := map[string]func(*emulatortest.Response){
		"POST " + repo + "/git/trees":   func(res *emulatortest.Response) { created.tree = shaOf(t, res) },
		"POST " + repo + "/git/commits": func(res *emulatortest.Response) { created.commit = shaOf(t, res) },
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	blob := func(s string) string {
		return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(s), s))))
	}
	steps := []step{
		{"GET", "/", tokCarol, nil, 200},
		{"GET", "/user", tokAlice, nil, 200},
		{"GET", "/users/bob", tokAlice, nil, 200},
		{"GET", "/users/acme", tokAlice, nil, 200},
		{"GET", "/users/alice/repos", tokBob, nil, 200},
		{"GET", "/user/repos", tokBob, nil, 200},
		{"GET", "/orgs/acme/repos?type=all", tokAlice, nil, 200},
		{"GET", "/rate_limit", tokCarol, nil, 200},
		{"GET", repo, tokBob, nil, 200},
		{"GET", "/repos/acme/vault", tokAlice, nil, 200},

		{"GET", repo + "/issues?state=all&labels=bug&sort=updated&direction=asc&per_page=5", tokCarol, nil, 200},
		{"GET", repo + "/issues?milestone=1&assignee=none&creator=bob", tokCarol, nil, 200},
		{"POST", repo + "/issues", tokAlice, map[string]any{
			"title": "Gear housing cracks under load", "body": "Seen on three units, as in #2.\n\n- [ ] check batch",
			"labels": []string{"bug", "needs-repro"}, "assignees": []string{"bob"}, "milestone": 1, "type": "Bug"}, 201},
		{"POST", repo + "/issues", tokCarol, map[string]any{"title": "Docs typo in README"}, 201},
		{"GET", repo + "/issues/36", tokCarol, nil, 200},
		{"GET", repo + "/issues/7", tokCarol, nil, 200}, // a pull request
		{"PATCH", repo + "/issues/36", tokBob, map[string]any{
			"title": "Gear housing cracks under heavy load", "state": "closed", "state_reason": "completed"}, 200},
		{"PATCH", repo + "/issues/36", tokBob, map[string]any{"state": "open", "milestone": nil, "type": nil}, 200},
		{"PATCH", repo + "/issues/37", tokCarol, map[string]any{"body": "Fixed wording."}, 200}, // the author may edit
		{"PUT", repo + "/issues/36/lock", tokAlice, map[string]any{"lock_reason": "too heated"}, 204},
		{"DELETE", repo + "/issues/36/lock", tokAlice, nil, 204},

		{"GET", repo + "/labels?per_page=2&page=2", tokCarol, nil, 200},
		{"POST", repo + "/labels", tokBob, map[string]any{"name": "area: gears", "color": "C5DEF5", "description": "Gear train"}, 201},
		{"GET", repo + "/labels/area:%20gears", tokCarol, nil, 200},
		{"PATCH", repo + "/labels/AREA:%20GEARS", tokBob, map[string]any{"new_name": "area: gearbox", "description": nil}, 200},
		{"GET", repo + "/issues/36/labels", tokCarol, nil, 200},
		{"POST", repo + "/issues/36/labels", tokBob, map[string]any{"labels": []string{"ENHANCEMENT", "area: gearbox"}}, 200},
		{"PUT", repo + "/issues/36/labels", tokBob, map[string]any{"labels": []string{"bug", "status: triage"}}, 200},
		{"DELETE", repo + "/issues/36/labels/status:%20triage", tokBob, nil, 200},
		{"DELETE", repo + "/issues/36/labels", tokBob, nil, 204},
		{"DELETE", repo + "/labels/area:%20gearbox", tokBob, nil, 204},

		{"GET", repo + "/milestones?state=all&sort=completeness&direction=desc", tokCarol, nil, 200},
		{"POST", repo + "/milestones", tokBob, map[string]any{"title": "v2.0", "description": "Next major", "due_on": "2025-09-01T00:00:00Z"}, 201},
		{"GET", repo + "/milestones/3", tokCarol, nil, 200},
		{"PATCH", repo + "/milestones/3", tokBob, map[string]any{"state": "closed", "due_on": nil}, 200},
		{"DELETE", repo + "/milestones/3", tokBob, nil, 204},

		{"GET", repo + "/collaborators?affiliation=all", tokBob, nil, 200},
		{"GET", repo + "/assignees", tokCarol, nil, 200},
		{"GET", repo + "/assignees/bob", tokCarol, nil, 204},
		{"POST", repo + "/issues/36/assignees", tokBob, map[string]any{"assignees": []string{"carol", "bob"}}, 201},
		{"DELETE", repo + "/issues/36/assignees", tokBob, map[string]any{"assignees": []string{"carol"}}, 200},

		{"GET", repo + "/issues/1/comments?since=2025-01-01T00:00:00Z", tokCarol, nil, 200},
		{"POST", repo + "/issues/36/comments", tokCarol, map[string]any{"body": "Could this be the `a<b && c` check?\n\n```go\nif a < b && c {}\n```"}, 201},
		{"GET", repo + "/issues/comments/{comment}", tokCarol, nil, 200},
		{"PATCH", repo + "/issues/comments/{comment}", tokCarol, map[string]any{"body": "Edited: probably the bounds check."}, 200},
		{"POST", repo + "/issues/comments/{comment}/reactions", tokBob, map[string]any{"content": "heart"}, 201},
		{"GET", repo + "/issues/comments/{comment}/reactions", tokCarol, nil, 200},
		{"DELETE", repo + "/issues/comments/{comment}", tokBob, nil, 204},

		{"GET", "/search/issues?q=" + strings.ReplaceAll("rattles repo:acme/widgets is:issue is:open label:bug", " ", "+") + "&sort=created&order=asc", tokCarol, nil, 200},
		{"GET", "/search/issues?q=no:label+is:pr+repo:acme/widgets", tokCarol, nil, 200},
		{"GET", "/search/users?q=ali+type:user", tokCarol, nil, 200},
		{"GET", "/search/repositories?q=widgets+org:acme", tokCarol, nil, 200},
		{"GET", "/search/commits?q=repo:acme/widgets+initial&sort=committer-date&order=asc", tokCarol, nil, 200},
		{"GET", "/search/code?q=widgets+repo:acme/widgets+in:file", tokCarol, nil, 200},

		{"POST", repo + "/issues/1/reactions", tokCarol, map[string]any{"content": "+1"}, 201},
		{"POST", repo + "/issues/1/reactions", tokCarol, map[string]any{"content": "+1"}, 200}, // already reacted so
		{"GET", repo + "/issues/1/reactions?content=%2B1", tokCarol, nil, 200},
		{"GET", repo + "/issues/1", tokCarol, nil, 200},

		{"GET", repo + "/issues/1/sub_issues", tokCarol, nil, 200},
		{"POST", repo + "/issues/1/sub_issues", tokAlice, map[string]any{"sub_issue_id": id(20)}, 201},
		{"POST", repo + "/issues/1/sub_issues", tokAlice, map[string]any{"sub_issue_id": id(21)}, 201},
		{"PATCH", repo + "/issues/1/sub_issues/priority", tokAlice, map[string]any{"sub_issue_id": id(21), "before_id": id(5)}, 200},
		{"GET", repo + "/issues/20/parent", tokCarol, nil, 200},
		{"DELETE", repo + "/issues/1/sub_issue", tokAlice, map[string]any{"sub_issue_id": id(20)}, 200},

		{"GET", repo + "/issues/2/dependencies/blocked_by", tokCarol, nil, 200},
		{"POST", repo + "/issues/2/dependencies/blocked_by", tokAlice, map[string]any{"issue_id": id(22)}, 201},
		{"GET", repo + "/issues/22/dependencies/blocking", tokCarol, nil, 200},
		{"DELETE", repo + fmt.Sprintf("/issues/2/dependencies/blocked_by/%d", id(22)), tokAlice, nil, 200},

		{"GET", repo + "/issues/1/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/3/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/9/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/10/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/11/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/12/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/13/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/14/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/15/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/16/timeline", tokCarol, nil, 200},
		{"GET", repo + "/issues/36/timeline?per_page=100", tokCarol, nil, 200},

		{"GET", "/orgs/acme/issue-types", tokAlice, nil, 200},
		{"GET", repo + "/issue-types", tokCarol, nil, 200},
		{"GET", repo + "/contents/.github/ISSUE_TEMPLATE", tokCarol, nil, 200},
		{"GET", repo + "/contents/.github/ISSUE_TEMPLATE/bug_report.yml", tokCarol, nil, 200},
		{"GET", repo + "/contents/README.md?ref=main", tokCarol, nil, 200},

		{"GET", repo + "/pulls?state=all&sort=updated&direction=desc&per_page=1", tokCarol, nil, 200},
		{"GET", repo + "/pulls?head=acme:patch-7&base=main", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7/files", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7/commits", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7/reviews", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7/comments", tokCarol, nil, 200},
		{"GET", repo + "/pulls/7/requested_reviewers", tokCarol, nil, 200},
		{"GET", repo + "/branches?per_page=1", tokCarol, nil, 200},
		{"GET", repo + "/branches/main", tokCarol, nil, 200},
		{"GET", repo + "/branches/patch-7", tokCarol, nil, 200},
		{"GET", repo + "/git/ref/heads%2Fpatch-7", tokCarol, nil, 200},
		{"GET", repo + "/git/matching-refs/heads%2Fpatch", tokCarol, nil, 200},
		{"GET", repo + "/commits?sha=patch-7&path=gears", tokCarol, nil, 200},
		{"GET", repo + "/commits/patch-7", tokCarol, nil, 200},
		{"GET", repo + "/commits/patch-7/status", tokCarol, nil, 200},
		{"GET", repo + "/commits/patch-7/statuses", tokCarol, nil, 200},
		{"GET", repo + "/commits/patch-7/check-runs", tokCarol, nil, 200},
		{"GET", repo + "/commits/patch-7/check-suites", tokCarol, nil, 200},
		{"GET", repo + "/actions/runs?branch=patch-7&status=failure&event=pull_request", tokCarol, nil, 200},
		{"GET", runPath, tokCarol, nil, 200},
		{"GET", runPath + "/jobs?filter=latest", tokCarol, nil, 200},
		{"GET", jobPath, tokCarol, nil, 200},
		{"GET", jobPath + "/logs", tokCarol, nil, 302},
		{"GET", "/orgs/acme/dependabot/alerts?state=open&severity=high,critical&per_page=10", tokAlice, nil, 200},
		{"GET", repo + "/dependabot/alerts?state=open", tokBob, nil, 200},
		{"GET", "/orgs/acme/code-scanning/alerts?state=open&severity=critical", tokAlice, nil, 200},
		{"GET", repo + "/code-scanning/alerts?state=open&per_page=5&page=1", tokBob, nil, 200},
		{"GET", "/orgs/acme/secret-scanning/alerts?state=open", tokAlice, nil, 200},
		{"GET", repo + "/secret-scanning/alerts?state=open", tokAlice, nil, 200},
		{"GET", repo + "/dependabot/alerts/1", tokBob, nil, 200},
		{"GET", repo + "/code-scanning/alerts/1", tokBob, nil, 200},
		{"GET", repo + "/secret-scanning/alerts/1?hide_secret=true", tokAlice, nil, 200},
		{"GET", repo + "/contents/gears/ratio.go?ref=patch-7", tokCarol, nil, 200},
		{"POST", repo + "/git/refs", tokBob, map[string]any{"ref": "refs/heads/gears-docs", "sha": mainSHA}, 201},
		{"PUT", repo + "/contents/docs/gears.md", tokBob, map[string]any{"message": "Document gears", "content": b64("# Gears\n"), "branch": "gears-docs"}, 201},
		{"POST", repo + "/pulls", tokBob, map[string]any{"title": "Document gears", "head": "gears-docs", "base": "main", "body": "Explains #7."}, 201},
		{"PUT", repo + "/contents/docs/gears.md", tokBob, map[string]any{"message": "Retitle", "content": b64("# Gear train\n"), "sha": blob("# Gears\n"), "branch": "gears-docs"}, 200},
		{"PATCH", repo + "/pulls/38", tokBob, map[string]any{"title": "Document the gear train", "body": "Explains #7 and #8."}, 200},
		{"POST", repo + "/pulls/38/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"alice", "carol"}}, 201},
		{"DELETE", repo + "/pulls/38/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"carol"}}, 200},
		{"GET", repo + "/git/commits/" + mainSHA, tokCarol, nil, 200},
		{"GET", repo + "/git/trees/" + mainTree + "?recursive=1", tokCarol, nil, 200},
		{"POST", repo + "/git/trees", tokBob, map[string]any{"base_tree": mainTree, "tree": []map[string]any{
			{"path": "docs/gears.md", "mode": "100644", "type": "blob", "content": "# Gears\n"}, {"path": "README.md", "mode": "100644", "sha": nil}}}, 201},
		{"POST", repo + "/git/commits", tokBob, map[string]any{"message": "Docs for gears", "tree": lazyJSON(func() any { return created.tree }),
			"parents": []string{mainSHA}, "author": map[string]any{"name": "Bob", "email": "bob@example.com", "date": "2025-02-01T10:00:00Z"}}, 201},
		{"PATCH", repo + "/git/refs/heads%2Fgears-docs", tokBob, map[string]any{"sha": lazyJSON(func() any { return created.commit }), "force": true}, 200},
		{"PUT", repo + "/pulls/7/merge", tokAlice, map[string]any{"merge_method": "squash", "commit_title": "Cap the gear ratio (#7)"}, 200},
		{"GET", repo + "/pulls/7/merge", tokCarol, nil, 204},
		// main moved with #7: #38's branch takes it in.
		{"PUT", repo + "/pulls/38/update-branch", tokBob, map[string]any{}, 202},
		{"GET", repo + "/tags", tokCarol, nil, 200},
		{"GET", repo + "/releases", tokCarol, nil, 200},
		{"GET", repo + "/releases/latest", tokCarol, nil, 200},
		{"GET", repo + "/releases/tags/v1.1.0-rc.1", tokCarol, nil, 200},

		{"GET", "/app/installations/7", appJWT, nil, 200},
		{"POST", "/app/installations/7/access_tokens", appJWT, map[string]any{"repositories": []string{"widgets"},
			"permissions": map[string]string{"issues": "write", "contents": "read"}}, 201},
	}
	steps = append(steps, projectSteps(w)...)
	steps = append(steps, append(workflowSteps(w, fx), activitySteps(t, w)...)...)

	succeeded := map[string]bool{}
	comment := ""
	for _, s := range steps {
		path := strings.ReplaceAll(s.path, "{comment}", comment)
		res := w.do(t, s.method, path, s.token, s.body)
		if res.Status != s.want {
			t.Errorf("%s %s: status %d, want %d: %s", s.method, path, res.Status, s.want, res.Body)
			continue
		}
		if res.Operation == "" {
			t.Errorf("%s %s: answered %d but matched no operation of GitHub's description", s.method, path, res.Status)
			continue
		}
		succeeded[res.Operation] = true
		if f := captures[s.method+" "+path]; f != nil {
			f(res)
		}
		if s.method == "POST" && strings.HasSuffix(path, "/comments") {
			var c struct {
				ID int64 `json:"id"`
			}
			res.JSON(t, &c)
			comment = fmt.Sprint(c.ID)
		}
	}
	// The related-issue endpoints answer only API version 2026-03-10
	// (rest/related.go).
	v2026 := http.Header{"X-GitHub-Api-Version": {"2026-03-10"}}
	for _, s := range []step{
		{"POST", repo + "/issues/2/related", tokAlice, map[string]any{"issue_id": id(22)}, 201},
		{"GET", repo + "/issues/22/related", tokCarol, nil, 200},
		{"DELETE", repo + fmt.Sprintf("/issues/22/related/%d", id(2)), tokAlice, nil, 200},
	} {
		res := w.srv.Do(t, s.method, s.path, s.token, s.body, v2026)
		if res.Status != s.want {
			t.Errorf("%s %s (2026-03-10): status %d, want %d: %s", s.method, s.path, res.Status, s.want, res.Body)
			continue
		}
		if res.Operation == "" {
			t.Errorf("%s %s (2026-03-10): no operation matched, want one in GitHub's description", s.method, s.path)
			continue
		}
		succeeded[res.Operation] = true
	}
	releaseSteps(t, w, succeeded)
	repoWriteSteps(t, w, succeeded)
	for _, r := range w.srv.Emu.Routes() {
		if !succeeded[r] {
			t.Errorf("route %s was never answered successfully", r)
		}
	}
	if t.Failed() {
		return
	}
	// The timeline pages above cover every event kind the emulator records.
	kinds := timelineKinds(t, w)
	for _, k := range []string{"labeled", "unlabeled", "assigned", "unassigned", "milestoned", "demilestoned",
		"renamed", "closed", "reopened", "locked", "unlocked", "commented", "cross-referenced", "sub_issue_added",
		"sub_issue_removed", "parent_issue_added", "parent_issue_removed", "blocked_by_added",
		"blocked_by_removed", "blocking_added", "blocking_removed",
		// pull requests #7 and #38
		"committed", "reviewed", "merged", "head_ref_force_pushed", "review_requested", "review_request_removed"} {
		if !slices.Contains(kinds, k) {
			t.Errorf("no timeline carried a %q event", k)
		}
	}
}

// projectSteps drive the Projects (v2) routes over the world's boards.
func projectSteps(w *world) []step {
	const org, user = "/orgs/acme/projectsV2", "/users/alice/projectsV2"
	b := w.board
	item := fmt.Sprint(b.item)
	return []step{
		{"GET", org + "?q=gear%20is:open", tokCarol, nil, 200},
		{"GET", user, tokAlice, nil, 200},
		{"GET", org + "/1", tokCarol, nil, 200},
		{"GET", user + "/1", tokAlice, nil, 200},
		{"GET", org + "/1/fields?per_page=5", tokCarol, nil, 200},
		{"GET", user + "/1/fields", tokAlice, nil, 200},
		{"GET", user + "/1/fields/" + b.userTitle, tokAlice, nil, 200},
		{"GET", user + "/1/items/" + fmt.Sprint(b.userItem), tokAlice, nil, 200},
		{"GET", org + "/1/fields/" + b.sprint, tokCarol, nil, 200},
		{"GET", org + "/1/items?per_page=2&fields=" + b.priority + "," + b.sprint + "," + b.points, tokCarol, nil, 200},
		{"GET", org + "/1/items?q=priority:High%20-is:archived", tokCarol, nil, 200},
		{"GET", user + "/1/items", tokAlice, nil, 200},
		{"GET", org + "/1/items/" + item + "?fields[]=" + b.priority, tokCarol, nil, 200},
		{"PATCH", org + "/1/items/" + item, tokBob, map[string]any{"fields": []map[string]any{
			{"id": json.Number(b.sprint), "value": b.current}, {"id": json.Number(b.points), "value": 3}, {"id": json.Number(b.priority), "value": nil}}}, 200},
		{"POST", org + "/1/items", tokBob, map[string]any{"type": "Issue", "id": w.ids[6]}, 201},
		{"POST", org + "/1/items", tokBob, map[string]any{"type": "PullRequest", "owner": "acme", "repo": "widgets", "number": 7}, 201},
		{"POST", user + "/1/items", tokAlice, map[string]any{"type": "Issue", "owner": "alice", "repo": "notes", "number": 1}, 201},
		{"DELETE", org + "/1/items/" + item, tokBob, nil, 204},
		{"POST", org + "/1/drafts", tokBob, map[string]any{"title": "Measure the rattle", "body": "At 3:1 and 9:1."}, 201},
		{"POST", "/user/" + b.aliceID + "/projectsV2/1/drafts", tokAlice, map[string]any{"title": "Read the gear book"}, 201},
		{"PATCH", user + "/1/items/" + fmt.Sprint(b.userItem), tokAlice, map[string]any{"archived": true}, 200},
		{"DELETE", user + "/1/items/" + fmt.Sprint(b.userItem), tokAlice, nil, 204},
	}
}

// timelineKinds reads the timelines of every issue and pull request in
// acme/widgets through the harness and returns the event kinds seen.
func timelineKinds(t *testing.T, w *world) []string {
	t.Helper()
	var kinds []string
	for n := 1; n <= 38; n++ {
		res := w.do(t, "GET", fmt.Sprintf("/repos/acme/widgets/issues/%d/timeline?per_page=100", n), tokCarol, nil)
		var items []struct {
			Event string `json:"event"`
		}
		res.JSON(t, &items)
		for _, it := range items {
			if !slices.Contains(kinds, it.Event) {
				kinds = append(kinds, it.Event)
			}
		}
	}
	return kinds
}

// installApp registers a GitHub App installed on acme/widgets as
// installation 7 and returns a JWT it signed.
func installApp(t *testing.T, w *world) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	st := w.srv.Emu.State()
	st.Lock()
	st.AddApp(42, &key.PublicKey).AddInstallation(7, "acme", map[string]emulator.Permission{"acme/widgets": emulator.PermWrite})
	st.Unlock()
	now := time.Now()
	jwt, err := emulator.SignAppJWT(42, key, now.Add(-30*time.Second), now.Add(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return jwt
}

// lazyJSON is a request body value read when the request is sent.
type lazyJSON func() any

func (f lazyJSON) MarshalJSON() ([]byte, error) { return json.Marshal(f()) }

// shaOf reads the sha of a created git object.
func shaOf(t *testing.T, res *emulatortest.Response) string {
	t.Helper()
	var v struct {
		SHA string `json:"sha"`
	}
	res.JSON(t, &v)
	return v.SHA
}
