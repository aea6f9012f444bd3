package bench

import (
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
)

// countingProxy stands between both MCP servers and the one emulator and
// counts what each asks of GitHub, so the figures do not rest on either
// server's own reporting. It answers two kinds of request: plain ones
// (ghgate is pointed at the proxy's URL as its GitHub base URL) and
// forward-proxy ones with an absolute URL (GitHub's MCP server keeps its
// GITHUB_HOST and reaches it through HTTP_PROXY, because it drops any port
// from that host). Both go to the emulator, whatever host they named.
type countingProxy struct {
	srv *http.Server
	url string

	mu       sync.Mutex
	requests int
	bytes    int64 // response bytes read from the emulator
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
		ModifyResponse: func(resp *http.Response) error {
			resp.Body = &countingBody{ReadCloser: resp.Body, p: p}
			return nil
		},
	}
	p.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests++
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// take returns and resets the counts.
func (p *countingProxy) take() (requests int, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	requests, bytes = p.requests, p.bytes
	p.requests, p.bytes = 0, 0
	return requests, bytes
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
