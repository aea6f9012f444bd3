package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LineTransport is mcp.IOTransport (newline-delimited JSON-RPC over a
// reader and a writer) with one difference: a line that is not JSON is
// answered with a JSON-RPC Parse error (-32700, id null) and skipped, and a
// JSON object that is not a JSON-RPC message with Invalid Request (-32600,
// id null), where the SDK's transport ends the session on either. Batches
// (arrays) and lines too long to check (over mcp.DefaultMaxLineLength) are
// passed on for the SDK to judge.
type LineTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// Log, when set, records each unparseable line (never its content).
	Log *slog.Logger
}

// StdioTransport is a LineTransport over stdin and stdout; like
// mcp.StdioTransport, closing the session does not close stdout.
func StdioTransport(log *slog.Logger) *LineTransport {
	return &LineTransport{Reader: os.Stdin, Writer: nopCloser{os.Stdout}, Log: log}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	w := &frameWriter{w: t.Writer}
	r := &lineReader{src: bufio.NewReaderSize(t.Reader, 64<<10), closer: t.Reader, reply: w, log: t.Log}
	return (&mcp.IOTransport{Reader: r, Writer: w}).Connect(ctx)
}

// The replies to a line that is not JSON, and to an object that is not a
// JSON-RPC message: there is no id to answer, so it is null, as JSON-RPC
// 2.0 prescribes.
const (
	parseError     = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n"
	invalidRequest = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}` + "\n"
)

// frameWriter serialises writes: the SDK writes each frame with one Write,
// and so does lineReader, so frames never interleave.
type frameWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Write(p)
}

func (f *frameWriter) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Close()
}

// lineReader hands the SDK's decoder the input line by line, leaving out
// (and answering) lines that are not JSON. Only the SDK's read loop calls
// Read.
type lineReader struct {
	src    *bufio.Reader
	closer io.Closer
	reply  io.Writer
	log    *slog.Logger

	pending []byte // what Read returns next
	err     error  // returned once pending is drained
	// unchecked is set while the rest of an over-long line is passed on.
	unchecked bool
}

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 && r.err == nil {
		r.fill()
	}
	if len(r.pending) == 0 {
		return 0, r.err
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func (r *lineReader) Close() error { return r.closer.Close() }

// fill reads one line, or one piece of a line too long to check, into
// pending; an unparseable line is answered instead. At the end of the
// input it sets err.
func (r *lineReader) fill() {
	var line []byte
	for {
		chunk, err := r.src.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			if !r.unchecked && len(line) < mcp.DefaultMaxLineLength {
				continue
			}
			r.unchecked = true
			r.pending = line
			return
		}
		if err != nil {
			r.err = err
		}
		if r.unchecked {
			// The end of an over-long line.
			r.unchecked = false
			r.pending = line
			return
		}
		if reply := r.refuse(line); reply != "" {
			if _, werr := io.WriteString(r.reply, reply); werr != nil && r.err == nil {
				r.err = werr
			}
			return
		}
		r.pending = line
		return
	}
}

// refuse returns the reply to a line the SDK would end the session on, or
// "" for a line to pass on.
func (r *lineReader) refuse(line []byte) string {
	trimmed := bytes.TrimSpace(line)
	switch {
	case len(trimmed) == 0:
		return ""
	case !json.Valid(trimmed):
		r.warn("input line is not JSON; answered with a JSON-RPC parse error", len(line))
		return parseError
	case trimmed[0] == '{':
		if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
			r.warn("input line is not a JSON-RPC message; answered with invalid request", len(line))
			return invalidRequest
		}
	case trimmed[0] != '[' || emptyArray(trimmed):
		// A JSON value that is not an object (null, 42, "x") and an empty
		// batch are invalid requests, as JSON-RPC 2.0 says.
		r.warn("input line is not a JSON-RPC message; answered with invalid request", len(line))
		return invalidRequest
	}
	return ""
}

func emptyArray(b []byte) bool {
	var a []json.RawMessage
	return json.Unmarshal(b, &a) == nil && len(a) == 0
}

func (r *lineReader) warn(msg string, n int) {
	if r.log != nil {
		r.log.Warn(msg, "bytes", n)
	}
}
