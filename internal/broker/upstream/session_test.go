package upstream

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inMemorySession is a session over an in-process MCP server, for tests of
// the session's own bookkeeping.
func inMemorySession(t *testing.T) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "test"}, nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "down", Version: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	return newSession(cs, "tok", 0)
}

// retireGoroutines counts the goroutines running in (or started by)
// Proxy.retire.
func retireGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return strings.Count(string(buf), "upstream.(*Proxy).retire")
}

// A session retired while a call holds it is closed at Close, and nothing
// is left waiting for that call: no goroutine of retire's outlives Close.
func TestRetiredSessionLeavesNoGoroutineAfterClose(t *testing.T) {
	p := &Proxy{slots: map[string]*slot{}, closing: make(chan struct{})}
	s := inMemorySession(t)
	s.hold() // a call still in flight
	p.retire(s)
	if !s.alive() {
		t.Fatal("a retired session with a call in flight was closed before Close")
	}
	select {
	case <-s.idle:
		t.Fatal("idle signalled while a call holds the session")
	default:
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if n := retireGoroutines(); n != 0 {
		t.Fatalf("%d goroutines of retire still run after Close", n)
	}
	s.release()
	select {
	case <-s.idle:
	default:
		t.Fatal("releasing the last call did not signal idle")
	}
}

// A retired session closes once its last call is released, without Close.
func TestRetiredSessionClosesWhenItsLastCallEnds(t *testing.T) {
	p := &Proxy{slots: map[string]*slot{}, closing: make(chan struct{})}
	s := inMemorySession(t)
	s.hold()
	s.hold()
	p.retire(s)
	s.release()
	select {
	case <-s.idle:
		t.Fatal("idle signalled with a call still in flight")
	default:
	}
	s.release()
	done := make(chan struct{})
	go func() { p.retiring.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the retired session was not closed after its last call")
	}
	if n := retireGoroutines(); n != 0 {
		t.Fatalf("%d goroutines of retire still run", n)
	}
}
