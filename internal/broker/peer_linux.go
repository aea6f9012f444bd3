package broker

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerOf asks the kernel who opened the connection. The credentials are
// those of the connecting process at connect time and cannot be forged by
// the client.
func peerOf(c *net.UnixConn) (Peer, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	var (
		cred    *unix.Ucred
		credErr error
	)
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", err)
	}
	if credErr != nil {
		return Peer{}, fmt.Errorf("peer credentials: %w", credErr)
	}
	return Peer{UID: cred.Uid, GID: cred.Gid, PID: cred.Pid}, nil
}
