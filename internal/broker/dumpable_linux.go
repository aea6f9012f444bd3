package broker

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// MakeNonDumpable marks the broker's process non-dumpable. Its
// /proc/<pid>/mem, environ, maps and fd entries then belong to root and no
// process of the broker's own user may ptrace it, so another process
// running as that user (an upstream child without a user of its own, a
// compromised tool) cannot read the credentials out of its memory. It is
// per process and survives until execve, which resets it: a child gets
// its own flag back, which is why children run as other users.
func MakeNonDumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE, 0): %w", err)
	}
	got, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		return fmt.Errorf("prctl(PR_GET_DUMPABLE): %w", err)
	}
	if got != 0 {
		return errors.New("the process is still dumpable after PR_SET_DUMPABLE 0")
	}
	return nil
}
