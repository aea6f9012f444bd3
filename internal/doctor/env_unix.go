//go:build unix

package doctor

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// statFile stats path, following symlinks as a reader would.
func statFile(path string) (FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileInfo{}, err
	}
	fi := fileInfo(st)
	// A minimal ACL is not stored as an attribute, so any value here is an
	// extended one. ENODATA / ENOTSUP mean none.
	if n, err := unix.Getxattr(path, "system.posix_acl_access", nil); err == nil && n > 0 {
		fi.ACL = true
	}
	return fi, nil
}

// lstatFile stats path itself, a symbolic link as the link.
func lstatFile(path string) (FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return FileInfo{}, err
	}
	fi := fileInfo(st)
	if n, err := unix.Lgetxattr(path, "system.posix_acl_access", nil); err == nil && n > 0 {
		fi.ACL = true
	}
	return fi, nil
}

func fileInfo(st os.FileInfo) FileInfo {
	fi := FileInfo{Mode: st.Mode()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		fi.UID, fi.GID = sys.Uid, sys.Gid
	}
	return fi
}
