package policy

import "github.com/ghgate/ghgate/internal/store"

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), count quotas and remember reads.
var (
	_ Counter = (*store.Store)(nil)
	_ Counter = (*store.Redis)(nil)
	_ Counter = store.Backend(nil)
	_ ReadLog = (*store.Store)(nil)
	_ ReadLog = (*store.Redis)(nil)
	_ ReadLog = store.Backend(nil)
)
