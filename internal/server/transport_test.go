package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineSession runs a ghgate server over a LineTransport and returns the
// client's ends: what it writes, and the frames it reads.
func lineSession(t *testing.T) (in io.WriteCloser, out <-chan map[string]json.RawMessage) {
	t.Helper()
	srv, err := server.New(&toolkit.Service{Clients: toolkit.OneClient{}}, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return pipeSession(t, srv.MCP, server.LineTransport{})
}

// pipeSession runs m over tr (its Reader and Writer set here to pipes) and
// returns the client's ends. A batch reply (a JSON array) arrives as its
// elements, one frame each.
func pipeSession(t *testing.T, m *mcp.Server, tr server.LineTransport) (in io.WriteCloser, out <-chan map[string]json.RawMessage) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.Reader, tr.Writer = inR, outW
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, &tr) }()
	frames := make(chan map[string]json.RawMessage, 100)
	go func() {
		defer close(frames)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var batch []map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &batch) == nil {
				for _, f := range batch {
					frames <- f
				}
				continue
			}
			var f map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
				t.Errorf("output line is not one JSON frame: %q", sc.Text())
				continue
			}
			frames <- f
		}
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the session did not end when its input closed")
		}
		cancel()
		_ = outR.Close()
	})
	return inW, frames
}

func next(t *testing.T, frames <-chan map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	select {
	case f, ok := <-frames:
		if !ok {
			t.Fatal("the server's output ended")
		}
		return f
	case <-time.After(5 * time.Second):
		t.Fatal("no reply")
	}
	return nil
}

func send(t *testing.T, in io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(in, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

func isParseError(f map[string]json.RawMessage) bool { return isError(f, -32700) }

// wantResult fails the test unless f answers request id with a result.
func wantResult(t *testing.T, what string, f map[string]json.RawMessage, id string) {
	t.Helper()
	if got := string(f["id"]); got != id {
		t.Fatalf("%s: reply id = %s, want %s: %s", what, got, id, show(f))
	}
	if f["result"] == nil {
		t.Fatalf("%s: reply has no result, want one: %s", what, show(f))
	}
}

func isError(f map[string]json.RawMessage, code int) bool {
	var e struct{ Code int }
	return string(f["id"]) == "null" && json.Unmarshal(f["error"], &e) == nil && e.Code == code
}

// TestLineTransportAnswersUnparseableLines: a line that is not JSON gets a
// JSON-RPC parse error and the session goes on.
func TestLineTransportAnswersUnparseableLines(t *testing.T) {
	in, frames := lineSession(t)
	send(t, in, "not json")
	if f := next(t, frames); !isParseError(f) {
		t.Fatalf("reply to a line that is not JSON = %s, want a parse error (-32700) with a null id", show(f))
	}
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	wantResult(t, "initialize", next(t, frames), "1")
	send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"`) // cut short
	if f := next(t, frames); !isParseError(f) {
		t.Fatalf("reply to a truncated frame = %s, want a parse error (-32700) with a null id", show(f))
	}
	send(t, in, `{"id":2,"method":"tools/list"}`) // JSON, not JSON-RPC 2.0
	if f := next(t, frames); !isError(f, -32600) {
		t.Fatalf("reply to an object that is not JSON-RPC = %s, want Invalid Request (-32600) with a null id", show(f))
	}
	// JSON, but no request.
	for _, v := range []string{"null", "42", `"x"`, "[]", "true"} {
		t.Run(v, func(t *testing.T) {
			send(t, in, v)
			if f := next(t, frames); !isError(f, -32600) {
				t.Fatalf("reply to %s = %s, want Invalid Request (-32600) with a null id", v, show(f))
			}
		})
	}
	send(t, in, "") // blank lines are not frames and get no reply
	send(t, in, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	wantResult(t, "ping after the parse errors", next(t, frames), "3")
	// Lines longer than the transport's read buffer are read whole.
	pad := strings.Repeat("x", 300<<10)
	send(t, in, `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"pad":"`+pad+`"}}}`)
	wantResult(t, "long ping", next(t, frames), "4")
	send(t, in, `{"pad":"`+pad+`"`)
	if f := next(t, frames); !isParseError(f) {
		t.Fatalf("reply to a long line that is not JSON = %s, want a parse error (-32700) with a null id", show(f))
	}
}

// TestLineTransportFramesDoNotInterleave: parse-error replies and the
// SDK's own responses, written concurrently, stay whole lines.
func TestLineTransportFramesDoNotInterleave(t *testing.T) {
	in, frames := lineSession(t)
	send(t, in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	next(t, frames)
	send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const n = 50
	go func() {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i)
			b.WriteString("{oops\n")
		}
		_, _ = io.WriteString(in, b.String())
	}()
	results, parseErrors := 0, 0
	for results < n || parseErrors < n {
		f := next(t, frames)
		switch {
		case isParseError(f):
			parseErrors++
		case f["result"] != nil:
			results++
		default:
			t.Fatalf("unexpected frame %v", f)
		}
	}
}

// echoServer is a bare MCP server with one tool, echo, that returns its
// text argument.
func echoServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "0"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
	})
	return s
}

