// Package redisserver starts a private redis-server (Debian's package) for
// a test: on a free loopback port, without persistence, in the test's temp
// directory, stopped when the test ends. Tests that need Redis skip when
// redis-server is not installed, except in CI (CI set, as CI systems do), where .ci/run
// installs it and its absence is a failure.
package redisserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Server is one redis-server process the test owns.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	Port int
	cmd  *exec.Cmd
	done chan struct{}
}

// Binary finds redis-server, failing the test in CI and skipping it
// elsewhere when it is missing.
func Binary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("redis-server"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/bin/redis-server", "/usr/sbin/redis-server"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("redis-server is not installed; .ci/run installs it with apt-get install redis-server")
	}
	t.Skip("redis-server is not installed (apt-get install redis-server)")
	return ""
}

// Start runs a fresh redis-server and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, bin: Binary(t), dir: t.TempDir(), Port: freePort(t)}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// URL is the redis:// URL of the server, in namespace ns ("" for none).
func (s *Server) URL(ns string) string {
	u := fmt.Sprintf("redis://127.0.0.1:%d/0", s.Port)
	if ns != "" {
		u += "?namespace=" + ns
	}
	return u
}

// Addr is host:port.
func (s *Server) Addr() string { return fmt.Sprintf("127.0.0.1:%d", s.Port) }

// Restart starts the server again on the same port after Stop (its data is
// gone: nothing is persisted). It waits until the server answers.
func (s *Server) Restart() {
	s.t.Helper()
	if s.cmd != nil {
		s.t.Fatal("redisserver: already running")
	}
	cmd := exec.Command(s.bin, "--port", fmt.Sprint(s.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--daemonize", "no",
		"--protected-mode", "yes", "--logfile", "")
	cmd.Dir = s.dir
	out, err := os.Create(s.dir + "/redis.log")
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redisserver: start: %v", err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { _ = cmd.Wait(); _ = out.Close(); close(s.done) }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s.ping() {
			return
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(s.dir + "/redis.log")
			s.t.Fatalf("redisserver: exited at start:\n%s", log)
		case <-time.After(20 * time.Millisecond):
		}
	}
	s.t.Fatal("redisserver: did not answer PING within 10s")
}

// Stop ends the server (SIGTERM, then SIGKILL) and waits for it.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// ping speaks just enough RESP to ask PING.
func (s *Server) ping() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", s.Addr())
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
