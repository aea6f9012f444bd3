package peers

// gh repo and gh label. acme owns widgets (public) and gadgets (private);
// alice owns notes (private). widgets' README opens with "# widgets" and
// "Embeddable dashboard widgets for the Acme platform"; it has the 17
// labels GitHub and the team gave it, bug among them (d73a4a).

func ghRepoReads() []ghCheck {
	return []ghCheck{
		{name: "repo-view-readme", args: []string{"repo", "view", widgets}, stdout: []string{"Embeddable dashboard widgets for the Acme platform: line, bar and area charts"}},
		{name: "repo-view-json-permission", args: []string{"repo", "view", widgets, "--json", "nameWithOwner,isPrivate,isArchived,viewerPermission",
			"--jq", `"\(.nameWithOwner) \(.isPrivate) \(.isArchived) \(.viewerPermission)"`}, exactLines: []string{"acme/widgets false false ADMIN"}},
		{name: "repo-list-json", args: []string{"repo", "list", "acme", "--json", "name,visibility", "--jq", `map("\(.name) \(.visibility)") | sort | join(",")`},
			exactLines: []string{"gadgets PRIVATE,widgets PUBLIC"}},
		// The fields github_list_repo_metadata's repositories reads, as gh asks for them.
		{name: "repo-list-owner-fields", args: []string{"repo", "list", "acme", "--json", "name,isArchived,visibility,hasIssuesEnabled,defaultBranchRef",
			"--jq", `map("\(.name) \(.isArchived) \(.visibility) \(.hasIssuesEnabled) \(.defaultBranchRef.name)") | sort | join(",")`},
			exactLines: []string{"gadgets false PRIVATE true main,widgets false PUBLIC true main"}},
		{name: "repo-list-visibility", args: []string{"repo", "list", "acme", "--visibility", "public", "--json", "name", "--jq", ".[].name"}, exactLines: []string{"widgets"}},
		{name: "repo-list-mine", args: []string{"repo", "list", "--json", "nameWithOwner", "--jq", ".[].nameWithOwner"}, exactLines: []string{"alice/notes"}},
		{name: "carol-repo-view-private", token: "emu-carol", args: []string{"repo", "view", "acme/gadgets", "--json", "name,viewerPermission", "--jq", `"\(.name) \(.viewerPermission)"`},
			exactLines: []string{"gadgets READ"}},
		{name: "dave-repo-list", token: "emu-dave", args: []string{"repo", "list", "acme", "--json", "name", "--jq", ".[].name"}, exactLines: []string{"widgets"}},
	}
}

func ghLabelReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "label-list-search", args: []string{"label", "list", "-R", repo, "--search", "priority", "--json", "name", "--jq", `map(.name) | sort | join(",")`},
			exactLines: []string{"priority: high,priority: low"}},
		{name: "label-list-sort", args: []string{"label", "list", "-R", repo, "--sort", "name", "--order", "asc", "--limit", "3", "--json", "name", "--jq", ".[].name"},
			exactLines: []string{"area: api", "area: ui", "bug"}},
		{name: "label-list-json", args: []string{"label", "list", "-R", repo, "--limit", "100", "--json", "name,color,description",
			"--jq", `"\(length) \(.[] | select(.name == "bug") | "\(.color) \(.description)")"`}, exactLines: []string{"17 d73a4a Something isn't working"}},
		{name: "dave-label-list", token: "emu-dave", args: []string{"label", "list", "-R", repo, "--limit", "100", "--json", "name", "--jq", "length"}, exactLines: []string{"17"}},
	}
}

func ghRepoWrites() []ghCheck {
	return []ghCheck{
		{name: "repo-edit", args: []string{"repo", "edit", widgets, "--description", "Edited by gh", "--homepage", "https://widgets.example", "--enable-wiki=false"},
			effect: api("repos/acme/widgets", `"\(.description) | \(.homepage) | \(.has_wiki)"`, "Edited by gh | https://widgets.example | false")},
		{name: "repo-edit-topics", args: []string{"repo", "edit", widgets, "--add-topic", "dashboards", "--add-topic", "charts"},
			effect: api("repos/acme/widgets/topics", `.names | sort | join(",")`, "charts,dashboards")},
		{name: "carol-repo-edit", token: "emu-carol", args: []string{"repo", "edit", widgets, "--description", "Edited by carol"}, code: 1, stderr: []string{"HTTP 403"},
			effect: api("repos/acme/widgets", ".description", "Edited by gh")},
		{name: "repo-create", args: []string{"repo", "create", "alice/peers-new", "--private", "--description", "Made by gh"},
			stdout: []string{"github.localhost/alice/peers-new"},
			effect: api("repos/alice/peers-new", `"\(.private) \(.description) \(.owner.login)"`, "true Made by gh alice")},
		{name: "repo-create-org", args: []string{"repo", "create", "acme/peers-org", "--public", "--description", "Made by gh for acme"},
			stdout: []string{"github.localhost/acme/peers-org"},
			effect: api("repos/acme/peers-org", `"\(.visibility) \(.owner.login)"`, "public acme")},
		{name: "repo-rename", args: []string{"repo", "rename", "peers-renamed", "-R", "alice/peers-new", "--yes"},
			effect: api("repos/alice/peers-renamed", ".name", "peers-renamed")},
		{name: "repo-archive", args: []string{"repo", "archive", "alice/peers-renamed", "--yes"},
			effect: api("repos/alice/peers-renamed", ".archived", "true")},
		{name: "repo-unarchive", args: []string{"repo", "unarchive", "alice/peers-renamed", "--yes"},
			effect: api("repos/alice/peers-renamed", ".archived", "false")},
		// GitHub deletes a repository only for a token with the delete_repo
		// scope, which gh's login does not ask for: gh names the scope.
		{name: "repo-delete-no-scope", args: []string{"repo", "delete", "alice/peers-renamed", "--yes"}, code: 1,
			stderr: []string{"HTTP 403", `This API operation needs the "delete_repo" scope`},
			effect: api("repos/alice/peers-renamed", ".name", "peers-renamed")},
		{name: "repo-delete", token: "emu-alice-delete", args: []string{"repo", "delete", "alice/peers-renamed", "--yes"},
			effect: gone("repos/alice/peers-renamed", 404)},
		{name: "bob-repo-fork", token: "emu-bob", args: []string{"repo", "fork", widgets, "--clone=false"},
			effect: &ghCheck{token: "emu-bob", args: []string{"api", "repos/bob/widgets", "--jq", `"\(.fork) \(.parent.full_name) \(.owner.login)"`}, exactLines: []string{"true acme/widgets bob"}}},
		// dave belongs to no organization: GitHub refuses him a repository in acme.
		{name: "dave-repo-create-org", token: "emu-dave", args: []string{"repo", "create", "acme/peers-dave", "--public"}, code: 1,
			effect: gone("repos/acme/peers-dave", 404)},
	}
}

