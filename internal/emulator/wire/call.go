package wire

import (
	"bytes"
	"context"
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// ctxKey carries the per-request call through the context.
type ctxKey struct{}

// Call is what every REST handler and GraphQL resolver gets: who is
// asking and how to address them, the world to answer from, the request
// and the (buffered) response writer.
type Call struct {
	State    *state.State   // the world; the route or operation holds its lock
	Token    *state.Token   // the credential the request authenticated with
	Viewer   *state.Account // the token's account, nil when it names none
	Links    Links          // URL builders for the host the client addressed
	Resource string         // the rate-limit budget charged: core, search or graphql
	Req      *http.Request
	W        http.ResponseWriter // buffered: the server adds headers after the handler
	// GHES is the GitHub Enterprise Server version the request is answered
	// as (Options.GHESVersion, through /api/v3), "" for GitHub.com.
	GHES string
	// TimedOut is set when an injected fault makes a search run out of
	// time: it answers with part of its matches and incomplete_results.
	TimedOut bool
}

// CallFrom is the call the emulator put in r's context.
func CallFrom(r *http.Request) *Call { return r.Context().Value(ctxKey{}).(*Call) }

// WithCall returns r carrying c, for the handlers to find with [CallFrom].
func WithCall(r *http.Request, c *Call) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), ctxKey{}, c))
}

// Recorder buffers a handler's response so the emulator can add ETags,
// answer 304s and inject faults after the handler has run.
type Recorder struct {
	header http.Header
	Status int
	Body   bytes.Buffer
}

// NewRecorder is an empty 200 response.
func NewRecorder() *Recorder { return &Recorder{header: http.Header{}, Status: http.StatusOK} }

func (r *Recorder) Header() http.Header { return r.header }

func (r *Recorder) Write(b []byte) (int, error) { return r.Body.Write(b) }

func (r *Recorder) WriteHeader(status int) { r.Status = status }

// Reset drops what a handler wrote, so that its failure can be answered
// in its place.
func (r *Recorder) Reset() {
	r.header = http.Header{}
	r.Body.Reset()
}

// Assignable lists the users who can be assigned in r: the owner when it is
// a user, and the collaborators.
func (c *Call) Assignable(r *state.Repo) []*state.Account {
	var out []*state.Account
	if !r.Owner.IsOrg {
		out = append(out, r.Owner)
	}
	for _, login := range r.Collaborators {
		if a := c.State.Account(login); a != nil && a != r.Owner {
			out = append(out, a)
		}
	}
	return out
}

// ViewerLogin is the caller's login, "" when anonymous; search reads @me
// as it.
func (c *Call) ViewerLogin() string {
	if c.Viewer == nil {
		return ""
	}
	return c.Viewer.Login
}
