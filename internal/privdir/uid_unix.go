//go:build unix

package privdir

import (
	"io/fs"
	"syscall"
)

// FileUID is the owner of a file as Lstat or Stat saw it; false where the
// system reports none.
func FileUID(fi fs.FileInfo) (uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}
