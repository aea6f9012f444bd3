package tasks_test

import (
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
)

// Both state backends, and whatever OpenBackend returns (the write-behind
// and in-memory layers around them), keep tasks.
var (
	_ tasks.Store = (*store.Store)(nil)
	_ tasks.Store = (*store.Redis)(nil)
	_ tasks.Store = store.Backend(nil)
)
