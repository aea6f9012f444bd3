package peers

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// gh's project command group against a fresh `ghgate emulator`, as a user
// runs it: alice lists and reads acme's boards, makes a board of her own
// in acme, gives it fields and items, edits, archives and deletes them,
// closes, reopens, copies, links and deletes boards; a token without the
// project scope and a user outside the owner are refused. Each write is
// read back. Commands that need an id gh printed earlier (gh has no other
// way to name an item or a field) name the earlier command in braces, and
// the runner puts its trimmed output there.

const ghProjectExpectedList = "gh-project-expected-failures.txt"

func init() { insideSessions["gh-project"] = runGhProjectSession }

func ghProjectSession() []ghCheck {
	const (
		owner = "acme"
		url   = "http://github.localhost/orgs/acme/projects/"
	)
	gh := func(args ...string) []string { return args }
	items := func(n string, want ...string) *ghCheck {
		return &ghCheck{args: gh("project", "item-list", n, "--owner", owner, "--format", "json", "--jq", ".items[].title"), exactLines: want}
	}
	view := func(n, jq string, want ...string) *ghCheck {
		return &ghCheck{args: gh("project", "view", n, "--owner", owner, "--format", "json", "--jq", jq), exactLines: want}
	}
	return []ghCheck{
		// The demo seed: acme's open "Widgets roadmap" (1) and closed
		// "Support intake" (2), alice's "Personal planning" (1).
		{name: "project-list", args: gh("project", "list", "--owner", owner), stdout: []string{"1\tWidgets roadmap\topen\tPVT_"}, lines: 1},
		{name: "project-list-closed", args: gh("project", "list", "--owner", owner, "--closed"), stdout: []string{"Support intake"}, lines: 2},
		{name: "project-list-me", args: gh("project", "list", "--owner", "@me", "--format", "json", "--jq", ".projects[].title"),
			exactLines: []string{"Personal planning"}},
		{name: "project-view", args: gh("project", "view", "1", "--owner", owner), stdout: []string{"Widgets roadmap", url + "1"}},
		{name: "project-view-json", args: gh("project", "view", "1", "--owner", owner, "--format", "json", "--jq", `"\(.title) \(.closed) \(.owner.login) \(.items.totalCount)"`),
			exactLines: []string{"Widgets roadmap false acme 47"}},
		{name: "project-field-list", args: gh("project", "field-list", "1", "--owner", owner), stdout: []string{"Priority\tProjectV2SingleSelectField", "Linked pull requests\tProjectV2Field"}},
		{name: "project-item-list", args: gh("project", "item-list", "1", "--owner", owner, "--limit", "100", "--format", "json", "--jq", ".items | length"),
			exactLines: []string{"47"}},

		// A new board: its number follows acme's two.
		// gh prints the new board's URL only to a terminal.
		{name: "project-create", args: gh("project", "create", "--owner", owner, "--title", "Peers board", "--format", "json", "--jq", `"\(.number) \(.url)"`),
			exactLines: []string{"3 " + url + "3"},
			effect:     view("3", `"\(.title) \(.closed)"`, "Peers board false")},
		{name: "project-id", args: gh("project", "view", "3", "--owner", owner, "--format", "json", "--jq", ".id"), stdout: []string{"PVT_"}},
		{name: "project-edit", args: gh("project", "edit", "3", "--owner", owner, "--description", "Made by gh", "--readme", "Read me"),
			effect: view("3", `"\(.shortDescription) \(.readme)"`, "Made by gh Read me")},
		{name: "project-field-create", args: gh("project", "field-create", "3", "--owner", owner, "--name", "Size", "--data-type", "SINGLE_SELECT",
			"--single-select-options", "S,M,L"),
			effect: &ghCheck{args: gh("project", "field-list", "3", "--owner", owner, "--format", "json", "--jq", `.fields[] | select(.name == "Size") | .options[].name`),
				exactLines: []string{"S", "M", "L"}}},
		{name: "project-field-create-text", args: gh("project", "field-create", "3", "--owner", owner, "--name", "Notes", "--data-type", "TEXT",
			"--format", "json", "--jq", ".id"), stdout: []string{"PVTF_"}},
		{name: "project-item-create", args: gh("project", "item-create", "3", "--owner", owner, "--title", "Draft from gh", "--body", "Body",
			"--format", "json", "--jq", ".id"), stdout: []string{"PVTI_"}, effect: items("3", "Draft from gh")},
		{name: "project-item-add", args: gh("project", "item-add", "3", "--owner", owner, "--url", "http://github.localhost/acme/widgets/issues/160",
			"--format", "json", "--jq", ".id"), stdout: []string{"PVTI_"},
			effect: items("3", "Draft from gh", "Postgres data source times out after 30 seconds for results over 10,000 rows")},
		{name: "project-item-add-unknown", args: gh("project", "item-add", "3", "--owner", owner, "--url", "http://github.localhost/acme/widgets/issues/99999"),
			code: 1, stderr: []string{"resource not found"}},
		{name: "project-item-edit-text", args: gh("project", "item-edit", "--id", "{project-item-add}", "--project-id", "{project-id}",
			"--field-id", "{project-field-create-text}", "--text", "Noted by gh"),
			effect: &ghCheck{args: gh("project", "item-list", "3", "--owner", owner, "--format", "json", "--jq", `.items[] | select(.notes != null) | .notes`),
				exactLines: []string{"Noted by gh"}}},
		{name: "project-item-edit-clear", args: gh("project", "item-edit", "--id", "{project-item-add}", "--project-id", "{project-id}",
			"--field-id", "{project-field-create-text}", "--clear"),
			effect: &ghCheck{args: gh("project", "item-list", "3", "--owner", owner, "--format", "json", "--jq", `[.items[] | select(.notes != null)] | length`),
				exactLines: []string{"0"}}},
		{name: "project-item-archive", args: gh("project", "item-archive", "3", "--owner", owner, "--id", "{project-item-add}"),
			effect: &ghCheck{args: gh("api", "graphql", "-f", "query=query($id: ID!) { node(id: $id) { ... on ProjectV2Item { isArchived } } }",
				"-f", "id={project-item-add}", "--jq", ".data.node.isArchived"), exactLines: []string{"true"}}},
		{name: "project-item-unarchive", args: gh("project", "item-archive", "3", "--owner", owner, "--id", "{project-item-add}", "--undo"),
			effect: &ghCheck{args: gh("api", "graphql", "-f", "query=query($id: ID!) { node(id: $id) { ... on ProjectV2Item { isArchived } } }",
				"-f", "id={project-item-add}", "--jq", ".data.node.isArchived"), exactLines: []string{"false"}}},
		{name: "project-item-delete", args: gh("project", "item-delete", "3", "--owner", owner, "--id", "{project-item-create}"),
			effect: items("3", "Postgres data source times out after 30 seconds for results over 10,000 rows")},
		{name: "project-field-delete", args: gh("project", "field-delete", "--id", "{project-field-create-text}"),
			effect: &ghCheck{args: gh("project", "field-list", "3", "--owner", owner, "--format", "json", "--jq", `[.fields[] | select(.name == "Notes")] | length`),
				exactLines: []string{"0"}}},
		{name: "project-link", args: gh("project", "link", "3", "--owner", owner, "--repo", "acme/gadgets"),
			effect: &ghCheck{args: gh("api", "graphql", "-f", `query={ repository(owner: "acme", name: "gadgets") { projectsV2(first: 10) { nodes { number } } } }`,
				"--jq", ".data.repository.projectsV2.nodes[].number"), stdout: []string{"3"}}},
		{name: "project-close", args: gh("project", "close", "3", "--owner", owner), effect: view("3", ".closed", "true")},
		{name: "project-reopen", args: gh("project", "close", "3", "--owner", owner, "--undo"), effect: view("3", ".closed", "false")},
		{name: "project-copy", args: gh("project", "copy", "1", "--source-owner", owner, "--target-owner", owner, "--title", "Roadmap copy"),
			effect: &ghCheck{args: gh("project", "field-list", "4", "--owner", owner, "--format", "json", "--jq", `[.fields[].name] | join(",")`),
				stdout: []string{"Priority,Iteration,Estimate,Target date,Notes"}}},
		{name: "project-delete", args: gh("project", "delete", "3", "--owner", owner),
			effect: &ghCheck{args: gh("project", "view", "3", "--owner", owner), code: 1, stderr: []string{"Could not resolve to a ProjectV2 with the number 3"}}},

		// Refusals: a token without the project scopes, and bob creating
		// a board under alice.
		{name: "project-list-no-scope", args: gh("project", "list", "--owner", owner), token: "emu-alice-noproject", code: 1,
			stderr: []string{"read:project"}},
		{name: "project-create-other-user", args: gh("project", "create", "--owner", "alice", "--title", "Not mine"), token: "emu-bob", code: 1,
			stderr: []string{"does not have the correct permissions to execute `CreateProjectV2`"}},
	}
}

func TestGhProjectSession(t *testing.T) {
	needNamespaces(t, "gh")
	passed, listed, n := judgeGhChecks(t, "gh-project", ghProjectExpectedList, ghProjectSession())
	t.Logf("gh project session: %d commands: %d behave as on GitHub, %d fail as listed in %s", n, passed, listed, ghProjectExpectedList)
}

// runGhProjectSession runs inside the namespaces, putting each earlier
// command's trimmed output where a later one names it in braces.
func runGhProjectSession(work string) (any, error) {
	gh := os.Getenv(envGh)
	if gh == "" {
		return nil, errors.New(envGh + " must name gh's binary")
	}
	var recs []record
	outputs := map[string]string{}
	fill := func(c ghCheck) ghCheck {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			for name, out := range outputs {
				a = strings.ReplaceAll(a, "{"+name+"}", out)
			}
			args[i] = a
		}
		c.args = args
		return c
	}
	for _, c := range ghProjectSession() {
		r := runGh(gh, work, c.name, fill(c))
		outputs[c.name] = strings.TrimSpace(r.Stdout)
		recs = append(recs, r)
		if c.effect != nil {
			recs = append(recs, runGh(gh, work, effectName(c.name), fill(*c.effect)))
		}
	}
	return recs, nil
}
