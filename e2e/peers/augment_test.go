package peers

import (
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

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// `ghgate broker` fronting GitHub's MCP server, with the augments of
// broker/augment on its pull_request_read (pull_request_ci) and issue_write
// (issue_write_labels_note), against the emulator, in the namespaces of
// the other sessions (session_test.go). The same server is also run
// directly, without the broker, so an answer through the broker is
// compared with the upstream's own, byte for byte. The upstream child's
// standard input is recorded (tee), so the test sees every message the
// broker sent it.

const (
	augmentToolsets = "pull_requests,issues"
	// The fleet's red pull request: its test job fails in "Run tests".
	redOwner, redRepo, redPull = "fleet", "svc-billing-00", 7
	// acme/widgets#146: build, lint and test pass, and ci/coverage.
	greenPull = 146
	// augmentLogLines is the log tail asked for at verbosity 3: the
	// failing test's line and what follows it, to the job's last line.
	augmentLogLines = 6
)

func init() { insideSessions["augment"] = runAugmentSession }

// augmentCall is one call, through the broker or directly.
type augmentCall struct {
	Name    string          `json:"name"`
	Args    map[string]any  `json:"args"`
	Result  json.RawMessage `json:"result"` // the whole CallToolResult as the client decoded it
	IsError bool            `json:"isError"`
	Texts   []string        `json:"texts"`
	Err     string          `json:"err,omitempty"`
}

// augmentRecords is the session's output.
type augmentRecords struct {
	// PullRequestRead and IssueWrite are the tools as the broker lists
	// them; DirectIssueWrite as the server does.
	PullRequestRead       *mcp.Tool      `json:"pullRequestRead"`
	IssueWrite            *mcp.Tool      `json:"issueWrite"`
	DirectPullRequestRead *mcp.Tool      `json:"directPullRequestRead"`
	DirectIssueWrite      *mcp.Tool      `json:"directIssueWrite"`
	Broker                []augmentCall  `json:"broker"`
	Direct                []augmentCall  `json:"direct"`
	UpstreamInput         string         `json:"upstreamInput"` // what the broker sent its child
	Audit                 []augmentAudit `json:"audit"`
	BrokerLog             string         `json:"brokerLog"`
}

// augmentAudit is the part of a broker audit line the test reads.
type augmentAudit struct {
	Tool     string `json:"tool"`
	Upstream int    `json:"upstream"`
	Outcome  string `json:"outcome"`
}

func prArgs(owner, repo string, pull int, method string, kv ...any) map[string]any {
	return repoArgs(owner, repo, append([]any{"method", method, "pullNumber", pull}, kv...)...)
}

// augmentBrokerCalls are the calls through the broker, by name; the
// direct calls are the same without the broker's arguments.
func augmentBrokerCalls() []struct {
	name string
	args map[string]any
} {
	red := func(kv ...any) map[string]any { return prArgs(redOwner, redRepo, redPull, "get", kv...) }
	return []struct {
		name string
		args map[string]any
	}{
		{"get-plain", prArgs("acme", "widgets", greenPull, "get")},
		{"get_diff-plain", prArgs("acme", "widgets", greenPull, "get_diff")},
		{"get-green-v0", prArgs("acme", "widgets", greenPull, "get", "ciVerbosity", 0)},
		{"get-red-v0", red("ciVerbosity", 0)},
		{"get-red-v1", red("ciVerbosity", 1)},
		{"get-red-v2", red("ciVerbosity", 2)},
		{"get-red-v3", red("ciVerbosity", 3, "logLines", augmentLogLines)},
		{"get_diff-ci", prArgs("acme", "widgets", greenPull, "get_diff", "ciVerbosity", 1)},
	}
}

// runAugmentSession runs inside the namespaces.
func runAugmentSession(work string) (any, error) {
	server := os.Getenv(envMCPServer)
	ghgate := os.Getenv(envGhgate)
	if server == "" || ghgate == "" {
		return nil, errors.New(envMCPServer + " and " + envGhgate + " must name the binaries")
	}
	var out augmentRecords
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()

	direct, err := startDirectServer(ctx, work, server)
	if err != nil {
		return nil, err
	}
	defer direct.Close()
	brokered, stop, err := startAugmentBroker(ctx, work, ghgate, server)
	if err != nil {
		return nil, err
	}
	defer stop()

	for tool, err := range brokered.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list through the broker: %w", err)
		}
		switch tool.Name {
		case "pull_request_read":
			out.PullRequestRead = tool
		case "issue_write":
			out.IssueWrite = tool
		}
	}
	for tool, err := range direct.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list of the server: %w", err)
		}
		switch tool.Name {
		case "pull_request_read":
			out.DirectPullRequestRead = tool
		case "issue_write":
			out.DirectIssueWrite = tool
		}
	}
	for _, c := range augmentBrokerCalls() {
		out.Broker = append(out.Broker, augmentCallOf(ctx, brokered, c.name, c.args))
		plain := map[string]any{}
		for k, v := range c.args {
			if k != "ciVerbosity" && k != "logLines" {
				plain[k] = v
			}
		}
		out.Direct = append(out.Direct, augmentCallOf(ctx, direct, c.name, plain))
	}
	stop()
	in, _ := os.ReadFile(filepath.Join(work, "upstream-input.jsonl"))
	out.UpstreamInput = string(in)
	audit, _ := os.ReadFile(filepath.Join(work, "audit.jsonl"))
	for _, line := range lines(string(audit)) {
		var a augmentAudit
		if json.Unmarshal([]byte(line), &a) == nil {
			out.Audit = append(out.Audit, a)
		}
	}
	log, _ := os.ReadFile(filepath.Join(work, "broker.log"))
	out.BrokerLog = tail(string(log), 100)
	return out, nil
}