// initialized opens the session with 2025-03-26, the last version that
// allows batches.
func initialized(t *testing.T, in io.Writer, frames <-chan map[string]json.RawMessage) {
	t.Helper()
	send(t, in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	wantResult(t, "initialize", next(t, frames), "0")
	send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// echoLine is a tools/call of echo, padded to exactly n bytes.
func echoLine(t *testing.T, id, n int) (line, text string) {
	t.Helper()
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, id)
	const tail = `"}}}`
	if n < len(head)+len(tail) {
		t.Fatalf("%d bytes is too short for a call", n)
	}
	text = strings.Repeat("x", n-len(head)-len(tail))
	return head + text + tail, text
}

// echoed returns the text of an echo result, failing unless f is one.
func echoed(t *testing.T, f map[string]json.RawMessage, id int) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string }
	}
	if got := string(f["id"]); got != fmt.Sprint(id) {
		t.Fatalf("reply id = %s, want echo's result for id %d: %s", got, id, show(f))
	}
	if err := json.Unmarshal(f["result"], &res); err != nil {
		t.Fatalf("echo's result for id %d: %v: %s", id, err, show(f))
	}
	if len(res.Content) != 1 {
		t.Fatalf("echo's result for id %d has %d content blocks, want 1: %s", id, len(res.Content), show(f))
	}
	return res.Content[0].Text
}

// errorMessage returns the message of a -32600 error with a null id,
// failing unless f is one.
func errorMessage(t *testing.T, f map[string]json.RawMessage) string {
	t.Helper()
	var e struct{ Message string }
	if !isError(f, -32600) {
		t.Fatalf("reply = %s, want Invalid Request (-32600) with a null id", show(f))
	}
	if err := json.Unmarshal(f["error"], &e); err != nil {
		t.Fatalf("error of %s: %v", show(f), err)
	}
	return e.Message
}

// TestLineTransportRefusesOverlongLines: a line over MaxLineBytes gets one
// Invalid Request naming the limit, sent before the line has even ended,
// and the session serves the next line; a line of exactly the limit is
// served.
func TestLineTransportRefusesOverlongLines(t *testing.T) {
	const limit = 4 << 10
	in, frames := pipeSession(t, echoServer(), server.LineTransport{MaxLineBytes: limit})
	initialized(t, in, frames)

	line, text := echoLine(t, 1, limit)
	send(t, in, line)
	if got := echoed(t, next(t, frames), 1); got != text {
		t.Fatalf("a line of exactly %d bytes: echoed %d bytes, want %d", limit, len(got), len(text))
	}

	line, _ = echoLine(t, 2, limit+1)
	send(t, in, line)
	if msg := errorMessage(t, next(t, frames)); !strings.Contains(msg, "4096 bytes") {
		t.Fatalf("the refusal does not name the limit: %q", msg)
	}
	line, text = echoLine(t, 3, 100)
	send(t, in, line)
	if got := echoed(t, next(t, frames), 3); got != text {
		t.Fatalf("after the refusal: echoed %q, want %q", got, text)
	}

	// A line many times the limit (and the read buffer) is refused once,
	// as soon as it passes the limit, before its newline is sent.
	if _, err := io.WriteString(in, strings.Repeat("y", limit+100)); err != nil {
		t.Fatal(err)
	}
	if msg := errorMessage(t, next(t, frames)); !strings.Contains(msg, "4096 bytes") {
		t.Fatalf("the refusal does not name the limit: %q", msg)
	}
	send(t, in, strings.Repeat("z", 300<<10))
	line, text = echoLine(t, 4, limit)
	send(t, in, line)
	if got := echoed(t, next(t, frames), 4); got != text {
		t.Fatalf("after a long refused line: echoed %d bytes, want %d", len(got), len(text))
	}
}

