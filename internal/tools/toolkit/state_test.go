package toolkit_test

import (
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), hold the tools' state.
var (
	_ toolkit.State = (*store.Store)(nil)
	_ toolkit.State = (*store.Redis)(nil)
	_ toolkit.State = store.Backend(nil)
)
