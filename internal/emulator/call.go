package emulator

import (
	"bytes"
	"context"
	"net/http"
)

// ctxKey carries the per-request call through the context.
type ctxKey struct{}

// call is what every handler gets: who is asking and how to address them.
type call struct {
	st       *State
	token    *Token
	viewer   *Account
	links    links
	resource string
	req      *http.Request
	w        http.ResponseWriter
}

func callFrom(r *http.Request) *call { return r.Context().Value(ctxKey{}).(*call) }

// withCall returns r carrying c, for the handlers to find with callFrom.
func withCall(r *http.Request, c *call) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), ctxKey{}, c))
}

// recorder buffers a handler's response so the emulator can add ETags,
// answer 304s and inject faults after the handler has run.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

func (r *recorder) WriteHeader(status int) { r.status = status }

// reset drops what a handler wrote, so that its failure can be answered
// in its place.
func (r *recorder) reset() {
	r.header = http.Header{}
	r.body.Reset()
}

// assignable lists the users who can be assigned in r: the owner when it is
// a user, and the collaborators.
func (c *call) assignable(r *Repo) []*Account {
	var out []*Account
	if !r.Owner.IsOrg {
		out = append(out, r.Owner)
	}
	for _, login := range r.Collaborators {
		if a := c.st.Account(login); a != nil && a != r.Owner {
			out = append(out, a)
		}
	}
	return out
}

// viewerLogin is the caller's login, "" when anonymous; search reads @me
// as it.
func (c *call) viewerLogin() string {
	if c.viewer == nil {
		return ""
	}
	return c.viewer.Login
}
