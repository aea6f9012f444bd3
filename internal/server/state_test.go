package server_test

import (
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/store"
)

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), serve the write path.
var (
	_ server.PolicyStore = (*store.Store)(nil)
	_ server.PolicyStore = (*store.Redis)(nil)
	_ server.PolicyStore = store.Backend(nil)
)
