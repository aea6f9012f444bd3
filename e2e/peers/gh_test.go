package peers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// A scripted gh session against a fresh `ghgate emulator`, as a new user
// would run it. gh speaks plain HTTP only to the host github.localhost, at
// http://api.github.localhost/ (internal/ghinstance in gh's source), so the
// session runs in private network and mount namespaces: loopback up, a
// private /etc/hosts naming github.localhost and api.github.localhost as
// 127.0.0.1, the emulator on 127.0.0.1:80. Each command is compared with
// what GitHub would answer; a command that does not behave so must be listed
// in gh-expected-failures.txt, and a listed command that now behaves must be
// taken off the list, so the list only shrinks.

const (
	ghExpectedList = "gh-expected-failures.txt"
	// Set in the copy inside the namespaces: gh's binary.
	envGh = "GHGATE_PEERS_GH"
	// Bounds one gh command.
	commandTimeout = 60 * time.Second
)

// ghCheck is one gh command and what GitHub would answer to it.
type ghCheck struct {
	name       string   // its key in gh-expected-failures.txt
	args       []string // gh's arguments
	token      string   // GH_TOKEN; emu-alice when empty
	code       int      // the exit code
	stdout     []string // text the standard output contains
	stderr     []string // text the standard error contains
	lines      int      // when set, the standard output has exactly this many lines
	exactLines []string // when set, the standard output is exactly these lines
	effect     *ghCheck // a read that shows a write took effect
}

// ghSession is the script. Each write works on its own seed issue or label,
// so one command's failure does not change what the next one meets.
// Effects are read back with `gh api`, over REST where GitHub's REST shows
// them (a pin only shows in GraphQL's isPinned).
//
// The session runs the groups' reads on the untouched seed first, then the
// scripted tour below, then each group's writes, so the reads' counts are
// the seed's.
func ghSession() []ghCheck {
	var s []ghCheck
	for _, group := range []func() []ghCheck{ghIssueReads, ghPRReads, ghReleaseReads, ghRunReads, ghRepoReads, ghLabelReads, ghSearchReads, ghAPIReads, ghProjectReads} {
		s = append(s, group()...)
	}
	s = append(s, ghTour()...)
	for _, group := range []func() []ghCheck{ghIssueWrites, ghPRWrites, ghReleaseWrites, ghRunWrites, ghRepoWrites, ghLabelWrites, ghAPIWrites, ghProjectWrites, ghUsers} {
		s = append(s, group()...)
	}
	return s
}

// api reads path over REST with gh api and compares jq's projection of it
// with want, line by line.
func api(path, jq string, want ...string) *ghCheck {
	return &ghCheck{args: []string{"api", path, "--jq", jq}, exactLines: want}
}

// gone is a read of path that GitHub answers with status (404, 410).
func gone(path string, status int) *ghCheck {
	return &ghCheck{args: []string{"api", path}, code: 1, stderr: []string{fmt.Sprintf("HTTP %d", status)}}
}

