//go:build conformance

package main

// The test-only build: go build -tags conformance. It adds a hidden serve
// flag, --conformance-fixtures, that serves the MCP conformance suites'
// fixtures beside ghgate's own tools on the same stack (see
// internal/conformance). e2e/conformance.mjs runs the suites against it.

import (
	"github.com/ghgate/ghgate/internal/conformance"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/spf13/pflag"
)

var withFixtures bool

func init() {
	fixtureFlags = func(fs *pflag.FlagSet) {
		fs.BoolVar(&withFixtures, "conformance-fixtures", false, "serve the MCP conformance suites' fixtures (test-only build)")
		_ = fs.MarkHidden("conformance-fixtures")
	}
	fixtureStack = func(o *server.StackOptions) {
		if withFixtures {
			conformance.New().Apply(o)
		}
	}
}
