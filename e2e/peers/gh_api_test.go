package peers

// gh api with the flags users reach for, gh project on the seed's boards
// (acme's #1 "Widgets roadmap" and #2 "Support intake", alice's #1
// "Personal planning"), and the everyday commands as each seed user.

func ghAPIReads() []ghCheck {
	return []ghCheck{
		{name: "api-graphql-variables", args: []string{"api", "graphql", "-F", "owner=acme", "-F", "name=widgets", "-f",
			`query=query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issues(states: OPEN) { totalCount } } }`,
			"--jq", ".data.repository.issues.totalCount"}, exactLines: []string{"96"}},
		// -F sends a number as a number: GraphQL's Int.
		{name: "api-graphql-typed", args: []string{"api", "graphql", "-F", "number=149", "-f",
			`query=query($number: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $number) { author { login } } } }`,
			"--jq", ".data.repository.issue.author.login"}, exactLines: []string{"carol"}},
		{name: "api-template", args: []string{"api", "repos/acme/widgets", "--template", `{{.full_name}} {{.default_branch}}{{"\n"}}`}, exactLines: []string{"acme/widgets main"}},
		{name: "api-include", args: []string{"api", "-i", "repos/acme/widgets"}, stdout: []string{"HTTP/1.1 200 OK", "Content-Type: application/json"}},
		// --jq applies to each page.
		{name: "api-paginate-pages", args: []string{"api", "--paginate", "repos/acme/widgets/issues?state=all&per_page=100", "--jq", "length"},
			exactLines: []string{"100", "60"}},
		{name: "api-graphql-paginate-search", args: []string{"api", "graphql", "--paginate", "-f",
			`query=query($endCursor: String) { search(query: "repo:acme/widgets is:issue label:bug", type: ISSUE, first: 20, after: $endCursor) { nodes { ... on Issue { number } } pageInfo { hasNextPage endCursor } } }`,
			"--jq", ".data.search.nodes[].number"}, lines: 56},
		{name: "api-readme", args: []string{"api", "repos/acme/widgets/readme", "--jq", `"\(.name) \(.path)"`}, exactLines: []string{"README.md README.md"}},
		{name: "api-notifications", args: []string{"api", "notifications", "--jq", "type"}, exactLines: []string{"array"}},
		{name: "api-workflows", args: []string{"api", "repos/acme/widgets/actions/workflows", "--jq", `"\(.total_count) \(.workflows[0].path)"`},
			exactLines: []string{"1 .github/workflows/ci.yml"}},
		{name: "api-missing", args: []string{"api", "repos/acme/nope"}, code: 1, stderr: []string{"gh: Not Found (HTTP 404)"}},
		{name: "dave-api-private", token: "emu-dave", args: []string{"api", "repos/acme/gadgets"}, code: 1, stderr: []string{"gh: Not Found (HTTP 404)"}},
		{name: "bad-token-api-graphql", token: "emu-invalid", args: []string{"api", "graphql", "-f", "query={ viewer { login } }"}, code: 1, stderr: []string{"HTTP 401"}},
	}
}

func ghAPIWrites() []ghCheck {
	return []ghCheck{
		{name: "api-post", args: []string{"api", "repos/acme/widgets/issues/9/reactions", "-f", "content=heart", "--jq", ".content"}, exactLines: []string{"heart"},
			effect: api("repos/acme/widgets/issues/9/reactions", `map(select(.user.login == "alice" and .content == "heart")) | length`, "1")},
		{name: "api-patch", args: []string{"api", "-X", "PATCH", "repos/acme/widgets/issues/140", "-f", "title=Retitled over REST", "-f", "state=closed", "--jq", ".state"},
			exactLines: []string{"closed"},
			effect:     api("repos/acme/widgets/issues/140", `"\(.title) \(.state)"`, "Retitled over REST closed")},
		{name: "api-delete", args: []string{"api", "-X", "DELETE", "repos/acme/widgets/labels/duplicate"},
			effect: gone("repos/acme/widgets/labels/duplicate", 404)},
		{name: "api-star", args: []string{"api", "-X", "PUT", "user/starred/acme/widgets"},
			effect: api("user/starred", `map(.full_name) | index("acme/widgets") != null`, "true")},
		{name: "api-reply-review-comment", args: []string{"api", "repos/acme/widgets/pulls/121/comments/{id:/repos/acme/widgets/pulls/121/comments}/replies",
			"-f", "body=Reply written by gh.", "--jq", ".body"}, exactLines: []string{"Reply written by gh."},
			effect: api("repos/acme/widgets/pulls/121/comments", `.[-1] | "\(.body) \(.in_reply_to_id == {lastid})"`, "Reply written by gh. true")},
	}
}

