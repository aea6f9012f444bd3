package broker

import (
	"context"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pending counts the requests read from clients and not yet answered,
// across every session, so a shutdown closes sessions only once every
// answer has been written. (Ending a session's read side is no gentler:
// the SDK drops the answers still to be written once reading fails.)
type pending struct {
	mu   sync.Mutex
	n    int
	idle chan struct{}
}

func (p *pending) add(d int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += d
	if p.n <= 0 && p.idle != nil {
		close(p.idle)
		p.idle = nil
	}
}

// wait returns a channel closed once no request is pending.
func (p *pending) wait() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n <= 0 {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	if p.idle == nil {
		p.idle = make(chan struct{})
	}
	return p.idle
}

// trackedTransport is a client connection's transport whose requests and
// answers are counted in pending, and whose requests are held to the
// session's limits.
type trackedTransport struct {
	next   mcp.Transport
	p      *pending
	limits *sessionLimits
	// refused, when set, is told of each request a limit refused.
	refused func(method string, e *contract.Error)
	// held, when set, is how many tasks the session's client runs: they
	// count against its max_in_flight.
	held func() int
	conn *trackedConn
}

func (t *trackedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.next.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &trackedConn{Connection: c, p: t.p, limits: t.limits, refused: t.refused, held: t.held}
	return t.conn, nil
}

type trackedConn struct {
	mcp.Connection
	p       *pending
	limits  *sessionLimits
	refused func(method string, e *contract.Error)
	held    func() int

	mu sync.Mutex
	// open holds the ids of the requests handed on whose answer has not
	// begun to be written. A request reusing one of them is a duplicate
	// the SDK would drop unanswered, so it is dropped here. Once an
	// answer begins the id is free again (as it is in the SDK), and a new
	// request with it is a new request, counted and limited like any.
	open map[jsonrpc.ID]bool
	// inFlight counts the requests handed on and not yet answered;
	// freed is closed (and replaced) each time it drops.
	inFlight int
	freed    chan struct{}
}

// slotGrace is how long a request over max_in_flight waits for a slot
// before it is refused: an answer is counted until its write returns,
// which may be just after the client has read it and sent the next.
const slotGrace = 100 * time.Millisecond

// inFlightNow returns the session's requests in flight and, when method
// counts them (holdsTasks), its client's running tasks, waiting up to
// slotGrace for a request to end when together they are at the bound.
func (c *trackedConn) inFlightNow(method string) (own, held int) {
	deadline := time.NewTimer(slotGrace)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n, freed := c.inFlight, c.freed
		if freed == nil {
			c.freed = make(chan struct{})
			freed = c.freed
		}
		c.mu.Unlock()
		h := 0
		if c.held != nil && holdsTasks(method) {
			h = c.held()
		}
		if c.limits == nil || n+h < c.limits.maxInFlight {
			return n, h
		}
		select {
		case <-freed:
		case <-deadline.C:
			return n, h
		}
	}
}

// done records that an answer was written.
func (c *trackedConn) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inFlight--
	c.p.add(-1)
	if c.freed != nil {
		close(c.freed)
		c.freed = nil
	}
}

// busy reports whether a request is unanswered.
func (c *trackedConn) busy() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inFlight > 0
}

func (c *trackedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		m, err := c.Connection.Read(ctx)
		req, ok := m.(*jsonrpc.Request)
		if err != nil || !ok {
			return m, err
		}
		if !req.IsCall() {
			if c.limits != nil && !c.limits.notify(req.Method) {
				// Over the rate: dropped, as a notification has no answer.
				if c.refused != nil {
					c.refused(req.Method, contract.Errorf(contract.CodeRateLimited, "a notification over the session's call rate was dropped"))
				}
				continue
			}
			return m, err
		}
		c.mu.Lock()
		if c.open == nil {
			c.open = map[jsonrpc.ID]bool{}
		}
		duplicate := c.open[req.ID]
		c.mu.Unlock()
		if duplicate {
			continue
		}
		if c.limits != nil {
			own, held := c.inFlightNow(req.Method)
			if e := c.limits.admit(req.Method, own, held); e != nil {
				// Answered here, never handed on: the refusal costs the
				// broker one write.
				if c.refused != nil {
					c.refused(req.Method, e)
				}
				if werr := c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: limitError(e)}); werr != nil {
					return nil, werr
				}
				continue
			}
		}
		c.mu.Lock()
		c.open[req.ID] = true
		c.inFlight++
		c.p.add(1)
		c.mu.Unlock()
		return m, err
	}
}

func (c *trackedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	resp, ok := m.(*jsonrpc.Response)
	answering := false
	if ok {
		c.mu.Lock()
		if c.open[resp.ID] {
			delete(c.open, resp.ID)
			answering = true
		}
		c.mu.Unlock()
	}
	err := c.Connection.Write(ctx, m)
	if answering {
		c.done()
	}
	return err
}

// release forgets the requests a finished session never answered.
func (c *trackedConn) release() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.p.add(-c.inFlight)
	c.open, c.inFlight = nil, 0
}