// ghTour is the first scripted session: a new user's tour of the seed.
func ghTour() []ghCheck {
	const repo = "acme/widgets"
	return []ghCheck{
		// The demo seed's acme/widgets holds 160 issues and pull requests,
		// 146 of them issues.
		{name: "api-paginate-rest", args: []string{"api", "--paginate", "repos/acme/widgets/issues?state=all&per_page=50", "--jq", ".[].number"}, lines: 160},
		{name: "api-paginate-graphql", args: []string{"api", "graphql", "--paginate",
			"-f", `query=query($endCursor: String) { repository(owner: "acme", name: "widgets") { issues(first: 50, after: $endCursor) { nodes { number } pageInfo { hasNextPage endCursor } } } }`,
			"--jq", ".data.repository.issues.nodes[].number"}, lines: 146},
		{name: "repo-view", args: []string{"repo", "view", repo}, stdout: []string{"name:\tacme/widgets", "Embeddable dashboard widgets"}},
		{name: "repo-view-json", args: []string{"repo", "view", repo, "--json", "name,owner,visibility,defaultBranchRef,hasIssuesEnabled",
			"--jq", `"\(.owner.login) \(.name) \(.visibility) \(.defaultBranchRef.name) \(.hasIssuesEnabled)"`}, exactLines: []string{"acme widgets PUBLIC main true"}},
		{name: "repo-list", args: []string{"repo", "list", "acme"}, stdout: []string{"acme/widgets\t", "acme/gadgets\t"}},
		{name: "auth-status", args: []string{"auth", "status", "--hostname", "github.localhost"}, stdout: []string{"Logged in to github.localhost account alice (GH_TOKEN)"}},

		{name: "label-list", args: []string{"label", "list", "-R", repo, "--limit", "100"}, stdout: []string{"priority: high\t", "good first issue\t"}},
		// gh says nothing on success when its output is not a terminal.
		{name: "label-clone", args: []string{"label", "clone", repo, "-R", "alice/notes"},
			effect: &ghCheck{args: []string{"api", "--paginate", "repos/alice/notes/labels", "--jq", ".[].name"}, stdout: []string{"priority: high", "area: ui"}}},
		{name: "label-create", args: []string{"label", "create", "peers-new", "-R", repo, "--color", "0e8a16", "--description", "Made by gh"},
			effect: api("repos/acme/widgets/labels/peers-new", `"\(.color) \(.description)"`, "0e8a16 Made by gh")},
		{name: "label-edit", args: []string{"label", "edit", "question", "-R", repo, "--color", "c5def5", "--description", "Edited by gh"},
			effect: api("repos/acme/widgets/labels/question", `"\(.color) \(.description)"`, "c5def5 Edited by gh")},
		{name: "label-delete", args: []string{"label", "delete", "invalid", "-R", repo, "--yes"},
			effect: &ghCheck{args: []string{"api", "repos/acme/widgets/labels/invalid"}, code: 1, stderr: []string{"HTTP 404"}}},

		{name: "issue-list", args: []string{"issue", "list", "-R", repo, "--limit", "3"}, stdout: []string{"160\tOPEN\tPostgres data source times out after 30 seconds"}, lines: 3},
		{name: "issue-view", args: []string{"issue", "view", "9", "-R", repo}, stdout: []string{"title:\tDashboard load time regressed about 3x", "state:\tOPEN"}},
		{name: "issue-create", args: []string{"issue", "create", "-R", repo, "--title", "Created by gh", "--body", "Body written by gh.", "--label", "bug"},
			stdout: []string{"/acme/widgets/issues/161"},
			effect: api("repos/acme/widgets/issues/161", `"\(.title) | \(.body) | \(.labels | map(.name) | join(","))"`, "Created by gh | Body written by gh. | bug")},
		{name: "issue-edit", args: []string{"issue", "edit", "151", "-R", repo, "--title", "Compact display mode (edited by gh)", "--add-label", "enhancement", "--add-assignee", "bob"},
			stdout: []string{"/acme/widgets/issues/151"},
			effect: api("repos/acme/widgets/issues/151", `"\(.title) | \(.labels | map(.name) | join(",")) | \(.assignees | map(.login) | join(","))"`, "Compact display mode (edited by gh) | enhancement | bob")},
		{name: "issue-edit-milestone", args: []string{"issue", "edit", "141", "-R", repo, "--remove-label", "priority: low", "--milestone", "v1.5.0", "--body", "Body edited by gh."},
			stdout: []string{"/acme/widgets/issues/141"},
			effect: api("repos/acme/widgets/issues/141", `"\(.milestone.title) | \(.body) | \(.labels | map(.name) | index("priority: low"))"`, "v1.5.0 | Body edited by gh. | null")},
		{name: "issue-close", args: []string{"issue", "close", "152", "-R", repo, "--reason", "not planned"}, stderr: []string{"Closed issue acme/widgets#152"},
			effect: api("repos/acme/widgets/issues/152", `"\(.state) \(.state_reason)"`, "closed not_planned")},
		{name: "issue-reopen", args: []string{"issue", "reopen", "1", "-R", repo}, stderr: []string{"Reopened issue acme/widgets#1"},
			effect: api("repos/acme/widgets/issues/1", ".state", "open")},
		{name: "issue-comment", args: []string{"issue", "comment", "153", "-R", repo, "--body", "Comment written by gh."}, stdout: []string{"/acme/widgets/issues/153#issuecomment-"},
			effect: api("repos/acme/widgets/issues/153/comments", ".[-1].body", "Comment written by gh.")},
		{name: "issue-lock", args: []string{"issue", "lock", "154", "-R", repo, "--reason", "off_topic"},
			effect: api("repos/acme/widgets/issues/154", `"\(.locked) \(.active_lock_reason)"`, "true off-topic")},
		// #31 is the seed's one locked issue.
		{name: "issue-unlock", args: []string{"issue", "unlock", "31", "-R", repo},
			effect: api("repos/acme/widgets/issues/31", ".locked", "false")},
		{name: "issue-pin", args: []string{"issue", "pin", "156", "-R", repo}, stderr: []string{"Pinned issue acme/widgets#156"},
			effect: &ghCheck{args: []string{"api", "graphql", "-f", `query={ repository(owner: "acme", name: "widgets") { issue(number: 156) { isPinned } } }`, "--jq", ".data.repository.issue.isPinned"}, exactLines: []string{"true"}}},
		{name: "issue-develop", args: []string{"issue", "develop", "157", "-R", repo, "--name", "peers-157"}, stdout: []string{"github.localhost/acme/widgets/tree/peers-157"},
			effect: api("repos/acme/widgets/git/ref/heads/peers-157", ".ref", "refs/heads/peers-157")},
		// The branch is linked to #157 and starts at the default branch's
		// head. The emulator serves plain http, so its web URLs are http.
		{name: "issue-develop-list", args: []string{"issue", "develop", "157", "-R", repo, "--list"},
			exactLines: []string{"peers-157\thttp://github.localhost/acme/widgets/tree/peers-157"},
			effect: &ghCheck{args: []string{"api", "graphql", "-f", `query={ repository(owner: "acme", name: "widgets") { main: ref(qualifiedName: "main") { target { oid } } linked: ref(qualifiedName: "peers-157") { target { oid } } } }`,
				"--jq", `.data.repository | .linked != null and .main.target.oid == .linked.target.oid`}, exactLines: []string{"true"}}},

		{name: "search-issues", args: []string{"search", "issues", "time zone", "--repo", repo, "--state", "closed"}, stdout: []string{"Chart widget ignores the dashboard time zone after resizing the panel"}},
		{name: "search-prs", args: []string{"search", "prs", "--repo", repo, "--state", "open"}, stdout: []string{"Bump github.com/jackc/pgx/v5 from 5.7.1 to 5.7.2"}, lines: 4},
		// Search qualifiers, each checked on every result gh prints: the
		// results exist and all of them fit the qualifier.
		// gh issue list --search asks GraphQL's search(type: ISSUE).
		{name: "issue-list-search", args: []string{"issue", "list", "-R", repo, "--search", "no:assignee -label:bug sort:created-asc", "--limit", "15", "--json", "assignees,labels,createdAt",
			"--jq", `(length == 15) and all(.[]; (.assignees | length) == 0 and ([.labels[].name] | index("bug") == null)) and ([.[].createdAt] == ([.[].createdAt] | sort))`},
			exactLines: []string{"true"}},
		{name: "search-issues-labels", args: []string{"search", "issues", "--repo", repo, "--label", "bug", "--label", "area: api", "--json", "labels",
			"--jq", `(length > 0) and all(.[]; [.labels[].name] | (index("bug") != null) and (index("area: api") != null))`}, exactLines: []string{"true"}},
		{name: "search-issues-exclude-label", args: []string{"search", "issues", "--repo", repo, "--json", "labels",
			"--jq", `(length > 0) and all(.[]; [.labels[].name] | index("bug") == null)`, "--", "-label:bug"}, exactLines: []string{"true"}},
		{name: "search-issues-exclude-owner", args: []string{"search", "issues", "--json", "repository",
			"--jq", `(length > 0) and all(.[]; .repository.nameWithOwner | startswith("acme/") | not)`, "--", "-user:acme"}, exactLines: []string{"true"}},
		{name: "search-issues-no-assignee", args: []string{"search", "issues", "--repo", repo, "--no-assignee", "--state", "open", "--json", "assignees,state",
			"--jq", `(length > 0) and all(.[]; (.assignees | length) == 0 and .state == "open")`}, exactLines: []string{"true"}},
		{name: "search-issues-comments", args: []string{"search", "issues", "--repo", repo, "--comments", ">3", "--json", "commentsCount",
			"--jq", `(length > 0) and all(.[]; .commentsCount > 3)`}, exactLines: []string{"true"}},
		{name: "search-issues-author-me", args: []string{"search", "issues", "--author", "@me", "--json", "author",
			"--jq", `(length > 0) and all(.[]; .author.login == "alice")`}, exactLines: []string{"true"}},
		{name: "search-issues-sort", args: []string{"search", "issues", "--repo", repo, "--sort", "created", "--order", "asc", "--limit", "20", "--json", "createdAt",
			"--jq", `(length == 20) and ([.[].createdAt] == ([.[].createdAt] | sort))`}, exactLines: []string{"true"}},
		// gh reports a merged pull request's state as "merged".
		{name: "search-prs-merged", args: []string{"search", "prs", "--repo", repo, "--merged", "--json", "state,isPullRequest",
			"--jq", `(length > 0) and all(.[]; .state == "merged" and .isPullRequest)`}, exactLines: []string{"true"},
			effect: api("search/issues?q=repo:acme/widgets+is:pr+-is:merged+is:closed", `(.total_count > 0) and all(.items[]; .pull_request.merged_at == null and .state == "closed")`, "true")},
		{name: "carol-search-private", token: "emu-carol", args: []string{"search", "issues", "--repo", "acme/gadgets", "--json", "repository",
			"--jq", `(length > 0) and all(.[]; .repository.nameWithOwner == "acme/gadgets")`}, exactLines: []string{"true"}},
		{name: "pr-list", args: []string{"pr", "list", "-R", repo}, stdout: []string{"146\tFix #145: Chart widget loses unsaved changes"}, lines: 4},
		{name: "pr-view", args: []string{"pr", "view", "146", "-R", repo}, stdout: []string{"title:\tFix #145: Chart widget loses unsaved changes", "state:\tOPEN"}},
		{name: "pr-diff", args: []string{"pr", "diff", "146", "-R", repo}, stdout: []string{"diff --git a/"}},
		// #121 had changes requested, then a push that outdated the thread.
		{name: "pr-view-comments", args: []string{"pr", "view", "121", "-R", repo, "--comments"}, stdout: []string{"status:\tchanges requested", "Nearly there: one case is missing."}},
		{name: "pr-view-json", args: []string{"pr", "view", "146", "-R", repo, "--json", "reviewDecision,mergeStateStatus,reviews,files,headRefName",
			"--jq", `"\(.reviewDecision) \(.mergeStateStatus) \(.reviews | map(.state) | join(",")) \(.files | length) \(.headRefName)"`},
			exactLines: []string{"APPROVED CLEAN APPROVED 2 fix/145-chart-widget-loses-unsaved-changes-after"}},
		{name: "pr-list-merged", args: []string{"pr", "list", "-R", repo, "--state", "merged", "--limit", "3"}, stdout: []string{"108\tBump @testing-library/react from 16.0.1 to 16.1.0"}, lines: 3},
		// Each pull request write works on its own pull request: #121 is
		// dave's (alice may approve it), #133 and #155 are open.
		{name: "pr-review", args: []string{"pr", "review", "121", "-R", repo, "--approve", "--body", "Looks good now."},
			effect: api("repos/acme/widgets/pulls/121/reviews", `.[-1] | "\(.state) \(.user.login) \(.body)"`, "APPROVED alice Looks good now.")},
		{name: "pr-close", args: []string{"pr", "close", "133", "-R", repo}, stderr: []string{"Closed pull request acme/widgets#133"},
			effect: api("repos/acme/widgets/pulls/133", `"\(.state) \(.merged)"`, "closed false")},
		{name: "pr-ready", args: []string{"pr", "ready", "155", "-R", repo}, stderr: []string{"acme/widgets#155 is marked as \"ready for review\""},
			effect: api("repos/acme/widgets/pulls/155", ".draft", "false")},
		// #146's head has passed its check runs (build, lint, test) and the
		// ci/coverage status; gh prints one tab-separated line for each.
		{name: "pr-checks", args: []string{"pr", "checks", "146", "-R", repo}, lines: 4,
			stdout: []string{"build\tpass\t", "lint\tpass\t", "test\tpass\t", "ci/coverage\tpass\t"}},
		// Outside a clone gh has no current branch and lists alice's open
		// pull requests and the reviews asked of her.
		{name: "pr-status", args: []string{"pr", "status", "-R", repo},
			stdout: []string{"Created by you\n  #146  Fix #145", "✓ Checks passing ✓ 1 Approved", "Requesting a code review from you"}},
		{name: "pr-edit-label", args: []string{"pr", "edit", "121", "-R", repo, "--add-label", "bug"}, stdout: []string{"/acme/widgets/pull/121"},
			effect: api("repos/acme/widgets/issues/121", `.labels | map(.name) | index("bug") != null`, "true")},
		// #146 is approved and its required checks pass: alice squashes it,
		// and main gains one commit titled after it.
		{name: "pr-merge-squash", args: []string{"pr", "merge", "146", "-R", repo, "--squash"},
			effect: api("repos/acme/widgets/pulls/146", `"\(.state) \(.merged) \(.merged_by.login)"`, "closed true alice")},
		{name: "pr-merge-squash-commit", args: []string{"api", "repos/acme/widgets/commits/main", "--jq", `"\(.parents | length) \(.commit.message | split("\n")[0])"`},
			exactLines: []string{"1 Fix #145: Chart widget loses unsaved changes after resizing the panel (#146)"}},

		// bob has write access to acme's repositories: he comments, labels,
		// assigns, closes and creates labels as alice does.
		{name: "bob-issue-comment", token: "emu-bob", args: []string{"issue", "comment", "158", "-R", repo, "--body", "Comment written by bob."},
			stdout: []string{"/acme/widgets/issues/158#issuecomment-"},
			effect: api("repos/acme/widgets/issues/158/comments", `.[-1] | "\(.user.login) \(.body)"`, "bob Comment written by bob.")},
		{name: "bob-issue-edit", token: "emu-bob", args: []string{"issue", "edit", "158", "-R", repo, "--add-label", "bug", "--add-assignee", "carol"},
			stdout: []string{"/acme/widgets/issues/158"},
			effect: api("repos/acme/widgets/issues/158", `"\(.labels | map(.name) | join(",")) | \(.assignees | map(.login) | join(","))"`, "bug | carol")},
		{name: "bob-issue-close", token: "emu-bob", args: []string{"issue", "close", "159", "-R", repo}, stderr: []string{"Closed issue acme/widgets#159"},
			effect: api("repos/acme/widgets/issues/159", `"\(.state) \(.state_reason)"`, "closed completed")},
		{name: "bob-label-create", token: "emu-bob", args: []string{"label", "create", "peers-bob", "-R", repo, "--color", "5319e7"},
			effect: api("repos/acme/widgets/labels/peers-bob", ".color", "5319e7")},

		// carol may only read acme/widgets: she can comment on a public
		// repository's issue and retitle her own, but GitHub refuses her
		// labels, closing others' issues and label changes, and nothing
		// changes.
		{name: "carol-issue-view", token: "emu-carol", args: []string{"issue", "view", "149", "-R", repo},
			stdout: []string{"title:\tIs there a way to change the default colour palette for every chart?", "author:\tcarol"}},
		{name: "carol-issue-comment", token: "emu-carol", args: []string{"issue", "comment", "160", "-R", repo, "--body", "Comment written by carol."},
			stdout: []string{"/acme/widgets/issues/160#issuecomment-"},
			effect: api("repos/acme/widgets/issues/160/comments", `.[-1] | "\(.user.login) \(.body)"`, "carol Comment written by carol.")},
		{name: "carol-issue-edit-own", token: "emu-carol", args: []string{"issue", "edit", "149", "-R", repo, "--title", "Default colour palette for every chart"},
			stdout: []string{"/acme/widgets/issues/149"},
			effect: api("repos/acme/widgets/issues/149", ".title", "Default colour palette for every chart")},
		{name: "carol-issue-edit-label", token: "emu-carol", args: []string{"issue", "edit", "160", "-R", repo, "--add-label", "bug"}, code: 1,
			stderr: []string{"GraphQL: carol does not have the correct permissions to execute `AddLabelsToLabelable` (addLabelsToLabelable)"},
			effect: api("repos/acme/widgets/issues/160", ".labels | length", "0")},
		{name: "carol-issue-close", token: "emu-carol", args: []string{"issue", "close", "160", "-R", repo}, code: 1,
			stderr: []string{"GraphQL: carol does not have the correct permissions to execute `CloseIssue` (closeIssue)"},
			effect: api("repos/acme/widgets/issues/160", ".state", "open")},
		{name: "carol-label-create", token: "emu-carol", args: []string{"label", "create", "peers-carol", "-R", repo}, code: 1,
			stderr: []string{"HTTP 403", "(http://api.github.localhost/repos/acme/widgets/labels)"},
			effect: &ghCheck{args: []string{"api", "repos/acme/widgets/labels/peers-carol"}, code: 1, stderr: []string{"HTTP 404"}}},
		{name: "carol-label-delete", token: "emu-carol", args: []string{"label", "delete", "bug", "-R", repo, "--yes"}, code: 1,
			stderr: []string{"HTTP 403", "(http://api.github.localhost/repos/acme/widgets/labels/bug)"},
			effect: api("repos/acme/widgets/labels/bug", ".name", "bug")},

		// dave has no grant: acme's private gadgets repository does not
		// exist for him, in GraphQL and in search alike.
		{name: "dave-repo-view-private", token: "emu-dave", args: []string{"repo", "view", "acme/gadgets"}, code: 1,
			stderr: []string{"GraphQL: Could not resolve to a Repository with the name 'acme/gadgets'. (repository)"}},
		{name: "dave-issue-list-private", token: "emu-dave", args: []string{"issue", "list", "-R", "acme/gadgets"}, code: 1,
			stderr: []string{"GraphQL: Could not resolve to a Repository with the name 'acme/gadgets'. (repository)"}},
		{name: "dave-search-private", token: "emu-dave", args: []string{"search", "issues", "firmware", "--repo", "acme/gadgets"}, code: 1,
			stderr: []string{"Invalid search query", "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them."}},

		// A token GitHub does not know: 401 Bad credentials, on REST and
		// GraphQL alike.
		{name: "bad-token-api", token: "emu-invalid", args: []string{"api", "user"}, code: 1, stderr: []string{"Bad credentials", "HTTP 401"}},
		{name: "bad-token-issue-list", token: "emu-invalid", args: []string{"issue", "list", "-R", repo}, code: 1, stderr: []string{"HTTP 401", "Bad credentials"}},
		{name: "bad-token-label-create", token: "emu-invalid", args: []string{"label", "create", "peers-bad", "-R", repo}, code: 1, stderr: []string{"HTTP 401: Bad credentials"}},
		// gh's search asks GraphQL first (the SearchType feature check) and
		// reports that request's failure in its own words.
		{name: "bad-token-search-issues", token: "emu-invalid", args: []string{"search", "issues", "crash", "--repo", repo}, code: 1,
			stderr: []string{"non-200 OK status code: 401 Unauthorized", "Bad credentials"}},
		{name: "bad-token-auth-status", token: "emu-invalid", args: []string{"auth", "status", "--hostname", "github.localhost"}, code: 1,
			stderr: []string{"Failed to log in to github.localhost using token (GH_TOKEN)", "The token in GH_TOKEN is invalid."}},
	}
}

