package broker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lenientUpstream is an MCP server that reads its arguments as GitHub's
// MCP server does: into a map, the key "owner" exactly, unknown keys
// ignored. It records the bearer token and the owner each call read.
type lenientUpstream struct {
	URL   string
	mu    sync.Mutex
	calls []upstreamCall
}

type upstreamCall struct {
	Tool, Token, Owner string
	Args               map[string]any
}

func (u *lenientUpstream) seen() []upstreamCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]upstreamCall(nil), u.calls...)
}

func startLenientUpstream(t testing.TB) *lenientUpstream {
	t.Helper()
	u := &lenientUpstream{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "lenient", Version: "0"}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"owner": map[string]any{"type": "string"}, "repo": map[string]any{"type": "string"},
		"title": map[string]any{"type": "string"}, "query": map[string]any{"type": "string"}}}
	// deep_read and deep_write take arguments of any shape that name
	// owners and repositories the ways GitHub's MCP server's tools do.
	deep := map[string]any{"type": "object", "properties": map[string]any{}}
	for _, k := range deepArgs {
		deep["properties"].(map[string]any)[k] = map[string]any{}
	}
	for _, name := range []string{"issue_write", "issue_read", "list_things", "deep_read", "deep_write"} {
		schema := schema
		if strings.HasPrefix(name, "deep_") {
			schema = deep
		}
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args map[string]any
			_ = json.Unmarshal(req.Params.Arguments, &args)
			owner, _ := args["owner"].(string)
			tok := ""
			if req.Extra != nil && req.Extra.Header != nil {
				tok = strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")
			}
			u.mu.Lock()
			u.calls = append(u.calls, upstreamCall{Tool: name, Token: tok, Owner: owner, Args: args})
			u.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "acted on " + owner}}}, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	u.URL = hs.URL
	return u
}

// deepArgs are the top-level arguments deep_read and deep_write declare.
var deepArgs = []string{"owner", "repo", "org", "organization", "user", "username", "repository", "repositories",
	"full_name", "filter", "target", "account", "title", "items", "name"}

// boundary is a broker with route acme (read and write) and route alice
// (read only), no "*" route, fronting a lenient upstream.
type boundary struct {
	up     *lenientUpstream
	broker *broker.Broker
	cs     *mcp.ClientSession
	audit  string
	// tokens maps each secret's value to its name.
	tokens map[string]string
}

