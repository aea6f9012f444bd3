package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Cache hints (MCP's ttlMs and cacheScope). What is the same for every
// client of a deployment may be cached by anyone; what a credential sees of
// GitHub may be cached only for that client, and briefly, as GitHub's own
// state moves under it.
const (
	// surfaceTTL is for the error catalog and the schemas: they change
	// only with ghgate's version and its own toolsets.
	surfaceTTL = 86_400_000
	// summaryTTL is for the capability summary, which also names the
	// tools served beside ghgate's own: a broker serves an upstream's
	// tools from when they arrive, while sessions run. Only a
	// resources/updated to a subscriber would drop a client's cached
	// read, so the read is kept for minutes, as the lists are.
	summaryTTL = listTTL
	// githubTTL is for issues, comments, the issue index and labels.
	githubTTL = 30_000
	// listTTL is for resources/list and resources/templates/list: the
	// same for every client, but the surface can change at run time, and
	// a client that does not listen for list_changed should look again
	// within minutes.
	listTTL = 300_000

	scopePublic  = "public"
	scopePrivate = "private"
)

// hinted sets a read's cache hints.
func hinted(res *mcp.ReadResourceResult, ttl int, scope string) *mcp.ReadResourceResult {
	res.TTLMs, res.CacheScope = ttl, scope
	return res
}

// setCacheable decides the cache hints of every result that carries them.
// A read whose handler said nothing is private and stale at once: the SDK
// would otherwise mark it public, and nothing read from GitHub may be
// handed by a shared cache to another client.
func setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ReadResourceRequest:
		if c.CacheScope == "" {
			c.TTLMs, c.CacheScope = 0, scopePrivate
		}
	case *mcp.ListResourcesRequest, *mcp.ListResourceTemplatesRequest:
		c.TTLMs, c.CacheScope = listTTL, scopePublic
	}
}
