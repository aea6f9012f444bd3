package upstream

import (
	"context"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/version"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dialTimeout bounds starting a child (or reaching a URL) and the MCP
// handshake with it.
const dialTimeout = 30 * time.Second

// slot holds the current session of one credential mode.
type slot struct {
	mu   sync.Mutex
	sess *session
}

// session is one MCP client session to the upstream, started with one
// token.
type session struct {
	cs    *mcp.ClientSession
	token string
	// pid is the child's process id (0 for a URL).
	pid int
	// done is closed when the connection ends (the child died, the
	// stream broke, or Close).
	done      chan struct{}
	closeOnce sync.Once

	// calls counts the calls holding the session. Once it is retired, idle
	// is closed when the count reaches zero: the release that brings it
	// there signals, so nothing waits on the count from a goroutine of its
	// own that could outlive the proxy.
	mu      sync.Mutex
	calls   int
	retired bool
	idle    chan struct{}
}

func newSession(cs *mcp.ClientSession, token string, pid int) *session {
	return &session{cs: cs, token: token, pid: pid, done: make(chan struct{}), idle: make(chan struct{})}
}

func (s *session) alive() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// hold counts a call on the session; the caller must release it.
func (s *session) hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
}

func (s *session) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls--
	s.signalIdle()
}

// retire marks the session as serving no new calls and returns a channel
// closed once its last call is released.
func (s *session) retire() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retired = true
	s.signalIdle()
	return s.idle
}

// signalIdle closes idle when a retired session has no call; s.mu held.
func (s *session) signalIdle() {
	if !s.retired || s.calls != 0 {
		return
	}
	select {
	case <-s.idle:
	default:
		close(s.idle)
	}
}

// close ends the session; for a child, the SDK closes its stdin, waits,
// then signals it, and reaps it.
func (s *session) close() {
	s.closeOnce.Do(func() { _ = s.cs.Close() })
}

// acquire returns a live session of mode started with token, starting one
// if there is none, the current one died, or the token changed. At most
// one start is attempted per call: a dead child is restarted once, on the
// next call. The caller must release the session.
func (p *Proxy) acquire(ctx context.Context, mode tooldef.Mode, credential, token string) (*session, error) {
	s := p.slot(mode, credential)
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-p.closing:
		return nil, errClosed
	default:
	}
	if cur := s.sess; cur != nil {
		if cur.alive() && cur.token == token {
			cur.hold()
			return cur, nil
		}
		if cur.alive() {
			p.log.Info("upstream credential changed; starting a new session", "mode", mode)
		} else {
			p.log.Warn("upstream session ended; restarting it", "mode", mode)
		}
		s.sess = nil
		p.retire(cur)
	}
	// The start outlives a caller that gives up: the session serves the
	// next calls too.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dialTimeout)
	defer cancel()
	sess, err := p.dial(dctx, mode, token)
	if err != nil {
		return nil, err
	}
	s.sess = sess
	sess.hold()
	return sess, nil
}

// slot returns the session slot of one credential, making it on first use.
func (p *Proxy) slot(mode tooldef.Mode, credential string) *slot {
	p.slotsMu.Lock()
	defer p.slotsMu.Unlock()
	key := string(mode) + "\x00" + credential
	s := p.slots[key]
	if s == nil {
		s = &slot{}
		p.slots[key] = s
	}
	return s
}

// retire closes a session once its calls have finished, or at Close.
func (p *Proxy) retire(s *session) {
	p.retiring.Add(1)
	go func() {
		defer p.retiring.Done()
		select {
		case <-s.retire():
		case <-p.closing:
		}
		s.close()
	}()
}

// dial starts a child or connects to the URL, and completes the MCP
// handshake.
func (p *Proxy) dial(ctx context.Context, mode tooldef.Mode, token string) (*session, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "ghgate-broker", Version: p.version()}, nil)
	var (
		t   mcp.Transport
		pid func() int
	)
	if len(p.cfg.Command) > 0 {
		ct, err := p.childTransport(mode, token)
		if err != nil {
			return nil, err
		}
		t = ct
		pid = func() int {
			if ct.Command.Process == nil {
				return 0
			}
			return ct.Command.Process.Pid
		}
	} else {
		t = p.httpTransport(token)
		pid = func() int { return 0 }
	}
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, &dialError{name: p.cfg.Name, msg: p.red.clean(err.Error())}
	}
	sess := newSession(cs, token, pid())
	go func() {
		_ = cs.Wait()
		close(sess.done)
		// A child that died is reaped now, not when the next call comes.
		sess.close()
	}()
	if sess.pid != 0 {
		p.log.Info("upstream child started", "mode", mode, "pid", sess.pid)
	} else {
		p.log.Info("upstream session started", "mode", mode)
	}
	return sess, nil
}

func (p *Proxy) version() string {
	if p.opts.Version != "" {
		return p.opts.Version
	}
	return version.Current()
}

// dialError is a failure to start or reach the upstream; its message is
// already redacted.
type dialError struct{ name, msg string }

func (e *dialError) Error() string { return "starting upstream " + e.name + ": " + e.msg }

type closedError struct{}

func (closedError) Error() string { return "the upstream proxy is closed" }

var errClosed error = closedError{}
