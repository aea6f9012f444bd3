package bench

import (
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The counting proxy hands both kinds of request to the emulator, whatever
// host a forward-proxy request names, and counts each request and every
// response byte.
func TestCountingProxyForwardsAndCounts(t *testing.T) {
	emu, err := startEmulator(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = emu.Close() }()
	p, err := startCountingProxy(emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.close() }()
	proxyURL, _ := url.Parse(p.url)

	plain := &http.Client{Timeout: 10 * time.Second}
	forward := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
	cases := []struct {
		name   string
		client *http.Client
		url    string
	}{
		{"plain", plain, p.url + "/repos/acme/widgets/issues/1"},
		{"forward, GitHub Enterprise path", forward, peerHost + "/api/v3/repos/acme/widgets/issues/1"},
	}
	var read int64
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, c.url, nil)
			req.Header.Set("Authorization", "token "+emulator.DemoTokenAlice)
			resp, err := c.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			read += int64(len(body))
		})
	}
	requests, bytes := p.take()
	if requests != len(cases) {
		t.Errorf("counted %d requests, want %d", requests, len(cases))
	}
	if bytes != read {
		t.Errorf("counted %d bytes, want %d", bytes, read)
	}
	r, b := p.take()
	if r != 0 {
		t.Errorf("a second take counted %d requests, want 0 (reset)", r)
	}
	if b != 0 {
		t.Errorf("a second take counted %d bytes, want 0 (reset)", b)
	}
}
