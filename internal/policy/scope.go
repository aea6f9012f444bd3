package policy

import "context"

// Scope is who a call is made for, as the deployment names it: the
// subject quotas are counted under, the session reads are remembered
// for, and the rules that apply.
type Scope struct {
	// Subject names who quotas count for: "server" on stdio,
	// "client:NAME" over HTTP, "uid:1001" through the broker.
	Subject string
	// Session keys what the data-flow guard remembers a session read;
	// empty uses the MCP session's id under the subject.
	Session string
	// ReadsShared keeps the session's reads in the state store, for a
	// session whose calls any replica may serve (an HTTP client's).
	ReadsShared bool
	// Rules, when set, replace the Path's default rules.
	Rules *Rules
	// Shared marks a deployment serving agents other than the operator
	// (HTTP clients, broker agents): mentions are neutralised unless the
	// rules say otherwise.
	Shared bool
}

type scopeKey struct{}

// WithScope attaches s to ctx; the deployment's wrapper calls it before
// the tool runs.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom returns the scope ctx carries.
func ScopeFrom(ctx context.Context) (Scope, bool) {
	s, ok := ctx.Value(scopeKey{}).(Scope)
	return s, ok
}
