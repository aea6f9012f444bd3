package server

import (
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// NewWithRegistry builds a server over the tools registry returns, so a
// test can offer toolsets ghgate does not ship (to enable one at run
// time).
func NewWithRegistry(svc *toolkit.Service, opts Options, registry func(*toolkit.Service) []tooldef.Spec) (*Server, error) {
	return newServer(svc, opts, registry)
}
