// Package schema is the GraphQL schema the emulator serves: GitHub's
// published schema (from the pinned @octokit/graphql-schema package) plus
// an overlay of what GitHub.com serves beyond it (overlay.graphql), pruned
// to the fields the resolvers serve (github.graphql, embedded as Pruned).
// scripts/prunegraphql regenerates the pruned file; the tests load the
// full schema to check documents and answers against it.
package schema
