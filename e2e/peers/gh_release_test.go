package peers

// gh release, run and workflow. The seed's acme/widgets has five releases
// by alice, each on its tag: v1.5.0-rc.1 (a prerelease), v1.4.2 (the
// latest), v1.4.1, v1.4.0 and v1.3.7. Its workflow "CI"
// (.github/workflows/ci.yml) ran 15 times on pull requests: 11 succeeded,
// 2 failed (on docs/theme-tokens-for-the-embed-sdk and on the byte order
// mark fix's branch), 1 was cancelled and 1, on #133's branch, is still in
// progress; each run has the jobs build, test and lint.

const ciRuns = "/repos/acme/widgets/actions/runs"

func ghReleaseReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "release-list", args: []string{"release", "list", "-R", repo, "--json", "tagName,isLatest,isPrerelease",
			"--jq", `.[] | "\(.tagName) \(.isLatest) \(.isPrerelease)"`},
			exactLines: []string{"v1.5.0-rc.1 false true", "v1.4.2 true false", "v1.4.1 false false", "v1.4.0 false false", "v1.3.7 false false"}},
		{name: "release-list-exclude-pre", args: []string{"release", "list", "-R", repo, "--exclude-pre-releases", "--limit", "2", "--json", "tagName", "--jq", ".[].tagName"},
			exactLines: []string{"v1.4.2", "v1.4.1"}},
		{name: "release-list-text", args: []string{"release", "list", "-R", repo}, lines: 5, stdout: []string{"v1.4.2\tLatest\tv1.4.2\t", "v1.5.0-rc.1\tPre-release\tv1.5.0-rc.1\t"}},
		{name: "release-view", args: []string{"release", "view", "v1.4.0", "-R", repo}, stdout: []string{"tag:\tv1.4.0\n", "author:\talice\n", "prerelease:\tfalse\n"}},
		{name: "release-view-latest", args: []string{"release", "view", "-R", repo, "--json", "tagName,author,isDraft", "--jq", `"\(.tagName) \(.author.login) \(.isDraft)"`},
			exactLines: []string{"v1.4.2 alice false"}},
		{name: "release-view-missing", args: []string{"release", "view", "v0.0.1", "-R", repo}, code: 1, stderr: []string{"release not found"}},
	}
}

func ghReleaseWrites() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "release-create", args: []string{"release", "create", "v9.0.0", "-R", repo, "--target", "main", "--title", "Nine", "--notes", "Notes written by gh."},
			stdout: []string{"/acme/widgets/releases/tag/v9.0.0"},
			effect: api("repos/acme/widgets/releases/tags/v9.0.0", `"\(.name) | \(.body) | \(.draft) | \(.prerelease) | \(.author.login)"`, "Nine | Notes written by gh. | false | false | alice")},
		{name: "release-create-draft", args: []string{"release", "create", "v9.1.0-beta", "-R", repo, "--target", "main", "--draft", "--prerelease", "--notes", "A draft."},
			stdout: []string{"/acme/widgets/releases/"},
			effect: api("repos/acme/widgets/releases", `map(select(.name == "v9.1.0-beta" or .tag_name == "v9.1.0-beta")) | .[0] | "\(.draft) \(.prerelease)"`, "true true")},
		{name: "release-edit", args: []string{"release", "edit", "v9.0.0", "-R", repo, "--title", "Nine (edited)", "--notes", "Edited by gh.", "--prerelease"},
			stdout: []string{"/acme/widgets/releases/tag/v9.0.0"},
			effect: api("repos/acme/widgets/releases/tags/v9.0.0", `"\(.name) | \(.body) | \(.prerelease)"`, "Nine (edited) | Edited by gh. | true")},
		{name: "release-delete", args: []string{"release", "delete", "v9.0.0", "-R", repo, "--yes", "--cleanup-tag"},
			effect: gone("repos/acme/widgets/releases/tags/v9.0.0", 404)},
		{name: "release-delete-tag-gone", args: []string{"api", "repos/acme/widgets/git/ref/tags/v9.0.0"}, code: 1, stderr: []string{"HTTP 404"}},
		// bob has write access and may publish; carol may not.
		{name: "bob-release-create", token: "emu-bob", args: []string{"release", "create", "v9.2.0", "-R", repo, "--target", "main", "--notes", "By bob."},
			stdout: []string{"/acme/widgets/releases/tag/v9.2.0"},
			effect: api("repos/acme/widgets/releases/tags/v9.2.0", ".author.login", "bob")},
		{name: "carol-release-create", token: "emu-carol", args: []string{"release", "create", "v9.3.0", "-R", repo, "--target", "main", "--notes", "By carol."}, code: 1,
			stderr: []string{"HTTP 403"},
			effect: gone("repos/acme/widgets/releases/tags/v9.3.0", 404)},
	}
}

