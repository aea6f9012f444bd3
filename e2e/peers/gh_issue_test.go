package peers

// gh issue: the commands and flags a user runs every day. The reads run on
// the untouched seed: acme/widgets holds 146 issues (96 open); 56 carry
// "bug" (36 of them open); 45 are in milestone v1.5.0 (33 open); 17 open
// ones are assigned to bob; carol opened 19 open ones. gh lists issues
// newest first.

const widgets = "acme/widgets"

func ghIssueReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		// Over one page: gh asks for 100 and then the rest.
		{name: "issue-list-limit-over-page", args: []string{"issue", "list", "-R", repo, "--state", "all", "--limit", "146", "--json", "number",
			"--jq", `"\(length) \(map(.number) | unique | length)"`}, exactLines: []string{"146 146"}},
		{name: "issue-list-state-closed", args: []string{"issue", "list", "-R", repo, "--state", "closed", "--limit", "200", "--json", "state",
			"--jq", `"\(length) \(all(.[]; .state == "CLOSED"))"`}, exactLines: []string{"50 true"}},
		// gh turns --label, --milestone and --search into a search query.
		{name: "issue-list-label", args: []string{"issue", "list", "-R", repo, "--label", "bug", "--limit", "100", "--json", "labels",
			"--jq", `"\(length) \(all(.[]; [.labels[].name] | index("bug") != null))"`}, exactLines: []string{"36 true"}},
		{name: "issue-list-label-all-states", args: []string{"issue", "list", "-R", repo, "--label", "bug", "--state", "all", "--limit", "200", "--json", "number",
			"--jq", `"\(length) \(map(.number) | unique | length)"`}, exactLines: []string{"56 56"}},
		{name: "issue-list-milestone", args: []string{"issue", "list", "-R", repo, "--milestone", "v1.5.0", "--state", "all", "--limit", "100", "--json", "milestone",
			"--jq", `"\(length) \(all(.[]; .milestone.title == "v1.5.0"))"`}, exactLines: []string{"45 true"}},
		{name: "issue-list-assignee", args: []string{"issue", "list", "-R", repo, "--assignee", "bob", "--limit", "50", "--json", "assignees",
			"--jq", `"\(length) \(all(.[]; [.assignees[].login] | index("bob") != null))"`}, exactLines: []string{"17 true"}},
		{name: "issue-list-author", args: []string{"issue", "list", "-R", repo, "--author", "carol", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"149 141 138 129 120 117 116 104 99 98 86 76 55 43 24 21 20 16 15"}},
		{name: "issue-list-search-sort", args: []string{"issue", "list", "-R", repo, "--search", "label:bug sort:updated-desc", "--limit", "40", "--json", "updatedAt",
			"--jq", `"\(length) \([.[].updatedAt] == ([.[].updatedAt] | sort | reverse))"`}, exactLines: []string{"36 true"}},
		{name: "issue-list-template", args: []string{"issue", "list", "-R", repo, "--limit", "2", "--json", "number,title",
			"--template", `{{range .}}{{.number}}{{"\n"}}{{end}}`}, exactLines: []string{"160", "159"}},
		// No match: gh prints nothing and exits 0 when its output is not a terminal.
		{name: "issue-list-no-match", args: []string{"issue", "list", "-R", repo, "--label", "wontfix", "--milestone", "v2.0.0"}, exactLines: []string{}},
		{name: "issue-view-json", args: []string{"issue", "view", "9", "-R", repo, "--json", "number,state,comments,author",
			"--jq", `"\(.number) \(.state) \(.comments | length)"`}, exactLines: []string{"9 OPEN 16"}},
		{name: "issue-view-comments", args: []string{"issue", "view", "9", "-R", repo, "--comments"}, stdout: []string{"author:\t"}},
		{name: "issue-view-url", args: []string{"issue", "view", "http://github.localhost/acme/widgets/issues/9", "--json", "title", "--jq", ".title"},
			exactLines: []string{"Dashboard load time regressed about 3x after upgrading to v1.3.7"}},
		{name: "issue-view-missing", args: []string{"issue", "view", "9999", "-R", repo}, code: 1,
			stderr: []string{"Could not resolve to an issue or pull request with the number of 9999."}},
		{name: "issue-status", args: []string{"issue", "status", "-R", repo}, stdout: []string{"Issues assigned to you", "Issues mentioning you", "Issues opened by you"}},
		{name: "issue-list-notes", args: []string{"issue", "list", "-R", "alice/notes", "--state", "all", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"5 4 3 2 1"}},
	}
}

