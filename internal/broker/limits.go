package broker

import (
	"context"
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

// admit decides on one request given the session's requests already in
// flight (own) and the running tasks of its client's uid that count
// against it (held): nil to serve it, or the refusal to answer it with.
func (s *sessionLimits) admit(method string, own, held int) *contract.Error {
	if own+held >= s.maxInFlight {
		return s.full(own, held)
	}
	if s.unpaced(method) {
		return nil
	}
	return s.pace()
}

// full is the refusal of a request over max_in_flight.
func (s *sessionLimits) full(own, held int) *contract.Error {
	var e *contract.Error
	if held == 0 {
		e = contract.Errorf(contract.CodeRateLimited,
			"this session already has %d requests unanswered, the most it may (max_in_flight); wait for an answer and send it again", s.maxInFlight)
	} else {
		e = contract.Errorf(contract.CodeRateLimited,
			"this session has %d requests unanswered and its client %d tasks running, the most it may have in flight (max_in_flight): a task holds its slot until it ends; wait for an answer or a task to end and send it again",
			own, held)
	}
	e.Temporary = true
	e.RetryAfterMS = ptr(int64(1000))
	return e.WithRepair(contract.Repair{NextStep: "wait for an answer, or for a running task to end (tasks/get; tasks/cancel stops one), then send the request again"})
}

// holdsTasks says whether a request counts its client's running tasks
// against max_in_flight. Only the requests that cannot start work on
// GitHub are let by them: the handshake, liveness, listings the server
// answers from memory, and the task methods, so a client whose tasks
// hold every slot can still reconnect, follow them and cancel them (a
// tasks/update that resumes a task takes a slot as a new task does).
func holdsTasks(method string) bool {
	switch method {
	case "initialize", "server/discover", "ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list",
		"tasks/get", "tasks/update", "tasks/cancel":
		return false
	}
	return true
}

// uidTasks counts each peer uid's running tasks. A task holds one of its
// uid's max_in_flight slots from the call that starts it until it ends,
// whichever connection started it and whether or not that connection is
// still open: closing it and connecting again makes no room.
type uidTasks struct {
	max int

	mu  sync.Mutex
	per map[uint32]int
}

func newUIDTasks(l Limits) *uidTasks { return &uidTasks{max: l.MaxInFlight, per: map[uint32]int{}} }

// running is how many tasks uid runs now.
func (u *uidTasks) running(uid uint32) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.per[uid]
}

// hold takes a slot for a task of the caller ctx names (tasks.Limits's
// Admit), or refuses it when the uid's tasks fill max_in_flight. A call
// whose peer is unknown is refused: every task must count against a uid.
func (u *uidTasks) hold(ctx context.Context) (func(), *contract.Error) {
	p, ok := PeerFrom(ctx)
	if !ok {
		return nil, contract.Errorf(contract.CodeInternal, "a task was started outside a client's session")
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if n := u.per[p.UID]; n >= u.max {
		e := contract.Errorf(contract.CodeRateLimited,
			"this client already has %d tasks running, the most its requests in flight may be (max_in_flight); wait for one to end and call again", n)
		e.Temporary = true
		e.RetryAfterMS = ptr(int64(1000))
		return nil, e.WithRepair(contract.Repair{NextStep: "wait for one of this client's running tasks to end (tasks/get), or cancel one (tasks/cancel), then make the same call again"})
	}
	u.per[p.UID]++
	return func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		if u.per[p.UID]--; u.per[p.UID] <= 0 {
			delete(u.per, p.UID)
		}
	}, nil
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