func startBoundary(t testing.TB, toolsSection string) *boundary {
	t.Helper()
	up := startLenientUpstream(t)
	dir := t.TempDir()
	secrets := map[string]string{"acme-read": "tokacmeread0001", "acme-write": "tokacmewrite0002", "alice-read": "tokaliceread0003"}
	var body strings.Builder
	tokens := map[string]string{}
	for name, v := range secrets {
		fmt.Fprintf(&body, "%s = %q\n", name, v)
		tokens[v] = name
	}
	secretsPath := filepath.Join(dir, "secrets.toml")
	if err := os.WriteFile(secretsPath, []byte(body.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(dir, "audit.jsonl")
	cfg := fmt.Sprintf(`
[listen]
socket = %q

[github]
url = "http://127.0.0.1:9"

[secrets]
file = %q

[[route]]
owner = "acme"
read = "acme-read"
write = "acme-write"

[[route]]
owner = "alice"
read = "alice-read"

%s

[audit]
file = %q

[[upstream]]
name = "lenient"
url = %q
owner = "acme"
allow = [{ tool = "issue_write", mode = "write" }, { tool = "issue_read", mode = "read" }, { tool = "list_things" },
  { tool = "deep_read", mode = "read", owner_args = ["account", "target.login"] },
  { tool = "deep_write", mode = "write", owner_args = ["account", "target.login"] }]
`, filepath.Join(dir, "b.sock"), secretsPath, toolsSection, audit, up.URL+"/mcp")
	cfgPath := filepath.Join(dir, "broker.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := broker.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := broker.New(c, broker.Options{})
	if err != nil {
		t.Fatalf("broker.New: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	ct, st := mcp.NewInMemoryTransports()
	ss, err := b.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return &boundary{up: up, broker: b, cs: cs, audit: audit, tokens: tokens}
}

// callRaw sends a tools/call whose arguments are the exact bytes given,
// so duplicate keys reach the broker as an agent can send them.
func (bd *boundary) callRaw(t *testing.T, tool, args string) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return bd.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
}

func envelopeCode(res *mcp.CallToolResult) string {
	var env struct {
		Code string `json:"code"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &env)
	return env.Code
}

// An agent cannot make the broker route by one owner while the upstream
// acts on another: every way of naming "owner" twice, or not as a string,
// is refused before a credential is chosen, and what is forwarded is
// what was checked.
func TestUpstreamOwnerIsReadOnce(t *testing.T) {
	t.Parallel()
	bd := startBoundary(t, `[tools]
toolsets = ["issues"]`)
	refused := []struct{ name, args string }{
		{"second key in another case", `{"owner":"alice","repo":"notes","title":"x","Owner":"acme"}`},
		{"upper case key", `{"owner":"alice","repo":"notes","title":"x","OWNER":"acme"}`},
		{"exact duplicate", `{"owner":"alice","repo":"notes","title":"x","owner":"acme"}`},
		{"folded key not a string", `{"owner":"alice","repo":"notes","title":"x","Owner":1}`},
		{"owner not a string", `{"owner":1,"repo":"notes","title":"x"}`},
		{"owner null", `{"owner":null,"repo":"notes","title":"x"}`},
		{"unrouted owner plus a folded key", `{"owner":"mallory","repo":"notes","title":"x","Owner":"acme"}`},
		{"only a folded key", `{"Owner":"acme","repo":"notes","title":"x"}`},
		{"undeclared key", `{"owner":"acme","repo":"widgets","title":"x","labels":["a"]}`},
		{"path in repo", `{"owner":"acme","repo":"x/%2e%2e/%2e%2e/alice/notes","title":"x"}`},
		{"path in owner", `{"owner":"acme/../alice","repo":"notes","title":"x"}`},
		{"not an object", `["owner","acme"]`},
		{"query reaching another owner", `{"owner":"acme","query":"is:open user:alice"}`},
		{"query reaching another repo", `{"owner":"acme","repo":"widgets","query":"repo:acme/gadgets"}`},
		{"query naming two owners", `{"query":"repo:acme/widgets repo:alice/notes"}`},
		{"query naming an owner and @me", `{"query":"repo:acme/widgets user:@me"}`},
	}
	for _, c := range refused {
		tool := "issue_write"
		if strings.Contains(c.args, "query") {
			tool = "issue_read"
		}
		res, err := bd.callRaw(t, tool, c.args)
		if err != nil {
			t.Fatalf("%s: protocol error %v", c.name, err)
		}
		wantEnvelope(t, c.name+": "+c.args, res, "invalid_field")
	}
	if n := len(bd.up.seen()); n != 0 {
		t.Fatalf("refused calls reached the upstream %d times, want 0: %+v", n, bd.up.seen())
	}

	// Calls that name one owner once act on it with its own credential.
	ok := []struct {
		tool, args, owner, secret string
	}{
		{"issue_write", `{"owner":"acme","repo":"widgets","title":"x"}`, "acme", "acme-write"},
		{"issue_write", `{"owner":"ACME","repo":"widgets","title":"x"}`, "ACME", "acme-write"},
		{"issue_read", `{"owner":"alice","repo":"notes"}`, "alice", "alice-read"},
		{"issue_read", `{"repo":"widgets"}`, "", "acme-read"},
		{"list_things", `{}`, "", "acme-write"},
		{"issue_read", `{"query":"repo:alice/notes is:open"}`, "", "alice-read"},
	}
	for _, c := range ok {
		res, err := bd.callRaw(t, c.tool, c.args)
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		if res.IsError {
			t.Fatalf("%s %s: isError = true, want a result: %s", c.tool, c.args, brokertest.ResultText(res))
		}
	}
	seen := bd.up.seen()
	if len(seen) != len(ok) {
		t.Fatalf("the upstream saw %d calls, want %d", len(seen), len(ok))
	}
	for i, c := range ok {
		if seen[i].Owner != c.owner {
			t.Errorf("%s %s: the upstream read owner %q, want %q", c.tool, c.args, seen[i].Owner, c.owner)
		}
		if got := bd.tokens[seen[i].Token]; got != c.secret {
			t.Errorf("%s %s: the upstream got credential %q, want %q", c.tool, c.args, got, c.secret)
		}
	}

	// A write for the read-only route is refused before anything is sent.
	res, err := bd.callRaw(t, "issue_write", `{"owner":"alice","repo":"notes","title":"x"}`)
	if err != nil {
		t.Fatalf("a write for alice: %v", err)
	}
	if !wantEnvelope(t, "a write for alice", res, "insufficient_scope") {
		t.FailNow()
	}
	if n := len(bd.up.seen()); n != len(ok) {
		t.Fatalf("upstream calls = %d, want %d: the refused write reached the upstream", n, len(ok))
	}

	// The audit line names the owner that chose the credential: the one
	// given, or the upstream's configured owner when none was.
	lines := brokertest.AuditLines(t, bd.audit)
	var okLines []broker.AuditLine
	for _, l := range lines {
		if l.Outcome == "ok" {
			okLines = append(okLines, l)
		}
	}
	if want := len(refused) + len(ok) + 1; len(lines) != want {
		t.Fatalf("audit lines = %d, want %d", len(lines), want)
	}
	if len(okLines) != len(ok) {
		t.Fatalf("ok audit lines = %d, want %d", len(okLines), len(ok))
	}
	for i, c := range ok {
		wantOwner := c.owner
		switch {
		case strings.Contains(c.args, "alice/notes"):
			wantOwner = "alice" // routed by the one owner its query names
		case wantOwner == "":
			wantOwner = "acme"
		}
		wantAudit(t, fmt.Sprintf("ok audit line %d", i), okLines[i], map[string]any{"Owner": wantOwner, "Credential": c.secret})
	}
}

// read_only applies to an upstream's tools as to ghgate's own: its writes
// (and tools not declared reads) are neither listed nor callable.
func TestReadOnlyCoversUpstreamTools(t *testing.T) {
	t.Parallel()
	bd := startBoundary(t, `[tools]
toolsets = ["issues"]
read_only = true`)
	list, err := bd.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range list.Tools {
		listed[tl.Name] = true
	}
	if !listed["issue_read"] {
		t.Fatalf("read-only listing = %v, want issue_read in it", listed)
	}
	for _, write := range []string{"issue_write", "list_things", "github_create_issue"} {
		if listed[write] {
			t.Fatalf("read-only listing = %v, want no %s", listed, write)
		}
	}
	for _, tool := range []string{"issue_write", "list_things"} {
		res, err := bd.callRaw(t, tool, `{"owner":"acme","repo":"widgets","title":"x"}`)
		if err != nil {
			t.Errorf("%s under read_only: %v", tool, err)
			continue
		}
		wantEnvelope(t, tool+" under read_only", res, "read_only")
	}
	if n := len(bd.up.seen()); n != 0 {
		t.Fatalf("upstream calls under read_only = %d, want 0: %+v", n, bd.up.seen())
	}
	lines := brokertest.AuditLines(t, bd.audit)
	if len(lines) != 2 {
		t.Fatalf("audit lines = %d, want 2 for the refused writes: %+v", len(lines), lines)
	}
	for i, l := range lines {
		if l.Code != "read_only" {
			t.Fatalf("audit line %d code = %q, want read_only", i, l.Code)
		}
	}
}

// deny names upstream tools too; a call to one is refused and audited,
// as is a call to a tool nobody serves.
func TestDenyAndUnknownToolsAreAudited(t *testing.T) {
	t.Parallel()
	bd := startBoundary(t, `[tools]
toolsets = ["issues"]
deny = ["issue_read"]`)
	res, err := bd.callRaw(t, "issue_read", `{"owner":"acme"}`)
	if err != nil {
		t.Fatalf("a denied upstream tool: %v", err)
	}
	if !wantEnvelope(t, "a denied upstream tool", res, "tool_not_allowed") {
		t.FailNow()
	}
	if _, err := bd.callRaw(t, "no_such_tool", `{"owner":"acme"}`); err == nil {
		t.Fatal("a call to an unknown tool succeeded")
	}
	lines := brokertest.AuditLines(t, bd.audit)
	if len(lines) != 2 {
		t.Fatalf("audit lines = %d, want 2: %+v", len(lines), lines)
	}
	denied := wantAudit(t, "the denied call's line", lines[0], map[string]any{"Tool": "issue_read", "Code": "tool_not_allowed"})
	unknown := wantAudit(t, "the unknown tool's line", lines[1], map[string]any{"Tool": "no_such_tool", "Code": "unknown_tool"})
	if !denied || !unknown {
		t.FailNow()
	}
	if n := len(bd.up.seen()); n != 0 {
		t.Fatalf("the upstream was called: %+v", bd.up.seen())
	}
}

// Completions check the names they put in request paths, route like tool
// calls and are audited.
func TestCompletionsAreCheckedRoutedAndAudited(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	cs := d.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	complete := func(owner, repo string) (*mcp.CompleteResult, error) {
		return cs.Complete(ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}"},
			Argument: mcp.CompleteParamsArgument{Name: "labels", Value: ""},
			Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": owner, "repo": repo}},
		})
	}
	for _, c := range []struct{ owner, repo string }{
		{"acme", "x/%2e%2e/%2e%2e/alice/notes/contents?"},
		{"acme", "../../alice/notes"},
		{"acme/../alice", "notes"},
	} {
		res, err := complete(c.owner, c.repo)
		if err == nil {
			t.Errorf("completion with owner %q repo %q: %+v, want an error", c.owner, c.repo, res)
		} else if !strings.Contains(err.Error(), "invalid_field") {
			t.Errorf("completion with owner %q repo %q: %v, want invalid_field", c.owner, c.repo, err)
		}
	}
	// Completing the owner itself is not pinned to an owner in the context.
	owners, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/issues/{issue_number}"},
		Argument: mcp.CompleteParamsArgument{Name: "owner", Value: "a"},
		Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": "acme"}},
	})
	if err != nil {
		t.Fatalf("owner completion with an owner in the context: %v", err)
	}
	if !slices.Contains(owners.Completion.Values, "acme") {
		t.Fatalf("owner completion with an owner in the context = %q, want acme among them", owners.Completion.Values)
	}
	res, err := complete("acme", "widgets")
	if err != nil {
		t.Fatalf("acme/widgets labels: %v", err)
	}
	if len(res.Completion.Values) == 0 {
		t.Fatalf("acme/widgets labels: none, want some")
	}
	lines := brokertest.AuditLines(t, d.Audit)
	if len(lines) != 5 {
		t.Fatalf("audit lines = %d, want 5 (one per completion): %+v", len(lines), lines)
	}
	lines = append(lines[:3], lines[4])
	for _, l := range lines[:3] {
		wantAudit(t, "refused completion's line", l, map[string]any{"Tool": "completion/complete", "Outcome": "error", "Code": "invalid_field", "Credential": ""})
	}
	l := lines[3]
	wantAudit(t, "completion's line", l, map[string]any{"Tool": "completion/complete", "Outcome": "ok", "Owner": "acme", "Credential": brokertest.SecretAcmeRead})
	if l.Upstream == 0 {
		t.Errorf("completion's line: Upstream = 0, want at least 1 request")
	}
}

// Resource reads are audited once each: a template read as the tool call
// that answers it, with its route and credential, and any other read as
// resources/read.
func TestResourceReadsAreAudited(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	cs := d.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://capabilities"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/x%2F..%2F..%2Falice/issues/1"}); err == nil {
		t.Fatal("a read of a path-shaped repository succeeded")
	}
	lines := brokertest.AuditLines(t, d.Audit)
	if len(lines) != 3 {
		t.Fatalf("audit lines = %d, want 3 (one per read): %+v", len(lines), lines)
	}
	wantAudit(t, "the issue read's line", lines[0], map[string]any{"Tool": "github_get_issue", "Owner": "acme", "Credential": brokertest.SecretAcmeRead, "Outcome": "ok"})
	wantAudit(t, "the capabilities read's line", lines[1], map[string]any{"Tool": "resources/read", "Outcome": "ok"})
	wantAudit(t, "the refused read's line", lines[2], map[string]any{"Outcome": "error", "Credential": ""})
}

// A link or a duplicate naming another owner's issue would act there with
// the named owner's credential: the broker refuses it before a credential
// is chosen, and a same-owner one goes on to GitHub.
func TestOtherOwnersIssueIsNotReachedThroughALink(t *testing.T) {
	t.Parallel()
	bd := startBoundary(t, `[tools]
toolsets = ["issues"]`)
	for _, c := range []struct{ tool, args string }{
		{"github_link_issues", `{"owner":"acme","repo":"widgets","issue_number":1,"relation":"sub_issue","action":"add","target_issue_number":1,"target_owner":"alice","target_repo":"notes"}`},
		{"github_link_issues", `{"owner":"acme","repo":"widgets","issue_number":1,"relation":"blocked_by","action":"add","target_issue_number":1,"target_owner":"ALICE"}`},
		{"github_update_issue", `{"owner":"acme","repo":"widgets","issue_number":3,"duplicate_of":2,"duplicate_of_repo":"alice/notes"}`},
	} {
		res, err := bd.callRaw(t, c.tool, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		wantEnvelope(t, c.tool+" "+c.args+" (before GitHub)", res, "invalid_field")
	}
	// The same owner is routed on: it reaches GitHub (unreachable here).
	res, err := bd.callRaw(t, "github_link_issues", `{"owner":"acme","repo":"widgets","issue_number":1,"relation":"sub_issue","action":"add","target_issue_number":1,"target_repo":"gadgets"}`)
	if err != nil {
		t.Fatal(err)
	}
	if code := envelopeCode(res); code == "invalid_field" {
		t.Errorf("a link within the owner was refused: %v", res.StructuredContent)
	}
}
