package broker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/internal/privdir"
)

// socketDirAdvice is what to do about a socket directory others control.
const socketDirAdvice = "use a directory only the service user can write, such as the unit's RuntimeDirectory /run/ghgate"

// CheckSocketDir refuses a socket path whose directory someone other than
// the broker's user (or root) could change: whoever can write the
// directory can move the socket aside and listen in its place, and agents
// would hand their calls to the impostor. The directory must exist, not be
// a symbolic link, be owned by the broker's effective uid or root, and be
// writable by neither group nor others. A symbolic link at the socket path
// itself is refused too, never followed.
func CheckSocketDir(socketPath string) error {
	dir := filepath.Dir(socketPath)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("socket %s: its directory %s does not exist; %s", socketPath, dir, socketDirAdvice)
	}
	if err != nil {
		return fmt.Errorf("socket %s: %w", socketPath, err)
	}
	if problem := privdir.Problem(fi); problem != "" {
		return fmt.Errorf("socket %s: its directory %s %s; %s", socketPath, dir, problem, socketDirAdvice)
	}
	if err := privdir.Ancestors(dir); err != nil {
		return fmt.Errorf("socket %s: %w; %s", socketPath, err, socketDirAdvice)
	}
	if fi, err := os.Lstat(socketPath); err == nil && fi.Mode().Type() == fs.ModeSymlink {
		return fmt.Errorf("socket %s is a symbolic link: not following it nor replacing it, as something other than this broker put it there; remove it", socketPath)
	}
	return nil
}
