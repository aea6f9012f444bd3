package policy

import (
	"context"
	"net/http"
	"strings"
)

// ticket is what an admitted call carries to the GitHub client: it lets
// through writes to the repositories the call declared, and GraphQL
// mutations (whose targets are node ids the tool resolved from what it
// declared). A REST write anywhere else is a tool writing what it did
// not declare, and is refused.
type ticket struct {
	repos map[string]bool // lower-case "owner/repo"
}

func newTicket(writes []Write) *ticket {
	t := &ticket{repos: map[string]bool{}}
	for _, w := range writes {
		for _, target := range append([]Target{w.Target}, w.Touches...) {
			if target.Repo != "" {
				t.repos[lower(target.Repository())] = true
			}
		}
	}
	return t
}

// Admits implements github.WriteTicket.
func (t *ticket) Admits(method, urlPath string) bool {
	if method == http.MethodPost && (urlPath == "/graphql" || strings.HasSuffix(urlPath, "/graphql")) {
		return true
	}
	// GitHub Enterprise serves the REST API under /api/v3.
	p := strings.TrimPrefix(urlPath, "/api/v3")
	rest, ok := strings.CutPrefix(p, "/repos/")
	if !ok {
		return false
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 {
		return false
	}
	return t.repos[lower(parts[0]+"/"+parts[1])]
}

// WriteTicket is what the GitHub client asks of a write's context: a
// write it does not admit is never sent.
type WriteTicket interface {
	Admits(method, urlPath string) bool
}

type ticketKey struct{}

func withTicket(ctx context.Context, t WriteTicket) context.Context {
	return context.WithValue(ctx, ticketKey{}, t)
}

// TicketFrom returns the ticket an admitted call's context carries.
func TicketFrom(ctx context.Context) (WriteTicket, bool) {
	t, ok := ctx.Value(ticketKey{}).(WriteTicket)
	return t, ok
}
