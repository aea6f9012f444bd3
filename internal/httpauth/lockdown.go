package httpauth

import (
	"context"
	"maps"
	"slices"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LockdownOf is the rule on strangers' text for the client a request came
// from: its [client.tools] lockdown and allow_include_untrusted over the
// server's (def), each where it sets one; def for a request that named
// no client.
func LockdownOf(ctx context.Context, def toolkit.Lockdown) toolkit.Lockdown {
	if e := clientOf(ctx); e != nil {
		return e.tools.LockdownOver(def)
	}
	return def
}

// LockdownVaries reports whether some client sets a lockdown other than
// def; AllowsInclude whether some client may use include_untrusted. The
// server lists include_untrusted where one may (the guard leaves it out
// of the others' tools/list), and its capability summary says the rule
// varies.
func (c *Config) LockdownVaries(def toolkit.Lockdown) bool {
	return slices.ContainsFunc(c.Clients, func(cl Client) bool { return cl.Tools.LockdownOver(def).On != def.On })
}

// AllowsInclude reports whether some client may ask for include_untrusted.
func (c *Config) AllowsInclude(def toolkit.Lockdown) bool {
	return slices.ContainsFunc(c.Clients, func(cl Client) bool { return cl.Tools.LockdownOver(def).AllowInclude })
}

// withoutInclude is a tools/list answer's tool as a client that may not
// use include_untrusted sees it: the field left out of its input schema
// (a copy; the server's definition is shared by every client). A call
// naming it anyway is refused by the tool, with the repair to call
// without it. Only ghgate's own tools take the field.
func withoutInclude(t *mcp.Tool) *mcp.Tool {
	s, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok || s == nil || s.Properties[toolkit.IncludeUntrustedField] == nil {
		return t
	}
	cp := *s
	cp.Properties = maps.Clone(s.Properties)
	delete(cp.Properties, toolkit.IncludeUntrustedField)
	cp.PropertyOrder = slices.DeleteFunc(slices.Clone(cp.PropertyOrder), func(n string) bool { return n == toolkit.IncludeUntrustedField })
	out := *t
	out.InputSchema = &cp
	return &out
}
