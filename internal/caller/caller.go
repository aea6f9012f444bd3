// Package caller names who a tool call comes from, as the deployment
// authenticated them: an HTTP client under --auth, an OS user connected to
// the broker's socket, or the one local user of stdio. Everything that must
// keep one caller's state from another's (tasks, idempotency keys, audit
// lines) and everything that must stay inside a caller's read grant
// (relation rows, mirrors synced and read) asks this package, so the
// identity is set once, where the deployment learns it, and read
// everywhere else.
package caller

import (
	"context"
)

// Identity is one authenticated caller.
type Identity struct {
	// ID is unique within the deployment and stable across calls and
	// restarts: "http:NAME" for an HTTP client (its configured name, which
	// binds it to one issuer), "uid:N" for a broker peer, "" for the one
	// local user.
	ID string
	// Readable reports whether the caller's grant lets it read owner's
	// repository repo (repo "" asks about the owner as a whole). Nil means
	// the caller may read whatever the credential reaches.
	Readable func(owner, repo string) bool
	// Callable reports whether the caller may call the named tool (an
	// HTTP client's policy narrows the served tools). Nil means every
	// tool served. What is offered to the caller besides tools (prompts
	// naming tools) follows it.
	Callable func(tool string) bool
}

type key struct{}

// With attaches id to ctx.
func With(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// From returns the caller ctx carries; the zero Identity (the local user,
// reading anything) when none was attached.
func From(ctx context.Context) Identity {
	id, _ := ctx.Value(key{}).(Identity)
	return id
}

// ID is From(ctx).ID.
func ID(ctx context.Context) string { return From(ctx).ID }

// CanRead reports whether the caller may read owner/repo.
func (i Identity) CanRead(owner, repo string) bool {
	return i.Readable == nil || i.Readable(owner, repo)
}

// CanCall reports whether the caller may call tool.
func (i Identity) CanCall(tool string) bool {
	return i.Callable == nil || i.Callable(tool)
}
