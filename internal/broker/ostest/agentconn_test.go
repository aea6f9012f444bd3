package ostest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agentConn is one `ghgate connect` run as an agent user, with an MCP
// client on it.
type agentConn struct {
	t      *testing.T
	d      *deployment
	user   string
	ctx    context.Context
	cs     *mcp.ClientSession
	stderr *testutil.SyncBuffer
	// seen collects every answer and the bridge's stderr, for the leak
	// check.
	seen *[]string
}

// connectAs opens a connection as user. The client declares no
// elicitation, so nothing that needs a person's yes can be confirmed.
func (d *deployment) connectAs(ctx context.Context, t *testing.T, user string, seen *[]string) *agentConn {
	t.Helper()
	base := asUser(user, d.bin, "connect", "--socket", d.socket)
	c := &agentConn{t: t, d: d, user: user, ctx: ctx, stderr: &testutil.SyncBuffer{}, seen: seen}
	base.Stderr = c.stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ostest-agent", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: base}, nil)
	if err != nil {
		t.Fatalf("connect as %s: %v\n%s\nbroker:\n%s", user, err, c.stderr.String(), d.brokerErr.String())
	}
	c.cs = cs
	t.Cleanup(c.close)
	return c
}

func (c *agentConn) call(tool string, args map[string]any) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.cs.CallTool(c.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s as %s: %v\nbroker:\n%s", tool, c.user, err, c.d.brokerErr.String())
	}
	*c.seen = append(*c.seen, resultJSON(res))
	return res
}

// close ends the connection (once; later calls do nothing).
func (c *agentConn) close() {
	if c.cs == nil {
		return
	}
	_ = c.cs.Close()
	c.cs = nil
	*c.seen = append(*c.seen, c.stderr.String())
}

func resultJSON(res *mcp.CallToolResult) string {
	raw, _ := json.Marshal(res)
	return string(raw)
}
