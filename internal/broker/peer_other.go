//go:build !linux

package broker

import (
	"errors"
	"net"
)

// peerOf is only implemented on Linux (SO_PEERCRED); elsewhere the broker
// refuses connections it cannot attribute.
func peerOf(*net.UnixConn) (Peer, error) {
	return Peer{}, errors.New("peer credentials are only supported on Linux")
}
