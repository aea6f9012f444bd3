package fidelity

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// The routes the cross-repository reports read, over the demo seed with a
// fleet of 20 repositories, through the validating harness: GitHub's
// refusals for a feature that is off or a caller without the role, cursor
// pagination, the secret value, workflow runs and their logs, and release
// pull requests' changelogs at their head commit.

const fleetN = 20

func fleetServer(t *testing.T) *emulatortest.Server {
	t.Helper()
	return emulatortest.Start(t, emulator.Options{Now: emulator.DemoNow, FleetRepos: fleetN})
}

func fleetRepo(i int) string { return "/repos/fleet/" + emulator.Fleet(i).Name }

type message struct {
	Message string `json:"message"`
}

func TestSecurityAlertRefusals(t *testing.T) {
	srv := fleetServer(t)
	cases := []struct {
		name, path, token string
		want              int
		message           string
	}{
		{"org owner", "/orgs/fleet/dependabot/alerts", emulator.DemoTokenAlice, 200, ""},
		{"security manager with read access", "/orgs/fleet/code-scanning/alerts", emulator.DemoTokenCarol, 200, ""},
		{"security manager, secrets", "/orgs/fleet/secret-scanning/alerts", emulator.DemoTokenCarol, 200, ""},
		{"member with write access", "/orgs/fleet/dependabot/alerts", emulator.DemoTokenBob, 403, "You must be an organization owner or security manager to access this resource."},
		{"outsider", "/orgs/fleet/secret-scanning/alerts", emulator.DemoTokenDave, 403, "You must be an organization owner or security manager to access this resource."},
		{"no such org", "/orgs/nowhere/dependabot/alerts", emulator.DemoTokenAlice, 404, "Not Found"},
		{"dependabot, writer", fleetRepo(3) + "/dependabot/alerts", emulator.DemoTokenBob, 200, ""},
		{"dependabot, reader", fleetRepo(3) + "/dependabot/alerts", emulator.DemoTokenCarol, 403, "Resource not accessible by personal access token"},
		{"dependabot off", fleetRepo(5) + "/dependabot/alerts", emulator.DemoTokenAlice, 403, "Dependabot alerts are disabled for this repository."},
		{"dependabot page number", fleetRepo(3) + "/dependabot/alerts?page=2", emulator.DemoTokenAlice, 400, "Pagination using the `page` parameter is not supported. Use the `before` and `after` cursors given in the Link header instead."},
		{"code scanning never analysed", fleetRepo(1) + "/code-scanning/alerts", emulator.DemoTokenAlice, 404, "no analysis found"},
		{"code scanning without Advanced Security", fleetRepo(9) + "/code-scanning/alerts", emulator.DemoTokenAlice, 403, "Advanced Security must be enabled for this repository to use code scanning."},
		{"secret scanning off", fleetRepo(2) + "/secret-scanning/alerts", emulator.DemoTokenAlice, 404, "Secret scanning is disabled on this repository."},
		{"secret scanning, private without Advanced Security", fleetRepo(9) + "/secret-scanning/alerts", emulator.DemoTokenAlice, 404, "Secret scanning is disabled on this repository."},
		{"secret scanning, writer", fleetRepo(3) + "/secret-scanning/alerts", emulator.DemoTokenBob, 403, "Resource not accessible by personal access token"},
		{"private repository, outsider", fleetRepo(4) + "/dependabot/alerts", emulator.DemoTokenDave, 404, "Not Found"},
		{"owner, token without repo or security_events", "/orgs/fleet/dependabot/alerts", emulator.FleetTokenPublicOnly, 403, "Resource not accessible by personal access token"},
		{"public_repo scope, public repository", fleetRepo(3) + "/dependabot/alerts", emulator.FleetTokenPublicOnly, 200, ""},
		{"public_repo scope, private repository", fleetRepo(4) + "/dependabot/alerts", emulator.FleetTokenPublicOnly, 403, "Resource not accessible by personal access token"},
	}
	for _, tc := range cases {
		res := srv.Do(t, "GET", tc.path, tc.token, nil)
		if res.Status != tc.want {
			t.Errorf("%s: GET %s: %d, want %d: %s", tc.name, tc.path, res.Status, tc.want, res.Body)
			continue
		}
		if tc.message != "" {
			var m message
			res.JSON(t, &m)
			if m.Message != tc.message {
				t.Errorf("%s: message %q, want %q", tc.name, m.Message, tc.message)
			}
		}
		// A refusal is not a rate limit: it carries no retry-after and
		// leaves budget.
		if res.Status >= 400 {
			if got := res.Header.Get("Retry-After"); got != "" {
				t.Errorf("%s: refusal has Retry-After %q, want none (not a rate limit)", tc.name, got)
			}
			if res.Header.Get("X-RateLimit-Remaining") == "0" {
				t.Errorf("%s: refusal has X-RateLimit-Remaining \"0\", want budget left (not a rate limit)", tc.name)
			}
		}
	}
}

