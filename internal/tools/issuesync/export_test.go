package issuesync

import "os"

// SetWriteIssueFile replaces how issue files are written until the
// returned function restores it.
func SetWriteIssueFile(f func(root *os.Root, name string, b []byte) error) (restore func()) {
	was := writeIssueFile
	writeIssueFile = f
	return func() { writeIssueFile = was }
}

// WriteFile is the real write, for a replacement to fall back on.
var WriteFile = writeFile