// upstreamArgs are GitHub's MCP server's arguments, the same through the
// broker and directly.
func upstreamArgs(work string) []string {
	return []string{"stdio", "--toolsets", augmentToolsets, "--read-only=false", "--gh-host", "http://127.0.0.1",
		"--log-file", filepath.Join(work, "server.log")}
}

func startDirectServer(ctx context.Context, work, server string) (*mcp.ClientSession, error) {
	cmd := exec.Command(server, upstreamArgs(work)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "GITHUB_PERSONAL_ACCESS_TOKEN=" + mcpToken}
	startCtx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ghgate-peers", Version: "1"}, nil).Connect(startCtx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", server, err)
	}
	return cs, nil
}

// startAugmentBroker writes the broker's files, starts `ghgate broker`
// and connects to it through `ghgate connect`. stop ends both, once.
func startAugmentBroker(ctx context.Context, work, ghgate, server string) (*mcp.ClientSession, func(), error) {
	secrets := filepath.Join(work, "secrets.toml")
	if err := os.WriteFile(secrets, []byte(fmt.Sprintf("alice = %q\n", mcpToken)), 0o600); err != nil {
		return nil, nil, err
	}
	// The child is a shell that records its standard input, then runs
	// the server on the rest of the pipe.
	script := `tee -a "$0" | exec "$@"`
	command := append([]string{"/bin/sh", "-c", script, filepath.Join(work, "upstream-input.jsonl"), server}, upstreamArgs(work)...)
	quoted, _ := json.Marshal(command) // a JSON array of strings is a TOML array
	socket := filepath.Join(work, "b.sock")
	cfg := fmt.Sprintf(`
[listen]
socket = %q

[github]
url = "http://127.0.0.1"

[secrets]
file = %q

[[route]]
owner = "*"
read = "alice"
write = "alice"

[tools]
toolsets = ["issues"]
# The allow list covers the upstreams' tools too.
allow = ["github_get_issue", "pull_request_read", "issue_write"]

[audit]
file = %q

[[upstream]]
name = "github"
command = %s
token_env = "GITHUB_PERSONAL_ACCESS_TOKEN"
owner = "acme"
allow = [
  { tool = "pull_request_read", mode = "read", augment = ["pull_request_ci"] },
  { tool = "issue_write", mode = "write", augment = ["issue_write_labels_note"] },
]
`, socket, secrets, filepath.Join(work, "audit.jsonl"), quoted)
	cfgPath := filepath.Join(work, "broker.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		return nil, nil, err
	}
	logFile, err := os.Create(filepath.Join(work, "broker.log"))
	if err != nil {
		return nil, nil, err
	}
	b := exec.Command(ghgate, "broker", "--config", cfgPath)
	b.Stdout, b.Stderr = logFile, logFile
	if err := b.Start(); err != nil {
		logFile.Close()
		return nil, nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- b.Wait() }()
	var cs *mcp.ClientSession
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		if cs != nil {
			_ = cs.Close()
		}
		_ = b.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = b.Process.Kill()
			<-exited
		}
		logFile.Close()
	}
	if err := waitForSocket(socket, exited); err != nil {
		stop()
		log, _ := os.ReadFile(logFile.Name())
		return nil, nil, fmt.Errorf("%w; broker log:\n%s", err, tail(string(log), 30))
	}
	connect := exec.Command(ghgate, "connect", "--socket", socket)
	startCtx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "ghgate-peers", Version: "1"}, nil).Connect(startCtx, &mcp.CommandTransport{Command: connect}, nil)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("ghgate connect: %w", err)
	}
	return cs, stop, nil
}

