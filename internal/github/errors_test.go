package github

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/store"
)

func TestStatusErrorMapping(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	reset := strconv.FormatInt(now.Add(30*time.Minute).Unix(), 10)
	cases := []struct {
		name   string
		status int
		header http.Header
		msg    string
		code   Code
		temp   bool
		retry  time.Duration
		scopes []string
	}{
		{"400", 400, nil, "Problems parsing JSON", BadRequest, false, 0, nil},
		{"401", 401, nil, "Bad credentials", InvalidCredential, false, 0, nil},
		{"403 oauth scopes", 403, http.Header{"X-Accepted-Oauth-Scopes": {"repo, public_repo"}, "X-Oauth-Scopes": {"read:org"}},
			"Resource not accessible", InsufficientScope, false, 0, []string{"repo", "public_repo"}},
		{"403 fine-grained", 403, http.Header{"X-Accepted-Github-Permissions": {"issues=write; pull_requests=write"}},
			"Resource not accessible by personal access token", InsufficientScope, false, 0, []string{"issues=write", "pull_requests=write"}},
		{"403 primary", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}},
			"API rate limit exceeded", RateLimited, true, 30 * time.Minute, nil},
		{"429 primary", 429, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset}},
			"", RateLimited, true, 30 * time.Minute, nil},
		{"403 secondary retry-after", 403, http.Header{"Retry-After": {"45"}, "X-Ratelimit-Remaining": {"10"}},
			"slow down", RateLimited, true, 45 * time.Second, nil},
		{"403 secondary message only", 403, nil,
			"You have exceeded a secondary rate limit.", RateLimited, true, time.Minute, nil},
		{"429 bare", 429, nil, "", RateLimited, true, time.Minute, nil},
		// A security feature turned off, or a list only owners may read,
		// is a refusal the alert report goes on past: no rate limit.
		{"403 dependabot disabled", 403, http.Header{"X-Ratelimit-Remaining": {"4999"}},
			"Dependabot alerts are disabled for this repository.", InsufficientScope, false, 0, nil},
		{"403 advanced security off", 403, nil,
			"Advanced Security must be enabled for this repository to use code scanning.", InsufficientScope, false, 0, nil},
		{"403 org alerts not permitted", 403, nil,
			"You must be an organization owner or security manager to access this resource.", InsufficientScope, false, 0, nil},
		{"404 secret scanning disabled", 404, nil, "Secret scanning is disabled on this repository.", NotFound, false, 0, nil},
		{"404", 404, nil, "Not Found", NotFound, false, 0, nil},
		{"409", 409, nil, "conflict", Conflict, false, 0, nil},
		{"410", 410, nil, "deleted", Gone, false, 0, nil},
		{"422", 422, nil, "Validation Failed", ValidationFailed, false, 0, nil},
		{"451", 451, nil, "blocked", BadRequest, false, 0, nil},
		{"502", 502, nil, "", UpstreamUnavailable, true, 0, nil},
		{"503 retry-after date", 503, http.Header{"Retry-After": {now.Add(90 * time.Second).UTC().Format(http.TimeFormat)}},
			"", UpstreamUnavailable, true, 90 * time.Second, nil},
	}
	for _, tc := range cases {
		h := tc.header
		if h == nil {
			h = http.Header{}
		}
		e := statusError(tc.status, h, tc.msg, nil, now)
		if e.Code != tc.code {
			t.Errorf("%s: code = %q, want %q", tc.name, e.Code, tc.code)
		}
		if e.Temporary != tc.temp {
			t.Errorf("%s: Temporary = %v, want %v", tc.name, e.Temporary, tc.temp)
		}
		if e.RetryAfter != tc.retry {
			t.Errorf("%s: RetryAfter = %v, want %v", tc.name, e.RetryAfter, tc.retry)
		}
		if !slices.Equal(e.RequiredScopes, tc.scopes) {
			t.Errorf("%s: RequiredScopes = %q, want %q", tc.name, e.RequiredScopes, tc.scopes)
		}
		if e.Message == "" {
			t.Errorf("%s: empty message", tc.name)
		}
	}
}

const canary = "ghp_CANARY0123456789abcdefghijABCDEFGHIJ"

