package broker

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"golang.org/x/time/rate"
)

// connSlots counts open connections in total and per peer uid.
type connSlots struct {
	mu       sync.Mutex
	total    int
	perUID   map[uint32]int
	maxTotal int
	maxPer   int
}

func newConnSlots(l Limits) *connSlots {
	return &connSlots{perUID: map[uint32]int{}, maxTotal: l.MaxConnections, maxPer: l.MaxConnectionsPerClient}
}

// take reserves a slot for uid, or says why there is none.
func (s *connSlots) take(uid uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.perUID[uid] >= s.maxPer:
		return fmt.Errorf("uid %d already has %d connections open, the most one client may (max_connections_per_client); close one and connect again", uid, s.maxPer)
	case s.total >= s.maxTotal:
		return fmt.Errorf("the broker has %d connections open, the most it takes (max_connections); try again later", s.maxTotal)
	}
	s.total++
	s.perUID[uid]++
	return nil
}

func (s *connSlots) release(uid uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total--
	if s.perUID[uid]--; s.perUID[uid] <= 0 {
		delete(s.perUID, uid)
	}
}

// refuseConn answers a connection the broker will not serve with one
// JSON-RPC error line (id null: no request was read) and closes it.
func refuseConn(conn net.Conn, e *contract.Error) {
	defer conn.Close()
	_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
	msg, err := jsonrpc.EncodeMessage(&jsonrpc.Response{Error: limitError(e)})
	if err != nil {
		return
	}
	_, _ = conn.Write(append(msg, '\n'))
}

// limitError is a refusal's JSON-RPC error, the contract's envelope in
// its data.
func limitError(e *contract.Error) *jsonrpc.Error { return tooldef.LimitError(e) }

// guardedConn is a client connection with three guards. Reads end it once
// it has sent nothing for idle while none of its requests is in flight (a
// call that takes long keeps it). While an answer is being written, reads
// stop after readAhead bytes until the write is done: a client that does
// not read its answers cannot make the broker read, and hold, more of its
// requests, while one that writes a whole request before it reads still
// gets it read. A write that cannot finish within writeTimeout closes the
// connection: a client that stopped reading is disconnected rather than
// left holding answers in the broker's memory.
type guardedConn struct {
	*net.UnixConn
	idle, writeTimeout time.Duration
	readAhead          int
	busy               func() bool

	mu   sync.Mutex
	done *sync.Cond // signalled when a write ends
	// writing is set for the whole of a write; readDuringWrite counts the
	// bytes read since it began.
	writing         bool
	readDuringWrite int
}

func newGuardedConn(conn *net.UnixConn, l Limits, busy func() bool) *guardedConn {
	c := &guardedConn{UnixConn: conn, idle: l.IdleTimeout, writeTimeout: l.WriteTimeout,
		readAhead: l.MaxLineBytes + 64<<10, busy: busy}
	c.done = sync.NewCond(&c.mu)
	return c
}

func (c *guardedConn) Read(p []byte) (int, error) {
	for {
		c.mu.Lock()
		for c.writing && c.readDuringWrite >= c.readAhead {
			c.done.Wait()
		}
		c.mu.Unlock()
		_ = c.SetReadDeadline(time.Now().Add(c.idle))
		n, err := c.UnixConn.Read(p)
		c.mu.Lock()
		if c.writing {
			c.readDuringWrite += n
		}
		c.mu.Unlock()
		if n > 0 || err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		if !c.busy() {
			return 0, errIdle
		}
	}
}

// Write is called by one writer at a time (the transport serialises
// frames).
func (c *guardedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writing, c.readDuringWrite = true, 0
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.writing = false
		c.done.Broadcast()
		c.mu.Unlock()
	}()
	_ = c.SetWriteDeadline(time.Now().Add(c.writeTimeout))
	n, err := c.UnixConn.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The client stopped reading: nothing more will reach it.
		_ = c.UnixConn.Close()
	}
	return n, err
}

var errIdle = errors.New("the client sent nothing for the idle timeout")

// sessionLimits are one session's in-flight bound and call pacing.
type sessionLimits struct {
	maxInFlight int
	rate        *rate.Limiter

	mu        sync.Mutex
	handshake map[string]bool // the handshake messages already seen
}

func newSessionLimits(l Limits) *sessionLimits {
	return &sessionLimits{maxInFlight: l.MaxInFlight, rate: rate.NewLimiter(rate.Limit(l.CallsPerSecond), l.CallBurst)}
}

// unpaced says whether the call rate lets a message by regardless: the
// first handshake of a session and liveness checks cost nothing and must
// keep working for a client being held to its rate, and a cancellation
// only lightens the load. A repeated handshake is paced like anything
// else (the SDK logs each one). Requests still count against
// max_in_flight.
func (s *sessionLimits) unpaced(method string) bool {
	switch method {
	case "ping", "notifications/cancelled":
		return true
	case "initialize", "notifications/initialized":
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.handshake[method] {
			return false
		}
		if s.handshake == nil {
			s.handshake = map[string]bool{}
		}
		s.handshake[method] = true
		return true
	}
	return false
}

// admit decides on one request given the requests already in flight: nil
// to serve it, or the refusal to answer it with.
func (s *sessionLimits) admit(method string, inFlight int) *contract.Error {
	if inFlight >= s.maxInFlight {
		e := contract.Errorf(contract.CodeRateLimited,
			"this session already has %d requests unanswered, the most it may (max_in_flight); wait for an answer and send it again", s.maxInFlight)
		e.Temporary = true
		e.RetryAfterMS = ptr(int64(1000))
		return e
	}
	if s.unpaced(method) {
		return nil
	}
	return s.pace()
}

// notify says whether a notification from the client may be handled: it
// counts against the call rate too, and one over it is dropped (a
// notification has no answer to refuse it with).
func (s *sessionLimits) notify(method string) bool {
	return s.unpaced(method) || s.pace() == nil
}

// pace takes one request from the session's rate, or refuses it.
func (s *sessionLimits) pace() *contract.Error {
	r := s.rate.Reserve()
	if wait := r.Delay(); !r.OK() || wait > 0 {
		// Refused rather than held back: holding the session's reader
		// would pace a flood silently instead of telling the client.
		r.Cancel()
		e := contract.Errorf(contract.CodeRateLimited,
			"this session sends requests faster than %g a second (calls_per_second, bursts of %d); send it again after retry_after_ms",
			float64(s.rate.Limit()), s.rate.Burst())
		e.Temporary = true
		e.RetryAfterMS = ptr(max(wait, time.Millisecond).Milliseconds())
		return e
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
