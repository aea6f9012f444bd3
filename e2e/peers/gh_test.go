package peers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
	expectedList = "gh-expected-failures.txt"
	// Set only in the copy of the test binary that runs inside the
	// namespaces; it names the file the records are written to.
	envInside = "GHGATE_PEERS_GH_SESSION"
	envGh     = "GHGATE_PEERS_GH"
	envGhgate = "GHGATE_PEERS_GHGATE"
	// Bounds: one gh command, the emulator's start, the whole session. The
	// box is small and may be busy, so they are generous; a hang still ends.
	commandTimeout = 60 * time.Second
	startTimeout   = 30 * time.Second
	sessionTimeout = 15 * time.Minute
)

func TestMain(m *testing.M) {
	if out := os.Getenv(envInside); out != "" {
		if err := runSession(out); err != nil {
			fmt.Fprintln(os.Stderr, "gh session:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

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
func ghSession() []ghCheck {
	const repo = "acme/widgets"
	api := func(path, jq string, want ...string) *ghCheck {
		return &ghCheck{args: []string{"api", path, "--jq", jq}, exactLines: want}
	}
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

		{name: "search-issues", args: []string{"search", "issues", "time zone", "--repo", repo, "--state", "closed"}, stdout: []string{"Chart widget ignores the dashboard time zone after resizing the panel"}},
		{name: "search-prs", args: []string{"search", "prs", "--repo", repo, "--state", "open"}, stdout: []string{"Bump github.com/jackc/pgx/v5 from 5.7.1 to 5.7.2"}, lines: 4},
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

		// A token GitHub does not know: 401 Bad credentials, on REST and
		// GraphQL alike.
		{name: "bad-token-api", token: "emu-invalid", args: []string{"api", "user"}, code: 1, stderr: []string{"Bad credentials", "HTTP 401"}},
		{name: "bad-token-issue-list", token: "emu-invalid", args: []string{"issue", "list", "-R", repo}, code: 1, stderr: []string{"HTTP 401", "Bad credentials"}},
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
	if os.Geteuid() != 0 {
		t.Skip("needs root: gh reaches a local API only as http://api.github.localhost/ on port 80, so the session runs in private network and mount namespaces (unshare --net --mount), which only root can create")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing (Debian: unshare is in util-linux, ip in iproute2): %v", tool, err)
		}
	}
	expected := readExpected(t)
	session := ghSession()
	known := map[string]bool{}
	for _, c := range session {
		known[c.name] = true
	}
	for name := range expected {
		if !known[name] {
			t.Errorf("%s: %s lists it, but the session has no such command: remove it", name, expectedList)
		}
	}

	gh := peerBinary(t, "gh", "github.com/cli/cli/v2/cmd/gh")
	ghgate := ghgateBinary(t)
	records, emuLog := runInNamespaces(t, gh, ghgate)

	passed, listed := 0, 0
	var suggest []string
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
		_, isListed := expected[c.name]
		switch {
		case reason == "" && isListed:
			t.Errorf("%s: behaves as on GitHub now (gh %s): remove it from %s", c.name, strings.Join(r.Args, " "), expectedList)
		case reason == "":
			passed++
			t.Logf("ok      %-22s gh %s (%d ms)", c.name, strings.Join(r.Args, " "), r.Millis)
		case isListed:
			listed++
			t.Logf("listed  %-22s gh %s: %s", c.name, strings.Join(r.Args, " "), reason)
		default:
			t.Errorf("%s: unexpected failure: %s\n  gh %s\n  exit %d\n  stdout: %s\n  stderr: %s",
				c.name, reason, strings.Join(r.Args, " "), r.Code, clip(r.Stdout, 2000), clip(r.Stderr, 2000))
			suggest = append(suggest, c.name+" "+clip(reason, 200))
		}
	}
	if len(suggest) > 0 {
		t.Logf("lines for %s, if these failures are the emulator's and expected:\n%s", expectedList, strings.Join(suggest, "\n"))
	}
	if t.Failed() {
		t.Logf("emulator log, last lines:\n%s", tail(emuLog, 30))
	}
	t.Logf("gh session: %d commands: %d behave as on GitHub, %d fail as listed in %s", len(session), passed, listed, expectedList)
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

// readExpected reads gh-expected-failures.txt: "<name> <reason>" a line.
func readExpected(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(expectedList)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s:%d: want \"<name> <reason>\"", expectedList, i+1)
		}
		if _, dup := out[name]; dup {
			t.Fatalf("%s:%d: %s is listed twice", expectedList, i+1, name)
		}
		out[name] = reason
	}
	return out
}

