package store

import (
	"context"
	"sync"
	"time"
)

// writeBehindBytes bounds the cached responses waiting to be written. A
// change that would pass it is dropped rather than queued: the cache is
// only a saving, and a slow or unreachable backend must cost neither
// memory past this nor a caller's time.
const writeBehindBytes = 16 << 20

// writeBehindTimeout bounds one background write, and closeDrainLimit the
// time Close gives the queue before it abandons what is left (a backend
// that stopped answering would otherwise hold a shutdown for minutes).
const (
	writeBehindTimeout = 30 * time.Second
	closeDrainLimit    = 5 * time.Second
)

// WriteBehind takes the conditional-request cache's writes off the
// caller's path: PutETag and DeleteETag queue the change and return, and
// one goroutine applies the queue to b in order. A response arrives,
// the caller decodes it and sends the next request while the backend is
// still storing the last one. Until a queued change is written, GetETag
// answers from the queue, so a caller always reads its own writes. Every
// other method is b's own. Close writes what is queued (for at most
// closeDrainLimit), then closes b.
//
// PutETag and DeleteETag return the last background write's failure until
// a later write succeeds, so the caller's view of the backend's health
// follows the backend's, not the queue's; a change that failed is lost,
// which costs one full read later.
func WriteBehind(b Backend) Backend { return newWriteBehind(b, writeBehindBytes, closeDrainLimit) }

func newWriteBehind(b Backend, limit int64, drainLimit time.Duration) *writeBehind {
	ctx, abandon := context.WithCancel(context.Background())
	w := &writeBehind{Backend: b, limit: limit, drainLimit: drainLimit, ctx: ctx, abandon: abandon,
		pending: map[ETagKey]*etagChange{}, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

type writeBehind struct {
	Backend
	limit      int64 // queued body bytes past which a change is dropped
	drainLimit time.Duration
	// ctx bounds the background writes; abandon ends it when Close has
	// waited drainLimit, so what is left fails at once.
	ctx     context.Context
	abandon context.CancelFunc

	mu      sync.Mutex
	cond    *sync.Cond // signalled when the queue grows or closes
	pending map[ETagKey]*etagChange
	queue   []*etagChange
	bytes   int64
	failed  error // the last background write's failure, until one succeeds
	closed  bool
	done    chan struct{}
}

// etagChange is one queued write: a response to store, or a deletion.
type etagChange struct {
	key    ETagKey
	resp   CachedResponse
	delete bool
}

func (c *etagChange) size() int64 { return int64(len(c.resp.Body)) }

func (w *writeBehind) GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	w.mu.Lock()
	c, ok := w.pending[key]
	w.mu.Unlock()
	if !ok {
		return w.Backend.GetETag(ctx, key)
	}
	if c.delete {
		return CachedResponse{}, false, nil
	}
	return c.resp, true, nil
}

func (w *writeBehind) PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	w.mu.Lock()
	c, ok := w.pending[key]
	w.mu.Unlock()
	if !ok {
		return w.Backend.PeekETag(ctx, key)
	}
	if c.delete {
		return CachedResponse{}, false, nil
	}
	return c.resp, true, nil
}

func (w *writeBehind) PutETag(_ context.Context, key ETagKey, r CachedResponse) error {
	return w.enqueue(&etagChange{key: key, resp: r})
}

func (w *writeBehind) DeleteETag(_ context.Context, key ETagKey) error {
	return w.enqueue(&etagChange{key: key, delete: true})
}

// enqueue queues c, unless the store is closing or the queue is full:
// then c is dropped (an entry not stored, or not deleted, costs at most
// one full read, as a stale validator only earns a 200).
func (w *writeBehind) enqueue(c *etagChange) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed && (w.bytes == 0 || w.bytes+c.size() <= w.limit) {
		w.pending[c.key] = c
		w.queue = append(w.queue, c)
		w.bytes += c.size()
		w.cond.Signal()
	}
	return w.failed
}

func (w *writeBehind) apply(ctx context.Context, c *etagChange) error {
	if c.delete {
		return w.Backend.DeleteETag(ctx, c.key)
	}
	return w.Backend.PutETag(ctx, c.key, c.resp)
}

// run applies the queue in order until Close, then what is left.
func (w *writeBehind) run() {
	defer close(w.done)
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			return
		}
		c := w.queue[0]
		w.queue[0] = nil
		w.queue = w.queue[1:]
		w.mu.Unlock()
		ctx, cancel := context.WithTimeout(w.ctx, writeBehindTimeout)
		err := w.apply(ctx, c)
		cancel()
		w.mu.Lock()
		// A later change to the same key stays pending until it is written.
		if w.pending[c.key] == c {
			delete(w.pending, c.key)
		}
		w.bytes -= c.size()
		w.failed = err
	}
}

// Close writes every queued change, for at most the drain limit, then
// closes the backend. Changes made once Close has begun are dropped.
func (w *writeBehind) Close() error {
	w.mu.Lock()
	w.closed = true
	w.cond.Signal()
	w.mu.Unlock()
	t := time.NewTimer(w.drainLimit)
	defer t.Stop()
	select {
	case <-w.done:
	case <-t.C:
		w.abandon()
		<-w.done
	}
	w.abandon()
	return w.Backend.Close()
}
