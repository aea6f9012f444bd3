package broker_test

import (
	"context"
	"net"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var fingerprintLine = regexp.MustCompile(`Surface fingerprint: (ghgate@\S+\+[0-9a-f]{16})`)

// TestArrivingToolIsAnnounced: a tool arriving in the broker while
// sessions run (an upstream's) reaches every connected client as
// notifications/tools/list_changed, with either handshake, and the
// surface fingerprint a later client reads names the new surface.
func TestArrivingToolIsAnnounced(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	ctx := context.Background()
	type client struct {
		cs      *mcp.ClientSession
		changed chan struct{}
	}
	connect := func(version string) client {
		t.Helper()
		conn, err := net.Dial("unix", d.Socket.Path())
		if err != nil {
			t.Fatal(err)
		}
		c := client{changed: make(chan struct{}, 4)}
		c.cs, err = mcp.NewClient(&mcp.Implementation{Name: "surface-test", Version: "0"}, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
				select {
				case c.changed <- struct{}{}:
				default:
				}
			}}).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("connect at %s: %v", version, err)
		}
		t.Cleanup(func() { _ = c.cs.Close() })
		return c
	}
	clients := []client{connect("2026-07-28"), connect("2025-11-25")}
	before := fingerprintLine.FindStringSubmatch(clients[0].cs.InitializeResult().Instructions)
	if before == nil {
		t.Fatal("the instructions name no fingerprint")
	}
	if err := d.Broker.AddTool(&mcp.Tool{Name: "arrived_probe", Description: "an upstream's tool", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "arrived"}}}, nil
		}, tooldef.Read); err != nil {
		t.Fatal(err)
	}
	for i, c := range clients {
		select {
		case <-c.changed:
		case <-time.After(5 * time.Second):
			t.Fatalf("client %d got no tools/list_changed", i)
		}
		tools, err := c.cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatalf("client %d: tools/list: %v", i, err)
		}
		if !slices.ContainsFunc(tools.Tools, func(x *mcp.Tool) bool { return x.Name == "arrived_probe" }) {
			t.Fatalf("client %d: tools/list lacks arrived_probe, want it listed", i)
		}
	}
	if res := d.MustCall(t, clients[1].cs, "arrived_probe", map[string]any{"owner": "acme"}); brokertest.ResultText(res) != "arrived" {
		t.Errorf("the arrived tool answered %q", brokertest.ResultText(res))
	}
	later := connect("2025-11-25")
	after := fingerprintLine.FindStringSubmatch(later.cs.InitializeResult().Instructions)
	summary, err := later.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Contains(summary.Contents[0].Text, "arrived_probe")
	if after == nil {
		t.Errorf("after the arrival the instructions name no fingerprint, want one")
	} else if after[1] == before[1] {
		t.Errorf("after the arrival the instructions' fingerprint = %s, want a new one (was %s)", after[1], before[1])
	}
	if !named {
		t.Errorf("after the arrival the capability summary does not name arrived_probe, want it to")
	}
	// The same tool cannot arrive twice.
	if err := d.Broker.AddTool(&mcp.Tool{Name: "arrived_probe", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }, tooldef.Read); err == nil {
		t.Error("a second arrival of the same name was accepted")
	}
}
