package broker_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawClient speaks newline-delimited JSON-RPC on the socket by hand, so a
// test can send what no SDK client would.
type rawClient struct {
	conn net.Conn
	in   *bufio.Reader
}

func dialRaw(t *testing.T, path string) *rawClient {
	t.Helper()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &rawClient{conn: conn, in: bufio.NewReaderSize(conn, 1<<16)}
}

func (c *rawClient) send(t *testing.T, line string) {
	t.Helper()
	_ = c.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.conn.Write([]byte(line + "\n")); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// rpcReply is a JSON-RPC response as it arrives.
type rpcReply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Code         string `json:"code"`
			RetryAfterMS *int64 `json:"retry_after_ms"`
		} `json:"data"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

// wantAnswer stops the test unless r answers the request id without an
// error.
func wantAnswer(t *testing.T, what string, r rpcReply, id string) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("%s: error %+v, want an answer", what, *r.Error)
	}
	if string(r.ID) != id {
		t.Fatalf("%s: id = %s, want %s", what, r.ID, id)
	}
}

// wantRefusal stops the test unless r is an error whose message holds
// each of subs.
func wantRefusal(t *testing.T, what string, r rpcReply, subs ...string) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("%s: answered (id %s), want an error saying %q", what, r.ID, subs)
	}
	for _, s := range subs {
		if !strings.Contains(r.Error.Message, s) {
			t.Fatalf("%s: error message = %q, want one saying %q", what, r.Error.Message, s)
		}
	}
}

// read reads one line (a response or a batch of them), bounded in time;
// io errors are returned, so a test can see the connection close.
func (c *rawClient) read(t *testing.T) ([]rpcReply, error) {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(60 * time.Second))
	line, err := c.in.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	line = []byte(strings.TrimSpace(string(line)))
	if len(line) > 0 && line[0] == '[' {
		var batch []rpcReply
		if err := json.Unmarshal(line, &batch); err != nil {
			t.Fatalf("reply %s: %v", line, err)
		}
		return batch, nil
	}
	var r rpcReply
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("reply %s: %v", line, err)
	}
	return []rpcReply{r}, nil
}

func (c *rawClient) mustRead(t *testing.T) []rpcReply {
	t.Helper()
	r, err := c.read(t)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return r
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// initialize completes the handshake on a raw client.
func (c *rawClient) initialize(t *testing.T) { c.initializeLine(t, initLine) }

// initializeBatching completes the handshake with MCP 2025-03-26, the
// last version with JSON-RPC batches.
func (c *rawClient) initializeBatching(t *testing.T) {
	c.initializeLine(t, strings.Replace(initLine, "2025-06-18", "2025-03-26", 1))
}

func (c *rawClient) initializeLine(t *testing.T, line string) {
	t.Helper()
	c.send(t, line)
	r := c.mustRead(t)
	if len(r) != 1 {
		t.Fatalf("initialize: %d replies, want 1: %+v", len(r), r)
	}
	if r[0].Error != nil {
		t.Fatalf("initialize: error %+v, want none", *r[0].Error)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// One client cannot hold every connection: past its own cap (and past the
// broker's total) a connection is answered with an error and closed, and
// a freed slot is usable again.
func TestConnectionCaps(t *testing.T) {
	t.Parallel()
	t.Run("per client", func(t *testing.T) {
		d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nmax_connections = 10\nmax_connections_per_client = 2"})
		first, second := dialRaw(t, d.Socket.Path()), dialRaw(t, d.Socket.Path())
		first.initialize(t)
		second.initialize(t)
		third := dialRaw(t, d.Socket.Path())
		r := third.mustRead(t)
		wantRefusal(t, "the third connection", r[0], "max_connections_per_client")
		if r[0].Error.Data.Code != "rate_limited" {
			t.Fatalf("the third connection: data.code = %q, want rate_limited", r[0].Error.Data.Code)
		}
		if _, err := third.read(t); !closed(err) {
			t.Fatalf("the refused connection stayed open: %v", err)
		}
		_ = first.conn.Close()
		// The slot comes back once the broker has seen the close.
		// A connection still over the cap is answered and closed at once,
		// possibly before the handshake is written: a write or read on
		// the closed socket is that refusal, not a failure.
		for i := 0; ; i++ {
			again := dialRaw(t, d.Socket.Path())
			_ = again.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
			var last any = "the connection was closed"
			if _, err := again.conn.Write([]byte(initLine + "\n")); err == nil {
				r, err := again.read(t)
				if err == nil && r[0].Error == nil {
					break
				}
				if err == nil {
					last = r[0]
				} else if !closed(err) {
					t.Fatalf("reading the handshake's answer: %v", err)
				}
			} else if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("write: %v", err)
			}
			if i == 200 {
				t.Fatalf("no slot after a connection closed: %+v", last)
			}
			time.Sleep(25 * time.Millisecond)
		}
		second.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
		if r := second.mustRead(t); r[0].Error != nil {
			t.Fatalf("a connection within the cap: error %+v, want an answer", *r[0].Error)
		}
	})
	t.Run("total", func(t *testing.T) {
		d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nmax_connections = 2\nmax_connections_per_client = 2"})
		dialRaw(t, d.Socket.Path()).initialize(t)
		dialRaw(t, d.Socket.Path()).initialize(t)
		r := dialRaw(t, d.Socket.Path()).mustRead(t)
		wantRefusal(t, "a connection over the total", r[0], "max_connections")
	})
}

// A connection that sends nothing is closed after the idle timeout, but
// not while a call of its own is in flight.
func TestIdleConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nidle_timeout = \"1s\""})
	started, release := make(chan struct{}), make(chan struct{})
	serveTool(d, "hold", func() string {
		close(started)
		<-release
		return "released"
	})

	busy := dialRaw(t, d.Socket.Path())
	busy.initialize(t)
	busy.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatal("the held call never reached its tool")
	}
	// Two idle connections, one after the other, each closed after its
	// idle timeout: the clock that closes them is the one the busy
	// connection's reads run on, so two idle timeouts pass with the call
	// in flight.
	for range 2 {
		idle := dialRaw(t, d.Socket.Path())
		idle.initialize(t)
		if _, err := idle.read(t); !closed(err) {
			t.Fatalf("an idle connection was not closed: %v", err)
		}
	}
	close(release)
	wantAnswer(t, "the held call", busy.mustRead(t)[0], "5")
}

// The configured line and batch bounds reach the socket's transport: a
// line or batch over them is answered with an error and the session
// goes on. A session of a version without batches has any batch
// answered so.
func TestLineAndBatchBounds(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nmax_line_bytes = 4096\nmax_batch = 3"})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	c.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	wantRefusal(t, "a batch in a 2025-06-18 session", c.mustRead(t)[0], "has no JSON-RPC batches")
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	wantAnswer(t, "the session after the refused batch", c.mustRead(t)[0], "2")

	c = dialRaw(t, d.Socket.Path())
	c.initializeBatching(t)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", 64<<10)+`"}}`)
	wantRefusal(t, "a line over max_line_bytes", c.mustRead(t)[0], "4096")
	c.send(t, `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`)
	r := c.mustRead(t)
	if len(r) != 1 {
		t.Fatalf("a batch over max_batch: %d replies, want 1 refusal: %+v", len(r), r)
	}
	wantRefusal(t, "a batch over max_batch", r[0], "3")
	c.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	wantAnswer(t, "the session after the refusals", c.mustRead(t)[0], "6")
}

