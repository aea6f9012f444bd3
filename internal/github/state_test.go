package github

import "github.com/ghgate/ghgate/internal/store"

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), are what a Client keeps its state in.
var (
	_ Store = (*store.Store)(nil)
	_ Store = (*store.Redis)(nil)
	_ Store = store.Backend(nil)
)
