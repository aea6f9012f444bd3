package peers

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-github/v89/github"
)

// A scripted session of GitHub's MCP server's projects toolset against the
// emulator's Projects (v2): the demo seed's acme board "Widgets roadmap"
// (#1) and alice's own board. Each call is checked as the main session's
// are (mcp_test.go): what it answers, and for a write, what the emulator's
// REST API shows afterwards. A call that does not behave as on GitHub must
// be listed in mcp-projects-expected-failures.txt, which only shrinks.

const (
	mcpProjectsExpectedList = "mcp-projects-expected-failures.txt"
	mcpProjectsToolsets     = "projects"
	roadmapAPI              = "/orgs/acme/projectsV2/1"
)

// mcpProjectsTools is what tools/list must answer with --toolsets projects.
var mcpProjectsTools = []string{"projects_get", "projects_list", "projects_write"}

// itemNumbers projects an item list to the sorted issue and pull request
// numbers it holds.
func itemNumbers(items []*github.ProjectV2Item) string {
	var ns []int
	for _, it := range items {
		c := it.GetContent()
		switch {
		case c == nil:
		case c.Issue != nil:
			ns = append(ns, c.Issue.GetNumber())
		case c.PullRequest != nil:
			ns = append(ns, c.PullRequest.GetNumber())
		}
	}
	sort.Ints(ns)
	var out []string
	for _, n := range ns {
		out = append(out, fmt.Sprint(n))
	}
	return strings.Join(out, ",")
}

// countOf projects an item list to how many items hold issue n.
func countOf(n int) func([]*github.ProjectV2Item) string {
	return func(items []*github.ProjectV2Item) string {
		c := 0
		for _, it := range items {
			if it.GetContent() != nil && it.GetContent().Issue != nil && it.GetContent().Issue.GetNumber() == n {
				c++
			}
		}
		return fmt.Sprint(c)
	}
}

func roadmapItems(q string) string {
	return roadmapAPI + "/items?per_page=100&q=" + url.QueryEscape(q)
}

