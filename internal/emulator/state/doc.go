// Package state is the emulator's world: the model GitHub's API exposes
// (accounts, tokens, repositories, issues, pull requests, their git data,
// labels, milestones, teams, Apps, releases, issue fields) and the
// operations that change it as GitHub does, with the timeline events,
// cross-references and node ids those changes leave. It imports nothing of
// the emulator and serves no requests: the emulator's REST handlers and
// GraphQL resolvers read and change it under its lock, and the seed fills
// it.
package state
