package store

import (
	"context"
	"sync"
	"time"
)

// writeBehindBytes bounds the cached responses waiting to be written. A
// writer that gets this far ahead of the backend waits for it, so a slow
// or stalled backend costs memory only up to here.
const writeBehindBytes = 16 << 20

// writeBehindTimeout bounds one background write, so a backend that stops
// answering cannot hold the queue (and Close) forever.
const writeBehindTimeout = 30 * time.Second

// WriteBehind takes the conditional-request cache's writes off the
// caller's path: PutETag and DeleteETag queue the change and return, and
// one goroutine applies the queue to b in order. A response arrives,
// the caller decodes it and sends the next request while the backend is
// still storing the last one. Until a queued change is written, GetETag
// answers from the queue, so a caller always reads its own writes. Every
// other method is b's own. Close writes what is queued, then closes b.
//
// A background write that fails is reported by the next PutETag or
// DeleteETag, so the caller's view of the backend's health stays current;
// the entry itself is lost, which costs one full read later.
func WriteBehind(b Backend) Backend { return newWriteBehind(b, writeBehindBytes) }

func newWriteBehind(b Backend, limit int64) *writeBehind {
	w := &writeBehind{Backend: b, limit: limit, pending: map[ETagKey]*etagChange{}, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

type writeBehind struct {
	Backend
	limit int64 // queued body bytes past which a writer waits

	mu      sync.Mutex
	cond    *sync.Cond // signalled when the queue grows, shrinks or closes
	pending map[ETagKey]*etagChange
	queue   []*etagChange
	bytes   int64
	failed  error // the last background write's failure, not yet reported
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

func (w *writeBehind) PutETag(ctx context.Context, key ETagKey, r CachedResponse) error {
	return w.enqueue(ctx, &etagChange{key: key, resp: r})
}

func (w *writeBehind) DeleteETag(ctx context.Context, key ETagKey) error {
	return w.enqueue(ctx, &etagChange{key: key, delete: true})
}

func (w *writeBehind) enqueue(ctx context.Context, c *etagChange) error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return w.apply(ctx, c)
	}
	// Wait for room, unless nothing is waiting: one response larger than
	// the bound still goes through (the backend decides whether to keep it).
	for w.bytes > 0 && w.bytes+c.size() > w.limit && !w.closed {
		w.cond.Wait()
	}
	w.pending[c.key] = c
	w.queue = append(w.queue, c)
	w.bytes += c.size()
	w.cond.Broadcast()
	err := w.failed
	w.failed = nil
	w.mu.Unlock()
	return err
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
		ctx, cancel := context.WithTimeout(context.Background(), writeBehindTimeout)
		err := w.apply(ctx, c)
		cancel()
		w.mu.Lock()
		// A later change to the same key stays pending until it is written.
		if w.pending[c.key] == c {
			delete(w.pending, c.key)
		}
		w.bytes -= c.size()
		if err != nil {
			w.failed = err
		}
		w.cond.Broadcast()
	}
}

// Close writes every queued change, then closes the backend.
func (w *writeBehind) Close() error {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.done
	return w.Backend.Close()
}