// record is what one gh command did, as written by the session.
type record struct {
	Name   string   `json:"name"`
	Args   []string `json:"args"`
	Code   int      `json:"code"` // -1: it did not finish (see Stderr)
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	Millis int64    `json:"millis"`
}

func effectName(name string) string { return name + " effect" }

func TestGhSession(t *testing.T) {
	needNamespaces(t, "gh")
	passed, listed, n := judgeGhChecks(t, "gh", ghExpectedList, ghSession())
	t.Logf("gh session: %d commands: %d behave as on GitHub, %d fail as listed in %s", n, passed, listed, ghExpectedList)
}

// verdict says why a record is not what GitHub would give, or "" when it is.
func verdict(c ghCheck, r record) string {
	if r.Code != c.code {
		// gh's messages span lines (auth status) or not (GraphQL errors);
		// one line of it reads well in a log and in the list.
		why := strings.Join(strings.Fields(r.Stderr), " ")
		if why == "" {
			why = strings.Join(strings.Fields(r.Stdout), " ")
		}
		return fmt.Sprintf("exit %d, want %d: %s", r.Code, c.code, clip(why, 600))
	}
	for _, s := range c.stdout {
		if !strings.Contains(r.Stdout, s) {
			return fmt.Sprintf("output lacks %q; got %q", s, clip(r.Stdout, 200))
		}
	}
	for _, s := range c.stderr {
		if !strings.Contains(r.Stderr, s) {
			return fmt.Sprintf("error output lacks %q; got %q", s, clip(r.Stderr, 200))
		}
	}
	got := lines(r.Stdout)
	if c.lines > 0 && len(got) != c.lines {
		return fmt.Sprintf("%d lines of output, want %d", len(got), c.lines)
	}
	if c.exactLines != nil && strings.Join(got, "\n") != strings.Join(c.exactLines, "\n") {
		return fmt.Sprintf("output %q, want %q", clip(r.Stdout, 200), strings.Join(c.exactLines, "\n"))
	}
	return ""
}

