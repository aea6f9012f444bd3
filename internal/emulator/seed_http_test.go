package emulator_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The demo seed seen through the REST API, as a client sees it.

func serveDemo(t *testing.T) string {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Now: emulator.DemoNow})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, url, token string) reply {
	t.Helper()
	return send(t, http.MethodGet, url, token, nil)
}

// send makes one request with token and returns the whole answer; body is
// sent as JSON when not nil.
func send(t *testing.T, method, url, token string, body any) reply {
	t.Helper()
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, payload)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, answer}
}

func getJSON(t *testing.T, url, token string, v any) reply {
	t.Helper()
	r := get(t, url, token)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return r
}

var nextLink = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// getAll follows Link rel="next" from url and returns every item; pages
// are bounded so a broken Link header cannot loop forever.
func getAll[T any](t *testing.T, url, token string) (items []T, pages int) {
	t.Helper()
	for url != "" && pages < 20 {
		var page []T
		r := getJSON(t, url, token, &page)
		items = append(items, page...)
		pages++
		url = ""
		if m := nextLink.FindStringSubmatch(r.header.Get("Link")); m != nil {
			url = m[1]
		}
	}
	return items, pages
}

type issueOut struct {
	Number int     `json:"number"`
	State  string  `json:"state"`
	Body   *string `json:"body"`
	Labels []struct {
		Name string `json:"name"`
	} `json:"labels"`
	PullRequest      *json.RawMessage `json:"pull_request"`
	Locked           bool             `json:"locked"`
	ActiveLockReason *string          `json:"active_lock_reason"`
	StateReason      *string          `json:"state_reason"`
}

