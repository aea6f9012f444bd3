// Package wire is what the emulator's REST handlers and GraphQL resolvers
// share about a request and its answer: the per-request Call (the world,
// the caller's token and account, the URL builders for the host the
// client addressed, the request and the buffered response), GitHub's
// error shapes and JSON writer, and the small value helpers both sides
// read input and write output with. It knows no route and no GraphQL
// type.
package wire
