package server

import (
	"context"
	"fmt"
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
	wantCacheable(t, "an unhinted read", c, scopePrivate, 0)
	c = mcp.Cacheable{TTLMs: surfaceTTL, CacheScope: scopePublic}
	setCacheable(context.Background(), &mcp.ReadResourceRequest{}, &c)
	wantCacheable(t, "a hinted read", c, scopePublic, surfaceTTL)
	for _, req := range []mcp.Request{&mcp.ListResourcesRequest{}, &mcp.ListResourceTemplatesRequest{}} {
		c = mcp.Cacheable{}
		setCacheable(context.Background(), req, &c)
		wantCacheable(t, fmt.Sprintf("%T", req), c, scopePublic, listTTL)
	}
}

// wantCacheable reports, one field each, how c differs from scope and ttl.
func wantCacheable(t *testing.T, what string, c mcp.Cacheable, scope string, ttl int) {
	t.Helper()
	if c.CacheScope != scope {
		t.Errorf("%s: cacheScope = %q, want %q", what, c.CacheScope, scope)
	}
	if c.TTLMs != ttl {
		t.Errorf("%s: ttlMs = %d, want %d", what, c.TTLMs, ttl)
	}
}
