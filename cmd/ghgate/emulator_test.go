package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

func TestEmulatorCommandServesAndStops(t *testing.T) {
	addr := freeLoopbackAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := newRootCommand()
	cmd.SetArgs([]string{"emulator", "--listen", addr, "--fault", "status:503@GET /repos/acme/widgets/issues/2x1"})
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	get := func(path string) (int, error) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
		req.Header.Set("Authorization", "token emu-bob")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	var status int
	var err error
	for i := 0; i < 100; i++ { // up to 5 s for the listener
		if status, err = get("/repos/acme/widgets/issues/1"); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("GET issue 1: %v", err)
	}
	if status != http.StatusOK {
		t.Fatalf("GET issue 1: status = %d, want 200", status)
	}
	if status, _ := get("/api/v3/repos/acme/widgets/issues/2"); status != http.StatusServiceUnavailable {
		t.Fatalf("with the --fault flag: status = %d, want 503", status)
	}
	if status, _ := get("/repos/acme/widgets/issues/2"); status != http.StatusOK {
		t.Fatalf("after a fault limited to one request: status = %d, want 200", status)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the emulator did not stop on cancel")
	}
}

func TestEmulatorCommandRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:80", "example.com:80"} {
		cmd := newRootCommand()
		cmd.SetArgs([]string{"emulator", "--listen", addr})
		err := cmd.ExecuteContext(context.Background())
		wantErrorSaying(t, "--listen "+addr, err, "loopback")
	}
}

func TestVersionCommand(t *testing.T) {
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"version"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("version: %v", err)
	}
	if !strings.HasPrefix(out.String(), "ghgate ") {
		t.Fatalf("version output = %q, want it to start with %q", out.String(), "ghgate ")
	}
}

// --search-lag makes search trail writes: an issue just created is read
// back at once, and not found by search.
func TestEmulatorCommandSearchLag(t *testing.T) {
	addr := freeLoopbackAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := newRootCommand()
	cmd.SetArgs([]string{"emulator", "--listen", addr, "--search-lag", "1h"})
	cmd.SetErr(&bytes.Buffer{})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	do := func(method, path, body string) (*http.Response, error) {
		req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("Authorization", "token emu-alice")
		return http.DefaultClient.Do(req)
	}
	var resp *http.Response
	var err error
	for i := 0; i < 100; i++ { // up to 5 s for the listener
		if resp, err = do("POST", "/repos/acme/widgets/issues", `{"title":"Quasar alignment drifts"}`); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: status = %d, want 201", resp.StatusCode)
	}
	var created struct {
		Number int `json:"number"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp, err = do("GET", "/repos/acme/widgets/issues/"+strconv.Itoa(created.Number), ""); err != nil {
		t.Fatalf("read back #%d: %v", created.Number, err)
	} else if resp.StatusCode != http.StatusOK {
		t.Fatalf("read back #%d: status = %d, want 200", created.Number, resp.StatusCode)
	}
	resp.Body.Close()
	resp, err = do("GET", "/search/issues?q=quasar+repo:acme/widgets", "")
	if err != nil {
		t.Fatal(err)
	}
	var found struct {
		Total int `json:"total_count"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&found)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("search right after the create: status = %d, want 200", resp.StatusCode)
	}
	if found.Total != 0 {
		t.Fatalf("search right after the create: total_count = %d, want 0 within the lag", found.Total)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
