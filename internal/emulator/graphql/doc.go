// Package graphql is the emulator's GraphQL endpoint: the handler that
// parses, validates (with GitHub's own validation behaviour) and executes
// a document against the embedded, pruned copy of GitHub's schema, the
// resolver registry, and one file of resolvers per part of the schema
// (issues.go, pulls.go, search.go, …). It reads and changes the world in
// package state through the per-request wire.Call the server hands it.
package graphql
