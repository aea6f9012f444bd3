package broker

import (
	"context"
	"sync/atomic"
)

// CallRecord gathers what one tool call did, for its audit line. The
// router and the upstream counter fill it in through the call's context.
type CallRecord struct {
	Tool, Owner, Repo, Mode string
	// Owners and Repos are every owner and repository the arguments name
	// (callargs.Args.Owners and Repos).
	Owners, Repos []string
	// Route is the owner pattern that matched ("acme" or "*"); Credential
	// the secret's name (never its value) or "app:<id>".
	Route, Credential string
	// Upstream counts the requests sent to GitHub (or to an upstream MCP
	// server) for this call.
	Upstream atomic.Int64

	// ownerNamed says the arguments named Owner: the router then refuses
	// to choose a credential for any other owner, so the credential, the
	// audited owner and the owner the tool acts on are one.
	ownerNamed bool
	// covered is set when a tool call inside this one (a resource read
	// answered by a tool) wrote the audit line.
	covered atomic.Bool
}

type recordKey struct{}

// WithRecord attaches a record to a call's context.
func WithRecord(ctx context.Context, r *CallRecord) context.Context {
	return context.WithValue(ctx, recordKey{}, r)
}

// RecordFrom returns the call's record, or nil outside a call.
func RecordFrom(ctx context.Context) *CallRecord {
	r, _ := ctx.Value(recordKey{}).(*CallRecord)
	return r
}
