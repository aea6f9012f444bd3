package schema

import _ "embed"

// Pruned is GitHub's schema cut down to what the emulator serves, written
// by scripts/prunegraphql.
//
//go:embed github.graphql
var Pruned string