// ghIssueWrites run after the tour, each on an issue no earlier command
// touched. A created issue is read back as the newest one.
func ghIssueWrites() []ghCheck {
	const repo = widgets
	newest := func(jq string, want ...string) *ghCheck {
		return api("repos/acme/widgets/issues?state=all&sort=created&direction=desc&per_page=1", ".[0] | "+jq, want...)
	}
	return []ghCheck{
		{name: "issue-create-metadata", args: []string{"issue", "create", "-R", repo, "--title", "Created by gh with metadata", "--body", "With an assignee and a milestone.",
			"--assignee", "bob", "--milestone", "v2.0.0", "--label", "enhancement", "--label", "area: ui"}, stdout: []string{"/acme/widgets/issues/"},
			effect: newest(`"\(.title) | \(.assignees | map(.login) | join(",")) | \(.milestone.title) | \(.labels | map(.name) | sort | join(","))"`,
				"Created by gh with metadata | bob | v2.0.0 | area: ui,enhancement")},
		{name: "issue-create-assign-me", args: []string{"issue", "create", "-R", repo, "--title", "Assigned to myself", "--body", "", "--assignee", "@me"},
			stdout: []string{"/acme/widgets/issues/"},
			effect: newest(`"\(.title) | \(.user.login) | \(.assignees | map(.login) | join(","))"`, "Assigned to myself | alice | alice")},
		// #126 is in milestone v2.0.0: gh sends milestoneId null.
		{name: "issue-edit-remove-milestone", args: []string{"issue", "edit", "126", "-R", repo, "--remove-milestone"}, stdout: []string{"/acme/widgets/issues/126"},
			effect: api("repos/acme/widgets/issues/126", ".milestone == null", "true")},
		{name: "issue-edit-remove-assignee", args: []string{"issue", "edit", "104", "-R", repo, "--remove-assignee", "bob", "--remove-label", "status: in progress"},
			stdout: []string{"/acme/widgets/issues/104"},
			effect: api("repos/acme/widgets/issues/104", `"\(.assignees | length) \(.labels | map(.name) | index("status: in progress"))"`, "0 null")},
		{name: "issue-edit-many", args: []string{"issue", "edit", "142", "143", "-R", repo, "--add-label", "help wanted"},
			stdout: []string{"/acme/widgets/issues/142", "/acme/widgets/issues/143"},
			effect: &ghCheck{args: []string{"api", "graphql", "-f",
				`query={ repository(owner: "acme", name: "widgets") { a: issue(number: 142) { labels(first: 20) { nodes { name } } } b: issue(number: 143) { labels(first: 20) { nodes { name } } } } }`,
				"--jq", `[.data.repository[] | [.labels.nodes[].name] | index("help wanted") != null] | all`}, exactLines: []string{"true"}}},
		{name: "issue-close-comment", args: []string{"issue", "close", "144", "-R", repo, "--comment", "Closing with a note."}, stderr: []string{"Closed issue acme/widgets#144"},
			effect: api("repos/acme/widgets/issues/144/comments", `"\(.[-1].body) | \(.[-1].user.login)"`, "Closing with a note. | alice")},
		{name: "issue-close-comment-state", args: []string{"api", "repos/acme/widgets/issues/144", "--jq", `"\(.state) \(.state_reason) \(.closed_by.login)"`},
			exactLines: []string{"closed completed alice"}},
		// #47 is closed as not planned.
		{name: "issue-reopen-comment", args: []string{"issue", "reopen", "47", "-R", repo, "--comment", "Reopening after all."}, stderr: []string{"Reopened issue acme/widgets#47"},
			effect: api("repos/acme/widgets/issues/47", `"\(.state) \(.state_reason)"`, "open reopened")},
		{name: "issue-reopen-open", args: []string{"issue", "reopen", "9", "-R", repo}, stderr: []string{"Issue acme/widgets#9 (Dashboard load time regressed about 3x after upgrading to v1.3.7) is already open"}},
		{name: "issue-comment-edit-last", args: []string{"issue", "comment", "153", "-R", repo, "--edit-last", "--body", "Comment edited by gh."},
			stdout: []string{"/acme/widgets/issues/153#issuecomment-"},
			effect: api("repos/acme/widgets/issues/153/comments", ".[-1].body", "Comment edited by gh.")},
		{name: "issue-comment-delete-last", args: []string{"issue", "comment", "153", "-R", repo, "--delete-last", "--yes"},
			effect: api("repos/acme/widgets/issues/153/comments", `map(select(.user.login == "alice" and .body == "Comment edited by gh.")) | length`, "0")},
		{name: "issue-unpin", args: []string{"issue", "unpin", "156", "-R", repo}, stderr: []string{"Unpinned issue acme/widgets#156"},
			effect: &ghCheck{args: []string{"api", "graphql", "-f", `query={ repository(owner: "acme", name: "widgets") { issue(number: 156) { isPinned } } }`, "--jq", ".data.repository.issue.isPinned"}, exactLines: []string{"false"}}},
		{name: "issue-lock-resolved", args: []string{"issue", "lock", "145", "-R", repo, "--reason", "resolved"},
			effect: api("repos/acme/widgets/issues/145", `"\(.locked) \(.active_lock_reason)"`, "true resolved")},
		// gh records --base in the local clone's git config after GitHub
		// made the branch: outside a clone that last step fails.
		{name: "issue-develop-base", args: []string{"issue", "develop", "143", "-R", repo, "--name", "peers-143", "--base", "fix/48-query-cache-writes-a-byte-order-mark-int"},
			code: 1, stderr: []string{"not in a git directory"},
			effect: &ghCheck{args: []string{"api", "graphql", "-f", `query={ repository(owner: "acme", name: "widgets") { base: ref(qualifiedName: "fix/48-query-cache-writes-a-byte-order-mark-int") { target { oid } } linked: ref(qualifiedName: "peers-143") { target { oid } } } }`,
				"--jq", `.data.repository | .linked != null and .base.target.oid == .linked.target.oid`}, exactLines: []string{"true"}}},
		// #147 (bob's, open) moves to alice/notes, whose issues end at #5; the
		// old number answers with a redirect to the new one.
		// An issue moves only between repositories of one owner; the old
		// number then redirects (gh api follows it) to the moved issue.
		{name: "issue-transfer-other-owner", args: []string{"issue", "transfer", "147", "alice/notes", "-R", repo}, code: 1,
			stderr: []string{"New repository must have the same owner as the current repository"},
			effect: api("repos/acme/widgets/issues/147", ".html_url", "http://github.localhost/acme/widgets/issues/147")},
		{name: "issue-transfer", args: []string{"issue", "transfer", "147", "acme/gadgets", "-R", repo}, stdout: []string{"/acme/gadgets/issues/"},
			effect: &ghCheck{args: []string{"api", "repos/acme/widgets/issues/147", "--jq", `"\(.html_url) | \(.title) | \(.user.login)"`},
				stdout: []string{"http://github.localhost/acme/gadgets/issues/", " | Support right-to-left layouts in the embed SDK | bob"}}},
		// Deleting needs admin; GitHub answers 410 Gone for the number afterwards.
		{name: "issue-delete", args: []string{"issue", "delete", "150", "-R", repo, "--yes"},
			effect: gone("repos/acme/widgets/issues/150", 410)},
	}
}
