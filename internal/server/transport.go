package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes bounds one input line when LineTransport.MaxLineBytes
// is 0. A real request is far smaller (an issue body is at most 65,536
// characters), and the SDK's own 16 MiB would let each of many connections
// hold 16 MiB.
const DefaultMaxLineBytes = 1 << 20

// DefaultMaxBatch bounds a JSON-RPC batch when LineTransport.MaxBatch is 0:
// MCP clients that still batch send a handful of messages, and each one
// becomes a concurrent call.
const DefaultMaxBatch = 20

// LineTransport is [mcp.IOTransport] (newline-delimited JSON-RPC over a
// reader and a writer) with these differences, each answered with a
// JSON-RPC error (id null) where the SDK's transport would end the session
// or accept the input whole:
//   - a line that is not JSON gets Parse error (-32700) and is skipped;
//   - a JSON value that is not a JSON-RPC message gets Invalid Request
//     (-32600);
//   - a line longer than MaxLineBytes gets Invalid Request as soon as it
//     passes the limit, and the rest of it is read and dropped, never held;
//   - a batch (array) of more than MaxBatch messages gets Invalid Request
//     and none of it runs;
//   - so does any batch once the session has negotiated MCP 2025-06-18 or
//     later, which have no batches.
type LineTransport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// Log, when set, records each refused line (never its content).
	Log *slog.Logger
	// MaxLineBytes bounds one line, not counting its newline; 0 (or less)
	// means DefaultMaxLineBytes.
	MaxLineBytes int
	// MaxBatch bounds the messages in one batch; 0 (or less) means
	// DefaultMaxBatch.
	MaxBatch int
}

// StdioTransport is a [LineTransport] over stdin and stdout with the default
// limits; like [mcp.StdioTransport], closing the session does not close
// stdout.
func StdioTransport(log *slog.Logger) *LineTransport {
	return &LineTransport{Reader: os.Stdin, Writer: nopCloser{os.Stdout}, Log: log}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

const (
	// readBufBytes is the most the line reader buffers between reads, and
	// the chunk in which the rest of an over-long line is dropped.
	readBufBytes = 64 << 10
	// keepBufBytes is the largest line buffer kept for the next line; a
	// larger one, grown by one long line, is left to the collector.
	keepBufBytes = 64 << 10
	// frameSlack is what the SDK may count towards a frame beyond the
	// line itself: the newline ending it, and the one ending the line
	// before, which its decoder may read only with the next frame.
	frameSlack = 2
)

// Connect implements [mcp.Transport].
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	maxLine, maxBatch := t.MaxLineBytes, t.MaxBatch
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	if maxBatch <= 0 {
		maxBatch = DefaultMaxBatch
	}
	session := &negotiation{}
	w := &frameWriter{w: t.Writer, session: session}
	r := &lineReader{
		session: session,
		// A buffer no larger than the limit (plus the byte that passes
		// it) lets a small limit be noticed as soon as it is passed.
		src:    bufio.NewReaderSize(t.Reader, min(readBufBytes, maxLine+1)),
		closer: t.Reader, reply: w, log: t.Log,
		maxLine: maxLine, maxBatch: maxBatch,
		lineTooLong:   errorReply(-32600, fmt.Sprintf("Invalid Request: line exceeds %d bytes", maxLine)),
		batchTooLarge: errorReply(-32600, fmt.Sprintf("Invalid Request: batch exceeds %d messages", maxBatch)),
	}
	// The SDK's own bound, kept just above this one, is a backstop that
	// never fires first: when it does, it ends the session.
	return (&mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: maxLine + frameSlack}).Connect(ctx)
}

// The replies to a line that is not JSON, and to one that is not a
// JSON-RPC message: there is no id to answer, so it is null, as JSON-RPC
// 2.0 prescribes.
var (
	parseError     = errorReply(-32700, "Parse error")
	invalidRequest = errorReply(-32600, "Invalid Request")
)