func ghRunReads() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "run-list", args: []string{"run", "list", "-R", repo, "--limit", "20", "--json", "databaseId,workflowName,event",
			"--jq", `"\(length) \(all(.[]; .workflowName == "CI" and .event == "pull_request"))"`}, exactLines: []string{"15 true"}},
		{name: "run-list-status", args: []string{"run", "list", "-R", repo, "--status", "failure", "--json", "conclusion,headBranch",
			"--jq", `map(.headBranch) | sort | join(",")`}, exactLines: []string{"docs/theme-tokens-for-the-embed-sdk,fix/48-query-cache-writes-a-byte-order-mark-int"}},
		{name: "run-list-branch", args: []string{"run", "list", "-R", repo, "--branch", "docs/theme-tokens-for-the-embed-sdk", "--json", "conclusion", "--jq", `map(.conclusion) | join(",")`},
			exactLines: []string{"cancelled,failure"}},
		{name: "run-list-workflow", args: []string{"run", "list", "-R", repo, "--workflow", "ci.yml", "--limit", "20", "--json", "workflowName", "--jq", "length"},
			exactLines: []string{"15"}},
		{name: "run-view", args: []string{"run", "view", "{id:" + ciRuns + "?status=failure&branch=docs/theme-tokens-for-the-embed-sdk}", "-R", repo,
			"--json", "conclusion,headBranch,jobs", "--jq", `"\(.conclusion) \(.headBranch) \(.jobs | map(.name) | sort | join(","))"`},
			exactLines: []string{"failure docs/theme-tokens-for-the-embed-sdk build,lint,test"}},
		{name: "run-view-text", args: []string{"run", "view", "{id:" + ciRuns + "?status=success}", "-R", repo}, stdout: []string{"JOBS", "✓ build", "✓ test", "✓ lint"}},
		{name: "run-view-log-failed", args: []string{"run", "view", "{id:" + ciRuns + "?status=failure&branch=docs/theme-tokens-for-the-embed-sdk}", "-R", repo, "--log-failed"},
			stdout: []string{"Process completed with exit code 1."}},
		{name: "run-watch-completed", args: []string{"run", "watch", "{id:" + ciRuns + "?status=failure&branch=docs/theme-tokens-for-the-embed-sdk}", "-R", repo, "--exit-status"}, code: 1,
			stdout: []string{"has already completed with 'failure'"}},
		{name: "workflow-list", args: []string{"workflow", "list", "-R", repo}, stdout: []string{"CI\tactive\t"}, lines: 1},
		{name: "workflow-list-json", args: []string{"workflow", "list", "-R", repo, "--json", "name,path,state", "--jq", `.[] | "\(.name) \(.path) \(.state)"`},
			exactLines: []string{"CI .github/workflows/ci.yml active"}},
		{name: "workflow-view", args: []string{"workflow", "view", "ci.yml", "-R", repo}, stdout: []string{"CI - ci.yml", "Total runs 15"}},
	}
}

func ghRunWrites() []ghCheck {
	const repo = widgets
	return []ghCheck{
		{name: "run-rerun-failed", args: []string{"run", "rerun", "{id:" + ciRuns + "?status=failure&branch=docs/theme-tokens-for-the-embed-sdk}", "-R", repo, "--failed"},
			effect: api("repos/acme/widgets/actions/runs/{lastid}", ".run_attempt", "2")},
		{name: "run-cancel", args: []string{"run", "cancel", "{id:" + ciRuns + "?status=in_progress}", "-R", repo},
			effect: api("repos/acme/widgets/actions/runs/{lastid}", `"\(.status) \(.conclusion)"`, "completed cancelled")},
		{name: "run-delete", args: []string{"run", "delete", "{id:" + ciRuns + "?status=cancelled}", "-R", repo},
			effect: gone("repos/acme/widgets/actions/runs/{lastid}", 404)},
		{name: "workflow-disable", args: []string{"workflow", "disable", "ci.yml", "-R", repo},
			effect: api("repos/acme/widgets/actions/workflows/ci.yml", ".state", "disabled_manually")},
		{name: "workflow-enable", args: []string{"workflow", "enable", "ci.yml", "-R", repo},
			effect: api("repos/acme/widgets/actions/workflows/ci.yml", ".state", "active")},
		// CI runs on push and pull_request only: GitHub refuses a dispatch.
		{name: "workflow-run-no-dispatch", args: []string{"workflow", "run", "ci.yml", "-R", repo, "--ref", "main"}, code: 1,
			stderr: []string{"HTTP 422", "Workflow does not have 'workflow_dispatch' trigger"}},
		// gh words a 403 on a re-run as "run N cannot be rerun; <message>".
		{name: "carol-run-rerun", token: "emu-carol", args: []string{"run", "rerun", "{id:" + ciRuns + "?status=success}", "-R", repo}, code: 1,
			stderr: []string{"cannot be rerun"},
			effect: api("repos/acme/widgets/actions/runs/{lastid}", ".run_attempt", "1")},
		{name: "bad-token-run-list", token: "emu-invalid", args: []string{"run", "list", "-R", repo}, code: 1, stderr: []string{"HTTP 401", "Bad credentials"}},
	}
}
