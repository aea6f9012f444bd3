package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionCount is how many sessions m holds.
func sessionCount(m *mcp.Server) int {
	n := 0
	for range m.Sessions() {
		n++
	}
	return n
}

// Over stateless HTTP (as ghgate serve --http runs), every request's
// session ends with the request: once a burst of clients has closed,
// the server holds the sessions it held before it (the test's in-memory
// one), and the reclaimer counts nothing in flight.
func TestHTTPSessionsEndWithTheirRequests(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	m := env.Stack.Server.MCP
	var reclaim server.Reclaimer
	m.AddReceivingMiddleware(reclaim.Middleware)
	before := sessionCount(m)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)

	const clients = 20
	ctx := context.Background()
	var wg sync.WaitGroup
	sessions := make([]*mcp.ClientSession, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "burst", Version: "0"}, nil).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
			if err != nil {
				t.Errorf("client %d: connect: %v", i, err)
				return
			}
			sessions[i] = cs
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "github_get_issue",
				Arguments: map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}})
			if err != nil {
				t.Errorf("client %d: github_get_issue: %v", i, err)
			} else if res.IsError {
				t.Errorf("client %d: github_get_issue: isError = true, want false: %+v", i, res.Content)
			}
		}()
	}
	wg.Wait()
	for _, cs := range sessions {
		if cs != nil {
			_ = cs.Close()
		}
	}
	// A request's session closes just after its answer is written, so
	// the last ones may still be closing here: give them a bounded while.
	got, inFlight := settle(m, &reclaim, before)
	if got != before {
		t.Errorf("server sessions after %d HTTP clients closed = %d, want %d (as before them)", clients, got, before)
	}
	if inFlight != 0 {
		t.Errorf("requests in flight after every client closed = %d, want 0", inFlight)
	}
}

// settle polls m's sessions until they are back to want and nothing is
// in flight, or five seconds pass, and returns what it last saw.
func settle(m *mcp.Server, r *server.Reclaimer, want int) (sessions, inFlight int) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		sessions, inFlight = sessionCount(m), r.InFlight()
		if (sessions == want && inFlight == 0) || time.Now().After(deadline) {
			return sessions, inFlight
		}
		time.Sleep(10 * time.Millisecond)
	}
}