func ghProjectReads() []ghCheck {
	return []ghCheck{
		// gh lists open boards only unless --closed; Support intake is closed.
		{name: "project-list", args: []string{"project", "list", "--owner", "acme", "--format", "json", "--jq", `.projects | map(.title) | sort | join(",")`},
			exactLines: []string{"Widgets roadmap"}},
		{name: "project-list-me", args: []string{"project", "list", "--owner", "@me", "--format", "json", "--jq", ".projects[].title"}, exactLines: []string{"Personal planning"}},
		{name: "project-view", args: []string{"project", "view", "1", "--owner", "acme", "--format", "json", "--jq", `"\(.number) \(.title) \(.closed)"`},
			exactLines: []string{"1 Widgets roadmap false"}},
		{name: "project-field-list", args: []string{"project", "field-list", "1", "--owner", "acme", "--format", "json",
			"--jq", `[.fields[].name] | (index("Status") != null) and (index("Iteration") != null) and (index("Target date") != null)`}, exactLines: []string{"true"}},
		{name: "project-item-list", args: []string{"project", "item-list", "1", "--owner", "acme", "--limit", "200", "--format", "json",
			"--jq", `(.items | length) == .totalCount and .totalCount > 0`}, exactLines: []string{"true"}},
		// gh looks the owner up first and, on any error but GraphQL's
		// NOT_FOUND, says it does not know the owner's type.
		{name: "bad-token-project-list", token: "emu-invalid", args: []string{"project", "list", "--owner", "acme"}, code: 1, stderr: []string{"unknown owner type"}},
	}
}

func ghProjectWrites() []ghCheck {
	items := func(jq string, want ...string) *ghCheck {
		return &ghCheck{args: []string{"project", "item-list", "1", "--owner", "acme", "--limit", "200", "--format", "json", "--jq", jq}, exactLines: want}
	}
	return []ghCheck{
		// #139 of acme/widgets is not on the roadmap.
		{name: "project-item-add", args: []string{"project", "item-add", "1", "--owner", "acme", "--url", "http://github.localhost/acme/widgets/issues/139"},
			effect: items(`[.items[] | select(.content.number == 139 and .content.repository == "acme/widgets")] | length`, "1")},
		{name: "project-item-create", args: []string{"project", "item-create", "1", "--owner", "acme", "--title", "Draft by gh", "--body", "Drafted."},
			effect: items(`[.items[] | select(.content.type == "DraftIssue" and .content.title == "Draft by gh")] | length`, "1")},
		{name: "project-field-create", args: []string{"project", "field-create", "1", "--owner", "acme", "--name", "Team", "--data-type", "SINGLE_SELECT", "--single-select-options", "Core,Docs"},
			effect: &ghCheck{args: []string{"project", "field-list", "1", "--owner", "acme", "--format", "json", "--jq", `.fields[] | select(.name == "Team") | .options | map(.name) | join(",")`},
				exactLines: []string{"Core,Docs"}}},
		// gh prints the new board's URL only to a terminal, or as JSON.
		{name: "project-create", args: []string{"project", "create", "--owner", "@me", "--title", "Peers board", "--format", "json", "--jq", ".url"}, stdout: []string{"/users/alice/projects/"},
			effect: &ghCheck{args: []string{"project", "list", "--owner", "@me", "--format", "json", "--jq", `.projects | map(.title) | sort | join(",")`},
				exactLines: []string{"Peers board,Personal planning"}}},
		{name: "project-close", args: []string{"project", "close", "2", "--owner", "acme"},
			effect: &ghCheck{args: []string{"project", "view", "2", "--owner", "acme", "--format", "json", "--jq", ".closed"}, exactLines: []string{"true"}}},
		{name: "project-edit", args: []string{"project", "edit", "1", "--owner", "acme", "--description", "Edited by gh"},
			effect: &ghCheck{args: []string{"project", "view", "1", "--owner", "acme", "--format", "json", "--jq", ".shortDescription"}, exactLines: []string{"Edited by gh"}}},
	}
}