// runGhSession runs inside the namespaces: every command of the session,
// and the reads that show each write's effect.
func runGhSession(work string) (any, error) {
	gh := os.Getenv(envGh)
	if gh == "" {
		return nil, errors.New(envGh + " must name gh's binary")
	}
	var recs []record
	ids := &idResolver{}
	for _, c := range ghSession() {
		recs = append(recs, runGh(gh, work, c.name, ids.resolve(c)))
		if c.effect != nil {
			recs = append(recs, runGh(gh, work, effectName(c.name), ids.resolve(*c.effect)))
		}
	}
	return recs, nil
}

// idPattern is an argument's reference to the database id of the REST
// object at a path (of the first one, when the path answers a list): the
// emulator hands ids out, so the session looks them up before the command.
// {lastid} is the id the latest reference resolved to, for the read that
// checks a command's effect on the same object.
var idPattern = regexp.MustCompile(`\{id:([^}]+)\}|\{lastid\}`)

type idResolver struct{ last string }

// resolve replaces the id references in c's arguments; one that cannot be
// resolved is left as it is, so the command fails and says so.
func (ids *idResolver) resolve(c ghCheck) ghCheck {
	args := slices.Clone(c.args)
	for i, a := range args {
		args[i] = idPattern.ReplaceAllStringFunc(a, func(ref string) string {
			if ref == "{lastid}" {
				return ids.last
			}
			id, err := lookupID(context.Background(), idPattern.FindStringSubmatch(ref)[1])
			if err != nil {
				return ref
			}
			ids.last = id
			return id
		})
	}
	c.args = args
	return c
}

