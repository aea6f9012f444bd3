package fidelity

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

type repoName struct {
	FullName string `json:"full_name"`
}

// TestDemoSeedValidates reads the whole demo world (every repository, issue,
// timeline, comment list, relation list, label, milestone, template) through
// the validating harness, so the shapes the seed produces are held to
// GitHub's description as much as those the handlers produce.
func TestDemoSeedValidates(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{Seed: "demo"})
	const tok = "emu-alice"
	get := func(path string) *emulatortest.Response {
		t.Helper()
		res := srv.Do(t, "GET", path, tok, nil)
		if res.Status != 200 {
			t.Errorf("GET %s: %d %s", path, res.Status, res.Body)
		}
		return res
	}
	get("/user")
	var repos []repoName
	get("/orgs/acme/repos?per_page=100").JSON(t, &repos)
	repos = append(repos, repoName{FullName: "alice/notes"})
	if len(repos) < 3 {
		t.Fatalf("the demo seed has %d repositories, want acme/widgets, acme/gadgets and alice/notes", len(repos))
	}
	get("/orgs/acme/issue-types")
	for _, r := range repos {
		base := "/repos/" + r.FullName
		get(base)
		get(base + "/labels?per_page=100")
		get(base + "/milestones?state=all")
		get(base + "/assignees")
		get(base + "/issue-types")
		var numbers []int
		path := base + "/issues?state=all&per_page=100"
		for page := 0; page < 20 && path != ""; page++ { // 20 pages is 2,000 issues, far above the seed
			res := get(path)
			var items []struct {
				Number int `json:"number"`
			}
			res.JSON(t, &items)
			for _, it := range items {
				numbers = append(numbers, it.Number)
			}
			path = ""
			if next := links(t, res.Header.Get("Link"))["next"]; next != nil {
				path = next.RequestURI()
			}
		}
		for _, n := range numbers {
			issue := fmt.Sprintf("%s/issues/%d", base, n)
			get(issue)
			get(issue + "/timeline?per_page=100")
			get(issue + "/comments?per_page=100")
			get(issue + "/labels")
			get(issue + "/sub_issues")
			get(issue + "/dependencies/blocked_by")
			get(issue + "/dependencies/blocking")
		}
		dir := srv.Do(t, "GET", base+"/contents/.github/ISSUE_TEMPLATE", tok, nil)
		if dir.Status == 404 {
			continue
		}
		var entries []struct {
			Path string `json:"path"`
			Type string `json:"type"`
		}
		dir.JSON(t, &entries)
		for _, e := range entries {
			if e.Type == "file" {
				get(base + "/contents/" + (&url.URL{Path: e.Path}).EscapedPath())
			}
		}
	}
	// The boards: every item with every field's value, page by page.
	get("/orgs/acme/projectsV2")
	get("/users/alice/projectsV2")
	items := 0
	for _, board := range []string{"/orgs/acme/projectsV2/1", "/orgs/acme/projectsV2/2", "/users/alice/projectsV2/1"} {
		get(board)
		var fields []struct {
			ID int64 `json:"id"`
		}
		get(board+"/fields").JSON(t, &fields)
		var ids []string
		for _, f := range fields {
			ids = append(ids, fmt.Sprint(f.ID))
			get(fmt.Sprintf("%s/fields/%d", board, f.ID))
		}
		path := board + "/items?per_page=20&fields=" + strings.Join(ids, ",")
		for page := 0; page < 10 && path != ""; page++ {
			res := get(path)
			var list []json.RawMessage
			res.JSON(t, &list)
			items += len(list)
			path = ""
			if next := links(t, res.Header.Get("Link"))["next"]; next != nil {
				path = next.RequestURI()
			}
		}
	}
	// 47 on the roadmap, 2 on the support board, 6 on alice's.
	if items != 55 {
		t.Errorf("the demo boards list %d items, want 55", items)
	}
}