// Dependabot's organization list pages by cursors: following rel="next"
// visits every alert once, newest first, and rel="prev" walks back.
func TestDependabotCursorPagination(t *testing.T) {
	srv := fleetServer(t)
	all := srv.Do(t, "GET", "/orgs/fleet/dependabot/alerts?per_page=100", emulator.DemoTokenAlice, nil)
	var want []alertKey
	all.JSON(t, &want)
	if len(want) < 10 {
		t.Fatalf("the fleet has %d Dependabot alerts, want at least 10", len(want))
	}
	st := srv.Emu.State()
	total := 0
	for i := range fleetN {
		if !emulator.Fleet(i).DependabotOff {
			total += len(st.Repo("fleet", emulator.Fleet(i).Name).Security.Dependabot)
		}
	}
	if len(want) != total {
		t.Fatalf("org list has %d alerts, want the %d the repositories with Dependabot on hold", len(want), total)
	}
	var got []alertKey
	path := "/orgs/fleet/dependabot/alerts?per_page=7"
	var prev string
	for pages := 0; path != ""; pages++ {
		if pages > 20 {
			t.Fatal("pagination does not end")
		}
		res := srv.Do(t, "GET", path, emulator.DemoTokenAlice, nil)
		var page []alertKey
		res.JSON(t, &page)
		got = append(got, page...)
		links := linkRels(res.Header.Get("Link"))
		if strings.Contains(links["next"], "page=") && !strings.Contains(links["next"], "after=") {
			t.Fatalf("next link %q has page= and no after=, want a cursor", links["next"])
		}
		if links["prev"] != "" {
			prev = links["prev"]
		}
		path = strings.TrimPrefix(links["next"], srv.URL)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cursor pages visited %d alerts, want %d; mismatch (-want +got):\n%s", len(got), len(want), cmp.Diff(want, got))
	}
	res := srv.Do(t, "GET", strings.TrimPrefix(prev, srv.URL), emulator.DemoTokenAlice, nil)
	var back []alertKey
	res.JSON(t, &back)
	if len(back) != 7 {
		t.Fatalf("rel=prev page holds %d alerts, want 7", len(back))
	}
}

type alertKey struct {
	Number     int    `json:"number"`
	HTMLURL    string `json:"html_url"`
	Repository struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
}

var linkRe = regexp.MustCompile(`<([^>]+)>; rel="(\w+)"`)

