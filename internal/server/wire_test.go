package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// splitRegistry offers github_get_issue and github_list_repo_metadata in a
// toolset of their own, "late", so a test can enable a toolset at run
// time and see the tools and the templates they answer arrive.
func splitRegistry(svc *toolkit.Service) []tooldef.Spec {
	var out []tooldef.Spec
	for _, sp := range tools.All(svc) {
		if sp.ToolName() == toolkit.NameGetIssue || sp.ToolName() == toolkit.NameListRepoMetadata {
			sp = retagged{Spec: sp, set: "late"}
		}
		out = append(out, sp)
	}
	return out
}

type retagged struct {
	tooldef.Spec
	set string
}

func (r retagged) ToolsetName() string { return r.set }

// wireClient is an SDK client on a real transport, with every frame it
// reads logged, and the list_changed notices it receives.
type wireClient struct {
	cs     *mcp.ClientSession
	frames *testutil.SyncBuffer
	tools  chan struct{}
	res    chan struct{}
}

// connectWire connects an SDK client to srv over stdio (newline-delimited
// JSON-RPC through ghgate's LineTransport) or streamable HTTP (stateless,
// as `ghgate serve --http` serves it), asking for protocol version.
func connectWire(t *testing.T, srv *server.Server, transport, version string) *wireClient {
	t.Helper()
	ctx := context.Background()
	var tr mcp.Transport
	switch transport {
	case "stdio":
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { _ = srv.MCP.Run(runCtx, &server.LineTransport{Reader: inR, Writer: outW}); close(done) }()
		t.Cleanup(func() {
			_ = inW.Close()
			cancel()
			<-done
			_ = outR.Close()
		})
		tr = &mcp.IOTransport{Reader: outR, Writer: inW}
	case "http":
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP }, &mcp.StreamableHTTPOptions{Stateless: true})
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		tr = &mcp.StreamableClientTransport{Endpoint: ts.URL}
	}
	c := &wireClient{frames: &testutil.SyncBuffer{}, tools: make(chan struct{}, 8), res: make(chan struct{}, 8)}
	note := func(ch chan struct{}) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "wire-test", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { note(c.tools) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { note(c.res) },
	})
	cs, err := client.Connect(ctx, &mcp.LoggingTransport{Transport: tr, Writer: c.frames}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect over %s at %s: %v", transport, version, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, asked for %s", got, version)
	}
	c.cs = cs
	return c
}

func (c *wireClient) read(t *testing.T, uri string) *mcp.ReadResourceResult {
	t.Helper()
	res, err := c.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents, want 1: %+v", uri, len(res.Contents), res.Contents)
	}
	if res.Contents[0].URI != uri {
		t.Fatalf("read %s: contents' uri = %q, want %q", uri, res.Contents[0].URI, uri)
	}
	return res
}

