//go:build !unix

package broker

import (
	"fmt"
	"os"
)

// openAuditFile refuses: the audit log is opened through a directory
// descriptor with O_NOFOLLOW so that nobody can swap it between checks and
// writes, which needs a Unix system (as the broker's socket and peer
// credentials do).
func openAuditFile(path string) (*os.File, error) {
	return nil, fmt.Errorf("audit log %s: the broker's audit file needs a Unix system", path)
}
