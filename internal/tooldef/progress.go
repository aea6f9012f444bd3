package tooldef

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress reports how far a long call has come: done of total units
// (total 0 when unknown). It is safe for concurrent use and never fails:
// a notification that cannot be sent is dropped, the call goes on.
type Progress func(done, total int, message string)

type progressKey struct{}

// ProgressFrom is the reporter of the call ctx belongs to: one that sends
// notifications/progress when the client asked for them with a progress
// token in the request's _meta, else one that does nothing. Tools take it
// from the context so Run keeps its (ctx, input) shape.
func ProgressFrom(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok {
		return p
	}
	return func(int, int, string) {}
}

// WithProgress returns ctx carrying p, for callers that run a tool's
// function outside an MCP request (tests, the bench, a task runner).
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// withRequestProgress attaches a reporter for req's progress token, when
// it carries one. Notifications are serialised and never go backwards, as
// the specification asks (progress increases with every notification).
func withRequestProgress(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil || req.Params == nil || req.Session == nil {
		return ctx
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return ctx
	}
	var mu sync.Mutex
	last := -1
	session := req.Session
	return WithProgress(ctx, func(done, total int, message string) {
		mu.Lock()
		defer mu.Unlock()
		if done <= last {
			return
		}
		last = done
		_ = session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
			Progress: float64(done), Total: float64(total), Message: message})
	})
}