// runGh runs one gh command as a user would, non-interactively: its own
// config directory and home, no pager, prompts, colours or update checks.
func runGh(gh, work, name string, c ghCheck) record {
	token := c.token
	if token == "" {
		token = "emu-alice"
	}
	home := filepath.Join(work, "home")
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gh, c.args...)
	cmd.Dir = work
	// github.localhost takes its token from GH_TOKEN (go-gh's auth:
	// GH_ENTERPRISE_TOKEN is read only for GitHub Enterprise hosts).
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"GH_CONFIG_DIR=" + filepath.Join(work, "gh-config"),
		"GH_HOST=github.localhost",
		"GH_TOKEN=" + token,
		"GH_PROMPT_DISABLED=1",
		"GH_NO_UPDATE_NOTIFIER=1",
		"GH_NO_EXTENSION_UPDATE_NOTIFIER=1",
		"GH_SPINNER_DISABLED=1",
		"GH_PAGER=cat",
		"NO_COLOR=1",
		"TZ=UTC",
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := record{Name: name, Args: c.args, Stdout: stdout.String(), Stderr: stderr.String(), Millis: time.Since(start).Milliseconds()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		r.Code, r.Stderr = -1, fmt.Sprintf("timed out after %s\n%s", commandTimeout, r.Stderr)
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
	default:
		r.Code, r.Stderr = -1, err.Error()
	}
	return r
}

