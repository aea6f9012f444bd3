package store

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// DefaultMemoryBudget bounds the bytes of cached responses Memory keeps in
// the process. It holds the working set of an agent (issues and list
// pages of 5-500 KiB) without weighing on the process's memory; what it
// drops is still in the backend.
const DefaultMemoryBudget int64 = 16 << 20

// memoryEntryOverhead approximates what an entry costs beyond its bytes
// (the list element, the map slot, the header map), so a budget filled
// with many small entries still bounds the memory they take.
const memoryEntryOverhead = 256

// Memory keeps the conditional-request cache's most recently used entries
// in the process, up to [DefaultMemoryBudget] bytes, in front of b: a
// repeat read finds its validators and its body without a round trip to
// the backend. Writes go through to b, which other processes may share.
//
// An entry in memory can be stale: another process sharing b may have
// stored a newer response since. That is safe because the ETag it gives is
// only a validator: GitHub answers 304 only while it still matches, so a
// stale entry costs one full read, whose answer (stored through PutETag)
// replaces it. Entries are keyed by the whole [ETagKey], credential
// included, so one credential is never served another's body.
//
// A hit still marks the entry used in the backend, at most once per
// etagTouchEvery and in the background, so the backend's own eviction
// (and the other processes sharing it) keep seeing it as hot.
//
// The entries it returns share their Body and Header with the cache:
// callers read them and never write to them.
func Memory(b Backend) Backend { return newMemory(b, DefaultMemoryBudget, time.Now) }

func newMemory(b Backend, budget int64, now func() time.Time) *memory {
	return &memory{Backend: b, budget: budget, now: now, entries: map[ETagKey]*list.Element{}, lru: list.New()}
}

// memoryTouchTimeout bounds one background touch of the backend.
const memoryTouchTimeout = 10 * time.Second

type memory struct {
	Backend
	budget int64
	now    func() time.Time
	// touches are the background touches under way; Close waits for them.
	touches sync.WaitGroup

	mu      sync.Mutex
	entries map[ETagKey]*list.Element // values are *memoryEntry
	lru     *list.List                // front: most recently used
	bytes   int64
}

type memoryEntry struct {
	key  ETagKey
	resp CachedResponse
	size int64
	// touched is when the backend last marked the entry used, as far as
	// this process knows.
	touched time.Time
}

// memorySize is what an entry counts against the budget.
func memorySize(key ETagKey, r CachedResponse) int64 {
	n := len(key.Credential) + len(key.URL) + len(key.Accept) + len(r.ETag) + len(r.LastModified) + len(r.Body)
	for k, vs := range r.Header {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return int64(n) + memoryEntryOverhead
}

// PeekETag answers from memory, whole, when it can; otherwise it asks
// the backend for the validators only.
func (m *memory) PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	if r, ok := m.get(key); ok {
		return r, true, nil
	}
	return m.Backend.PeekETag(ctx, key)
}

// GetETag answers from memory when it can; otherwise it reads the backend
// and keeps what it read, unless a write got there first.
func (m *memory) GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	if r, ok := m.get(key); ok {
		return r, true, nil
	}
	r, ok, err := m.Backend.GetETag(ctx, key)
	if err == nil && ok && !r.Partial {
		m.put(key, r, false)
	}
	return r, ok, err
}

// PutETag keeps r in memory, replacing any entry for key, and stores it
// in the backend.
func (m *memory) PutETag(ctx context.Context, key ETagKey, r CachedResponse) error {
	if key.Credential != "" && key.URL != "" && r.ETag != "" {
		m.put(key, r, true)
	}
	return m.Backend.PutETag(ctx, key, r)
}

// DeleteETag forgets key here and in the backend.
func (m *memory) DeleteETag(ctx context.Context, key ETagKey) error {
	m.mu.Lock()
	if e, ok := m.entries[key]; ok {
		m.remove(e)
	}
	m.mu.Unlock()
	return m.Backend.DeleteETag(ctx, key)
}

func (m *memory) get(key ETagKey) (CachedResponse, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	if !ok {
		return CachedResponse{}, false
	}
	m.lru.MoveToFront(e)
	ent := e.Value.(*memoryEntry)
	if now := m.now(); now.Sub(ent.touched) >= etagTouchEvery {
		ent.touched = now
		m.touches.Add(1)
		go m.touch(key)
	}
	return ent.resp, true
}

// touch marks key used in the backend (PeekETag does), off the caller's
// path. A failure only makes the entry look idler there than it is.
func (m *memory) touch(key ETagKey) {
	defer m.touches.Done()
	ctx, cancel := context.WithTimeout(context.Background(), memoryTouchTimeout)
	defer cancel()
	_, _, _ = m.Backend.PeekETag(ctx, key)
}

// Close waits for the background touches, then closes the backend.
func (m *memory) Close() error {
	m.touches.Wait()
	return m.Backend.Close()
}

// put keeps r for key, evicting the least recently used past the budget.
// replace false keeps an entry already there: a read from the backend
// must not overwrite a newer response a write put in meanwhile. A
// response larger than the whole budget is not kept, and any older entry
// for key goes, its validator being stale.
func (m *memory) put(key ETagKey, r CachedResponse, replace bool) {
	size := memorySize(key, r)
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[key]; ok {
		if !replace {
			return
		}
		m.remove(e)
	}
	if size > m.budget {
		return
	}
	// Both a write and a read from the backend have just marked it used.
	m.entries[key] = m.lru.PushFront(&memoryEntry{key: key, resp: r, size: size, touched: m.now()})
	m.bytes += size
	for m.bytes > m.budget {
		m.remove(m.lru.Back())
	}
}

func (m *memory) remove(e *list.Element) {
	ent := m.lru.Remove(e).(*memoryEntry)
	delete(m.entries, ent.key)
	m.bytes -= ent.size
}
