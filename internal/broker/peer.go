package broker

import "context"

// Peer is the process at the other end of a socket connection, as the
// kernel reports it (SO_PEERCRED): who the audit log says made a call.
type Peer struct {
	UID, GID uint32
	PID      int32
}

type peerKey struct{}

// WithPeer attaches a connection's peer to the session's context.
func WithPeer(ctx context.Context, p Peer) context.Context {
	return context.WithValue(ctx, peerKey{}, p)
}

// PeerFrom returns the peer of the connection a call came through; ok is
// false for calls that did not come through the socket.
func PeerFrom(ctx context.Context) (p Peer, ok bool) {
	p, ok = ctx.Value(peerKey{}).(Peer)
	return p, ok
}