// mcpProjectsSession is the script: reads first, then the writes, each on
// its own item so one failure does not change what the next meets.
func mcpProjectsSession() []mcpCheck {
	org := func(kv ...any) map[string]any {
		m := map[string]any{"owner": "acme", "owner_type": "org"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	firstItem := restID(roadmapAPI + "/items?per_page=1")
	return []mcpCheck{
		{name: "projects_list-list_projects", tool: "projects_list", args: org("method", "list_projects"),
			want: []string{`"title":"Widgets roadmap"`, `"title":"Support intake"`}},
		{name: "projects_list-list_projects-query", tool: "projects_list", args: org("method", "list_projects", "query", "roadmap is:open"),
			want: []string{`"title":"Widgets roadmap"`}},
		// Without owner_type the server asks both the user and the
		// organization routes; alice is a user with one board.
		{name: "projects_list-list_projects-user", tool: "projects_list", args: map[string]any{"method": "list_projects", "owner": "alice"},
			want: []string{`"title":"Personal planning"`}},
		{name: "projects_get-get_project", tool: "projects_get", args: org("method", "get_project", "project_number", 1),
			want: []string{`"title":"Widgets roadmap"`, `"number":1`}},
		// Owner type detected from the account, as the server does when
		// it is not given.
		{name: "projects_get-get_project-detect", tool: "projects_get", args: map[string]any{"method": "get_project", "owner": "acme", "project_number": 1},
			want: []string{`"title":"Widgets roadmap"`}},
		{name: "projects_list-list_project_fields", tool: "projects_list", args: org("method", "list_project_fields", "project_number", 1),
			want: []string{`"name":"Status"`, `"name":"Iteration"`, `"data_type":"iteration"`, `"raw":"In progress"`, `"name":"Target date"`}},
		{name: "projects_get-get_project_field", tool: "projects_get",
			args: org("method", "get_project_field", "project_number", 1, "field_id", restID(roadmapAPI+"/fields")),
			want: []string{`"name":"Title"`, `"data_type":"title"`}},
		{name: "projects_list-list_project_items", tool: "projects_list",
			args: org("method", "list_project_items", "project_number", 1, "per_page", 10, "field_names", []string{"Status", "Priority"}),
			want: []string{`"hasNextPage":true`, `"name":"Status"`, `"name":"Priority"`}, itemsAt: "items", items: 10},
		{name: "projects_list-list_project_items-query", tool: "projects_list",
			args: org("method", "list_project_items", "project_number", 1, "query", `status:"In progress" is:issue`, "field_names", []string{"Status"}),
			want: []string{`"name":"In progress"`}, absent: []string{`"name":"Todo"`, `"name":"Done"`}},
		{name: "projects_get-get_project_item", tool: "projects_get",
			args: org("method", "get_project_item", "project_number", 1, "item_id", firstItem, "field_names", []string{"Iteration", "Estimate"}),
			want: []string{`"content_type":"Issue"`, `"number":1`, `"name":"Iteration"`}},

		// Writes. #100 of acme/widgets is not on the board; adding it
		// twice leaves one item, as GitHub's add is idempotent.
		{name: "projects_write-add_project_item", tool: "projects_write",
			args:   org("method", "add_project_item", "project_number", 1, "item_type", "issue", "item_owner", "acme", "item_repo", "widgets", "issue_number", 100),
			effect: read(roadmapItems(""), countOf(100), "1")},
		{name: "projects_write-add_project_item-again", tool: "projects_write",
			args:   org("method", "add_project_item", "project_number", 1, "item_type", "issue", "item_owner", "acme", "item_repo", "widgets", "issue_number", 100),
			effect: read(roadmapItems(""), countOf(100), "1")},
		// The first live issue's item gets an estimate no seeded item has
		// (the very first item is archived, and GitHub edits no archived
		// item).
		{name: "projects_write-update_project_item-number", tool: "projects_write",
			args: org("method", "update_project_item", "project_number", 1, "item_id", restID(roadmapAPI+"/items?per_page=1&q=is:issue"),
				"updated_field", map[string]any{"name": "Estimate", "value": 8}),
			effect: read(roadmapItems("estimate:8"), func(items []*github.ProjectV2Item) string { return fmt.Sprint(len(items)) }, "1")},
		// #100's item, found by its issue, moves to In progress by option name.
		{name: "projects_write-update_project_item-single-select", tool: "projects_write",
			args: org("method", "update_project_item", "project_number", 1, "item_owner", "acme", "item_repo", "widgets", "issue_number", 100,
				"updated_field", map[string]any{"name": "Status", "value": "In progress"}),
			effect: read(roadmapItems(`status:"In progress" -status:Todo`), countOf(100), "1")},
		// A date on #100's item.
		{name: "projects_write-update_project_item-date", tool: "projects_write",
			args: org("method", "update_project_item", "project_number", 1, "item_owner", "acme", "item_repo", "widgets", "issue_number", 100,
				"updated_field", map[string]any{"name": "Target date", "value": "2026-12-24"}),
			effect: read(roadmapItems("target-date:2026-12-24"), countOf(100), "1")},
		// The first draft issue goes; one draft is left.
		{name: "projects_write-delete_project_item", tool: "projects_write",
			args:   org("method", "delete_project_item", "project_number", 1, "item_id", restID(roadmapAPI+"/items?per_page=1&q=is:draft")),
			want:   []string{"deleted"},
			effect: read(roadmapItems("is:draft"), func(items []*github.ProjectV2Item) string { return fmt.Sprint(len(items)) }, "1")},
		// A board alice's token cannot see: GitHub answers 404.
		{name: "projects_get-get_project-missing", tool: "projects_get", args: org("method", "get_project", "project_number", 9),
			refusal: "404"},
	}
}

func runMCPProjectsSession(work string) (any, error) {
	return runMCPServer(work, mcpProjectsToolsets, "", mcpProjectsSession())
}

func TestMCPProjectsSession(t *testing.T) {
	needNamespaces(t, "GitHub's MCP server")
	session := mcpProjectsSession()
	known := map[string]bool{}
	called := map[string]bool{}
	for _, c := range session {
		known[c.name] = true
		called[c.tool] = true
	}
	for _, tool := range mcpProjectsTools {
		if !called[tool] {
			t.Errorf("%s: no case calls it", tool)
		}
	}
	expected := readExpected(t, mcpProjectsExpectedList, known)
	server := peerBinary(t, "github-mcp-server", "github.com/github/github-mcp-server/cmd/github-mcp-server")
	var recs mcpRecords
	emuLog := runInNamespaces(t, "mcp-projects", &recs, envMCPServer+"="+server)
	if got := slices.Sorted(slices.Values(recs.Tools)); !slices.Equal(got, mcpProjectsTools) {
		t.Errorf("tools/list with --toolsets %s:\n  got  %v\n  want %v", mcpProjectsToolsets, got, mcpProjectsTools)
	}
	outcomes := mcpOutcomes(t, session, recs)
	passed, listed := judge(t, mcpProjectsExpectedList, expected, outcomes)
	logMCPFailure(t, emuLog, recs)
	t.Logf("mcp projects session: %d tool calls: %d behave as on GitHub, %d fail as listed in %s", len(session), passed, listed, mcpProjectsExpectedList)
}
