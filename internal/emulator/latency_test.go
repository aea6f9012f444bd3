package emulator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Added latency is the time every request takes: a read is answered
// whole and no sooner than the latency after it arrived, and so is a
// write, which is applied.
func TestLatency(t *testing.T) {
	const latency = 300 * time.Millisecond
	emu, err := emulator.New(emulator.Options{Now: emulator.DemoNow, Latency: latency})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	do := func(ctx context.Context, method, path, body string) (*http.Response, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	issue := func() (title string) {
		_, body, err := do(context.Background(), http.MethodGet, "/repos/acme/widgets/issues/1", "")
		if err != nil {
			t.Fatal(err)
		}
		var is struct{ Title string }
		if err := json.Unmarshal(body, &is); err != nil {
			t.Fatalf("issue: %v: %s", err, body)
		}
		return is.Title
	}

	for _, method := range []string{http.MethodGet, http.MethodHead} {
		start := time.Now()
		resp, body, err := do(context.Background(), method, "/repos/acme/widgets/issues/1", "")
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < latency {
			t.Errorf("%s answered after %v, under the latency %v", method, took, latency)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d, want %d", method, resp.StatusCode, http.StatusOK)
		}
		for _, h := range []string{"ETag", "X-RateLimit-Remaining"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("%s: no %s header, want one (headers %v)", method, h, resp.Header)
			}
		}
		if method == http.MethodGet && !json.Valid(body) {
			t.Errorf("GET body is not whole JSON: %q", body)
		}
	}

	start := time.Now()
	resp, _, err := do(context.Background(), http.MethodPatch, "/repos/acme/widgets/issues/1", `{"title":"changed"}`)
	if err != nil {
		t.Fatalf("PATCH: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PATCH: status %d, want %d", resp.StatusCode, http.StatusOK)
	}
	if took := time.Since(start); took < latency {
		t.Errorf("PATCH answered after %v, under the latency %v", took, latency)
	}
	if after := issue(); after != "changed" {
		t.Fatalf("title after the PATCH = %q, want %q", after, "changed")
	}
}