// startCanaryEmu is an emulator that knows the canary token as alice's.
func startCanaryEmu(t *testing.T) *emu {
	em := startEmu(t, emulator.Options{})
	st := em.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: canary, Login: "alice", Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermAdmin}})
	st.Unlock()
	return em
}

// The token appears in no error, whatever went wrong, and in no byte of
// the store's files.
func TestTokenNeverInErrorsOrStore(t *testing.T) {
	em := startCanaryEmu(t)
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, em.URL, canary, func(o *Options) { o.Store = st; o.MaxReadRetries = -1 })

	var errs []error
	collect := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	// Successful reads and writes fill the store.
	_, _, err = c.GetIssue(ctx, owner, repo, 1)
	collect(err)
	_, _, err = c.GetIssue(ctx, owner, repo, 1)
	collect(err)
	_, _, err = c.ListIssues(ctx, owner, repo, ListIssuesOptions{PerPage: 5})
	collect(err)
	if len(errs) != 0 {
		t.Fatalf("setup reads failed: %v", errs)
	}
	// Then every kind of failure.
	for _, f := range []emulator.Fault{
		{Kind: emulator.FaultStatus, Status: 500}, {Kind: emulator.FaultStatus, Status: 422},
		{Kind: emulator.FaultSecondary, RetryAfter: 1}, {Kind: emulator.FaultDropAfter}, {Kind: emulator.FaultMalformedAfter},
	} {
		f.Method, f.Path, f.Times = "POST", "/repos/acme/widgets/issues/1/comments", 1
		em.fault(t, f)
		_, _, err := c.CreateComment(ctx, owner, repo, 1, "x")
		collect(err)
		// Lift the secondary-limit pause so the next case reaches the wire.
		c.budget = newBudgets()
	}
	_, _, err = c.GetIssue(ctx, owner, "no-such", 1)
	collect(err)
	_, _, err = c.CreateIssue(ctx, owner, repo, NewIssue{Title: "x", Milestone: ptr(999)})
	collect(err)
	if len(errs) != 7 {
		t.Fatalf("collected %d errors, want 7: %v", len(errs), errs)
	}
	for _, err := range errs {
		e := asError(t, err)
		for _, s := range []string{err.Error(), e.Message, e.Unwrap().Error()} {
			if strings.Contains(s, canary) {
				t.Errorf("error text contains the token: %q", s)
			}
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, ent := range entries {
		b, err := os.ReadFile(filepath.Join(dir, ent.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(canary)) {
			t.Errorf("%s contains the token", ent.Name())
		}
		if ent.Name() == "state.db" && !bytes.Contains(b, []byte(`"number":1`)) && !bytes.Contains(b, []byte(`"number": 1`)) {
			t.Errorf("the store holds no cached issue: the scan proves nothing")
		}
	}
}

// A server that echoes the credential into its error message still cannot
// get it into an Error.
func TestEchoedTokenIsRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"bad header: ` + r.Header.Get("Authorization") + `"}`))
	}))
	defer srv.Close()
	c, _ := newClient(t, srv.URL, canary)
	_, _, err := c.GetIssue(context.Background(), owner, repo, 1)
	e := asError(t, err)
	if e.Code != BadRequest {
		t.Errorf("error code = %q, want %q", e.Code, BadRequest)
	}
	if strings.Contains(err.Error(), canary) {
		t.Errorf("error %q holds the token, want it redacted", err.Error())
	}
	if !strings.Contains(e.Message, "[redacted]") {
		t.Errorf("Message = %q, want one saying [redacted]", e.Message)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	if _, err := New(Options{Token: "a b"}); err == nil {
		t.Error("a token with whitespace was accepted")
	}
	if _, err := New(Options{BaseURL: "gopher://x"}); err == nil {
		t.Error("a gopher URL was accepted")
	}
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetIssue(context.Background(), owner, repo, 1); asError(t, err).Code != MissingCredential {
		t.Errorf("no token: %v", err)
	}
	if err := c.Query(context.Background(), "query { viewer { login } }", nil, nil); asError(t, err).Code != MissingCredential {
		t.Errorf("no token, GraphQL: %v", err)
	}
}