func ghLabelWrites() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "label-create-force", args: []string{"label", "create", "bug", "-R", repo, "--color", "ff0000", "--description", "Broken", "--force"},
			effect: api("repos/acme/widgets/labels/bug", `"\(.color) \(.description)"`, "ff0000 Broken")},
		{name: "label-create-exists", args: []string{"label", "create", "enhancement", "-R", repo}, code: 1,
			stderr: []string{`label with name "enhancement" already exists; use ` + "`--force`" + ` to update its color and description`}},
		{name: "label-edit-rename", args: []string{"label", "edit", "wontfix", "-R", repo, "--name", "won't fix"},
			effect: api("repos/acme/widgets/labels/won%27t%20fix", ".name", "won't fix")},
		// Cloning with --force overwrites the labels alice/notes already has.
		{name: "label-clone-force", args: []string{"label", "clone", repo, "-R", "alice/notes", "--force"},
			effect: api("repos/alice/notes/labels/bug", ".color", "ff0000")},
		{name: "dave-label-create", token: "emu-dave", args: []string{"label", "create", "peers-dave", "-R", repo}, code: 1, stderr: []string{"HTTP 403"},
			effect: gone("repos/acme/widgets/labels/peers-dave", 404)},
		{name: "bad-token-label-list", token: "emu-invalid", args: []string{"label", "list", "-R", repo}, code: 1, stderr: []string{"HTTP 401"}},
	}
}

// ghSearchReads run on the untouched seed (see ghIssueReads' counts).
func ghSearchReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "search-repos", args: []string{"search", "repos", "widgets", "--owner", "acme", "--json", "fullName", "--jq", `map(.fullName) | index("acme/widgets") != null`},
			exactLines: []string{"true"}},
		{name: "search-repos-visibility", args: []string{"search", "repos", "--owner", "acme", "--visibility", "private", "--json", "fullName,visibility",
			"--jq", `"\(map(.fullName) | join(",")) \(all(.[]; .visibility == "private"))"`}, exactLines: []string{"acme/gadgets true"}},
		{name: "dave-search-repos", token: "emu-dave", args: []string{"search", "repos", "--owner", "acme", "--json", "fullName", "--jq", `map(.fullName) | join(",")`},
			exactLines: []string{"acme/widgets"}},
		{name: "search-commits", args: []string{"search", "commits", "fix", "--repo", repo, "--json", "sha,commit",
			"--jq", `(length > 0) and all(.[]; .commit.message | test("fix"; "i"))`}, exactLines: []string{"true"}},
		{name: "search-code", args: []string{"search", "code", "widgetctl", "--repo", repo, "--json", "path,repository",
			"--jq", `(length > 0) and all(.[]; .repository.nameWithOwner == "acme/widgets")`}, exactLines: []string{"true"}},
		// Over one page of search results.
		{name: "search-issues-over-page", args: []string{"search", "issues", "--repo", repo, "--state", "open", "--limit", "120", "--json", "number,state",
			"--jq", `"\(length) \(map(.number) | unique | length) \(all(.[]; .state == "open"))"`}, exactLines: []string{"96 96 true"}},
		{name: "search-issues-milestone", args: []string{"search", "issues", "--repo", repo, "--milestone", "v1.5.0", "--limit", "100", "--json", "number", "--jq", "length"},
			exactLines: []string{"45"}},
		{name: "search-issues-assignee", args: []string{"search", "issues", "--repo", repo, "--assignee", "bob", "--state", "open", "--json", "assignees",
			"--jq", `"\(length) \(all(.[]; [.assignees[].login] | index("bob") != null))"`}, exactLines: []string{"17 true"}},
		{name: "search-prs-author-merged", args: []string{"search", "prs", "--repo", repo, "--author", "bob", "--merged", "--json", "number",
			"--jq", `map(.number) | sort | map(tostring) | join(" ")`}, exactLines: []string{"6 19 28 37 61 84 108"}},
		{name: "search-prs-draft", args: []string{"search", "prs", "--repo", repo, "--draft", "--json", "number", "--jq", ".[].number"}, exactLines: []string{"155"}},
		{name: "dave-search-issues-owner", token: "emu-dave", args: []string{"search", "issues", "--owner", "acme", "--limit", "100", "--json", "repository",
			"--jq", `(length > 0) and all(.[]; .repository.nameWithOwner == "acme/widgets")`}, exactLines: []string{"true"}},
		{name: "bad-token-search-repos", token: "emu-invalid", args: []string{"search", "repos", "widgets"}, code: 1, stderr: []string{"401"}},
	}
}
