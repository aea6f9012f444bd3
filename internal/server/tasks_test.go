package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type countIn struct {
	Upto int `json:"upto" jsonschema:"how far to count"`
}

type countOut struct {
	Counted int `json:"counted"`
}

// A ghgate tool opts into tasks with tooldef.Tool's Task field (as the
// reports toolset is to): from a client declaring the extension its call
// becomes a task, run through the server's own handler and wrapper, and
// owned by the client TaskOwner names; another client cannot read it.
func TestOwnToolOptsIntoTasks(t *testing.T) {
	st, err := store.OpenBackend(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	registry := func(*toolkit.Service) []tooldef.Spec {
		return []tooldef.Spec{tooldef.Tool[countIn, countOut]{Name: "github_count", Toolset: "issues", Description: "Counts.",
			Mode: tooldef.Read, Task: tooldef.TaskSupport{Mode: tooldef.TaskOptional},
			Run: func(_ context.Context, in countIn) (countOut, error) { return countOut{Counted: in.Upto}, nil }}}
	}
	var (
		mu      sync.Mutex
		wrapped []string
	)
	srv, err := server.NewWithRegistry(&toolkit.Service{Clients: toolkit.OneClient{}, Store: st}, server.Options{TaskStore: st,
		TaskOwner: func(ctx context.Context) string { s, _ := ctx.Value(ownerKey{}).(string); return s },
		Wrap: func(ctx context.Context, c tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
			mu.Lock()
			wrapped = append(wrapped, c.Tool)
			mu.Unlock()
			return next(ctx)
		}}, registry)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ownerKey{}, r.Header.Get("X-Client"))))
	}))
	defer hs.Close()
	defer srv.StopTasks(context.Background())

	res := servertest.Post(t, hs.URL, "alice", "tools/call", map[string]any{"name": "github_count", "arguments": map[string]any{"upto": 3}})
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" {
		t.Fatalf("resultType = %v, want task: %v", res["resultType"], res)
	}
	if id == "" {
		t.Fatalf("taskId = %v, want one: %v", res["taskId"], res)
	}
	var got map[string]any
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got = servertest.Post(t, hs.URL, "alice", "tasks/get", map[string]any{"taskId": id}); got["status"] != tasks.StatusWorking || time.Now().After(deadline) {
			break
		}
	}
	result, _ := got["result"].(map[string]any)
	sc, _ := result["structuredContent"].(map[string]any)
	if got["status"] != tasks.StatusCompleted {
		t.Fatalf("task status = %v, want %v: %v", got["status"], tasks.StatusCompleted, got)
	}
	if sc["counted"] != float64(3) {
		t.Fatalf("task result counted = %v, want 3: %v", sc["counted"], got)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"github_count"}; !slices.Equal(wrapped, want) {
		t.Fatalf("the wrapper saw %v, want the one call, %v", wrapped, want)
	}
	if e := servertest.Post(t, hs.URL, "bob", "tasks/get", map[string]any{"taskId": id}); e["error"] == nil {
		t.Fatalf("bob read alice's task: %v", e)
	}
}

type ownerKey struct{}
