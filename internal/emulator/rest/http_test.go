package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The REST tests drive a whole emulator with the demo seed over HTTP, as a
// client would; these helpers are the same as package emulator's seed
// tests use.

// serveDemo serves a fresh demo emulator on loopback and returns its URL.
func serveDemo(t *testing.T) string {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Now: emulator.DemoNow})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL
}

// reply is one whole HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, url, token string) reply {
	t.Helper()
	return send(t, http.MethodGet, url, token, nil)
}

// send makes one request with token and returns the whole answer; body is
// sent as JSON when not nil.
func send(t *testing.T, method, url, token string, body any) reply {
	t.Helper()
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, payload)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, answer}
}

func getJSON(t *testing.T, url, token string, v any) reply {
	t.Helper()
	r := get(t, url, token)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return r
}

var nextLink = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)