// TestLineTransportBoundsBatches: a batch of more than MaxBatch messages is
// refused whole with one Invalid Request naming the limit; a batch within
// it is served; the default limit applies when MaxBatch is 0.
func TestLineTransportBoundsBatches(t *testing.T) {
	const limit = 3
	batch := func(first, n int) string {
		calls := make([]string, n)
		for i := range calls {
			l, _ := echoLine(t, first+i, 150)
			calls[i] = l
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	in, frames := pipeSession(t, echoServer(), server.LineTransport{MaxBatch: limit})
	initialized(t, in, frames)

	send(t, in, batch(1, limit+1))
	if msg := errorMessage(t, next(t, frames)); !strings.Contains(msg, "3 messages") {
		t.Fatalf("the refusal does not name the limit: %q", msg)
	}
	send(t, in, batch(10, limit))
	seen := map[string]bool{}
	for range limit {
		f := next(t, frames)
		seen[string(f["id"])] = true
		echoed(t, f, mustAtoi(t, string(f["id"])))
	}
	for id := 10; id < 10+limit; id++ {
		if !seen[fmt.Sprint(id)] {
			t.Fatalf("batch within the limit: no reply to %d (got %v)", id, seen)
		}
	}
	// A batch with an element the SDK cannot read is refused whole: the
	// SDK's read would fail on it and end the session.
	for _, b := range []string{`[{"jsonrpc":"2.0","id":20,"method":"ping"},1]`, `[{"jsonrpc":"2.0","id":21,"method":"ping"},{"id":22,"method":"ping"}]`} {
		send(t, in, b)
		if f := next(t, frames); !isError(f, -32600) {
			t.Fatalf("reply to the batch %s = %s, want Invalid Request (-32600) with a null id", b, show(f))
		}
	}
	// Nothing of the refused batches ran: the next frame answers a ping.
	send(t, in, `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	if f := next(t, frames); string(f["id"]) != "99" {
		t.Fatalf("after the batches: %s", show(f))
	}

	in, frames = pipeSession(t, echoServer(), server.LineTransport{})
	initialized(t, in, frames)
	send(t, in, batch(1, server.DefaultMaxBatch+1))
	if msg := errorMessage(t, next(t, frames)); !strings.Contains(msg, fmt.Sprintf("%d messages", server.DefaultMaxBatch)) {
		t.Fatalf("the default limit's refusal: %q", msg)
	}
}

// TestLineTransportAnswersBatchesAfterTheyWereRemoved: in a session that
// negotiated MCP 2025-06-18 or later, which have no batches, a batch gets
// Invalid Request naming the version and the session goes on (the SDK's
// read would fail on it and end the session). The version is the one the
// server answered with: asked for an unknown one, the server answers with
// its latest, which has no batches either.
func TestLineTransportAnswersBatchesAfterTheyWereRemoved(t *testing.T) {
	// The ids and the escaped method are read as the SDK reads them: it
	// answers 1.5 as 1.
	// An initialize in a batch is answered in one.
	for _, c := range []struct {
		asked, id, method, answerID string
		batched                     bool
	}{
		{"2025-06-18", `"init"`, "initialize", `"init"`, false},
		{"2025-11-25", "7", "initi\\u0061lize", "7", false},
		{"2099-01-01", "1.5", "initialize", "1", false},
		{"2025-06-18", "2", "initialize", "2", true},
	} {
		asked := c.asked
		in, frames := pipeSession(t, echoServer(), server.LineTransport{})
		line := `{"jsonrpc":"2.0","id":` + c.id + `,"method":"` + c.method + `","params":{"protocolVersion":"` + asked + `","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
		if c.batched {
			line = "[" + line + "]"
		}
		send(t, in, line)
		f := next(t, frames)
		wantResult(t, "initialize", f, c.answerID)
		var res struct{ ProtocolVersion string }
		if err := json.Unmarshal(f["result"], &res); err != nil {
			t.Fatal(err)
		}
		send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, b := range []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`} {
			send(t, in, b)
			if msg := errorMessage(t, next(t, frames)); !strings.Contains(msg, "MCP "+res.ProtocolVersion+" has no JSON-RPC batches") {
				t.Fatalf("asked %s: the refusal of %s does not name the session's version %s: %q", asked, b, res.ProtocolVersion, msg)
			}
		}
		send(t, in, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
		wantResult(t, "asked "+asked+": a ping after the batches", next(t, frames), "4")
	}
}

// show is f as JSON, cut short: frames here may carry kilobytes of padding.
func show(f map[string]json.RawMessage) string {
	b, _ := json.Marshal(f)
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("id %q: %v", s, err)
	}
	return n
}
