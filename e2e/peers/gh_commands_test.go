package peers

import (
	"encoding/base64"
	"fmt"
	"testing"
)

// A second scripted gh session, on its own fresh emulator: the commands
// that move work between places (gh issue transfer, gh pr create) and
// gh's release reads, each write read back. It reuses the first session's
// checks, runner and verdicts (gh_test.go); its expected failures are
// listed in gh-commands-expected-failures.txt, which only shrinks.

const ghCommandsExpectedList = "gh-commands-expected-failures.txt"

func init() { insideSessions["gh-commands"] = runGhCommandsSession }

// releaseViewRuns is how often `gh release view` runs: gh asks REST and
// GraphQL at once and takes the first answer that is not "not found", so
// a GraphQL failure shows only on the runs where it comes first.
const releaseViewRuns = 20

func ghCommandsSession() []ghCheck {
	const repo = "acme/widgets"
	api := func(path, jq string, want ...string) *ghCheck {
		return &ghCheck{args: []string{"api", path, "--jq", jq}, exactLines: want}
	}
	// commitTo adds a file on a branch: a commit main lacks.
	commitTo := func(branch string) []string {
		return []string{"api", "-X", "PUT", "repos/acme/widgets/contents/docs/" + branch + ".md", "-f", "message=Notes for " + branch,
			"-f", "content=" + base64.StdEncoding.EncodeToString([]byte("# "+branch+"\n")), "-f", "branch=" + branch, "--jq", ".commit.message"}
	}
	checks := []ghCheck{
		// Two branches from main, each one commit ahead of it.
		{name: "branch-a", args: []string{"issue", "develop", "20", "-R", repo, "--name", "peers-a"}, stdout: []string{"/acme/widgets/tree/peers-a"}},
		{name: "branch-a-commit", args: commitTo("peers-a"), exactLines: []string{"Notes for peers-a"}},
		{name: "branch-b", args: []string{"issue", "develop", "21", "-R", repo, "--name", "peers-b"}, stdout: []string{"/acme/widgets/tree/peers-b"}},
		{name: "branch-b-commit", args: commitTo("peers-b"), exactLines: []string{"Notes for peers-b"}},

		// gh pr create opens the pull request with createPullRequest, then
		// sets labels, assignees and milestone with updatePullRequest and
		// asks for reviews with requestReviews. The demo seed's acme/widgets
		// holds 160 issues and pull requests.
		{name: "pr-create-draft", args: []string{"pr", "create", "-R", repo, "--head", "peers-a", "--base", "main", "--title", "Notes A",
			"--body", "Opened by gh.", "--draft", "--label", "documentation", "--assignee", "bob", "--reviewer", "carol"},
			stdout: []string{"/acme/widgets/pull/161"},
			effect: api("repos/acme/widgets/pulls/161",
				`"\(.title) | \(.body) | \(.draft) | \(.head.ref) -> \(.base.ref) | \(.labels | map(.name) | join(",")) | \(.assignees | map(.login) | join(",")) | \(.requested_reviewers | map(.login) | join(","))"`,
				"Notes A | Opened by gh. | true | peers-a -> main | documentation | bob | carol")},
		{name: "pr-create-owner-head", args: []string{"pr", "create", "-R", repo, "--head", "acme:peers-b", "--title", "Notes B", "--body", "",
			"--milestone", "v1.5.0"},
			stdout: []string{"/acme/widgets/pull/162"},
			effect: api("repos/acme/widgets/pulls/162", `"\(.title) | \(.draft) | \(.head.ref) -> \(.base.ref) | \(.milestone.title) | \(.user.login)"`,
				"Notes B | false | peers-b -> main | v1.5.0 | alice")},
		// The seed's fix/48 branch is ahead of main with no open pull
		// request; bob (write access) opens one into it.
		{name: "bob-pr-create", token: "emu-bob", args: []string{"pr", "create", "-R", repo, "--head", "fix/48-query-cache-writes-a-byte-order-mark-int",
			"--title", "Fix #48", "--body", "Closes #48."}, stdout: []string{"/acme/widgets/pull/163"},
			effect: api("repos/acme/widgets/pulls/163", `"\(.user.login) \(.state) \(.base.ref)"`, "bob open main")},
		// GitHub refuses a second open pull request for a head, one with
		// no commits over its base, and a head that is no branch.
		{name: "pr-create-exists", args: []string{"pr", "create", "-R", repo, "--head", "peers-a", "--title", "Again", "--body", ""}, code: 1,
			stderr: []string{"already exists", "/acme/widgets/pull/161"}},
		{name: "pr-create-no-commits", args: []string{"pr", "create", "-R", repo, "--head", "docs/backing-up-and-restoring-dashboards", "--title", "Nothing", "--body", ""},
			code: 1, stderr: []string{"No commits between main and docs/backing-up-and-restoring-dashboards"},
			effect: api("repos/acme/widgets/pulls?state=all&per_page=1", ".[0].number", "163")},
		{name: "pr-create-no-head", args: []string{"pr", "create", "-R", repo, "--head", "peers-missing", "--title", "Nowhere", "--body", ""},
			code: 1, stderr: []string{"Head ref must be a branch"}},
		{name: "carol-pr-create-reviewer", token: "emu-carol", args: []string{"pr", "create", "-R", repo, "--head", "peers-b", "--base", "fix/89-dashboard-grid-shows-the-wrong-tooltip-v",
			"--title", "Notes B elsewhere", "--body", "", "--reviewer", "bob"}, code: 1,
			stderr: []string{"carol does not have the correct permissions to execute `RequestReviews`"}},

		// gh issue transfer: #9 moves from public acme/widgets to private
		// acme/gadgets (same owner) under gadgets' next number; REST
		// redirects the old number there and GitHub's GraphQL no longer
		// finds it.
		{name: "issue-transfer", args: []string{"issue", "transfer", "9", "acme/gadgets", "-R", repo}, stdout: []string{"/acme/gadgets/issues/"},
			effect: api("repos/acme/widgets/issues/9", `"\(.repository_url | sub(".*/repos/"; "")) \(.title) \(.state)"`,
				"acme/gadgets Dashboard load time regressed about 3x after upgrading to v1.3.7 open")},
		{name: "issue-transfer-redirect", args: []string{"api", "-i", "repos/acme/widgets/issues/9"}, code: 0,
			stdout: []string{"HTTP/1.1 200", "\"repository_url\":\"http://api.github.localhost/repos/acme/gadgets\""}},
		{name: "issue-transfer-old-number", args: []string{"issue", "view", "9", "-R", repo}, code: 1,
			stderr: []string{"GraphQL: Could not resolve to an issue or pull request with the number of 9."}},
		{name: "issue-transfer-comments", args: []string{"api", "repos/acme/widgets/issues/9/comments", "--jq", "length > 0"}, exactLines: []string{"true"}},
		// GitHub refuses: a private repository's issue into a public one,
		// another owner's repository, a reader, a pull request.
		{name: "issue-transfer-private-to-public", args: []string{"issue", "transfer", "1", repo, "-R", "acme/gadgets"}, code: 1,
			stderr: []string{"New repository must be private if the current repository is private"},
			effect: api("repos/acme/gadgets/issues/1", ".repository_url | endswith(\"/acme/gadgets\")", "true")},
		{name: "issue-transfer-other-owner", args: []string{"issue", "transfer", "10", "alice/notes", "-R", repo}, code: 1,
			stderr: []string{"New repository must have the same owner as the current repository"},
			effect: api("repos/acme/widgets/issues/10", ".repository_url | endswith(\"/acme/widgets\")", "true")},
		{name: "carol-issue-transfer", token: "emu-carol", args: []string{"issue", "transfer", "149", "acme/gadgets", "-R", repo}, code: 1,
			stderr: []string{"carol does not have the correct permissions to execute `TransferIssue`"}},
		{name: "issue-transfer-pull", args: []string{"issue", "transfer", "121", "acme/gadgets", "-R", repo}, code: 1,
			stderr: []string{"issue acme/widgets#121 is a pull request and cannot be transferred"}},

		// gh release list reads Repository.releases; the newest non-draft,
		// non-pre-release one is Latest.
		{name: "release-list", args: []string{"release", "list", "-R", repo}, lines: 5,
			stdout: []string{"v1.5.0-rc.1\tPre-release\tv1.5.0-rc.1\t", "v1.4.2\tLatest\tv1.4.2\t", "v1.3.7\t\tv1.3.7\t"}},
		{name: "release-list-json", args: []string{"release", "list", "-R", repo, "--exclude-pre-releases", "--order", "asc", "--json", "tagName,isLatest,isDraft",
			"--jq", `.[] | "\(.tagName) \(.isLatest) \(.isDraft)"`},
			exactLines: []string{"v1.3.7 false false", "v1.4.0 false false", "v1.4.1 false false", "v1.4.2 true false"}},
		{name: "release-list-limit", args: []string{"release", "list", "-R", repo, "--limit", "2", "--json", "tagName", "--jq", ".[].tagName"},
			exactLines: []string{"v1.5.0-rc.1", "v1.4.2"}},
		{name: "release-view-latest", args: []string{"release", "view", "-R", repo, "--json", "tagName,isPrerelease", "--jq", `"\(.tagName) \(.isPrerelease)"`},
			exactLines: []string{"v1.4.2 false"}},
		{name: "release-view-missing", args: []string{"release", "view", "v9.9.9", "-R", repo}, code: 1, stderr: []string{"release not found"}},
		{name: "release-graphql", args: []string{"api", "graphql", "-f", `query={ repository(owner: "acme", name: "widgets") { release(tagName: "v1.4.0") { tagName isLatest isPrerelease isDraft } latestRelease { tagName } } }`,
			"--jq", `.data.repository | "\(.release.tagName) \(.release.isLatest) \(.release.isPrerelease) \(.release.isDraft) \(.latestRelease.tagName)"`},
			exactLines: []string{"v1.4.0 false false false v1.4.2"}},
	}
	for i := range releaseViewRuns {
		checks = append(checks, ghCheck{name: fmt.Sprintf("release-view-%02d", i+1), args: []string{"release", "view", "v1.4.1", "-R", repo},
			stdout: []string{"title:\tv1.4.1", "tag:\tv1.4.1", "draft:\tfalse", "prerelease:\tfalse"}})
	}
	return checks
}

func TestGhCommands(t *testing.T) {
	needNamespaces(t, "gh")
	passed, listed, n := judgeGhChecks(t, "gh-commands", ghCommandsExpectedList, ghCommandsSession())
	t.Logf("gh commands session: %d commands: %d behave as on GitHub, %d fail as listed in %s", n, passed, listed, ghCommandsExpectedList)
}

func runGhCommandsSession(work string) (any, error) { return runGhChecks(work, ghCommandsSession()) }