// One session cannot have more than max_in_flight requests unanswered, nor
// send faster than its rate: the excess is refused at once with a retry
// time, and nothing of it reaches a tool.
func TestSessionInFlightAndRate(t *testing.T) {
	t.Parallel()
	t.Run("in flight", func(t *testing.T) {
		d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nmax_in_flight = 2"})
		release, entered := make(chan struct{}), make(chan struct{}, 10)
		serveTool(d, "hold", func() string {
			entered <- struct{}{}
			<-release
			return "released"
		})
		c := dialRaw(t, d.Socket.Path())
		c.initialize(t)
		for id := 1; id <= 3; id++ {
			c.send(t, `{"jsonrpc":"2.0","id":`+string(rune('0'+id))+`,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
		}
		r := c.mustRead(t)
		if string(r[0].ID) != "3" {
			t.Fatalf("the third call in flight: first reply id = %s, want 3", r[0].ID)
		}
		wantRefusal(t, "the third call in flight", r[0], "max_in_flight")
		if r[0].Error.Data.RetryAfterMS == nil {
			t.Fatalf("the third call in flight: no data.retry_after_ms, want one")
		}
		close(release)
		got := map[string]bool{}
		for len(got) < 2 {
			for _, x := range c.mustRead(t) {
				if x.Error != nil {
					t.Fatalf("a call within the bound failed: %+v", x)
				}
				got[string(x.ID)] = true
			}
		}
		if len(entered) != 2 {
			t.Fatalf("%d calls reached the tool, want 2", len(entered))
		}
		if lines := brokertest.AuditLines(t, d.Audit); len(lines) != 2 {
			t.Fatalf("%d audit lines, want 2 (the refused call never ran)", len(lines))
		}
	})
	t.Run("rate", func(t *testing.T) {
		d := brokertest.Start(t, brokertest.Options{Config: "[limits]\ncalls_per_second = 0.5\ncall_burst = 3"})
		c := dialRaw(t, d.Socket.Path())
		c.initializeBatching(t)
		c.send(t, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"tools/list"},{"jsonrpc":"2.0","id":4,"method":"tools/list"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`)
		var ok, limited int
		for ok+limited < 5 {
			for _, x := range c.mustRead(t) {
				switch {
				case x.Error == nil:
					ok++
				case x.Error.Data.Code == "rate_limited" && x.Error.Data.RetryAfterMS != nil && *x.Error.Data.RetryAfterMS > 0:
					limited++
				default:
					t.Fatalf("unexpected reply: %+v", x)
				}
			}
		}
		// Three from the burst and the ping, which is never limited.
		if ok != 4 {
			t.Errorf("answered = %d, want 4", ok)
		}
		if limited != 1 {
			t.Errorf("refused = %d, want 1", limited)
		}
	})
}

// The limits a config leaves out take their defaults; bad ones refuse to
// start.
func TestLimitsDefaults(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	if got := d.Config.Limits; got != broker.DefaultLimits() {
		t.Fatalf("limits %+v, want the defaults %+v", got, broker.DefaultLimits())
	}
	for _, bad := range []string{"max_connections = -1", "idle_timeout = 5", "calls_per_second = -2"} {
		dir := t.TempDir()
		path := dir + "/b.toml"
		body := "[listen]\nsocket = \"" + dir + "/s\"\n[[route]]\nowner = \"*\"\nread = \"r\"\n[limits]\n" + bad + "\n"
		if err := writeFile(path, body); err != nil {
			t.Fatal(err)
		}
		if _, err := broker.LoadConfig(path); err == nil || !strings.Contains(err.Error(), "[limits]") {
			t.Errorf("%s: error = %v, want one saying [limits]", bad, err)
		}
	}
}

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o600) }

