package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The health endpoint of a running `serve --http` answers, and
// `ghgate healthcheck` (the container image's health check) accepts it.
func TestServeHTTPHealth(t *testing.T) {
	url, _, stderr, _ := startHTTPServe(t, "--demo")
	healthURL := strings.TrimSuffix(url, mcpPath) + healthPath
	out, err := exec.Command(ghgateBinary(t), "healthcheck", "--url", healthURL).CombinedOutput()
	if err != nil {
		t.Fatalf("healthcheck: %v\n%s\nserver:\n%s", err, out, stderr.String())
	}
	if got := strings.TrimSpace(string(out)); got != "ok dev" {
		t.Fatalf("healthcheck printed %q, want %q", got, "ok dev")
	}
	// Only GET is served there.
	resp, err := http.Post(healthURL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST %s: status = %s, want 405", healthPath, resp.Status)
	}
}

func TestProbeHealthRefusesWhatIsNotOK(t *testing.T) {
	cases := map[string]http.HandlerFunc{
		"503": func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "down", http.StatusServiceUnavailable)
		},
		"not ok": func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"status":"starting"}`))
		},
		"not JSON": func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`<html>ok</html>`))
		},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := probeHealth(ctx, srv.URL); err == nil || !strings.Contains(err.Error(), srv.URL) {
				t.Fatalf("probeHealth error = %v, want one naming %s", err, srv.URL)
			}
		})
	}
	// Nothing listening is an error too, not a hang.
	srv := httptest.NewServer(http.NotFoundHandler())
	dead := srv.URL
	srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := probeHealth(ctx, dead); err == nil {
		t.Fatal("a closed port passed the health check")
	}
}
