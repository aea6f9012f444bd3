package peers

// gh pr beyond the tour. The seed's acme/widgets has 14 pull requests: 4
// open (#155, bob's draft Dependabot bump; #146 and #133, alice's; #121,
// dave's documentation change) and 10 closed, 9 of them merged (#49, the
// byte order mark fix, was closed unmerged and its branch kept). bob
// opened #155, #108, #84, #61, #37, #28, #19 and #6; five carry
// "dependencies". gh resolves assignees among the repository's assignable
// users, which dave (no grant) is not.

func ghPRReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "pr-list-state-all", args: []string{"pr", "list", "-R", repo, "--state", "all", "--json", "number,state",
			"--jq", `"\(length) \(map(select(.state == "MERGED")) | length)"`}, exactLines: []string{"14 9"}},
		{name: "pr-list-author", args: []string{"pr", "list", "-R", repo, "--author", "bob", "--state", "all", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"155 108 84 61 37 28 19 6"}},
		{name: "pr-list-label", args: []string{"pr", "list", "-R", repo, "--label", "dependencies", "--state", "all", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"155 108 61 19 6"}},
		{name: "pr-list-base", args: []string{"pr", "list", "-R", repo, "--base", "main", "--json", "baseRefName", "--jq", `"\(length) \(all(.[]; .baseRefName == "main"))"`},
			exactLines: []string{"4 true"}},
		{name: "pr-list-head", args: []string{"pr", "list", "-R", repo, "--head", "fix/145-chart-widget-loses-unsaved-changes-after", "--json", "number", "--jq", ".[].number"},
			exactLines: []string{"146"}},
		{name: "pr-list-draft", args: []string{"pr", "list", "-R", repo, "--draft", "--json", "number,isDraft", "--jq", `.[] | "\(.number) \(.isDraft)"`},
			exactLines: []string{"155 true"}},
		{name: "pr-list-search-merged", args: []string{"pr", "list", "-R", repo, "--state", "merged", "--search", "author:dave", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"72"}},
		{name: "pr-view-json-draft", args: []string{"pr", "view", "155", "-R", repo, "--json", "author,isDraft,baseRefName,labels",
			"--jq", `"\(.author.login) \(.isDraft) \(.baseRefName) \(.labels | map(.name) | join(","))"`}, exactLines: []string{"bob true main dependencies"}},
		{name: "pr-view-branch", args: []string{"pr", "view", "fix/145-chart-widget-loses-unsaved-changes-after", "-R", repo, "--json", "number,url", "--jq", `"\(.number) \(.url)"`},
			exactLines: []string{"146 http://github.localhost/acme/widgets/pull/146"}},
		{name: "pr-view-missing", args: []string{"pr", "view", "9999", "-R", repo}, code: 1,
			stderr: []string{"Could not resolve to a PullRequest with the number of 9999."}},
		{name: "pr-diff-name-only", args: []string{"pr", "diff", "146", "-R", repo, "--name-only"}, lines: 2},
		{name: "pr-diff-patch", args: []string{"pr", "diff", "146", "-R", repo, "--patch"}, stdout: []string{"Subject: [PATCH", "diff --git a/"}},
		{name: "pr-checks-json", args: []string{"pr", "checks", "146", "-R", repo, "--json", "name,state", "--jq", `map("\(.name):\(.state)") | sort | join(",")`},
			exactLines: []string{"build:SUCCESS,ci/coverage:SUCCESS,lint:SUCCESS,test:SUCCESS"}},
		{name: "pr-list-dave", token: "emu-dave", args: []string{"pr", "list", "-R", repo, "--author", "@me", "--state", "all", "--json", "number", "--jq", `map(.number | tostring) | join(" ")`},
			exactLines: []string{"121 72"}},
	}
}

