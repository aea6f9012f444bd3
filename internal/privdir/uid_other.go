//go:build !unix

package privdir

import "io/fs"

// FileUID reports no owner where files have no Unix owner: every check
// then refuses, as nothing says who can change the directory.
func FileUID(fs.FileInfo) (uint32, bool) { return 0, false }
