package contract

// The JSON-RPC error codes of a failed resources/read that are not
// ghgate's fault. JSON-RPC 2.0 reserves -32768..-32000 for itself (and
// MCP takes codes there, -32002 resource not found), so these lie just
// outside it, in the range an application may define; the seed contract
// ghgate answers reserves exactly these two, so that a client can tell a
// temporary upstream condition from a server bug (-32603). error.data
// carries the envelope, retry_after_ms included.
const (
	// RPCRateLimited answers a read refused with [CodeRateLimited].
	RPCRateLimited int64 = -31000
	// RPCUpstreamUnavailable answers a read that failed with
	// [CodeUpstreamUnavailable]: GitHub unreachable, or answering server
	// errors past the client's retries.
	RPCUpstreamUnavailable int64 = -31001
)
