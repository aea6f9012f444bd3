//go:build tools

// Package peers pins the two GitHub clients that the end-to-end tests run
// against ghgate's emulator: GitHub's CLI and GitHub's MCP server. They live
// in this module, never imported by ghgate, so their dependencies stay out of
// ghgate's go.mod. `go install mod@version` is refused by the Go module proxy
// here (it withholds version lists), so the versions are required in go.mod
// and the main packages imported below, then built with `go build`.
package peers

import (
	_ "github.com/cli/cli/v2/cmd/gh"
	_ "github.com/github/github-mcp-server/cmd/github-mcp-server"
)
