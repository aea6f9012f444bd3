package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/store"
)

const (
	owner = emulator.DemoOrg
	repo  = emulator.DemoWidgetsRepo
)

// emu is a demo-seeded emulator on 127.0.0.1 that counts the requests it
// receives, by "METHOD /path" as they arrived (GHES prefix included).
type emu struct {
	*emulator.Emulator
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	seen     map[string]int
	onArrive func() // called as each request arrives, before it is handled
}

func startEmu(t testing.TB, opts emulator.Options) *emu {
	t.Helper()
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	em := &emu{Emulator: e, seen: map[string]int{}}
	em.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		em.mu.Lock()
		em.seen[r.Method+" "+r.URL.Path]++
		hook := em.onArrive
		em.mu.Unlock()
		if hook != nil {
			hook()
		}
		e.ServeHTTP(w, r)
	}))
	t.Cleanup(em.srv.Close)
	em.URL = em.srv.URL
	return em
}

// arriving sets a hook that runs as each request arrives.
func (e *emu) arriving(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onArrive = f
}

// count is how many requests arrived for "METHOD /path".
func (e *emu) count(route string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[route]
}

// total is how many requests arrived at all.
func (e *emu) total() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, v := range e.seen {
		n += v
	}
	return n
}

func (e *emu) fault(t testing.TB, f emulator.Fault) {
	t.Helper()
	if err := e.Faults().Add(f); err != nil {
		t.Fatalf("add fault %+v: %v", f, err)
	}
}

// sleeper records the back-off waits the client asks for and returns at
// once, so tests can check that retry-after was honoured without waiting.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeper) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

func memStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// newClient builds a client for base with an in-memory store and a
// recording sleeper. mods adjust the options first.
func newClient(t testing.TB, base, token string, mods ...func(*Options)) (*Client, *sleeper) {
	t.Helper()
	o := Options{BaseURL: base, Token: token, Store: memStore(t)}
	for _, m := range mods {
		m(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	sl := &sleeper{}
	c.sleep = sl.sleep
	return c, sl
}

// asError unwraps err into *Error or fails.
func asError(t testing.TB, err error) *Error {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error, got nil")
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T (%v) is not *github.Error", err, err)
	}
	return e
}

func issuePath(n int) string {
	return "/repos/" + owner + "/" + repo + "/issues/" + strconv.Itoa(n)
}

// issueCount is how many issues acme/widgets holds now.
func (e *emu) issueCount() int {
	st := e.State()
	st.Lock()
	defer st.Unlock()
	return len(st.Repo(owner, repo).Issues)
}

// commentCount is how many comments an acme/widgets issue holds now.
func (e *emu) commentCount(n int) int {
	st := e.State()
	st.Lock()
	defer st.Unlock()
	return len(st.Repo(owner, repo).Issue(n).Comments)
}
