// Package emulator is a stateful stand-in for GitHub's REST and GraphQL
// APIs, on which ghgate's tests, benchmarks and demo stand. [Emulator] is
// the http.Handler in front: it authenticates the token, applies GitHub's
// rate limits, concurrency limit, API versions and Enterprise Server path
// prefixes (/api/v3, /api/graphql), adds the configured latency and any
// injected fault, and hands the request to the REST handlers (package
// rest) or the GraphQL resolvers (package graphql), which read and change
// the world in package state; package seed builds the starting world.
// /_emulator/ is its admin surface (faults, rate-limit exhaustion, signed
// log and asset downloads).
//
// Outside users name what they need through this package alone: the
// *_export.go files alias the few types and functions of its
// subpackages that tests, the demo and the benchmark use.
package emulator
