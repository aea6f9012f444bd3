package server

import (
	"encoding/json"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/ghgate/ghgate/internal/jsondepth"
)

// The line reader answers a line the SDK could not read as a JSON-RPC
// message itself, since the SDK ends the session on one. It asked the SDK
// (jsonrpc.DecodeMessage) until that showed in the profile: the SDK's
// decoder takes a 32 KB buffer for each of its two decodes, so the check
// alone was a quarter of what a tool call allocated, and the collector's
// work grows with it. isMessage reaches the same verdict with the same
// decoder (segmentio's, with the SDK's flags and nesting bound) and no
// buffer; FuzzMessageCheck holds the two to the same answers, and a batch
// to the SDK's reading of each of its elements.

// wireMessage is the form jsonrpc.DecodeMessage decodes a message into
// (the SDK's wireDecode): the same fields, types and tags, so the decoder
// accepts and refuses what it does.
type wireMessage struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *wireError      `json:"error,omitempty"`
}

// wireError is the SDK's jsonrpc.WireError, as it decodes.
type wireError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// decodeFlags are the SDK's: a key matches a field only as spelled.
const decodeFlags = fastjson.DontMatchCaseInsensitiveStructFields

// isMessage reports whether jsonrpc.DecodeMessage would read value, one
// whole JSON object, as a request or a response.
func isMessage(value []byte) bool {
	if !jsondepth.Within(value) {
		return false
	}
	var msg wireMessage
	if _, err := fastjson.Parse(value, &msg, decodeFlags); err != nil || msg.VersionTag != "2.0" {
		return false
	}
	// An ID is a number or a string; absent or null is no ID.
	switch msg.ID.(type) {
	case nil, float64, string:
	default:
		return false
	}
	if len(msg.Method) > 0 {
		// The key was there: a request, whose method must be a string.
		var method string
		_, err := fastjson.Parse(msg.Method, &method, decodeFlags)
		return err == nil
	}
	// No method: a response, which needs an ID.
	return msg.ID != nil
}

// isBatch reports whether the SDK would read value, one whole JSON array,
// as a batch: every element a message isMessage accepts.
func isBatch(value []byte) bool {
	if !jsondepth.Within(value) {
		return false
	}
	var elems []json.RawMessage
	if _, err := fastjson.Parse(value, &elems, decodeFlags); err != nil || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if !isMessage(e) {
			return false
		}
	}
	return true
}