func waitForSocket(path string, exited <-chan error) error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("the broker exited before listening: %v", err)
		default:
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the broker did not listen on %s within %s", path, startTimeout)
}

func augmentCallOf(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) augmentCall {
	r := augmentCall{Name: name, Args: args}
	callCtx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "pull_request_read", Arguments: args})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Result, _ = json.Marshal(res)
	r.IsError = res.IsError
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			r.Texts = append(r.Texts, t.Text)
		}
	}
	return r
}

// ciOf splits a broker answer into its ci field and the rest as the
// upstream would have sent it: the text with ,"ci":... taken off its end.
func ciOf(text string) (ci json.RawMessage, rest string, err error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, "", err
	}
	ci, ok := m["ci"]
	if !ok {
		return nil, "", errors.New("no ci field")
	}
	suffix := `,"ci":` + string(ci) + "}"
	if !strings.HasSuffix(text, suffix) {
		return nil, "", errors.New("ci is not the last member")
	}
	return ci, strings.TrimSuffix(text, suffix) + "}", nil
}

// ciWant is what one tier's ci must say.
type ciWant struct {
	status   string
	calls    int  // api_calls
	failing  bool // a failing test job is listed
	step     bool // with its failed step
	log      bool // with its log tail
	audited  int  // the audit line's upstream count: the forward and the CI reads
	truncate bool
}

type ciFailing struct {
	Workflow   string `json:"workflow"`
	Job        string `json:"job"`
	Conclusion string `json:"conclusion"`
	RunID      int64  `json:"run_id"`
	JobID      int64  `json:"job_id"`
	Step       *struct {
		Name string `json:"name"`
	} `json:"step"`
	Log string `json:"log"`
}

type ciField struct {
	Status    string      `json:"status"`
	HeadSHA   string      `json:"head_sha"`
	Failing   []ciFailing `json:"failing"`
	APICalls  int         `json:"api_calls"`
	Truncated bool        `json:"truncated"`
}

