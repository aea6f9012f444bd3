package github

import (
	"context"
	"sync/atomic"
)

// Tally counts what a caller's GitHub calls cost on the wire: requests
// sent (retries included), those answered 304 Not Modified, and the bytes
// of the response bodies received. A tool that reports its upstream cost
// attaches one to its context with [WithTally].
type Tally struct {
	Requests    atomic.Int64
	NotModified atomic.Int64
	Bytes       atomic.Int64
}

type tallyKey struct{}

// WithTally returns ctx carrying t: every call made with it is counted.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

func tallyFrom(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}

// count adds one call's attempts and its final answer to the tally.
func (t *Tally) count(attempts int32, status int, bodyBytes int64) {
	if t == nil {
		return
	}
	t.Requests.Add(int64(attempts))
	if status == 304 {
		t.NotModified.Add(1)
	}
	if bodyBytes > 0 {
		t.Bytes.Add(bodyBytes)
	}
}
