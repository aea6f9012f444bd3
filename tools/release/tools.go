//go:build tools

// Package release pins the tools that build ghgate's releases. They live in
// this module, never imported by ghgate, so their dependencies stay out of
// ghgate's go.mod. The Go module proxy here withholds version lists, so the
// versions are required in go.mod and the main packages imported below, then
// built with `go build`.
package release

import (
	_ "github.com/goreleaser/goreleaser/v2"
)
