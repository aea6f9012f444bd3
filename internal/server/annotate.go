package server

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lastModifiedKey carries a read's lastModified from its handler to
// annotateReads inside the contents' _meta; it never reaches the wire.
const lastModifiedKey = "ghgate/lastModified"

// withLastModified marks the read's contents as last modified at stamp
// (RFC 3339), for annotateReads to publish.
func withLastModified(res *mcp.ReadResourceResult, stamp string) *mcp.ReadResourceResult {
	if stamp == "" {
		return res
	}
	for _, c := range res.Contents {
		if c.Meta == nil {
			c.Meta = mcp.Meta{}
		}
		c.Meta[lastModifiedKey] = stamp
	}
	return res
}

// annotateReads is a receiving middleware that gives a read's contents
// annotations.lastModified, so a client can judge staleness without
// reading again. The SDK's ResourceContents has no annotations field
// (MCP's SEP-2093 adds them to read contents), so the result is sent
// through annotatedRead, which writes the same JSON with the annotation
// added to each content that has one.
func annotateReads(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		read, ok := res.(*mcp.ReadResourceResult)
		if err != nil || method != "resources/read" || !ok {
			return res, err
		}
		stamps := make([]string, len(read.Contents))
		found := false
		for i, c := range read.Contents {
			if s, ok := c.Meta[lastModifiedKey].(string); ok {
				stamps[i], found = s, true
				delete(c.Meta, lastModifiedKey)
				if len(c.Meta) == 0 {
					c.Meta = nil
				}
			}
		}
		if !found {
			return res, nil
		}
		return &annotatedRead{ReadResourceResult: read, lastModified: stamps}, nil
	}
}

// annotatedRead is a read result whose contents carry
// annotations.lastModified on the wire.
type annotatedRead struct {
	*mcp.ReadResourceResult
	lastModified []string // by content index; "" for none
}

func (a *annotatedRead) MarshalJSON() ([]byte, error) {
	b, err := a.ReadResourceResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	var contents []map[string]json.RawMessage
	if err := json.Unmarshal(top["contents"], &contents); err != nil {
		return nil, err
	}
	for i, c := range contents {
		if i < len(a.lastModified) && a.lastModified[i] != "" {
			ann, _ := json.Marshal(mcp.Annotations{LastModified: a.lastModified[i]})
			c["annotations"] = ann
		}
	}
	if top["contents"], err = json.Marshal(contents); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}