// peerBinary returns bin/<name>, built by `make peers`; when it is missing
// the test builds it (several minutes on a small machine, once).
func peerBinary(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	t.Logf("%s is missing: building %s (make peers does this ahead)", path, pkg)
	goBuild(t, ".", path, pkg)
	return path
}

// ghgateBinary returns $GHGATE_BIN when set (the Makefile's build), or
// builds ghgate from the repository this module sits in.
func ghgateBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("GHGATE_BIN"); p != "" {
		return p
	}
	path := filepath.Join(t.TempDir(), "ghgate")
	goBuild(t, filepath.Join("..", ".."), path, "./cmd/ghgate")
	return path
}

func goBuild(t *testing.T, dir, out, pkg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s (in %s): %v\n%s", pkg, dir, err, b)
	}
}

// runInNamespaces runs this test binary again inside new network, mount and
// PID namespaces, where TestMain hands it to runSession: gh's arguments stay
// Go slices (no shell quoting) and each command gets its own deadline and
// its own record. The PID namespace
// makes the copy its init: when it ends, for whatever reason, the kernel
// ends the emulator and any gh still running; --kill-child ends the copy
// when unshare itself is killed by the session's deadline.
func runInNamespaces(t *testing.T, gh, ghgate string) (map[string]record, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "records.json")
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--mount", "--pid", "--fork", "--kill-child", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), envInside+"="+results, envGh+"="+gh, envGhgate+"="+ghgate)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	emuLog, _ := os.ReadFile(results + ".emulator.log")
	if err != nil {
		t.Fatalf("the session in its namespaces failed: %v\n%s\nemulator log, last lines:\n%s", err, out, tail(string(emuLog), 30))
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatalf("the session wrote no records: %v\n%s", err, out)
	}
	var recs []record
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	byName := map[string]record{}
	for _, r := range recs {
		byName[r.Name] = r
	}
	return byName, string(emuLog)
}

// runSession runs inside the namespaces: it sets up loopback and the hosts
// file, starts the emulator on port 80 and runs every command of the
// session, writing what each did to out.
func runSession(out string) error {
	gh, ghgate := os.Getenv(envGh), os.Getenv(envGhgate)
	if gh == "" || ghgate == "" {
		return errors.New(envGh + " and " + envGhgate + " must name the binaries")
	}
	work, err := os.MkdirTemp("", "ghgate-gh-session-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	if b, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, b)
	}
	// The mount namespace is private (unshare's default propagation), so
	// this hosts file is seen only by the session.
	hosts := filepath.Join(work, "hosts")
	if err := os.WriteFile(hosts, []byte("127.0.0.1 localhost github.localhost api.github.localhost\n::1 localhost\n"), 0o644); err != nil {
		return err
	}
	if err := syscall.Mount(hosts, "/etc/hosts", "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind-mount %s on /etc/hosts: %w", hosts, err)
	}

	logFile, err := os.Create(out + ".emulator.log")
	if err != nil {
		return err
	}
	defer logFile.Close()
	emu := exec.Command(ghgate, "emulator", "--listen", "127.0.0.1:80")
	emu.Stdout, emu.Stderr = logFile, logFile
	if err := emu.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- emu.Wait() }()
	defer func() {
		_ = emu.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = emu.Process.Kill()
		}
	}()
	if err := waitForPort("127.0.0.1:80", exited); err != nil {
		return err
	}

	var recs []record
	for _, c := range ghSession() {
		recs = append(recs, runGh(gh, work, c.name, c))
		if c.effect != nil {
			recs = append(recs, runGh(gh, work, effectName(c.name), *c.effect))
		}
	}
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

func waitForPort(addr string, exited <-chan error) error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("the emulator exited before listening: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the emulator did not listen on %s within %s", addr, startTimeout)
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

func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func tail(s string, n int) string {
	ls := lines(s)
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