func TestDemoSeedOverHTTP(t *testing.T) {
	base := serveDemo(t)
	alice := emulator.DemoTokenAlice
	widgets := base + "/repos/acme/widgets"

	t.Run("issues paginate past 150 with pull requests", func(t *testing.T) {
		all, pages := getAll[issueOut](t, widgets+"/issues?state=all&per_page=100", alice)
		if len(all) < 150 {
			t.Fatalf("listed %d issues, want at least 150", len(all))
		}
		if pages < 2 {
			t.Fatalf("listed over %d pages, want 2 or more", pages)
		}
		pulls := 0
		reasons := map[string]bool{}
		for _, is := range all {
			if is.PullRequest != nil {
				pulls++
			} else if is.StateReason != nil {
				reasons[*is.StateReason] = true
			}
		}
		if pulls < 10 {
			t.Errorf("items with a pull_request key: %d, want at least 10", pulls)
		}
		for _, r := range []string{"completed", "not_planned", "duplicate"} {
			if !reasons[r] {
				t.Errorf("no listed issue has state_reason %s", r)
			}
		}
	})

	t.Run("open issues without labels", func(t *testing.T) {
		open, _ := getAll[issueOut](t, widgets+"/issues?state=open&per_page=100", alice)
		n := 0
		for _, is := range open {
			if is.PullRequest == nil && len(is.Labels) == 0 {
				n++
			}
		}
		if n < 5 {
			t.Errorf("open unlabeled issues: %d, want at least 5", n)
		}
	})

	t.Run("labels", func(t *testing.T) {
		var labels []struct {
			Name        string  `json:"name"`
			Color       string  `json:"color"`
			Description *string `json:"description"`
		}
		getJSON(t, widgets+"/labels?per_page=100", alice, &labels)
		if len(labels) < 12 {
			t.Errorf("%d labels, want at least 12", len(labels))
		}
		var names []string
		for _, l := range labels {
			names = append(names, l.Name)
		}
		for _, want := range []string{"bug", "enhancement", "status: triage", "status: in progress", "priority: high"} {
			if !slices.Contains(names, want) {
				t.Errorf("label %q not listed", want)
			}
		}
	})

	t.Run("milestones", func(t *testing.T) {
		var ms []struct {
			Title string  `json:"title"`
			State string  `json:"state"`
			DueOn *string `json:"due_on"`
		}
		getJSON(t, widgets+"/milestones?state=all", alice, &ms)
		closed := 0
		for _, m := range ms {
			if m.DueOn == nil {
				t.Errorf("milestone %s has no due_on", m.Title)
			}
			if m.State == "closed" {
				closed++
			}
		}
		if len(ms) != 3 {
			t.Errorf("milestones: %d, want 3", len(ms))
		}
		if closed != 1 {
			t.Errorf("closed milestones: %d, want 1", closed)
		}
	})

	// GitHub refuses a milestone number the repository lacks with 422
	// ({"value", "resource": "Issue", "field": "milestone", "code":
	// "invalid"}), rather than listing no issues.
	t.Run("issues of a milestone that does not exist", func(t *testing.T) {
		if r := get(t, widgets+"/issues?milestone=1&state=all", alice); r.status != http.StatusOK {
			t.Errorf("milestone=1: status %d, want %d: %s", r.status, http.StatusOK, r.body)
		}
		r := get(t, widgets+"/issues?milestone=99&state=all", alice)
		if r.status != http.StatusUnprocessableEntity {
			t.Fatalf("milestone=99: status %d, want 422", r.status)
		}
		var body struct {
			Errors []struct{ Value, Resource, Field, Code string } `json:"errors"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatal(err)
		}
		want := []struct{ Value, Resource, Field, Code string }{{"99", "Issue", "milestone", "invalid"}}
		if !slices.Equal(body.Errors, want) {
			t.Errorf("errors = %+v, want %+v", body.Errors, want)
		}
	})

	t.Run("locked issue", func(t *testing.T) {
		var is issueOut
		getJSON(t, fmt.Sprintf("%s/issues/%d", widgets, emulator.DemoLockedIssue), alice, &is)
		if !is.Locked {
			t.Errorf("locked = false, want true")
		}
		if r := is.ActiveLockReason; r == nil {
			t.Errorf("active_lock_reason = null, want %q", "too heated")
		} else if *r != "too heated" {
			t.Errorf("active_lock_reason = %q, want %q", *r, "too heated")
		}
	})

	t.Run("comments paginate", func(t *testing.T) {
		url := fmt.Sprintf("%s/issues/%d/comments?per_page=5", widgets, emulator.DemoManyCommentsIssue)
		comments, pages := getAll[struct {
			ID int64 `json:"id"`
		}](t, url, alice)
		if len(comments) < 12 {
			t.Errorf("%d comments, want at least 12", len(comments))
		}
		if pages < 3 {
			t.Errorf("comments over %d pages, want 3 or more", pages)
		}
	})

	t.Run("hostile body survives the wire", func(t *testing.T) {
		var is issueOut
		getJSON(t, fmt.Sprintf("%s/issues/%d", widgets, emulator.DemoHostileIssue), alice, &is)
		if is.Body == nil {
			t.Fatal("no body")
		}
		checkHostile(t, *is.Body)
	})

	t.Run("sub-issues and dependencies", func(t *testing.T) {
		var subs []issueOut
		getJSON(t, fmt.Sprintf("%s/issues/%d/sub_issues", widgets, emulator.DemoParentIssue), alice, &subs)
		if len(subs) < 3 {
			t.Errorf("DemoParentIssue lists %d sub-issues, want at least 3", len(subs))
		}
		if !slices.ContainsFunc(subs, func(s issueOut) bool { return s.Number == emulator.DemoNestedParentIssue }) {
			t.Errorf("DemoParentIssue's sub-issues lack DemoNestedParentIssue #%d", emulator.DemoNestedParentIssue)
		}
		var blockers []issueOut
		getJSON(t, fmt.Sprintf("%s/issues/%d/dependencies/blocked_by", widgets, emulator.DemoBlockedIssue), alice, &blockers)
		if !slices.ContainsFunc(blockers, func(s issueOut) bool { return s.Number == emulator.DemoChainIssue }) {
			t.Errorf("DemoBlockedIssue's blockers %+v lack DemoChainIssue #%d", blockers, emulator.DemoChainIssue)
		}
	})

	t.Run("issue types", func(t *testing.T) {
		var types []struct {
			Name string `json:"name"`
		}
		getJSON(t, base+"/orgs/acme/issue-types", alice, &types)
		var names []string
		for _, it := range types {
			names = append(names, it.Name)
		}
		if !slices.Equal(names, []string{"Task", "Bug", "Feature"}) {
			t.Errorf("issue types %v, want [Task Bug Feature]", names)
		}
	})

	t.Run("issue templates", func(t *testing.T) {
		var dir []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		}
		getJSON(t, widgets+"/contents/.github/ISSUE_TEMPLATE", alice, &dir)
		var names []string
		for _, e := range dir {
			names = append(names, e.Name)
		}
		for _, want := range []string{"bug_report.yml", "feature_request.md"} {
			if !slices.Contains(names, want) {
				t.Errorf("template directory lists %v, missing %s", names, want)
			}
		}
		var file struct {
			Content  string `json:"content"`
			Encoding string `json:"encoding"`
		}
		getJSON(t, widgets+"/contents/.github/ISSUE_TEMPLATE/bug_report.yml", alice, &file)
		raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(file.Content, "\n", ""))
		if err != nil {
			t.Errorf("bug_report.yml: decode content: %v", err)
		}
		if file.Encoding != "base64" {
			t.Errorf("bug_report.yml: encoding %q, want %q", file.Encoding, "base64")
		}
		if !bytes.Contains(raw, []byte("\nbody:\n")) {
			t.Errorf("bug_report.yml: content %q, want a body: section", raw)
		}
		for _, r := range []string{"acme/widgets", "acme/gadgets", "alice/notes"} {
			if rep := get(t, base+"/repos/"+r+"/contents/README.md", alice); rep.status != http.StatusOK {
				t.Errorf("%s README.md: %d", r, rep.status)
			}
		}
	})

	t.Run("who sees what", func(t *testing.T) {
		for _, c := range []struct {
			token, repo string
			status      int
		}{
			{emulator.DemoTokenDave, "acme/widgets", 200},
			{emulator.DemoTokenDave, "acme/gadgets", 404},
			{emulator.DemoTokenDave, "alice/notes", 404},
			{emulator.DemoTokenCarol, "acme/gadgets", 200},
			{emulator.DemoTokenBob, "alice/notes", 404},
			{emulator.DemoTokenAlice, "alice/notes", 200},
		} {
			if got := get(t, base+"/repos/"+c.repo, c.token).status; got != c.status {
				t.Errorf("%s GET /repos/%s: %d, want %d", c.token, c.repo, got, c.status)
			}
		}
	})
}

// Two emulators seeded independently answer every read with the same bytes.
// Requests go straight to ServeHTTP with one host name, so the URLs inside
// the payloads match too.
func TestDemoSeedIsDeterministic(t *testing.T) {
	newEmu := func() *emulator.Emulator {
		emu, err := emulator.New(emulator.Options{Now: emulator.DemoNow})
		if err != nil {
			t.Fatal(err)
		}
		return emu
	}
	a, b := newEmu(), newEmu()
	fetch := func(emu *emulator.Emulator, path string) []byte {
		req := httptest.NewRequest(http.MethodGet, "http://api.github.test"+path, nil)
		req.Header.Set("Authorization", "token "+emulator.DemoTokenAlice)
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	paths := []string{"/orgs/acme/issue-types", "/orgs/acme/repos", "/repos/acme/widgets/contents/.github/ISSUE_TEMPLATE"}
	for _, r := range []string{"acme/widgets", "acme/gadgets", "alice/notes"} {
		repo := "/repos/" + r
		paths = append(paths, repo, repo+"/labels?per_page=100", repo+"/milestones?state=all",
			repo+"/issues?state=all&per_page=100&page=1", repo+"/issues?state=all&per_page=100&page=2")
		owner, name, _ := strings.Cut(r, "/")
		count := len(a.State().Repo(owner, name).Issues)
		for n := 1; n <= count; n++ {
			issue := fmt.Sprintf("%s/issues/%d", repo, n)
			paths = append(paths, issue, issue+"/comments?per_page=100", issue+"/timeline?per_page=100")
		}
	}
	differ := 0
	for _, p := range paths {
		if x, y := fetch(a, p), fetch(b, p); !bytes.Equal(x, y) {
			differ++
			if differ <= 3 {
				t.Errorf("GET %s differs between two seeds:\n%s\n%s", p, x, y)
			}
		}
	}
	if differ > 0 {
		t.Fatalf("%d of %d responses differ", differ, len(paths))
	}
	t.Logf("%d responses compared byte for byte", len(paths))
}
