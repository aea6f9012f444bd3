package upstream

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport reaches a URL upstream with token in the Authorization
// header of every request.
func (p *Proxy) httpTransport(token string) *mcp.StreamableClientTransport {
	base := p.opts.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	u, _ := url.Parse(p.cfg.URL) // checked by Config.check
	client := &http.Client{
		Transport: &bearer{base: base, scheme: u.Scheme, host: u.Host, token: token},
		// A redirect would carry the request, and with it the token's
		// authority, somewhere the operator did not configure.
		CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
	}
	return &mcp.StreamableClientTransport{Endpoint: p.cfg.URL, HTTPClient: client,
		// Server-initiated messages are not forwarded to agents, so the
		// standing SSE stream would only hold a connection open.
		DisableStandaloneSSE: true}
}

var errRedirect = errors.New("the upstream answered with a redirect; redirects are not followed")

// bearer adds the token to requests for the configured origin only.
type bearer struct {
	base         http.RoundTripper
	scheme, host string
	token        string
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != b.scheme || !strings.EqualFold(req.URL.Host, b.host) {
		// Never reached while redirects are refused; kept so the token
		// cannot leave through a future code path either.
		return nil, errors.New("request to an origin other than the upstream's refused")
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}
