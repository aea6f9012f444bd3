//go:build !unix

package doctor

import "os"

// statFile stats path. Owners and POSIX ACLs are Unix notions: a broker
// deployment, which the doctor checks, runs on a Unix system only.
func statFile(path string) (FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileInfo{}, err
	}
	return FileInfo{Mode: st.Mode()}, nil
}

// lstatFile stats path itself, a symbolic link as the link.
func lstatFile(path string) (FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return FileInfo{}, err
	}
	return FileInfo{Mode: st.Mode()}, nil
}