// ghUsers: the everyday commands as bob (write), carol (read), dave (an
// outside contributor) and with a token GitHub does not know.
func ghUsers() []ghCheck {
	const repo = widgets
	newest := func(jq string, want ...string) *ghCheck {
		return api("repos/acme/widgets/issues?state=all&sort=created&direction=desc&per_page=1", ".[0] | "+jq, want...)
	}
	return []ghCheck{
		{name: "api-user-alice", args: []string{"api", "user", "--jq", ".login"}, exactLines: []string{"alice"}},
		{name: "api-user-bob", token: "emu-bob", args: []string{"api", "user", "--jq", ".login"}, exactLines: []string{"bob"}},
		{name: "api-user-carol", token: "emu-carol", args: []string{"api", "user", "--jq", ".login"}, exactLines: []string{"carol"}},
		{name: "api-user-dave", token: "emu-dave", args: []string{"api", "user", "--jq", ".login"}, exactLines: []string{"dave"}},
		{name: "bob-issue-reopen", token: "emu-bob", args: []string{"issue", "reopen", "159", "-R", repo}, stderr: []string{"Reopened issue acme/widgets#159"},
			effect: api("repos/acme/widgets/issues/159", ".state", "open")},
		{name: "bob-pr-comment", token: "emu-bob", args: []string{"pr", "comment", "121", "-R", repo, "--body", "Comment by bob."}, stdout: []string{"/acme/widgets/pull/121#issuecomment-"},
			effect: api("repos/acme/widgets/issues/121/comments", `.[-1] | "\(.user.login) \(.body)"`, "bob Comment by bob.")},
		{name: "carol-issue-list-private", token: "emu-carol", args: []string{"issue", "list", "-R", "acme/gadgets", "--limit", "1", "--json", "number", "--jq", "length"},
			exactLines: []string{"1"}},
		{name: "carol-issue-reopen", token: "emu-carol", args: []string{"issue", "reopen", "144", "-R", repo}, code: 1,
			stderr: []string{"carol does not have the correct permissions to execute `ReopenIssue`"},
			effect: api("repos/acme/widgets/issues/144", ".state", "closed")},
		{name: "carol-pr-close", token: "emu-carol", args: []string{"pr", "close", "121", "-R", repo}, code: 1,
			stderr: []string{"carol does not have the correct permissions to execute `ClosePullRequest`"},
			effect: api("repos/acme/widgets/pulls/121", ".state", "open")},
		// Anyone may open an issue on a public repository.
		{name: "dave-issue-create", token: "emu-dave", args: []string{"issue", "create", "-R", repo, "--title", "Reported by dave", "--body", "Seen on the embed SDK."},
			stdout: []string{"/acme/widgets/issues/"},
			effect: newest(`"\(.title) | \(.user.login) | \(.author_association)"`, "Reported by dave | dave | CONTRIBUTOR")},
		{name: "dave-issue-comment", token: "emu-dave", args: []string{"issue", "comment", "9", "-R", repo, "--body", "Same here."}, stdout: []string{"/acme/widgets/issues/9#issuecomment-"},
			effect: api("repos/acme/widgets/issues/9/comments?per_page=100", `.[-1] | "\(.user.login) \(.body)"`, "dave Same here.")},
		// dave has no grant on acme/widgets: alice's issue is not his to
		// close, his own is (GitHub lets an issue's author close it).
		{name: "dave-issue-close", token: "emu-dave", args: []string{"issue", "close", "158", "-R", repo}, code: 1,
			stderr: []string{"dave does not have the correct permissions to execute `CloseIssue`"},
			effect: api("repos/acme/widgets/issues/158", ".state", "open")},
		{name: "dave-issue-close-own", token: "emu-dave", args: []string{"issue", "close", "9", "-R", repo},
			effect: api("repos/acme/widgets/issues/9", `"\(.state) \(.closed_by.login)"`, "closed dave")},
		{name: "bad-token-repo-view", token: "emu-invalid", args: []string{"repo", "view", repo}, code: 1, stderr: []string{"HTTP 401"}},
		// gh lists releases over GraphQL and words a 401 as its GraphQL client does.
		{name: "bad-token-release-list", token: "emu-invalid", args: []string{"release", "list", "-R", repo}, code: 1, stderr: []string{"401 Unauthorized", "Bad credentials"}},
		{name: "bad-token-workflow-list", token: "emu-invalid", args: []string{"workflow", "list", "-R", repo}, code: 1, stderr: []string{"HTTP 401"}},
		{name: "bad-token-issue-create", token: "emu-invalid", args: []string{"issue", "create", "-R", repo, "--title", "Never", "--body", ""}, code: 1, stderr: []string{"HTTP 401"}},
	}
}
