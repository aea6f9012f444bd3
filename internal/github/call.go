package github

import (
	"context"
	"net/http"
	"sync/atomic"
)

// call is what the transport reports about one API call (all its attempts)
// back to the method that made it, through the request context. Errors
// alone cannot carry this: go-github replaces a transport error with the
// context's error when the context is done.
type call struct {
	// read marks a call that may be retried: GET/HEAD, or a GraphQL query.
	read bool
	// reached is set once the transport was asked to send anything.
	reached atomic.Bool
	// sent is set once some attempt's request headers were written to a
	// connection: from then on GitHub may have seen the request.
	sent atomic.Bool
	// refused holds the error when the transport declined to send.
	refused atomic.Pointer[Error]
	// cacheHit is set when the answer was served from the store after a 304.
	cacheHit atomic.Bool
	// attempts counts requests put on the wire.
	attempts atomic.Int32
}

type callKey struct{}

func withCall(ctx context.Context, read bool) (context.Context, *call) {
	c := &call{read: read}
	return context.WithValue(ctx, callKey{}, c), c
}

// callFrom returns the call a request belongs to. Requests made without
// one (a go-github call made outside read and write) get a fresh record whose retry policy
// follows the method.
func callFrom(req *http.Request) *call {
	if c, ok := req.Context().Value(callKey{}).(*call); ok {
		return c
	}
	return &call{read: req.Method == http.MethodGet || req.Method == http.MethodHead}
}