// annotations returns the annotations the last read of uri carried on
// the wire (the SDK's ResourceContents type has no field for them).
func (c *wireClient) annotations(t *testing.T, uri string) map[string]string {
	t.Helper()
	var found map[string]string
	sc := bufio.NewScanner(strings.NewReader(c.frames.String()))
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "read: ")
		if !ok {
			continue
		}
		var msg struct {
			Result struct {
				Contents []struct {
					URI         string            `json:"uri"`
					Annotations map[string]string `json:"annotations"`
				} `json:"contents"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &msg) == nil && len(msg.Result.Contents) == 1 && msg.Result.Contents[0].URI == uri {
			found = msg.Result.Contents[0].Annotations
		}
	}
	return found
}

func waitNotice(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s notice", what)
	}
}

func wantHints(t *testing.T, what string, c mcp.Cacheable, ttl int, scope string) {
	t.Helper()
	if c.TTLMs != ttl {
		t.Errorf("%s: ttlMs = %d, want %d", what, c.TTLMs, ttl)
	}
	if c.CacheScope != scope {
		t.Errorf("%s: cacheScope = %q, want %q", what, c.CacheScope, scope)
	}
}

// thread opens an issue in acme/widgets with n comments, "comment 1" to
// "comment n", and returns its number.
func thread(t *testing.T, env *servertest.Env, n int) int {
	t.Helper()
	var created struct {
		Issue struct{ Number int } `json:"issue"`
	}
	res := env.Call(t, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "A long thread", "body": "Many comments follow."})
	res.Decode(t, &created)
	if res.IsError {
		t.Fatalf("create: error %s, want success", res.JSON)
	}
	if created.Issue.Number == 0 {
		t.Fatalf("create: issue number = 0, want one: %s", res.JSON)
	}
	for i := 1; i <= n; i++ {
		if r := env.Call(t, toolkit.NameAddComment, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": created.Issue.Number,
			"body": fmt.Sprintf("comment %d", i)}); r.IsError {
			t.Fatalf("comment %d: %s", i, r.JSON)
		}
	}
	return created.Issue.Number
}

var fingerprintShape = regexp.MustCompile(`^ghgate@[^+\s]+\+[0-9a-f]{16}$`)

// TestResourcesOnTheWire reads ghgate's discovery surface and its
// resources as an SDK client does, over stdio and streamable HTTP, with
// the 2026-07-28 and 2025-11-25 handshakes: the cache hints, an issue's
// lastModified, a 75-comment thread followed chunk by chunk, the labels
// index, the fingerprint everywhere, and the list_changed notices when a
// toolset is enabled and another server's tool arrives.
func TestResourcesOnTheWire(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	number := thread(t, env, 75)
	issueURI := fmt.Sprintf("github://acme/widgets/issues/%d", number)
	for _, transport := range []string{"stdio", "http"} {
		for _, version := range []string{"2026-07-28", "2025-11-25"} {
			t.Run(transport+"/"+version, func(t *testing.T) {
				srv, err := server.NewWithRegistry(env.Stack.Service, server.Options{}, splitRegistry)
				if err != nil {
					t.Fatal(err)
				}
				c := connectWire(t, srv, transport, version)
				ctx := context.Background()

				// The fingerprint, in the discovery answer.
				before := srv.Fingerprint()
				if !fingerprintShape.MatchString(before) {
					t.Fatalf("fingerprint = %q, want ghgate@<version>+<hash>", before)
				}
				if !strings.Contains(c.cs.InitializeResult().Instructions, "Surface fingerprint: "+before) {
					t.Fatalf("instructions = %q, want them to contain the fingerprint %s", c.cs.InitializeResult().Instructions, before)
				}
				if !strings.Contains(c.frames.String(), `"ghgate/fingerprint":"`+before+`"`) {
					t.Errorf("the discovery answer's _meta lacks the fingerprint %s", before)
				}
				tpls, err := c.cs.ListResourceTemplates(ctx, nil)
				if err != nil {
					t.Fatalf("before the late toolset: list resource templates: %v", err)
				}
				if len(tpls.ResourceTemplates) != 1 {
					t.Fatalf("before the late toolset: %d templates, want 1: %+v", len(tpls.ResourceTemplates), tpls)
				}
				if got := tpls.ResourceTemplates[0].URITemplate; got != issuesTemplate {
					t.Fatalf("before the late toolset: template = %s, want %s", got, issuesTemplate)
				}
				wantHints(t, "resources/templates/list", tpls.Cacheable, 300_000, "public")

				// A toolset enabled at run time: its tools and the
				// templates they answer arrive, and clients are told.
				if err := srv.EnableToolsets("late"); err != nil {
					t.Fatal(err)
				}
				// Over stateless HTTP the 2025-11-25 handshake has no stream a
				// notice could travel on (GET is refused); its client lists
				// again and sees the new surface. 2026-07-28 clients listen
				// (subscriptions/listen) on either transport.
				notices := transport == "stdio" || version == "2026-07-28"
				if notices {
					waitNotice(t, c.tools, "tools/list_changed")
					waitNotice(t, c.res, "resources/list_changed")
				}
				enabled := srv.Fingerprint()
				if enabled == before {
					t.Fatalf("fingerprint after enabling a toolset = %s, want a change from %s", enabled, before)
				}
				if !fingerprintShape.MatchString(enabled) {
					t.Fatalf("fingerprint after enabling a toolset = %q, want ghgate@<version>+<hash>", enabled)
				}
				if tpls, err = c.cs.ListResourceTemplates(ctx, nil); err != nil {
					t.Fatalf("after the late toolset: list resource templates: %v", err)
				}
				if len(tpls.ResourceTemplates) != 4 {
					t.Fatalf("after the late toolset: %d templates, want 4: %+v", len(tpls.ResourceTemplates), tpls)
				}
				tl, err := c.cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatalf("tools after the late toolset: %v", err)
				}
				if !slices.ContainsFunc(tl.Tools, func(x *mcp.Tool) bool { return x.Name == toolkit.NameGetIssue }) {
					t.Fatalf("tools after the late toolset lack %s, want it listed", toolkit.NameGetIssue)
				}

				// Hints: the surface public and long-lived, GitHub's
				// content private and short.
				rl, err := c.cs.ListResources(ctx, nil)
				if err != nil {
					t.Fatalf("resources/list: %v", err)
				}
				if len(rl.Resources) != 3 {
					t.Fatalf("resources/list: %d resources, want 3: %+v", len(rl.Resources), rl)
				}
				wantHints(t, "resources/list", rl.Cacheable, 300_000, "public")
				summary := c.read(t, "ghgate://capabilities")
				wantHints(t, "capabilities", summary.Cacheable, 300_000, "public")
				for _, want := range []string{"Surface fingerprint: " + enabled, "missing_credential", "invalid_credential",
					"insufficient_scope with details.required_scopes", "free-form text (a title, body, comment, description or search text) never appears", "ttlMs 30000"} {
					if !strings.Contains(summary.Contents[0].Text, want) {
						t.Errorf("capability summary = %q, want it to contain %q", summary.Contents[0].Text, want)
					}
				}
				wantHints(t, "errors", c.read(t, "ghgate://errors").Cacheable, 86_400_000, "public")
				wantHints(t, "schemas", c.read(t, "ghgate://schemas").Cacheable, 86_400_000, "public")

				// The issue: private, its lastModified, the first chunk
				// and the pointer to the next.
				iss := c.read(t, issueURI)
				wantHints(t, "issue", iss.Cacheable, 30_000, "private")
				var doc struct {
					Issue struct {
						UpdatedAt string `json:"updated_at"`
					} `json:"issue"`
					Comments []struct {
						ID   int64  `json:"id"`
						Body string `json:"body"`
					} `json:"comments"`
					NextChunkURI string          `json:"next_chunk_uri"`
					Cursor       json.RawMessage `json:"comments_next_cursor"`
				}
				if err := json.Unmarshal([]byte(iss.Contents[0].Text), &doc); err != nil {
					t.Fatal(err)
				}
				if got := c.annotations(t, issueURI)["lastModified"]; got == "" {
					t.Errorf("issue annotations.lastModified is empty, want the issue's updated_at %q", doc.Issue.UpdatedAt)
				} else if got != doc.Issue.UpdatedAt {
					t.Errorf("issue annotations.lastModified = %q, want the issue's updated_at %q", got, doc.Issue.UpdatedAt)
				}
				if len(doc.Comments) != 30 {
					t.Fatalf("issue: %d comments, want 30", len(doc.Comments))
				}
				if want := issueURI + "/comments?chunk=2"; doc.NextChunkURI != want {
					t.Fatalf("issue: next_chunk_uri = %q, want %q", doc.NextChunkURI, want)
				}
				if doc.Cursor != nil {
					t.Fatalf("issue: comments_next_cursor = %s, want none", doc.Cursor)
				}
				var bodies []string
				seen := map[int64]bool{}
				for _, cm := range doc.Comments {
					bodies, seen[cm.ID] = append(bodies, cm.Body), true
				}
				reads := 0
				for next := doc.NextChunkURI; next != ""; reads++ {
					chunk := c.read(t, next)
					wantHints(t, next, chunk.Cacheable, 30_000, "private")
					if got := c.annotations(t, next)["lastModified"]; got != doc.Issue.UpdatedAt {
						t.Errorf("%s: lastModified = %q, want %q", next, got, doc.Issue.UpdatedAt)
					}
					var part struct {
						Chunk    int `json:"chunk"`
						Chunks   int `json:"chunks"`
						Comments []struct {
							ID   int64  `json:"id"`
							Body string `json:"body"`
						} `json:"comments"`
						NextChunkURI string `json:"next_chunk_uri"`
					}
					if err := json.Unmarshal([]byte(chunk.Contents[0].Text), &part); err != nil {
						t.Fatal(err)
					}
					if part.Chunk != reads+2 {
						t.Errorf("%s: chunk = %d, want %d", next, part.Chunk, reads+2)
					}
					if part.Chunks != 3 {
						t.Errorf("%s: chunks = %d, want 3", next, part.Chunks)
					}
					for _, cm := range part.Comments {
						if seen[cm.ID] {
							t.Errorf("comment %d served twice", cm.ID)
						}
						bodies, seen[cm.ID] = append(bodies, cm.Body), true
					}
					next = part.NextChunkURI
				}
				if reads != 2 {
					t.Fatalf("followed %d chunks, want 2", reads)
				}
				if len(bodies) != 75 {
					t.Fatalf("followed the chunks to %d comments, want 75", len(bodies))
				}
				for i, b := range bodies {
					if b != fmt.Sprintf("comment %d", i+1) {
						t.Fatalf("comment %d reads %q, want %q: out of order", i+1, b, fmt.Sprintf("comment %d", i+1))
					}
				}

				// The labels index: the listing's content, private.
				labels := c.read(t, "github://acme/widgets/labels")
				wantHints(t, "labels", labels.Cacheable, 30_000, "private")
				if !strings.Contains(labels.Contents[0].Text, `"name":"bug"`) {
					t.Errorf("labels index = %.200s, want the label bug", labels.Contents[0].Text)
				}
				done, err := c.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: issuesTemplate},
					Argument: mcp.CompleteParamsArgument{Name: "labels", Value: "bu"},
					Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": "acme", "repo": "widgets"}}})
				if err != nil {
					t.Errorf("label completion: %v", err)
				} else if !slices.Contains(done.Completion.Values, "bug") {
					t.Errorf("label completion = %v, want bug among them", done.Completion.Values)
				}

				// Every envelope carries the fingerprint served now.
				_, err = c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/999999"})
				var werr *jsonrpc.Error
				if err == nil {
					t.Fatal("missing issue: read succeeded, want a JSON-RPC error")
				}
				if !errors.As(err, &werr) { // over HTTP at 2026-07-28, an HTTP 400 wrapping the error
					t.Fatalf("missing issue: error = %v, want a JSON-RPC error", err)
				}
				var data resourceErrorData
				if err := json.Unmarshal(werr.Data, &data); err != nil {
					t.Errorf("decode read error.data %s: %v", werr.Data, err)
				} else {
					if data.Code != "issue_not_found" {
						t.Errorf("read error.data.code = %q, want issue_not_found", data.Code)
					}
					if data.Fingerprint != enabled {
						t.Errorf("read error.data.fingerprint = %q, want %s", data.Fingerprint, enabled)
					}
				}

				// Another server's tool arrives (the broker's upstream):
				// clients are told, the fingerprint and the summary follow.
				extra := server.Extra{Mode: tooldef.Read, Def: &mcp.Tool{Name: "upstream_probe", InputSchema: map[string]any{"type": "object"}},
					Handler: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
					}}
				if err := srv.AddExtra(extra); err != nil {
					t.Fatal(err)
				}
				if notices {
					waitNotice(t, c.tools, "tools/list_changed")
				}
				arrived := srv.Fingerprint()
				if arrived == enabled {
					t.Fatalf("fingerprint after a tool arrived = %s, want a change from it", arrived)
				}
				missing := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 999999}
				res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: toolkit.NameGetIssue, Arguments: missing})
				if err != nil {
					t.Fatalf("forced error: %v", err)
				}
				if !res.IsError {
					t.Fatalf("forced error: isError = false, want true: %+v", res)
				}
				servertest.Answer(t, c.cs, toolkit.NameGetIssue, missing, res)
				envelope, _ := res.StructuredContent.(map[string]any)
				if envelope["code"] != "issue_not_found" {
					t.Errorf("a call to a tool enabled at run time: code = %v, want issue_not_found", envelope["code"])
				}
				if envelope["fingerprint"] != arrived {
					t.Errorf("a call to a tool enabled at run time: fingerprint = %v, want %s", envelope["fingerprint"], arrived)
				}
				later := connectWire(t, srv, transport, version)
				if ins := later.cs.InitializeResult().Instructions; !strings.Contains(ins, "Surface fingerprint: "+arrived) {
					t.Errorf("a later client's instructions = %q, want the new fingerprint %s", ins, arrived)
				}
				if summary := later.read(t, "ghgate://capabilities"); !strings.Contains(summary.Contents[0].Text, "upstream_probe") {
					t.Errorf("a later client's capability summary = %q, want the new tool upstream_probe", summary.Contents[0].Text)
				}
			})
		}
	}
}