func errorReply(code int, msg string) string {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	// A struct of strings and ints always marshals.
	b, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      *int     `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", nil, rpcError{code, msg}})
	return string(b) + "\n"
}

// frameWriter serialises writes: the SDK writes each frame with one Write,
// and so does lineReader, so frames never interleave.
type frameWriter struct {
	mu      sync.Mutex
	w       io.WriteCloser
	session *negotiation // shown the frames, for the answer to initialize
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.session.answer(p)
	return f.w.Write(p)
}

func (f *frameWriter) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Close()
}

// lineReader hands the SDK's decoder the input one JSON value per line,
// leaving out (and answering) the lines it refuses. Only the SDK's read
// loop calls Read.
type lineReader struct {
	src      *bufio.Reader
	closer   io.Closer
	reply    io.Writer
	log      *slog.Logger
	maxLine  int
	maxBatch int
	session  *negotiation // the version negotiated, which may rule out batches

	lineTooLong, batchTooLarge string // the replies, limits filled in

	buf     []byte // the line being read, reused while small
	pending []byte // what Read returns next, within buf
	err     error  // returned once pending is drained
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
	if len(r.pending) == 0 {
		r.pending = nil
		r.release()
	}
	return n, nil
}

func (r *lineReader) Close() error { return r.closer.Close() }

// release drops a line buffer that one long line grew, so an idle
// connection holds no more than keepBufBytes of it.
func (r *lineReader) release() {
	if cap(r.buf) > keepBufBytes {
		r.buf = nil
	}
}

// fill reads one line and either sets pending to its JSON value (trimmed,
// with a newline) or answers it. At the end of the input it sets err.
func (r *lineReader) fill() {
	defer r.release()
	line := r.buf[:0]
	for {
		chunk, err := r.src.ReadSlice('\n')
		n := len(line) + len(chunk)
		if err == nil {
			n-- // the newline is not part of the line
		}
		if n > r.maxLine {
			r.buf = line
			r.skipLine(err, len(line)+len(chunk))
			return
		}
		line = append(line, chunk...)
		r.buf = line
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			r.err = err
		}
		value := bytes.TrimSpace(line)
		if len(value) == 0 {
			return // a blank line is no frame and gets no reply
		}
		if reply := r.refuse(value); reply != "" {
			r.send(reply)
			return
		}
		// Only the value goes on, so the SDK's count for a frame is the
		// line's length and at most frameSlack more.
		r.pending = append(value, '\n')
		return
	}
}

// skipLine answers an over-long line, of which seen bytes are read, and
// drops the rest of it up to its newline in chunks of the read buffer,
// leaving the reader at the start of the next line. err is the last
// ReadSlice's.
func (r *lineReader) skipLine(err error, seen int) {
	r.warn("input line exceeds the limit; answered with invalid request and skipped", "bytes_read", seen, "limit", r.maxLine)
	r.send(r.lineTooLong)
	for err == bufio.ErrBufferFull {
		_, err = r.src.ReadSlice('\n')
	}
	if err != nil && r.err == nil {
		r.err = err
	}
}

func (r *lineReader) send(reply string) {
	if _, err := io.WriteString(r.reply, reply); err != nil && r.err == nil {
		r.err = err
	}
}

// refuse returns the reply to a value the SDK would end the session on or
// that is out of bounds, or "" for a value to pass on. value is trimmed and
// not empty.
func (r *lineReader) refuse(value []byte) string {
	switch {
	case !json.Valid(value):
		r.warn("input line is not JSON; answered with a JSON-RPC parse error", "bytes", len(value))
		return parseError
	case value[0] == '{':
		if !isMessage(value) {
			r.warn("input line is not a JSON-RPC message; answered with invalid request", "bytes", len(value))
			return invalidRequest
		}
	case value[0] != '[':
		// A JSON value that is not an object (null, 42, "x") is an
		// invalid request, as JSON-RPC 2.0 says.
		r.warn("input line is not a JSON-RPC message; answered with invalid request", "bytes", len(value))
		return invalidRequest
	default:
		if version := r.session.batchesGone(); version != "" {
			r.warn("input line is a batch, which the session's protocol version has not; answered with invalid request", "version", version)
			return errorReply(-32600, "Invalid Request: MCP "+version+" has no JSON-RPC batches; send each message on its own line")
		}
		switch n := batchLen(value); {
		case n == 0:
			// So is an empty batch.
			r.warn("input line is an empty batch; answered with invalid request", "bytes", len(value))
			return invalidRequest
		case n > r.maxBatch:
			r.warn("input batch exceeds the limit; answered with invalid request", "messages", n, "limit", r.maxBatch)
			return r.batchTooLarge
		case !isBatch(value):
			// The SDK's read fails on the first element it cannot read
			// and ends the session, the batch's other calls with it.
			r.warn("input batch holds an element that is not a JSON-RPC message; answered with invalid request", "messages", n)
			return invalidRequest
		}
	}
	return ""
}

// batchLen counts the elements of b, a valid JSON array, without decoding
// them: the commas between them are the ones outside strings at depth one.
func batchLen(b []byte) int {
	if len(bytes.TrimSpace(b[1:len(b)-1])) == 0 {
		return 0
	}
	n, depth := 1, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 1:
			n++
		}
	}
	return n
}

func (r *lineReader) warn(msg string, args ...any) {
	if r.log != nil {
		r.log.Warn(msg, args...)
	}
}
