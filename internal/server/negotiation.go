package server

import (
	"bytes"
	"encoding/json"
	"sync"

	fastjson "github.com/segmentio/encoding/json"
)

// batchesRemoved is the first MCP version without JSON-RPC batches. In a
// session that negotiated it or a later one, the SDK's stdio read fails on
// a batch, and that ends the session: the line reader answers the batch
// instead, which needs the version the session runs.
const batchesRemoved = "2025-06-18"

// negotiation follows the initialize exchange through a line transport:
// the id of an initialize request on its way in, then the protocol version
// in the server's answer to it. The answer, not the request, decides: the
// server may answer with another version than the one asked for. Only
// lines that name "initialize", and the frames written while one waits for
// its answer, are decoded a second time.
type negotiation struct {
	mu      sync.Mutex
	asked   any    // the waiting initialize request's id (float64 or string), nil when none
	version string // the version the last answer to initialize named
}

// request notes value, one JSON-RPC message the SDK will read, when it is
// an initialize request.
func (n *negotiation) request(value []byte) {
	if !bytes.Contains(value, []byte(`"initialize"`)) {
		return
	}
	var msg struct {
		ID     any    `json:"id"`
		Method string `json:"method"`
	}
	// Read as the SDK reads it (see isMessage): keys only as spelled.
	if _, err := fastjson.Parse(value, &msg, decodeFlags); err != nil || msg.Method != "initialize" || msg.ID == nil {
		return
	}
	n.mu.Lock()
	n.asked = msg.ID
	n.mu.Unlock()
}

// answer reads the version from frame, one the server writes, when it
// answers the waiting initialize request. An error answer leaves the
// version as it was.
func (n *negotiation) answer(frame []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.asked == nil {
		return
	}
	var msg struct {
		ID     any `json:"id"`
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(frame, &msg) != nil || msg.ID != n.asked {
		return
	}
	n.asked = nil
	if msg.Result != nil && msg.Result.ProtocolVersion != "" {
		n.version = msg.Result.ProtocolVersion
	}
}

// batchesGone returns the version the session negotiated when it has no
// batches, or "". A session with no initialize (MCP 2026-07-28 names its
// version in each request) is left to the SDK, as is one whose answer is
// still on its way.
func (n *negotiation) batchesGone() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.version >= batchesRemoved {
		return n.version
	}
	return ""
}