// judgeGhChecks runs a gh session (kind, in insideSessions) in its
// namespaces and judges each command and its effect against its
// expected-failures list; every gh session is judged by it.
func judgeGhChecks(t *testing.T, kind, list string, session []ghCheck) (passed, listed, commands int) {
	t.Helper()
	known := map[string]bool{}
	for _, c := range session {
		known[c.name] = true
	}
	expected := readExpected(t, list, known)

	gh := peerBinary(t, "gh", "github.com/cli/cli/v2/cmd/gh")
	var recs []record
	emuLog := runInNamespaces(t, kind, &recs, envGh+"="+gh)
	records := map[string]record{}
	for _, r := range recs {
		records[r.Name] = r
	}
	var outcomes []outcome
	for _, c := range session {
		r, ok := records[c.name]
		if !ok {
			t.Errorf("%s: the session wrote no record for it", c.name)
			continue
		}
		reason := verdict(c, r)
		if reason == "" && c.effect != nil {
			if e, ok := records[effectName(c.name)]; !ok {
				reason = "no record of the effect read"
			} else if why := verdict(*c.effect, e); why != "" {
				reason = fmt.Sprintf("effect (gh %s): %s", strings.Join(e.Args, " "), why)
			}
		}
		outcomes = append(outcomes, outcome{
			name:   c.name,
			what:   fmt.Sprintf("gh %s (%d ms)", clip(strings.Join(r.Args, " "), 200), r.Millis),
			reason: reason,
			detail: fmt.Sprintf("  exit %d\n  stdout: %s\n  stderr: %s", r.Code, clip(r.Stdout, 2000), clip(r.Stderr, 2000)),
		})
	}
	passed, listed = judge(t, list, expected, outcomes)
	if t.Failed() {
		t.Logf("emulator log, last lines:\n%s", tail(emuLog, 30))
	}
	return passed, listed, len(session)
}

// runGhChecks runs inside the namespaces: every command of a session, and
// the reads that show each write's effect.
func runGhChecks(work string, session []ghCheck) (any, error) {
	gh := os.Getenv(envGh)
	if gh == "" {
		return nil, errors.New(envGh + " must name gh's binary")
	}
	var recs []record
	for _, c := range session {
		recs = append(recs, runGh(gh, work, c.name, c))
		if c.effect != nil {
			recs = append(recs, runGh(gh, work, effectName(c.name), *c.effect))
		}
	}
	return recs, nil
}