func linkRels(h string) map[string]string {
	out := map[string]string{}
	for _, m := range linkRe.FindAllStringSubmatch(h, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// Organization lists skip repositories where a feature is off, filter by
// state and severity, and return a secret's value unless hide_secret.
func TestSecurityAlertFiltersAndSecrets(t *testing.T) {
	srv := fleetServer(t)
	var crit []struct {
		State                 string `json:"state"`
		SecurityVulnerability struct {
			Severity string `json:"severity"`
		} `json:"security_vulnerability"`
		Repository struct {
			Name string `json:"name"`
		} `json:"repository"`
	}
	srv.Do(t, "GET", "/orgs/fleet/dependabot/alerts?state=open&severity=critical&per_page=100", emulator.DemoTokenAlice, nil).JSON(t, &crit)
	if len(crit) == 0 {
		t.Fatal("no open critical Dependabot alert in the fleet")
	}
	for _, a := range crit {
		if a.State != "open" {
			t.Errorf("state=open list holds an alert of %s in state %q", a.Repository.Name, a.State)
		}
		if a.SecurityVulnerability.Severity != "critical" {
			t.Errorf("severity=critical list holds an alert of %s of severity %q", a.Repository.Name, a.SecurityVulnerability.Severity)
		}
		if a.Repository.Name == emulator.Fleet(5).Name {
			t.Errorf("org list holds an alert of %s, where Dependabot is off", a.Repository.Name)
		}
	}
	var secrets []struct {
		Secret     *string `json:"secret"`
		Repository struct {
			Name string `json:"name"`
		} `json:"repository"`
	}
	srv.Do(t, "GET", "/orgs/fleet/secret-scanning/alerts?per_page=100", emulator.DemoTokenAlice, nil).JSON(t, &secrets)
	canary := false
	for _, a := range secrets {
		if a.Secret == nil || !strings.Contains(*a.Secret, emulator.SecretCanary) {
			t.Errorf("secret alert of %s: secret %s, want one holding %q", a.Repository.Name, strOf(a.Secret), emulator.SecretCanary)
		}
		if a.Secret != nil && *a.Secret == emulator.FleetCanarySecret {
			canary = true
		}
		if f := fleetIndex(a.Repository.Name); f.SecretScanningOff {
			t.Errorf("org list holds an alert of %s, where secret scanning is off", a.Repository.Name)
		} else if f.Private && f.AdvancedSecurityOff {
			t.Errorf("org list holds an alert of %s, private without Advanced Security", a.Repository.Name)
		}
	}
	if !canary {
		t.Errorf("no alert carries FleetCanarySecret %q, want one", emulator.FleetCanarySecret)
	}
	hidden := srv.Do(t, "GET", "/orgs/fleet/secret-scanning/alerts?hide_secret=true", emulator.DemoTokenAlice, nil)
	if strings.Contains(string(hidden.Body), emulator.SecretCanary) {
		t.Errorf("hide_secret=true: body holds %q, want it hidden", emulator.SecretCanary)
	}
}

func fleetIndex(name string) emulator.FleetRepo {
	for i := range fleetN {
		if f := emulator.Fleet(i); f.Name == name {
			return f
		}
	}
	return emulator.FleetRepo{}
}

// A red pull request's run is found by its head sha; its failed job's
// failed step is named, and the job's log, reached through the 302 GitHub
// answers, ends with the failure. The log URL needs no token and refuses
// a tampered signature.
func TestWorkflowRunJobsAndLogs(t *testing.T) {
	srv := fleetServer(t)
	st := srv.Emu.State()
	st.RLock()
	var repo, sha string
	conclusions := map[string]int{}
	for i := range fleetN {
		r := st.Repo("fleet", emulator.Fleet(i).Name)
		for _, w := range r.Runs {
			c := "pending"
			if cl := w.Conclusion(); cl != nil {
				c = *cl
			}
			conclusions[c]++
			if c == "failure" && repo == "" {
				repo, sha = fleetRepo(i), w.HeadSHA
			}
		}
	}
	st.RUnlock()
	for _, c := range []string{"success", "failure", "cancelled", "timed_out", "pending"} {
		if conclusions[c] == 0 {
			t.Errorf("no fleet run concluded %s: %v", c, conclusions)
		}
	}
	var runs struct {
		TotalCount   int `json:"total_count"`
		WorkflowRuns []struct {
			ID           int64   `json:"id"`
			Conclusion   *string `json:"conclusion"`
			HeadSHA      string  `json:"head_sha"`
			PullRequests []struct {
				Number int `json:"number"`
			} `json:"pull_requests"`
		} `json:"workflow_runs"`
	}
	srv.Do(t, "GET", repo+"/actions/runs?head_sha="+sha, emulator.DemoTokenCarol, nil).JSON(t, &runs)
	if runs.TotalCount != 1 {
		t.Fatalf("runs for %s: total_count %d, want 1", sha, runs.TotalCount)
	}
	run := runs.WorkflowRuns[0]
	if run.Conclusion == nil || *run.Conclusion != "failure" {
		t.Fatalf("run for %s: conclusion %s, want \"failure\"", sha, strOf(run.Conclusion))
	}
	if len(run.PullRequests) != 1 {
		t.Fatalf("run for %s: %d pull_requests, want 1", sha, len(run.PullRequests))
	}
	var jobs struct {
		Jobs []struct {
			ID         int64   `json:"id"`
			Name       string  `json:"name"`
			Conclusion *string `json:"conclusion"`
			Steps      []struct {
				Name       string  `json:"name"`
				Conclusion *string `json:"conclusion"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	srv.Do(t, "GET", fmt.Sprintf("%s/actions/runs/%d/jobs", repo, runs.WorkflowRuns[0].ID), emulator.DemoTokenCarol, nil).JSON(t, &jobs)
	var failed int64
	for _, j := range jobs.Jobs {
		if j.Conclusion != nil && *j.Conclusion == "failure" {
			failed = j.ID
			if i := slices.IndexFunc(j.Steps, func(s struct {
				Name       string  `json:"name"`
				Conclusion *string `json:"conclusion"`
			}) bool {
				return s.Conclusion != nil && *s.Conclusion == "failure"
			}); i < 0 {
				t.Errorf("failed job %s: no failed step, want \"Run tests\" (steps %+v)", j.Name, j.Steps)
			} else if j.Steps[i].Name != "Run tests" {
				t.Errorf("failed job %s: failed step %q, want %q", j.Name, j.Steps[i].Name, "Run tests")
			}
		}
	}
	if failed == 0 {
		t.Fatalf("no job concluded failure, want one: %+v", jobs)
	}
	res := srv.Do(t, "GET", fmt.Sprintf("%s/actions/jobs/%d/logs", repo, failed), emulator.DemoTokenCarol, nil)
	loc := res.Header.Get("Location")
	if res.Status != http.StatusFound {
		t.Fatalf("job logs: status %d, want %d", res.Status, http.StatusFound)
	}
	if !strings.HasPrefix(loc, srv.URL+"/") {
		t.Fatalf("job logs: Location %q, want one on %s", loc, srv.URL)
	}
	body, status := get(t, loc)
	if status != 200 {
		t.Fatalf("log at %s: status %d, want 200", loc, status)
	}
	for _, want := range []string{"--- FAIL: TestShutdownDrainsQueue", "##[error]Process completed with exit code 1."} {
		if !strings.Contains(body, want) {
			t.Fatalf("log at %s lacks %q:\n%s", loc, want, body)
		}
	}
	if _, status := get(t, strings.Replace(loc, "sig=", "sig=0", 1)); status != http.StatusForbidden {
		t.Errorf("a tampered log URL answered %d, want 403", status)
	}
	var suites struct {
		CheckSuites []struct {
			Conclusion *string `json:"conclusion"`
			App        struct {
				Slug string `json:"slug"`
			} `json:"app"`
		} `json:"check_suites"`
	}
	srv.Do(t, "GET", repo+"/commits/"+sha+"/check-suites", emulator.DemoTokenCarol, nil).JSON(t, &suites)
	if len(suites.CheckSuites) != 1 {
		t.Fatalf("check suites of %s: %d, want 1: %+v", sha, len(suites.CheckSuites), suites)
	}
	suite := suites.CheckSuites[0]
	if suite.Conclusion == nil || *suite.Conclusion != "failure" {
		t.Fatalf("check suite of %s: conclusion %s, want \"failure\"", sha, strOf(suite.Conclusion))
	}
	if suite.App.Slug != "github-actions" {
		t.Fatalf("check suite of %s: app %q, want %q", sha, suite.App.Slug, "github-actions")
	}
}

func get(t *testing.T, url string) (string, int) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp.StatusCode
}

// Release pull requests carry the release label and "release: vX.Y.Z";
// the changelog entry is at the head commit where the spec puts it, or
// missing.
func TestReleasePullChangelogs(t *testing.T) {
	srv := fleetServer(t)
	kinds := map[string]bool{}
	for i := range fleetN {
		f := emulator.Fleet(i)
		if f.Release == "" {
			continue
		}
		kinds[f.ReleaseChangelog] = true
		var pulls []struct {
			Title  string `json:"title"`
			Labels []struct {
				Name string `json:"name"`
			} `json:"labels"`
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		}
		srv.Do(t, "GET", fleetRepo(i)+"/pulls?state=open&per_page=100", emulator.DemoTokenCarol, nil).JSON(t, &pulls)
		k := slices.IndexFunc(pulls, func(p struct {
			Title  string `json:"title"`
			Labels []struct {
				Name string `json:"name"`
			} `json:"labels"`
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		}) bool {
			return p.Title == "release: "+f.Release
		})
		if k < 0 {
			t.Fatalf("%s: no pull request titled %q in %+v", f.Name, "release: "+f.Release, pulls)
		}
		var labels []string
		for _, l := range pulls[k].Labels {
			labels = append(labels, l.Name)
		}
		if !slices.Equal(labels, []string{emulator.FleetReleaseLabel}) {
			t.Fatalf("%s: release pull request labels %q, want [%q]", f.Name, labels, emulator.FleetReleaseLabel)
		}
		head := pulls[k].Head.SHA
		major := strings.Split(strings.TrimPrefix(f.Release, "v"), ".")[0]
		docs := srv.Do(t, "GET", fmt.Sprintf("%s/contents/docs/changelog/v%s/%s.md?ref=%s", fleetRepo(i), major, f.Release, head), emulator.DemoTokenCarol, nil)
		var cl struct {
			Content string `json:"content"`
		}
		srv.Do(t, "GET", fleetRepo(i)+"/contents/CHANGELOG.md?ref="+head, emulator.DemoTokenCarol, nil).JSON(t, &cl)
		changelog := decodeB64(t, cl.Content)
		switch f.ReleaseChangelog {
		case "docs":
			if docs.Status != 200 {
				t.Errorf("%s: docs changelog at head: status %d, want 200", f.Name, docs.Status)
			}
		case "changelog":
			if docs.Status != 404 {
				t.Errorf("%s: docs changelog at head: status %d, want 404 (the entry is in CHANGELOG.md only)", f.Name, docs.Status)
			}
			if !strings.Contains(changelog, "## "+f.Release) {
				t.Errorf("%s: CHANGELOG.md %q, want a %q entry", f.Name, changelog, "## "+f.Release)
			}
		default:
			if docs.Status != 404 {
				t.Errorf("%s: docs changelog at head: status %d, want 404 (no entry)", f.Name, docs.Status)
			}
			if strings.Contains(changelog, f.Release) {
				t.Errorf("%s: CHANGELOG.md %q, want no mention of %s", f.Name, changelog, f.Release)
			}
		}
	}
	if len(kinds) != 3 {
		t.Errorf("release pull requests cover changelog kinds %v, want docs, changelog and missing", kinds)
	}
}

// decodeB64 reads the contents API's base64, which GitHub wraps at 60
// characters.
func decodeB64(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(s, "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An archived repository is read-only, and searches can leave archived
// repositories out (archived:false), as reports over an owner do.
func TestArchivedFleetRepositories(t *testing.T) {
	srv := fleetServer(t)
	archived := emulator.Fleet(9)
	if !archived.Archived {
		t.Fatal("fleet repository 9 should be archived")
	}
	res := srv.Do(t, "POST", fleetRepo(9)+"/issues", emulator.DemoTokenAlice, map[string]any{"title": "Too late"})
	var m message
	res.JSON(t, &m)
	if res.Status != http.StatusForbidden {
		t.Errorf("creating an issue in an archived repository: status %d, want %d", res.Status, http.StatusForbidden)
	}
	if want := "Repository was archived so is read-only."; m.Message != want {
		t.Errorf("creating an issue in an archived repository: message %q, want %q", m.Message, want)
	}
	if res := srv.Do(t, "GET", fleetRepo(9)+"/issues", emulator.DemoTokenAlice, nil); res.Status != http.StatusOK {
		t.Errorf("reading an archived repository: status %d, want %d", res.Status, http.StatusOK)
	}
	var repos struct {
		TotalCount int `json:"total_count"`
		Items      []struct {
			Name     string `json:"name"`
			Archived bool   `json:"archived"`
		} `json:"items"`
	}
	srv.Do(t, "GET", "/search/repositories?q=org:fleet+archived:false&per_page=100", emulator.DemoTokenAlice, nil).JSON(t, &repos)
	if repos.TotalCount != fleetN-2 { // 9 and 19 are archived
		t.Errorf("archived:false found %d of the fleet's %d repositories, want %d", repos.TotalCount, fleetN, fleetN-2)
	}
	for _, r := range repos.Items {
		if r.Archived {
			t.Errorf("archived:false returned %s", r.Name)
		}
	}
	var issues struct {
		Items []struct {
			RepositoryURL string `json:"repository_url"`
		} `json:"items"`
	}
	srv.Do(t, "GET", "/search/issues?q=org:fleet+archived:true+is:open&per_page=100", emulator.DemoTokenAlice, nil).JSON(t, &issues)
	if len(issues.Items) == 0 {
		t.Fatal("archived:true found no open item in the fleet's archived repositories")
	}
	for _, it := range issues.Items {
		if !strings.HasSuffix(it.RepositoryURL, "/"+emulator.Fleet(9).Name) && !strings.HasSuffix(it.RepositoryURL, "/"+emulator.Fleet(19).Name) {
			t.Errorf("archived:true returned an item of %s", it.RepositoryURL)
		}
	}
}
