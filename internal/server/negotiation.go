package server

import (
	"bytes"
	"encoding/json"
	"sync"
)

// batchesRemoved is the first MCP version without JSON-RPC batches. In a
// session that negotiated it or a later one, the SDK's stdio read fails on
// a batch, and that ends the session: the line reader answers the batch
// instead, which needs the version the session runs.
const batchesRemoved = "2025-06-18"

// negotiation reads the protocol version a session runs from the server's
// answer to initialize, as the transport writes it: the answer, not the
// request, decides (the server may answer another version than the one
// asked for), and only the server writes it, so no client line can set
// it. The answer is known by its shape, a result with protocolVersion and
// serverInfo (no other result has them), not by its id, which the SDK
// rewrites (1.5 is answered as 1). Once the version is known nothing more
// is read; until then a frame is decoded only when it holds
// "protocolVersion".
type negotiation struct {
	mu      sync.Mutex
	version string
}

// initializeAnswer is the part of an answer to initialize that tells it
// from any other frame.
type initializeAnswer struct {
	Result *struct {
		ProtocolVersion string          `json:"protocolVersion"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
	} `json:"result"`
}

// answer notes the version frame, one frame the server writes, answers
// initialize with; an initialize sent in a batch is answered in one.
func (n *negotiation) answer(frame []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.version != "" || !bytes.Contains(frame, []byte(`"protocolVersion"`)) {
		return
	}
	var answers []initializeAnswer
	if t := bytes.TrimSpace(frame); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(t, &answers) != nil {
			return
		}
	} else {
		var one initializeAnswer
		if json.Unmarshal(t, &one) != nil {
			return
		}
		answers = append(answers, one)
	}
	for _, a := range answers {
		if a.Result != nil && a.Result.ProtocolVersion != "" && len(a.Result.ServerInfo) > 0 {
			n.version = a.Result.ProtocolVersion
			return
		}
	}
}

// batchesGone returns the version the session negotiated when it has no
// batches, or "". A session with no initialize (MCP 2026-07-28 names its
// version in each request) is left to the SDK, as is a batch read before
// the answer to initialize was written: a client that sends one without
// waiting for that answer breaks the protocol's order, and the SDK ends
// its session as it did before the line reader knew versions.
func (n *negotiation) batchesGone() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.version >= batchesRemoved {
		return n.version
	}
	return ""
}
