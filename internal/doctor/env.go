package doctor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/store"
)

// FileInfo is what the gates need to know about a file.
type FileInfo struct {
	Mode     fs.FileMode // type and permission bits
	UID, GID uint32
	// ACL is set when the file carries a POSIX access ACL, which can grant
	// access the permission bits do not show.
	ACL bool
}

// Env is the doctor's view of the host; tests replace any part of it.
type Env struct {
	Accounts Accounts
	Stat     func(path string) (FileInfo, error)
	// Lstat is Stat without following a final symbolic link, for the
	// gates that must see a link as one.
	Lstat      func(path string) (FileInfo, error)
	ReadFile   func(path string) ([]byte, error)
	Glob       func(pattern string) ([]string, error)
	LoadConfig func(path string) (*broker.Config, error)
	// InspectState reports on the state database read-only; see
	// store.Inspect.
	InspectState func(path string) (store.Stats, error)
	// SudoList returns the output of `sudo -l -n -U user`; nil when sudo is
	// not installed.
	SudoList func(user string) (string, error)
	// SudoersFile and SudoersDir are read when SudoList is nil or fails.
	SudoersFile string
	SudoersDir  string
	// CredStores are the directories systemd's LoadCredential=NAME searches.
	CredStores []string
	// DockerSockets are rootful Docker's control sockets.
	DockerSockets []string
}

// OSEnv is the real host.
func OSEnv() Env {
	e := Env{
		Accounts:      OSAccounts{},
		Stat:          statFile,
		Lstat:         lstatFile,
		ReadFile:      os.ReadFile,
		Glob:          filepath.Glob,
		LoadConfig:    broker.LoadConfig,
		InspectState:  inspectState,
		SudoersFile:   "/etc/sudoers",
		SudoersDir:    "/etc/sudoers.d",
		CredStores:    []string{"/etc/credstore", "/run/credstore"},
		DockerSockets: []string{"/run/docker.sock", "/var/run/docker.sock"},
	}
	if path, err := exec.LookPath("sudo"); err == nil {
		e.SudoList = func(user string) (string, error) {
			// -n: never prompt; -U: list another user's rights (needs root).
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, path, "-l", "-n", "-U", user).CombinedOutput()
			return string(out), err
		}
	}
	return e
}

// inspectState bounds the read: a database locked by a stuck writer must
// not hang the doctor.
func inspectState(path string) (store.Stats, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return store.Inspect(ctx, path)
}

// isNotExist reports a missing file through any wrapping.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
