package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"golang.org/x/time/rate"
)

// codeLimited is the JSON-RPC error code of a request refused by a limit
// (the implementation-defined server error range).
const codeLimited = -32000

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

// limitError is a refusal's JSON-RPC error: the contract's envelope in
// its data, with machine_code and human_message as resource errors carry.
func limitError(e *contract.Error) *jsonrpc.Error {
	data, _ := json.Marshal(struct {
		*contract.Error
		MachineCode  contract.Code `json:"machine_code"`
		HumanMessage string        `json:"human_message"`
	}{e, e.Code, e.Message})
	return &jsonrpc.Error{Code: codeLimited, Message: fmt.Sprintf("%s: %s", e.Code, e.Message), Data: data}
}

// idleConn ends a client connection that has sent nothing for idle while
// none of its requests is in flight: a call that takes long keeps it.
type idleConn struct {
	*net.UnixConn
	idle time.Duration
	busy func() bool
}

func (c *idleConn) Read(p []byte) (int, error) {
	for {
		_ = c.SetReadDeadline(time.Now().Add(c.idle))
		n, err := c.UnixConn.Read(p)
		if n > 0 || err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		if !c.busy() {
			return 0, errIdle
		}
	}
}

var errIdle = errors.New("the client sent nothing for the idle timeout")

// sessionLimits are one session's in-flight bound and call pacing.
type sessionLimits struct {
	maxInFlight int
	pace        *rate.Limiter
}

func newSessionLimits(l Limits) *sessionLimits {
	return &sessionLimits{maxInFlight: l.MaxInFlight, pace: rate.NewLimiter(rate.Limit(l.CallsPerSecond), l.CallBurst)}
}

// exempt are the requests never paced: the handshake and liveness checks
// cost nothing and must keep working for a client being paced.
func exempt(method string) bool {
	return method == "initialize" || method == "ping"
}

// admit decides on one request given the requests already in flight: nil
// to serve it, or the refusal to answer it with.
func (s *sessionLimits) admit(method string, inFlight int) *contract.Error {
	if exempt(method) {
		return nil
	}
	if inFlight >= s.maxInFlight {
		e := contract.Errorf(contract.CodeRateLimited,
			"this session already has %d requests unanswered, the most it may (max_in_flight); wait for an answer and send it again", s.maxInFlight)
		e.Temporary = true
		e.RetryAfterMS = ptr(int64(1000))
		return e
	}
	r := s.pace.Reserve()
	if wait := r.Delay(); !r.OK() || wait > 0 {
		// Refused rather than held back: holding the session's reader
		// would pace a flood silently instead of telling the client.
		r.Cancel()
		e := contract.Errorf(contract.CodeRateLimited,
			"this session sends requests faster than %g a second (calls_per_second, bursts of %d); send it again after retry_after_ms",
			float64(s.pace.Limit()), s.pace.Burst())
		e.Temporary = true
		e.RetryAfterMS = ptr(max(wait, time.Millisecond).Milliseconds())
		return e
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
