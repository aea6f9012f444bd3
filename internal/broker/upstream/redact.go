package upstream

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/redact"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// redactor scrubs the process's credentials from what the proxy logs and
// returns. It shares the broker's registry, and adds to it the tokens it
// hands to its upstream (an App's are minted, so they are kept among the
// newest only).
type redactor struct{ secrets *redact.Registry }

// newRedactor uses secrets, or a registry of its own when nil.
func newRedactor(secrets *redact.Registry) *redactor {
	if secrets == nil {
		secrets = redact.NewRegistry()
	}
	return &redactor{secrets: secrets}
}

func (r *redactor) add(token string) { r.registry().AddMinted(token) }

// clean replaces every credential in s with [redacted].
func (r *redactor) clean(s string) string { return r.registry().String(s) }

// registry is r's registry; a Proxy built without a redactor has none,
// and then only credential-shaped text is redacted.
func (r *redactor) registry() *redact.Registry {
	if r == nil {
		return nil
	}
	return r.secrets
}

// leaks reports whether an upstream result holds a known token: anywhere
// in its JSON, or in the text its parts carry when joined with nothing
// between them, which catches a token cut into pieces shorter than
// minSecretRun. A result that cannot be rendered as JSON cannot be
// checked, so it counts as a leak.
func (r *redactor) leaks(res *mcp.CallToolResult) bool {
	if res == nil {
		return false
	}
	raw, err := json.Marshal(res)
	return err != nil || r.registry().Holds(string(raw)) || r.registry().Holds(joinedText(res))
}

// scrub redacts, in place, what in an upstream result is shaped like a
// credential though it is none of this process's (those withhold the
// whole result, see leaks): Authorization and x-access-token values and
// GitHub tokens, in its text, its embedded resources' text and the
// strings of its structured content. Redaction only ever replaces a run
// of credential characters, never a quote or an escape, so JSON text
// stays JSON.
func (r *redactor) scrub(res *mcp.CallToolResult) {
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			c.Text = r.clean(c.Text)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				c.Resource.Text = r.clean(c.Resource.Text)
			}
		}
	}
	res.StructuredContent = r.scrubValue(res.StructuredContent)
}

// scrubValue returns v, a decoded JSON value, with its strings redacted;
// maps and slices are changed in place.
func (r *redactor) scrubValue(v any) any {
	switch v := v.(type) {
	case string:
		return r.clean(v)
	case []any:
		for i, e := range v {
			v[i] = r.scrubValue(e)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = r.scrubValue(e)
		}
	}
	return v
}

// joinedText concatenates the text and bytes of res's content in order,
// then every string value of its structured content.
func joinedText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.ImageContent:
			b.Write(c.Data)
		case *mcp.AudioContent:
			b.Write(c.Data)
		case *mcp.ResourceLink:
			b.WriteString(c.URI)
			b.WriteString(c.Name)
			b.WriteString(c.Title)
			b.WriteString(c.Description)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				b.WriteString(c.Resource.URI)
				b.WriteString(c.Resource.Text)
				b.Write(c.Resource.Blob)
			}
		}
	}
	writeStrings(&b, res.StructuredContent)
	return b.String()
}

// writeStrings appends the string values inside v, objects in key order
// so the result does not depend on map iteration. Keys are left out: they
// would sit between the pieces of a token split across values.
func writeStrings(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil, bool, float64, json.Number:
	case string:
		b.WriteString(v)
	case []any:
		for _, e := range v {
			writeStrings(b, e)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			writeStrings(b, v[k])
		}
	default:
		// Typed values and raw JSON: walk their generic JSON form.
		raw, err := json.Marshal(v)
		if err != nil {
			return
		}
		var generic any
		if json.Unmarshal(raw, &generic) == nil {
			writeStrings(b, generic)
		}
	}
}
