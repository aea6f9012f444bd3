package broker_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantCall is what one audit line must say.
type wantCall struct {
	tool, owner, repo, mode, credential, route, outcome, code string
}

func TestDaemonServesToolsOverTheSocketAndAuditsEachCall(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	cs := d.Connect(t)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"github_search_issues", "github_get_issue", "github_create_issue"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list over the socket lacks %s (has %v)", want, names)
		}
	}

	d.MustCall(t, cs, "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "query": "bug"})
	d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	created := d.MustCall(t, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "gadgets",
		"title": "Filed through the broker"})
	var out struct {
		Issue struct {
			Number int `json:"number"`
		} `json:"issue"`
	}
	if err := json.Unmarshal([]byte(brokertest.ResultText(created)), &out); err != nil {
		t.Fatalf("create: %v, result %s", err, brokertest.ResultText(created))
	}
	if out.Issue.Number == 0 {
		t.Fatalf("create: issue.number = 0, want one; result %s", brokertest.ResultText(created))
	}
	// A search without an owner goes by the fallback route.
	d.MustCall(t, cs, "github_search_issues", map[string]any{"query": "widget"})
	res, err := d.Call(ctx, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 999999})
	if err != nil {
		t.Fatalf("missing issue: %v", err)
	}
	if !res.IsError {
		t.Fatalf("missing issue: isError = false, want an error result: %s", brokertest.ResultText(res))
	}

	want := []wantCall{
		{"github_search_issues", "acme", "widgets", "read", brokertest.SecretAcmeRead, "acme", "ok", ""},
		{"github_get_issue", "acme", "widgets", "read", brokertest.SecretAcmeRead, "acme", "ok", ""},
		{"github_create_issue", "acme", "gadgets", "write", brokertest.SecretAcmeWrite, "acme", "ok", ""},
		{"github_search_issues", "", "", "read", brokertest.SecretFallback, "*", "ok", ""},
		{"github_get_issue", "acme", "widgets", "read", brokertest.SecretAcmeRead, "acme", "error", "issue_not_found"},
	}
	lines := brokertest.AuditLines(t, d.Audit)
	if len(lines) != len(want) {
		t.Fatalf("%d audit lines for %d calls:\n%+v", len(lines), len(want), lines)
	}
	uid := uint32(os.Getuid())
	for i, w := range want {
		l := lines[i]
		got := wantCall{l.Tool, l.Owner, l.Repo, l.Mode, l.Credential, l.Route, l.Outcome, l.Code}
		if got != w {
			t.Errorf("audit line %d:\n got %+v\nwant %+v", i+1, got, w)
		}
		if _, err := time.Parse(time.RFC3339, l.Time); err != nil {
			t.Errorf("audit line %d: time %q is not RFC 3339: %v", i+1, l.Time, err)
		}
		// The client is this test process, as the kernel reports it.
		if l.Client == nil {
			t.Errorf("audit line %d: client = null, want uid %d", i+1, uid)
		} else if *l.Client != uid {
			t.Errorf("audit line %d: client = %d, want uid %d", i+1, *l.Client, uid)
		}
		if l.ClientPID != int32(os.Getpid()) {
			t.Errorf("audit line %d: client_pid = %d, want %d", i+1, l.ClientPID, os.Getpid())
		}
		if l.Outcome == "ok" && l.Upstream < 1 {
			t.Errorf("audit line %d: a successful %s made %d upstream calls", i+1, l.Tool, l.Upstream)
		}
	}
	if lines[2].Settlement != "" {
		t.Errorf("a successful write's audit settlement = %q, want none", lines[2].Settlement)
	}
	for _, dir := range []string{"frames from the broker", "frames to the broker"} {
		if d.Canary.BytesScanned(dir) == 0 {
			t.Errorf("%s: 0 bytes scanned for the canary, want some", dir)
		}
	}
}

func TestDaemonReopensTheAuditLog(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	cs := d.Connect(t)
	d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2})
	rotated := d.Audit + ".1"
	if err := os.Rename(d.Audit, rotated); err != nil {
		t.Fatal(err)
	}
	// Until the reopen, lines still go to the renamed file.
	d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3})
	if err := d.Broker.ReopenAudit(); err != nil {
		t.Fatal(err)
	}
	d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 4})
	if n := len(brokertest.AuditLines(t, rotated)); n != 2 {
		t.Errorf("the rotated file has %d lines, want 2", n)
	}
	if n := len(brokertest.AuditLines(t, d.Audit)); n != 1 {
		t.Errorf("the reopened file has %d lines, want 1", n)
	}
	info, err := os.Stat(d.Audit)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&0o007 != 0 {
		t.Errorf("the new audit file mode = %v, want no access for others", perm)
	}
}

// TestDaemonShutdownLetsCallsFinish stops the broker while a call is in
// flight: the socket goes at once, new calls are refused, the call in
// flight completes and is audited, and then every session ends.
func TestDaemonShutdownLetsCallsFinish(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Grace: time.Minute})
	entered, release := make(chan struct{}), make(chan struct{})
	d.Broker.AddTool(&mcp.Tool{Name: "hold", Description: "waits for the test", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec := broker.RecordFrom(ctx)
			if rec == nil {
				t.Error("a proxied tool got no call record")
			} else {
				rec.Upstream.Add(1)
			}
			close(entered)
			select {
			case <-release:
			case <-time.After(time.Minute):
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
		}, tooldef.Write)
	held, other := d.Connect(t), d.Connect(t)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	heldDone := make(chan result, 1)
	go func() {
		res, err := d.Call(ctx, held, "hold", map[string]any{"owner": "acme", "repo": "widgets"})
		heldDone <- result{res, err}
	}()
	select {
	case <-entered:
	case <-ctx.Done():
		t.Fatal("the held call never started")
	}
	d.Shutdown()
	// The socket file goes first; poll for it, bounded.
	for i := 0; ; i++ {
		if _, err := os.Lstat(d.Socket.Path()); os.IsNotExist(err) {
			break
		}
		if i == 500 {
			t.Fatal("the socket file is still there after the shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	refused, err := d.Call(ctx, other, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if err != nil {
		t.Fatalf("a call during the shutdown: %v", err)
	}
	if !refused.IsError {
		t.Fatalf("a call during the shutdown: isError = false, want a refusal: %s", brokertest.ResultText(refused))
	}
	close(release)
	r := <-heldDone
	if r.err != nil {
		t.Fatalf("the call in flight did not complete: %v", r.err)
	}
	if r.res.IsError {
		t.Fatalf("the call in flight: isError = true, want a result: %s", brokertest.ResultText(r.res))
	}
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, cs := range []*mcp.ClientSession{held, other} {
		waited := make(chan error, 1)
		go func() { waited <- cs.Wait() }()
		select {
		case <-waited:
		case <-time.After(time.Minute):
			t.Fatal("a session survived the shutdown")
		}
	}
	lines := brokertest.AuditLines(t, d.Audit)
	if len(lines) != 2 {
		t.Fatalf("%d audit lines, want 2: %+v", len(lines), lines)
	}
	byTool := map[string]broker.AuditLine{}
	for _, l := range lines {
		byTool[l.Tool] = l
	}
	wantAudit(t, "the proxied call's line", byTool["hold"], map[string]any{"Outcome": "ok", "Mode": "write", "Owner": "acme", "Upstream": int64(1)})
	wantAudit(t, "the refused call's line", byTool["github_get_issue"], map[string]any{"Outcome": "error", "Code": "upstream_unavailable"})
}
