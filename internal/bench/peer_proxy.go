package bench

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"time"
)

// countingProxy stands between both MCP servers and the one emulator and
// counts what each asks of GitHub, so the figures do not rest on either
// server's own reporting. It answers two kinds of request: plain ones
// (ghgate is pointed at the proxy's URL as its GitHub base URL) and
// forward-proxy ones with an absolute URL (GitHub's MCP server keeps its
// GITHUB_HOST and reaches it through HTTP_PROXY, because it drops any port
// from that host). Both go to the emulator, whatever host they named.
//
// It also times each request, from its arrival to the end of the answer's
// body: what a server spent waiting on GitHub during a tool call, which the
// overhead figures subtract from the call's time.
type countingProxy struct {
	srv *http.Server
	url string

	mu       sync.Mutex
	requests int
	bytes    int64 // response bytes read from the emulator
	spans    []span
	notMod   int // answers 304 Not Modified
	inflight int // requests arrived and not yet recorded
}

// span is one upstream request's time at the proxy.
type span struct{ start, end time.Time }

// upstreamTally is what the proxy saw since the last take.
type upstreamTally struct {
	Requests    int
	Bytes       int64
	NotModified int
	// Busy is the time at least one request was in flight: requests a
	// server sends in parallel overlap, and their wait is counted once.
	Busy time.Duration
}

func startCountingProxy(emulatorURL string) (*countingProxy, error) {
	target, err := url.Parse(emulatorURL)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &countingProxy{url: "http://" + ln.Addr().String()}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			// The emulator serves GitHub's host names only through their
			// paths (/api/v3, /api/graphql), so the name asked for is kept
			// out of the way of its routing.
			pr.Out.Host = target.Host
		},
		// A client that gives up on a request (a server closing while a
		// request is in flight) is not the bench's news.
		ErrorLog: log.New(io.Discard, "", 0),
		ModifyResponse: func(resp *http.Response) error {
			resp.Body = &countingBody{ReadCloser: resp.Body, p: p}
			return nil
		},
	}
	p.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		p.mu.Lock()
		p.inflight++
		p.mu.Unlock()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		// Deferred: the reverse proxy panics (http.ErrAbortHandler) when a
		// client goes away mid-answer, and the request must still end.
		defer p.record(start, sw)
		rp.ServeHTTP(sw, r)
	})}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// record ends a request: counted, timed, no longer in flight.
func (p *countingProxy) record(start time.Time, sw *statusWriter) {
	end := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight--
	p.requests++
	p.spans = append(p.spans, span{start, end})
	if sw.status == http.StatusNotModified {
		p.notMod++
	}
}

// take returns and resets the counts.
func (p *countingProxy) take() (requests int, bytes int64) {
	t := p.tally()
	return t.Requests, t.Bytes
}

// tally returns and resets everything counted. It first waits, briefly,
// for requests still in flight: the client may have read a whole answer
// before the proxy's handler has returned and recorded it, and a request
// left for the next tally would be dropped from this one's upstream time.
// One still in flight after the wait is counted in the next tally.
func (p *countingProxy) tally() upstreamTally {
	for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); {
		p.mu.Lock()
		n := p.inflight
		p.mu.Unlock()
		if n == 0 {
			break
		}
		time.Sleep(50 * time.Microsecond)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t := upstreamTally{Requests: p.requests, Bytes: p.bytes, NotModified: p.notMod, Busy: busy(p.spans)}
	p.requests, p.bytes, p.notMod, p.spans = 0, 0, 0, p.spans[:0]
	return t
}

// busy is the length of the union of the spans.
func busy(spans []span) time.Duration {
	s := slices.Clone(spans)
	slices.SortFunc(s, func(a, b span) int { return a.start.Compare(b.start) })
	var total time.Duration
	var cur span
	for i, sp := range s {
		switch {
		case i == 0:
			cur = sp
		case !sp.start.After(cur.end):
			if sp.end.After(cur.end) {
				cur.end = sp.end
			}
		default:
			total += cur.end.Sub(cur.start)
			cur = sp
		}
	}
	if len(s) > 0 {
		total += cur.end.Sub(cur.start)
	}
	return total
}

// statusWriter notes the status the proxy answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets [http.ResponseController] reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes streamed answers on as they come.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (p *countingProxy) close() error { return p.srv.Close() }

type countingBody struct {
	io.ReadCloser
	p *countingProxy
}

func (b *countingBody) Read(buf []byte) (int, error) {
	n, err := b.ReadCloser.Read(buf)
	b.p.mu.Lock()
	b.p.bytes += int64(n)
	b.p.mu.Unlock()
	return n, err
}
