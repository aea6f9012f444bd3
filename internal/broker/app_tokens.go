package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/permissions"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// appRefreshMargin is how long before its expiry a cached installation
// token is replaced: GitHub's tokens live an hour, and one a call picks up
// must outlast the call.
const appRefreshMargin = 5 * time.Minute

// appMinter mints the installation tokens of one App route. Each is
// narrowed to the route's repositories (all the installation's when the
// route names none) and to the permissions the call's tool needs in its
// mode (package permissions), so a call never holds more than it needs;
// one token per scope (mode and permission set) is kept until shortly
// before it expires. Tokens live in memory only.
type appMinter struct {
	// app signs each request with the App's JWT.
	app          http.RoundTripper
	restRoot     string // the REST root, with its trailing slash
	installation int64
	repos        []string
	now          func() time.Time
	secrets      *redact.Registry

	mu     sync.Mutex
	tokens map[string]*appToken // by scope key
}

// appToken is one scope's token; its lock is held while it is minted, so
// calls waiting for one scope mint it once.
type appToken struct {
	mu      sync.Mutex
	value   string
	expires time.Time
}

// appScope is what one call's token is minted for.
type appScope struct {
	write bool
	perms permissions.Set
}

func (s appScope) key() string {
	mode := tooldef.Read
	if s.write {
		mode = tooldef.Write
	}
	return string(mode) + " " + s.perms.String()
}

// scopeOf is the scope of the call ctx carries: its tool and mode, from
// the call record (mode when the record names none). A call whose tool
// the permissions table has no row for (an upstream server's tool, whose
// calls ghgate cannot see into, or a resource read or completion) gets the
// mode's whole set: in read mode every read ghgate's tools make, in write
// mode their writes too.
func scopeOf(ctx context.Context, mode tooldef.Mode) appScope {
	tool := ""
	if rec := RecordFrom(ctx); rec != nil {
		tool = rec.Tool
		if rec.Mode != "" {
			mode = tooldef.Mode(rec.Mode)
		}
	}
	write := mode != tooldef.Read
	if perms, ok := permissions.For(tool, write); ok {
		return appScope{write: write, perms: perms}
	}
	return appScope{write: write, perms: permissions.Mode(write)}
}

// token returns the scope's token, minting one when none is cached or the
// cached one is within appRefreshMargin of its expiry.
func (m *appMinter) token(ctx context.Context, s appScope) (string, error) {
	m.mu.Lock()
	t, ok := m.tokens[s.key()]
	if !ok {
		t = &appToken{}
		m.tokens[s.key()] = t
	}
	m.mu.Unlock()

	t.mu.Lock()
	defer t.mu.Unlock()
	if t.value != "" && m.now().Before(t.expires.Add(-appRefreshMargin)) {
		return t.value, nil
	}
	value, expires, err := m.mint(ctx, s)
	if err != nil {
		return "", err
	}
	m.secrets.AddMinted(value)
	t.value, t.expires = value, expires
	return value, nil
}

// mint asks GitHub for a token of the scope: the installation's
// permissions are read first, and only those of the scope the
// installation was granted are asked for (at the installation's level
// when it is lower), since GitHub refuses the whole token for one it
// lacks; a call that needed the rest fails at GitHub as it would with
// the installation's own token.
func (m *appMinter) mint(ctx context.Context, s appScope) (string, time.Time, error) {
	base := m.restRoot + "app/installations/" + strconv.FormatInt(m.installation, 10)
	var inst struct {
		Permissions permissions.Set `json:"permissions"`
	}
	if _, err := m.call(ctx, http.MethodGet, base, nil, http.StatusOK, &inst); err != nil {
		return "", time.Time{}, err
	}
	req := struct {
		Repositories []string        `json:"repositories,omitempty"`
		Permissions  permissions.Set `json:"permissions"`
	}{Repositories: m.repos, Permissions: s.perms.Within(inst.Permissions)}
	var tok struct {
		Token     string    `json:"token"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	answered, err := m.call(ctx, http.MethodPost, base+"/access_tokens", req, http.StatusCreated, &tok)
	if err != nil {
		return "", time.Time{}, err
	}
	if tok.Token == "" || tok.ExpiresAt.IsZero() {
		return "", time.Time{}, &mintStatusError{status: http.StatusCreated, malformed: true}
	}
	// expires_at is on GitHub's clock; the token's lifetime, measured on
	// that clock from the answer's Date, is counted on the broker's, so a
	// broker whose clock is off neither keeps a dead token nor mints
	// needlessly.
	at := m.now()
	lifetime := tok.ExpiresAt.Sub(at)
	if !answered.IsZero() {
		lifetime = tok.ExpiresAt.Sub(answered)
	}
	return tok.Token, at.Add(lifetime), nil
}

// mintStatusError is GitHub's refusal of a mint request, by status; the
// body is not kept (it can echo what was sent).
type mintStatusError struct {
	status    int
	malformed bool
}

func (e *mintStatusError) Error() string {
	if e.malformed {
		return "installation token answer without a token or expiry"
	}
	return "installation token request answered HTTP " + strconv.Itoa(e.status)
}

// call sends one request signed with the App's JWT and decodes the answer
// when its status is want. It returns the answer's Date (zero when absent
// or unreadable).
func (m *appMinter) call(ctx context.Context, method, url string, body any, want int, out any) (time.Time, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return time.Time{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return time.Time{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := m.app.RoundTrip(req)
	if err != nil {
		return time.Time{}, err
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != want {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
		return time.Time{}, &mintStatusError{status: res.StatusCode}
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(out); err != nil {
		return time.Time{}, fmt.Errorf("installation token answer: %w", err)
	}
	date, _ := http.ParseTime(res.Header.Get("Date"))
	return date, nil
}