// ghPRWrites run after the tour, which closed #133, marked #155 ready,
// approved #121 and squash-merged #146.
func ghPRWrites() []ghCheck {
	const repo = widgets
	const bomBranch = "fix/48-query-cache-writes-a-byte-order-mark-int"
	return []ghCheck{
		// #49's branch still holds its commits: a new pull request from it.
		{name: "pr-create", args: []string{"pr", "create", "-R", repo, "--head", bomBranch, "--base", "main", "--title", "Retry the byte order mark fix", "--body", "Second attempt."},
			stdout: []string{"/acme/widgets/pull/"},
			effect: api("repos/acme/widgets/pulls?state=open&head=acme:"+bomBranch, `.[0] | "\(.title) | \(.body) | \(.user.login) | \(.draft)"`, "Retry the byte order mark fix | Second attempt. | alice | false")},
		// peers-157 starts at main's head: GitHub refuses a pull request
		// with no commits.
		{name: "pr-create-no-commits", args: []string{"pr", "create", "-R", repo, "--head", "peers-157", "--base", "main", "--title", "Nothing", "--body", "", "--draft"}, code: 1,
			stderr: []string{"No commits between main and peers-157"},
			effect: api("repos/acme/widgets/pulls?state=all&head=acme:peers-157", "length", "0")},
		{name: "pr-edit", args: []string{"pr", "edit", "121", "-R", repo, "--title", "Theme tokens for the embed SDK (edited)", "--add-reviewer", "bob",
			"--add-assignee", "carol", "--milestone", "v2.0.0", "--remove-label", "documentation"}, stdout: []string{"/acme/widgets/pull/121"},
			effect: api("repos/acme/widgets/pulls/121", `"\(.title) | \(.requested_reviewers | map(.login) | join(",")) | \(.assignees | map(.login) | join(",")) | \(.milestone.title) | \(.labels | map(.name) | join(","))"`,
				"Theme tokens for the embed SDK (edited) | bob | carol | v2.0.0 | bug")},
		{name: "pr-comment", args: []string{"pr", "comment", "121", "-R", repo, "--body", "Comment on the pull request."}, stdout: []string{"/acme/widgets/pull/121#issuecomment-"},
			effect: api("repos/acme/widgets/issues/121/comments", `.[-1] | "\(.user.login) \(.body)"`, "alice Comment on the pull request.")},
		{name: "pr-review-request-changes", token: "emu-bob", args: []string{"pr", "review", "121", "-R", repo, "--request-changes", "--body", "One more case."},
			effect: api("repos/acme/widgets/pulls/121/reviews", `.[-1] | "\(.state) \(.user.login) \(.body)"`, "CHANGES_REQUESTED bob One more case.")},
		{name: "pr-review-comment", args: []string{"pr", "review", "155", "-R", repo, "--comment", "--body", "A note on the bump."},
			effect: api("repos/acme/widgets/pulls/155/reviews", `.[-1] | "\(.state) \(.user.login) \(.body)"`, "COMMENTED alice A note on the bump.")},
		{name: "pr-ready-undo", args: []string{"pr", "ready", "155", "-R", repo, "--undo"}, stderr: []string{`acme/widgets#155 is converted to "draft"`},
			effect: api("repos/acme/widgets/pulls/155", ".draft", "true")},
		{name: "pr-lock", args: []string{"pr", "lock", "121", "-R", repo, "--reason", "too_heated"},
			effect: api("repos/acme/widgets/issues/121", `"\(.locked) \(.active_lock_reason)"`, "true too heated")},
		{name: "pr-unlock", args: []string{"pr", "unlock", "121", "-R", repo},
			effect: api("repos/acme/widgets/issues/121", ".locked", "false")},
		// main moved when #146 was squashed: #121's branch is behind and
		// GitHub merges main into it.
		{name: "pr-update-branch", args: []string{"pr", "update-branch", "121", "-R", repo}, stdout: []string{"PR branch updated"},
			effect: api("repos/dave/widgets/branches/docs/theme-tokens-for-the-embed-sdk", ".commit.parents | length", "2")},
		{name: "pr-reopen", args: []string{"pr", "reopen", "133", "-R", repo}, stderr: []string{"Reopened pull request acme/widgets#133"},
			effect: api("repos/acme/widgets/pulls/133", ".state", "open")},
		// #133's checks are still running, so main's policy blocks it; alice
		// is an admin and merges past the policy.
		{name: "pr-merge-rebase-admin", args: []string{"pr", "merge", "133", "-R", repo, "--rebase", "--admin"},
			effect: api("repos/acme/widgets/pulls/133", `"\(.state) \(.merged) \(.merged_by.login)"`, "closed true alice")},
		{name: "pr-close-delete-branch", args: []string{"pr", "close", "155", "-R", repo, "--comment", "Superseded.", "--delete-branch"},
			stderr: []string{"Closed pull request acme/widgets#155"},
			effect: api("repos/acme/widgets/pulls/155", `"\(.state) \(.merged)"`, "closed false")},
		{name: "pr-close-delete-branch-gone", args: []string{"api", "repos/acme/widgets/branches/dependabot/go_modules/github.com/jackc/pgx/v5-5.7.2"}, code: 1,
			stderr: []string{"HTTP 404"}},
		// #146 was merged by the tour: revert opens a pull request undoing it.
		{name: "pr-revert", args: []string{"pr", "revert", "146", "-R", repo}, stdout: []string{"/acme/widgets/pull/"},
			effect: api("repos/acme/widgets/pulls?state=open&sort=created&direction=desc&per_page=1", `.[0].title`,
				`Revert "Fix #145: Chart widget loses unsaved changes after resizing the panel"`)},
		{name: "pr-reopen-merged", args: []string{"pr", "reopen", "146", "-R", repo}, code: 1,
			stderr: []string{"can't be reopened because it was already merged"}},
		// dave may not merge into acme/widgets.
		{name: "dave-pr-merge", token: "emu-dave", args: []string{"pr", "merge", "121", "-R", repo, "--squash"}, code: 1,
			effect: api("repos/acme/widgets/pulls/121", ".state", "open")},
		{name: "bad-token-pr-view", token: "emu-invalid", args: []string{"pr", "view", "121", "-R", repo}, code: 1, stderr: []string{"HTTP 401", "Bad credentials"}},
	}
}
