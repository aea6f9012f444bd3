package broker_test

import (
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
)

// staleSocket leaves a socket file nobody listens on, as a crash does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("no stale socket left at %s: %v", path, err)
	}
}

func TestSocketReplacesAStaleOneAndDoesNotStealALiveOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	staleSocket(t, path)

	first, err := broker.OpenSocket(broker.Listen{Socket: path})
	if err != nil {
		t.Fatalf("a stale socket was not replaced: %v", err)
	}
	defer first.Close()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Type() != os.ModeSocket || info.Mode().Perm() != 0o660 {
		t.Errorf("socket mode %v, want a socket with 0660", info.Mode())
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the new socket does not answer: %v", err)
	}
	_ = conn.Close()

	_, err = broker.OpenSocket(broker.Listen{Socket: path})
	if err == nil || !strings.Contains(err.Error(), "another broker is listening") {
		t.Fatalf("a live socket: err %v, want a refusal naming another broker", err)
	}
	if now, err := os.Lstat(path); err != nil || !os.SameFile(info, now) {
		t.Fatalf("the live socket was replaced (%v)", err)
	}
	if conn, err := net.Dial("unix", path); err != nil {
		t.Fatalf("the live socket no longer answers: %v", err)
	} else {
		_ = conn.Close()
	}

	// The private directory the socket was prepared in is gone.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the socket directory holds %v, want only the socket", entries)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("Close left the socket file: %v", err)
	}
}

func TestSocketRefusesToReplaceAFileThatIsNotASocket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.sock")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := broker.OpenSocket(broker.Listen{Socket: path})
	if err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("err %v, want a refusal saying the path is not a socket", err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "keep me" {
		t.Fatalf("the file was touched: %q, %v", data, err)
	}
}

func TestSocketTakesTheConfiguredGroupAndMode(t *testing.T) {
	t.Parallel()
	g, err := user.LookupGroupId(strconv.Itoa(os.Getgid()))
	if err != nil {
		t.Skipf("this process's group has no name to configure: %v", err)
	}
	path := filepath.Join(t.TempDir(), "s.sock")
	s, err := broker.OpenSocket(broker.Listen{Socket: path, Group: g.Name, Mode: "0600"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("mode %v, want 0600", perm)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || strconv.Itoa(int(st.Gid)) != g.Gid {
		t.Errorf("socket group %v, want %s (%s)", info.Sys(), g.Gid, g.Name)
	}

	for _, bad := range []string{"0666", "0770", "0661"} {
		if _, err := broker.OpenSocket(broker.Listen{Socket: filepath.Join(t.TempDir(), "x.sock"), Mode: bad}); err == nil {
			t.Errorf("mode %s was accepted", bad)
		}
	}
	if _, err := broker.OpenSocket(broker.Listen{Socket: filepath.Join(t.TempDir(), "y.sock"), Group: "no-such-group-ghgate"}); err == nil ||
		!strings.Contains(err.Error(), "no-such-group-ghgate") {
		t.Errorf("an unknown group: %v", err)
	}
}
