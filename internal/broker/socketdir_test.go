package broker_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
)

// refused opens a socket at path and wants a refusal naming want.
func refused(t *testing.T, path, want string) {
	t.Helper()
	s, err := broker.OpenSocket(broker.Listen{Socket: path})
	if err == nil {
		s.Close()
		t.Fatalf("%s: the socket opened", path)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: err %q does not name %q", path, err, want)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() == os.ModeSocket {
		t.Errorf("%s: a socket was created", path)
	}
}

func TestSocketRefusesADirectoryOthersCanWrite(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o777, 0o775, 0o777 | os.ModeSticky, 0o757} {
		dir := t.TempDir()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		refused(t, filepath.Join(dir, "s.sock"), dir)
	}
}

func TestSocketRefusesADirectoryOwnedByAnother(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	refused(t, filepath.Join(dir, "s.sock"), "65534")
}

func TestSocketRefusesASymlinkedDirectory(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	refused(t, filepath.Join(link, "s.sock"), "symbolic link")
}

func TestSocketRefusesAMissingDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "absent")
	refused(t, filepath.Join(dir, "s.sock"), dir)
}

// A link at the socket path to an impostor's listener is neither followed
// nor replaced.
func TestSocketRefusesASymlinkAtItsPath(t *testing.T) {
	t.Parallel()
	other := filepath.Join(t.TempDir(), "impostor.sock")
	ln, err := net.Listen("unix", other)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
	refused(t, path, "symbolic link")
	if fi, err := os.Lstat(path); err != nil {
		t.Errorf("the link was removed: %v", err)
	} else if fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("the link was replaced by a %v, want the symbolic link", fi.Mode().Type())
	}
}

func TestSocketOpensInAPrivateDirectory(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o755, 0o700, 0o750} {
		dir := t.TempDir()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "s.sock")
		if err := broker.CheckSocketDir(path); err != nil {
			t.Errorf("mode %04o: %v", mode, err)
		}
		s, err := broker.OpenSocket(broker.Listen{Socket: path})
		if err != nil {
			t.Errorf("mode %04o: %v", mode, err)
			continue
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
}

// A socket directory of the right owner and mode, inside a directory
// others can write without the sticky bit, can still be renamed away and
// replaced: it is refused. Inside a sticky one (as /tmp) it is not.
func TestSocketRefusesAWritableAncestor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode    os.FileMode
		refused bool
	}{{0o777, true}, {0o775, true}, {os.ModeSticky | 0o777, false}, {0o755, false}} {
		shared := filepath.Join(t.TempDir(), "shared")
		if err := os.Mkdir(shared, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(shared, c.mode); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(shared, "ghgate")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		err := broker.CheckSocketDir(filepath.Join(dir, "s.sock"))
		if c.refused != (err != nil) {
			t.Errorf("a socket directory inside a %v directory: %v, want refused %v", c.mode, err, c.refused)
		}
		if err != nil && !strings.Contains(err.Error(), shared) {
			t.Errorf("the refusal does not name %s: %v", shared, err)
		}
	}
}
