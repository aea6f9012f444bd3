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
	if fi, err := os.Lstat(path); err != nil {
		t.Fatalf("no stale socket left at %s: %v", path, err)
	} else if fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("%s is a %v, want a stale socket", path, fi.Mode().Type())
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
	if info.Mode().Type() != os.ModeSocket {
		t.Errorf("%s type = %v, want a socket", path, info.Mode().Type())
	}
	if info.Mode().Perm() != 0o660 {
		t.Errorf("socket mode = %v, want 0660", info.Mode().Perm())
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the new socket does not answer: %v", err)
	}
	_ = conn.Close()

	_, err = broker.OpenSocket(broker.Listen{Socket: path})
	if err == nil || !strings.Contains(err.Error(), "another broker is listening") {
		t.Fatalf("a live socket: error = %v, want one saying another broker is listening", err)
	}
	if now, err := os.Lstat(path); err != nil {
		t.Fatalf("the live socket is gone: %v", err)
	} else if !os.SameFile(info, now) {
		t.Fatalf("the live socket was replaced, want the same file")
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
		t.Fatalf("error = %v, want one saying not a socket", err)
	}
	if data, err := os.ReadFile(path); err != nil {
		t.Fatalf("reading the file: %v", err)
	} else if string(data) != "keep me" {
		t.Fatalf("the file holds %q, want it untouched: %q", data, "keep me")
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
	if st, ok := info.Sys().(*syscall.Stat_t); !ok {
		t.Errorf("stat gives a %T, want *syscall.Stat_t", info.Sys())
	} else if got := strconv.Itoa(int(st.Gid)); got != g.Gid {
		t.Errorf("socket group = %s, want %s (%s)", got, g.Gid, g.Name)
	}

	for _, bad := range []string{"0666", "0770", "0661"} {
		if _, err := broker.OpenSocket(broker.Listen{Socket: filepath.Join(t.TempDir(), "x.sock"), Mode: bad}); err == nil {
			t.Errorf("mode %s was accepted", bad)
		}
	}
	if _, err := broker.OpenSocket(broker.Listen{Socket: filepath.Join(t.TempDir(), "y.sock"), Group: "no-such-group-ghgate"}); err == nil ||
		!strings.Contains(err.Error(), "no-such-group-ghgate") {
		t.Errorf("an unknown group: error = %v, want one naming no-such-group-ghgate", err)
	}
}
