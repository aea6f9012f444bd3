package core_test

import (
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), hold the tools' state.
var (
	_ core.State = (*store.Store)(nil)
	_ core.State = (*store.Redis)(nil)
	_ core.State = store.Backend(nil)
)