// closed reports whether a read ended because the broker closed the
// connection (not because the test's own deadline passed).
func closed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
}

// A batch of thousands of calls is refused whole: not one reaches a tool
// or GitHub.
func TestHugeBatchReachesNothing(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	calls := make([]string, 3000)
	for i := range calls {
		calls[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"github_get_issue","arguments":{"owner":"acme","repo":"widgets","issue_number":1}}}`
	}
	c.send(t, "["+strings.Join(calls, ",")+"]")
	if r := c.mustRead(t); len(r) != 1 {
		t.Fatalf("a batch of 3,000 calls: %d replies, want 1 refusal; first %+v", len(r), r[0])
	} else if r[0].Error == nil {
		t.Fatalf("a batch of 3,000 calls: answered, want an error: %+v", r[0])
	}
	c.send(t, `{"jsonrpc":"2.0","id":9999,"method":"ping"}`)
	if r := c.mustRead(t); r[0].Error != nil {
		t.Fatalf("the session after the refused batch: error %+v, want an answer", *r[0].Error)
	}
	if lines := brokertest.AuditLines(t, d.Audit); len(lines) != 0 {
		t.Fatalf("%d calls of the refused batch ran (audit lines), want 0", len(lines))
	}
}

// A client that sends and never reads its answers cannot make the broker
// hold them: reading stops while an answer waits, pings count against
// max_in_flight too, and the connection is closed once an answer has
// waited the write timeout.
func TestClientThatDoesNotReadIsDisconnected(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nwrite_timeout = \"1s\"\ncalls_per_second = 100000\ncall_burst = 100000"})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	pad := strings.Repeat("x", 64<<10)
	// Far more answers than the socket buffers hold, none read.
	sent := 0
	deadline := time.Now().Add(2 * time.Minute)
	for ; time.Now().Before(deadline); sent++ {
		_ = c.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
		_, err := c.conn.Write([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(sent+1) + `,"method":"ping","params":{"pad":"` + pad + `"}}` + "\n"))
		if err != nil {
			break // the broker stopped reading, then closed the connection
		}
	}
	if sent > 2000 {
		t.Fatalf("the broker read %d padded requests whose answers nobody read", sent)
	}
	// Whatever is left to read ends with the broker's close, not a hang.
	_ = c.conn.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := io.Copy(io.Discard, c.conn); err != nil && !closed(err) {
		t.Fatalf("reading the rest: %v", err)
	}
	t.Logf("%d requests were taken before the broker stopped reading", sent)
	// Another client is served.
	other := dialRaw(t, d.Socket.Path())
	other.initialize(t)
}

// Requests with an id already in flight are dropped by the protocol
// layer unanswered; they do not count as in flight, so the idle timeout
// and max_in_flight still work after them.
func TestReusedRequestIDsDoNotLeak(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nidle_timeout = \"1s\"\nmax_in_flight = 2"})
	release := make(chan struct{})
	serveTool(d, "hold", func() string {
		<-release
		return "released"
	})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	c.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	c.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	c.send(t, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	// A second request with a fresh id is within max_in_flight = 2.
	c.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	wantAnswer(t, "a ping beside the held call", c.mustRead(t)[0], "6")
	close(release)
	wantAnswer(t, "the held call", c.mustRead(t)[0], "5")
	if _, err := c.read(t); !closed(err) {
		t.Fatalf("the connection was not closed when idle: %v", err)
	}
}

// A client that writes a whole request before it reads, while a large
// answer to its previous one is being written, still gets both answers:
// the broker reads ahead up to a line's limit while it writes.
func TestClientWritingBeforeReadingIsServed(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nwrite_timeout = \"5s\""})
	big := strings.Repeat("y", 2<<20)
	serveTool(d, "big", func() string {
		return big
	})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{}}}`)
	time.Sleep(200 * time.Millisecond) // the 2 MiB answer is being written, unread
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"`+strings.Repeat("x", 900<<10)+`"}}`)
	got := map[string]bool{}
	for len(got) < 2 {
		for _, r := range c.mustRead(t) {
			if r.Error != nil {
				t.Fatalf("answer %s: %+v", r.ID, r.Error)
			}
			got[string(r.ID)] = true
		}
	}
}

// An id freed because its answer is being written may be reused, but the
// new request is counted and limited like any other: reusing ids while
// answers are blocked gets no call past max_in_flight or the rate.
func TestReusedIDsDuringAnAnswerAreLimited(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\nmax_in_flight = 10\ncalls_per_second = 0.2\ncall_burst = 1\nwrite_timeout = \"20s\""})
	big := strings.Repeat("y", 4<<20)
	var entered atomic.Int64
	serveTool(d, "big", func() string {
		return big
	})
	serveTool(d, "hold", func() string {
		entered.Add(1)
		return "held"
	})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{}}}`)
	time.Sleep(200 * time.Millisecond)
	for id := 2; id <= 10; id++ {
		c.send(t, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"ping"}`)
	}
	time.Sleep(200 * time.Millisecond)
	for id := 2; id <= 10; id++ {
		c.send(t, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	}
	// A reused id whose ping is not yet being answered (a slow machine)
	// is a duplicate, dropped unanswered; so the answers are counted up
	// to a last ping with a fresh id rather than to a fixed number.
	c.send(t, `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	seen := map[string]int{}
	refused := 0
	for seen["1"] == 0 || seen["99"] == 0 {
		for _, r := range c.mustRead(t) {
			seen[string(r.ID)]++
			if r.Error != nil {
				refused++
			}
		}
	}
	// Stopping the broker waits for every request handed on to be
	// answered, so a call that got past the limits has run by now.
	go func() { _, _ = io.Copy(io.Discard, c.conn) }()
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := entered.Load(); n != 0 {
		t.Fatalf("%d calls reusing ids ran past max_in_flight and the rate (%d refused)", n, refused)
	}
	t.Logf("%d of 9 calls reusing freed ids were refused by the rate, the rest dropped as duplicates", refused)
}

// The handshake passes the rate once; repeats are paced like any other
// message, so they cannot flood the broker's log.
func TestRepeatedHandshakeIsPaced(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Config: "[limits]\ncalls_per_second = 0.5\ncall_burst = 3"})
	c := dialRaw(t, d.Socket.Path())
	c.initialize(t)
	for range 500 {
		c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	c.send(t, `{"jsonrpc":"2.0","id":77,"method":"ping"}`)
	if r := c.mustRead(t); string(r[0].ID) != "77" {
		t.Fatalf("ping after the repeats: reply id = %s, want 77 (%+v)", r[0].ID, r[0])
	}
	if n := strings.Count(d.Log.String(), "duplicate initialized"); n > 5 {
		t.Fatalf("%d repeated initialized notifications were handled (and logged)", n)
	}
}

// serveTool serves a read tool on d whose result is the text fn returns.
func serveTool(d *brokertest.Daemon, name string, fn func() string) {
	d.Broker.AddTool(&mcp.Tool{Name: name, InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fn()}}}, nil
		}, tooldef.Read)
}
