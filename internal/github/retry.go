package github

import (
	"context"
	"math/rand/v2"
	"time"
)

// retryPolicy bounds how reads are retried: at most maxRetries more
// attempts, each wait capped exponential back-off with jitter (or GitHub's
// retry-after when it gives one), and at most maxWait spent waiting in all.
// A wait that would end past the context's deadline is not started.
type retryPolicy struct {
	maxRetries int
	base       time.Duration
	maxDelay   time.Duration
	maxWait    time.Duration
}

const (
	defaultReadRetries  = 2
	defaultRetryBase    = 250 * time.Millisecond
	defaultRetryMax     = 4 * time.Second
	defaultMaxRetryWait = 15 * time.Second
)

func newRetryPolicy(o Options) retryPolicy {
	p := retryPolicy{maxRetries: o.MaxReadRetries, base: o.RetryBaseDelay, maxDelay: o.RetryMaxDelay, maxWait: o.MaxRetryWait}
	switch {
	case p.maxRetries == 0:
		p.maxRetries = defaultReadRetries
	case p.maxRetries < 0:
		p.maxRetries = 0
	}
	if p.base <= 0 {
		p.base = defaultRetryBase
	}
	if p.maxDelay <= 0 {
		p.maxDelay = defaultRetryMax
	}
	if p.maxWait <= 0 {
		p.maxWait = defaultMaxRetryWait
	}
	return p
}

// backoff is the wait before retry n (1-based): base·2^(n-1), capped, with
// "equal jitter" (a random point in the upper half) so that many clients
// failing together do not retry together.
func (p retryPolicy) backoff(n int) time.Duration {
	d := p.maxDelay
	if shift := n - 1; shift < 30 && p.base<<shift < p.maxDelay {
		d = p.base << shift
	}
	half := d / 2
	return half + rand.N(half+1)
}

// allows reports whether a wait of d, after waited already, stays within
// the policy and ends before the context's deadline.
func (p retryPolicy) allows(ctx context.Context, waited, d time.Duration) bool {
	if waited+d > p.maxWait {
		return false
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Add(d).Before(dl) {
		return false
	}
	return true
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
