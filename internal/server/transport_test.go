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
	"github.com/ghgate/ghgate/internal/tools"
)

// lineSession runs a ghgate server over a LineTransport and returns the
// client's ends: what it writes, and the frames it reads.
func lineSession(t *testing.T) (in io.WriteCloser, out <-chan map[string]json.RawMessage) {
	t.Helper()
	srv, err := server.New(&tools.Service{Clients: tools.OneClient{}}, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.MCP.Run(ctx, &server.LineTransport{Reader: inR, Writer: outW}) }()
	frames := make(chan map[string]json.RawMessage, 100)
	go func() {
		defer close(frames)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
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
		t.Fatalf("reply to a line that is not JSON: %v", f)
	}
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if f := next(t, frames); string(f["id"]) != "1" || f["result"] == nil {
		t.Fatalf("initialize: %v", f)
	}
	send(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"`) // cut short
	if f := next(t, frames); !isParseError(f) {
		t.Fatalf("reply to a truncated frame: %v", f)
	}
	send(t, in, `{"id":2,"method":"tools/list"}`) // JSON, not JSON-RPC 2.0
	if f := next(t, frames); !isError(f, -32600) {
		t.Fatalf("reply to an object that is not JSON-RPC: %v", f)
	}
	for _, v := range []string{"null", "42", `"x"`, "[]", "true"} { // JSON, but no request
		send(t, in, v)
		if f := next(t, frames); !isError(f, -32600) {
			t.Fatalf("reply to %s: %v", v, f)
		}
	}
	send(t, in, "") // blank lines are not frames and get no reply
	send(t, in, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if f := next(t, frames); string(f["id"]) != "3" || f["result"] == nil {
		t.Fatalf("ping after the parse errors: %v", f)
	}
	// Lines longer than the transport's read buffer are read whole.
	pad := strings.Repeat("x", 300<<10)
	send(t, in, `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"pad":"`+pad+`"}}}`)
	if f := next(t, frames); string(f["id"]) != "4" || f["result"] == nil {
		t.Fatalf("long ping: %v", f)
	}
	send(t, in, `{"pad":"`+pad+`"`)
	if f := next(t, frames); !isParseError(f) {
		t.Fatalf("reply to a long line that is not JSON: %v", f)
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