func TestAugmentedPullRequestRead(t *testing.T) {
	needNamespaces(t, "GitHub's MCP server")
	server := peerBinary(t, "github-mcp-server", "github.com/github/github-mcp-server/cmd/github-mcp-server")
	var recs augmentRecords
	emuLog := runInNamespaces(t, "augment", &recs, envMCPServer+"="+server)
	defer func() {
		if t.Failed() {
			t.Logf("emulator log, last lines:\n%s", tail(emuLog, 30))
			t.Logf("broker log, last lines:\n%s", recs.BrokerLog)
		}
	}()

	// tools/list: the broker's arguments are in pull_request_read's
	// schema, the note in issue_write's description.
	for what, tool := range map[string]*mcp.Tool{
		"pull_request_read through the broker": recs.PullRequestRead,
		"issue_write through the broker":       recs.IssueWrite,
		"pull_request_read directly":           recs.DirectPullRequestRead,
		"issue_write directly":                 recs.DirectIssueWrite,
	} {
		if tool == nil {
			t.Errorf("tools/list lacks %s, want it listed", what)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	size := func(tool *mcp.Tool) int { b, _ := json.Marshal(tool); return len(b) }
	t.Logf("tools/list bytes: pull_request_read %d directly, %d through the broker; issue_write %d directly, %d through the broker",
		size(recs.DirectPullRequestRead), size(recs.PullRequestRead), size(recs.DirectIssueWrite), size(recs.IssueWrite))
	schema, _ := json.Marshal(recs.PullRequestRead.InputSchema)
	for _, arg := range []string{`"ciVerbosity":{`, `"logLines":{`} {
		if !strings.Contains(string(schema), arg) {
			t.Errorf("pull_request_read's input schema through the broker lacks %s: %s", arg, clip(string(schema), 400))
		}
	}
	const note = "Caution: labels replaces the issue's whole label set; include every label to keep."
	if want := strings.TrimRight(recs.DirectIssueWrite.Description, "\n") + "\n\n" + note; recs.IssueWrite.Description != want {
		t.Errorf("issue_write's description through the broker = %q, want the server's and the note: %q", recs.IssueWrite.Description, want)
	}

	calls := map[string]augmentCall{}
	for _, c := range recs.Broker {
		calls[c.Name] = c
	}
	direct := map[string]augmentCall{}
	for _, c := range recs.Direct {
		direct[c.Name] = c
		if c.Err != "" {
			t.Errorf("%s directly: %s, want an answer", c.Name, c.Err)
		} else if c.IsError {
			t.Errorf("%s directly: isError, want success: %q", c.Name, c.Texts)
		}
	}

	// Without ciVerbosity, through the broker is the server's answer, byte
	// for byte; get_diff too.
	for _, name := range []string{"get-plain", "get_diff-plain"} {
		if got, want := string(calls[name].Result), string(direct[name].Result); got != want {
			t.Errorf("%s through the broker:\n%s\nwant the server's own:\n%s", name, clip(got, 600), clip(want, 600))
		}
	}

	// get_diff with ciVerbosity: refused, naming the argument.
	var refused struct {
		StructuredContent struct {
			Code    string `json:"code"`
			Details struct {
				Field string `json:"field"`
			} `json:"details"`
		} `json:"structuredContent"`
	}
	c := calls["get_diff-ci"]
	_ = json.Unmarshal(c.Result, &refused)
	env := refused.StructuredContent
	if !c.IsError {
		t.Errorf("get_diff with ciVerbosity: isError = false, want a refusal: %s", clip(string(c.Result), 400))
	}
	if env.Code != "invalid_field" {
		t.Errorf("get_diff with ciVerbosity: code = %q, want invalid_field", env.Code)
	}
	if env.Details.Field != "ciVerbosity" {
		t.Errorf("get_diff with ciVerbosity: details.field = %q, want ciVerbosity", env.Details.Field)
	}

	wants := map[string]ciWant{
		"get-green-v0": {status: "passed", calls: 2, audited: 3},
		"get-red-v0":   {status: "failed", calls: 2, audited: 3},
		"get-red-v1":   {status: "failed", calls: 2, failing: true, audited: 3},
		"get-red-v2":   {status: "failed", calls: 3, failing: true, step: true, audited: 4},
		// The audit line counts HTTP requests: the log's download from
		// the storage GitHub redirects to is one, though not a GitHub call.
		"get-red-v3": {status: "failed", calls: 4, failing: true, step: true, log: true, audited: 6},
	}
	for _, name := range []string{"get-green-v0", "get-red-v0", "get-red-v1", "get-red-v2", "get-red-v3"} {
		checkCI(t, name, calls[name], direct[name], wants[name])
	}

	// The broker's arguments never reached the upstream, and every call
	// that was forwarded did.
	for _, arg := range []string{"ciVerbosity", "logLines"} {
		if strings.Contains(recs.UpstreamInput, arg) {
			t.Errorf("the upstream received the broker's argument %s, want it kept back:\n%s", arg, clip(recs.UpstreamInput, 2000))
		}
	}
	if n := strings.Count(recs.UpstreamInput, `"name":"pull_request_read"`); n != len(augmentBrokerCalls())-1 {
		t.Errorf("the upstream received %d pull_request_read calls, want %d (all but the refused one)", n, len(augmentBrokerCalls())-1)
	}

	// Each call's audit line counts the forward and the CI reads.
	var audited []augmentAudit
	for _, a := range recs.Audit {
		if a.Tool == "pull_request_read" {
			audited = append(audited, a)
		}
	}
	if len(audited) != len(recs.Broker) {
		t.Fatalf("%d audit lines for pull_request_read, want %d", len(audited), len(recs.Broker))
	}
	for i, c := range augmentBrokerCalls() {
		want := 1
		if w, ok := wants[c.name]; ok {
			want = w.audited
		}
		if c.name == "get_diff-ci" {
			want = 0
		}
		if audited[i].Upstream != want {
			t.Errorf("%s: the audit line counts %d requests, want %d", c.name, audited[i].Upstream, want)
		}
	}
}

// checkCI checks one answer with ci: the rest is the server's answer, the
// ci says what the tier tells.
func checkCI(t *testing.T, name string, got, direct augmentCall, want ciWant) {
	t.Helper()
	if got.Err != "" {
		t.Errorf("%s: %s, want an answer", name, got.Err)
		return
	}
	if got.IsError {
		t.Errorf("%s: isError, want success: %q", name, got.Texts)
		return
	}
	if len(got.Texts) != 1 {
		t.Errorf("%s: %d texts (%q), want one", name, len(got.Texts), got.Texts)
		return
	}
	raw, rest, err := ciOf(got.Texts[0])
	if err != nil {
		t.Errorf("%s: %v: %s", name, err, clip(got.Texts[0], 400))
		return
	}
	if len(direct.Texts) != 1 {
		t.Errorf("%s: the server's own answer has %d texts, want one to compare with", name, len(direct.Texts))
	} else if rest != direct.Texts[0] {
		t.Errorf("%s: the answer without ci differs from the server's:\n%s\nwant:\n%s", name, clip(rest, 400), clip(direct.Texts[0], 400))
	}
	t.Logf("%s: ci %s", name, raw)
	var ci ciField
	if err := json.Unmarshal(raw, &ci); err != nil {
		t.Errorf("%s: ci %s: %v", name, raw, err)
		return
	}
	var pr struct {
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	}
	_ = json.Unmarshal([]byte(rest), &pr)
	if ci.Status != want.status {
		t.Errorf("%s: ci status = %q, want %q", name, ci.Status, want.status)
	}
	if ci.APICalls != want.calls {
		t.Errorf("%s: ci api_calls = %d, want %d", name, ci.APICalls, want.calls)
	}
	if ci.HeadSHA != pr.Head.SHA {
		t.Errorf("%s: ci head_sha = %q, want the pull request's %q", name, ci.HeadSHA, pr.Head.SHA)
	}
	if ci.Truncated != want.truncate {
		t.Errorf("%s: ci truncated = %v, want %v", name, ci.Truncated, want.truncate)
	}
	if !want.failing {
		if len(ci.Failing) != 0 {
			t.Errorf("%s: ci lists failing checks %s, want none at this tier", name, raw)
		}
		return
	}
	if len(ci.Failing) != 1 {
		t.Errorf("%s: ci lists %d failing checks, want the test job: %s", name, len(ci.Failing), raw)
		return
	}
	f := ci.Failing[0]
	// The test job's failure, with its run and job ids.
	if f.Job != "test" {
		t.Errorf("%s: failing job = %q, want test", name, f.Job)
	}
	if f.Conclusion != "failure" {
		t.Errorf("%s: failing conclusion = %q, want failure", name, f.Conclusion)
	}
	if f.RunID == 0 {
		t.Errorf("%s: failing run id = 0, want the run's", name)
	}
	if f.JobID == 0 {
		t.Errorf("%s: failing job id = 0, want the job's", name)
	}
	// At the step tiers, the failed step Run tests of workflow CI, read
	// from the job; none below.
	switch {
	case want.step && f.Step == nil:
		t.Errorf("%s: no failed step, want Run tests of CI (read from the job)", name)
	case want.step:
		if f.Step.Name != "Run tests" {
			t.Errorf("%s: failed step = %q, want Run tests", name, f.Step.Name)
		}
		if f.Workflow != "CI" {
			t.Errorf("%s: workflow = %q, want CI", name, f.Workflow)
		}
	case f.Step != nil:
		t.Errorf("%s: failed step %+v, want none at this tier", name, f.Step)
	}
	logLines := lines(f.Log)
	switch {
	case want.log && (len(logLines) != augmentLogLines || !strings.HasPrefix(logLines[0], "--- FAIL: TestShutdownDrainsQueue") ||
		!strings.Contains(logLines[len(logLines)-1], "Process completed with exit code 1.")):
		t.Errorf("%s: log %q, want its last %d lines, from the failing test to the exit code", name, f.Log, augmentLogLines)
	case !want.log && f.Log != "":
		t.Errorf("%s: log %q, want none at this tier", name, f.Log)
	}
}
