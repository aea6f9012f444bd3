//go:build unix

package broker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/internal/privdir"
	"golang.org/x/sys/unix"
)

// openAuditFile opens path for append, creating it, but only in a
// directory nobody but the broker's user and root can change, and only as
// a regular file the broker's user owns: the broker must not be steered
// into appending to (or re-moding) a file someone else chose, and nobody
// may swap the file between the checks and the writes. The directory is
// opened once and the file looked up in it, so the directory checked is
// the one written in; O_NOFOLLOW refuses a symbolic link at either.
func openAuditFile(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	if fi, err := os.Lstat(dir); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	} else if problem := privdir.Problem(fi); problem != "" {
		return nil, fmt.Errorf("audit log %s: its directory %s %s; use a directory only the broker's user can write, such as /var/log/ghgate", path, dir, problem)
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: opening its directory %s: %w", path, dir, err)
	}
	defer unix.Close(dfd)
	// Again on the open directory: it may have been swapped since Lstat.
	var dst unix.Stat_t
	if err := unix.Fstat(dfd, &dst); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	if euid := uint32(os.Geteuid()); dst.Uid != euid && dst.Uid != 0 || dst.Mode&0o022 != 0 {
		return nil, fmt.Errorf("audit log %s: its directory %s changed while opening it (now uid %d, mode %04o); not writing there", path, dir, dst.Uid, dst.Mode&0o7777)
	}

	var st unix.Stat_t
	switch err := unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case errors.Is(err, unix.ENOENT):
	case err != nil:
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return nil, auditSymlinkError(path)
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return nil, fmt.Errorf("audit log %s is not a regular file; remove it or configure another path", path)
	}
	// O_NONBLOCK: a FIFO put in place since the look must not hang the
	// open; it is refused below like any other non-regular file.
	fd, err := unix.Openat(dfd, base, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, auditFileMode)
	if errors.Is(err, unix.ELOOP) {
		return nil, auditSymlinkError(path)
	}
	if err != nil {
		return nil, fmt.Errorf("audit log %s: %w", path, &fs.PathError{Op: "open", Path: path, Err: err})
	}
	if err := checkAuditFd(fd, path); err != nil {
		_ = unix.Close(fd)
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	// A file that already existed keeps its mode on open; one wider than
	// the broker's is narrowed, so the log is never readable by others.
	// Only now, on the descriptor known to be the broker's regular file.
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&^auditFileMode != 0 {
		if err := f.Chmod(auditFileMode); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("audit log %s: narrowing its mode: %w", path, err)
		}
	}
	return f, nil
}

// checkAuditFd accepts only a regular file owned by the broker's user, and
// puts the descriptor back in blocking mode for the writes.
func checkAuditFd(fd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("audit log %s is not a regular file; remove it or configure another path", path)
	}
	if euid := uint32(os.Geteuid()); st.Uid != euid {
		return fmt.Errorf("audit log %s is owned by %s, not by this broker's user (uid %d): not writing to it nor changing its mode; chown it to the broker's user or remove it", path, privdir.OwnerName(st.Uid), euid)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	return nil
}
