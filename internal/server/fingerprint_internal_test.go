package server

import (
	"context"
	"testing"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFingerprintCoversTheSurface: each part an agent is written against
// (tools, templates and their completions, the summary, the
// instructions) changes the fingerprint; the same surface gives the same
// one.
func TestFingerprintCoversTheSurface(t *testing.T) {
	tool := &mcp.Tool{Name: "a", InputSchema: map[string]any{"type": "object"}}
	withIndex := newResources(nil)
	withIndex.serve(toolkit.NameSearchIssues)
	withIssue := newResources(nil)
	withIssue.serve(toolkit.NameSearchIssues, toolkit.NameGetIssue)
	fp := func(tools []*mcp.Tool, r *resources, summary, instructions string) string {
		t.Helper()
		s, err := fingerprintOf(tools, r, summary, instructions)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := fp([]*mcp.Tool{tool}, withIndex, "summary", "brief")
	if again := fp([]*mcp.Tool{{Name: "a", InputSchema: map[string]any{"type": "object"}}}, withIndex, "summary", "brief"); again != base {
		t.Errorf("the same surface: %s then %s", base, again)
	}
	for name, other := range map[string]string{
		"another tool":          fp([]*mcp.Tool{tool, {Name: "b", InputSchema: map[string]any{"type": "object"}}}, withIndex, "summary", "brief"),
		"a changed description": fp([]*mcp.Tool{{Name: "a", Description: "x", InputSchema: map[string]any{"type": "object"}}}, withIndex, "summary", "brief"),
		"more templates":        fp([]*mcp.Tool{tool}, withIssue, "summary", "brief"),
		"another summary":       fp([]*mcp.Tool{tool}, withIndex, "summary, changed", "brief"),
		"other instructions":    fp([]*mcp.Tool{tool}, withIndex, "summary", "brief, changed"),
	} {
		if other == base {
			t.Errorf("%s leaves the fingerprint %s", name, base)
		}
	}
}

// TestReadsAreNeverPublicByDefault: a read whose handler set no hints is
// private and stale at once, where the SDK would mark it public; what a
// handler decided stands; the lists are public.
func TestReadsAreNeverPublicByDefault(t *testing.T) {
	var c mcp.Cacheable
	setCacheable(context.Background(), &mcp.ReadResourceRequest{}, &c)
	if c.CacheScope != scopePrivate || c.TTLMs != 0 {
		t.Errorf("an unhinted read: %+v", c)
	}
	c = mcp.Cacheable{TTLMs: surfaceTTL, CacheScope: scopePublic}
	setCacheable(context.Background(), &mcp.ReadResourceRequest{}, &c)
	if c.CacheScope != scopePublic || c.TTLMs != surfaceTTL {
		t.Errorf("a hinted read was changed: %+v", c)
	}
	for _, req := range []mcp.Request{&mcp.ListResourcesRequest{}, &mcp.ListResourceTemplatesRequest{}} {
		c = mcp.Cacheable{}
		setCacheable(context.Background(), req, &c)
		if c.CacheScope != scopePublic || c.TTLMs != listTTL {
			t.Errorf("%T: %+v", req, c)
		}
	}
}
