package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
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
	if err != nil || status != http.StatusOK {
		t.Fatalf("GET issue 1: %d, %v", status, err)
	}
	if status, _ := get("/api/v3/repos/acme/widgets/issues/2"); status != http.StatusServiceUnavailable {
		t.Fatalf("the --fault flag did not apply: %d", status)
	}
	if status, _ := get("/repos/acme/widgets/issues/2"); status != http.StatusOK {
		t.Fatalf("a fault limited to one request hit again: %d", status)
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
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("--listen %s: %v", addr, err)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"version"})
	if err := cmd.Execute(); err != nil || !strings.HasPrefix(out.String(), "ghgate ") {
		t.Fatalf("version: %q, %v", out.String(), err)
	}
}
