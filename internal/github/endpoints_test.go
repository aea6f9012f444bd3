package github

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestResolveEndpoints(t *testing.T) {
	cases := []struct{ base, rest, graphql string }{
		{"", "https://api.github.com/", "https://api.github.com/graphql"},
		{"https://api.github.com", "https://api.github.com/", "https://api.github.com/graphql"},
		{"https://api.github.com/", "https://api.github.com/", "https://api.github.com/graphql"},
		{"https://github.com", "https://api.github.com/", "https://api.github.com/graphql"},
		{"https://api.acme.ghe.com", "https://api.acme.ghe.com/", "https://api.acme.ghe.com/graphql"},
		{"https://ghe.example.com", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"https://ghe.example.com/", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/api/v3/", "http://127.0.0.1:8080/api/graphql"},
	}
	for _, tc := range cases {
		ep, err := resolveEndpoints(tc.base)
		if err != nil {
			t.Errorf("%q: %v", tc.base, err)
			continue
		}
		if got := ep.rest.String(); got != tc.rest {
			t.Errorf("%q: rest = %s, want %s", tc.base, got, tc.rest)
		}
		if got := ep.graphql.String(); got != tc.graphql {
			t.Errorf("%q: graphql = %s, want %s", tc.base, got, tc.graphql)
		}
	}
	for _, bad := range []string{"ftp://x", "https://user:s3cret@ghe.example.com", "https://x?a=b", "/relative", "https://api.github.com/v3"} {
		_, err := resolveEndpoints(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error echoes the URL's password: %v", err)
		}
	}
}

func TestResourceOfRequest(t *testing.T) {
	ep, _ := resolveEndpoints("https://ghe.example.com")
	for path, want := range map[string]string{
		"/api/v3/repos/a/b/issues": "core", "/api/v3/search/issues": "search", "/api/graphql": "graphql",
	} {
		u := *ep.rest
		u.Path = path
		if got := ep.resource(&u); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}

// The emulator serves both layouts: the GHES prefix a 127.0.0.1 base URL
// selects, and GitHub.com's plain paths, reached here through a host named
// api.* that resolves to the emulator.
func TestBothLayoutsAgainstEmulator(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	ctx := context.Background()

	ghes, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	is, _, err := ghes.GetIssue(ctx, owner, repo, 1)
	wantNumber(t, "GHES layout", is, err, 1)
	if em.count("GET /api/v3"+issuePath(1)) != 1 {
		t.Fatal("the GHES layout did not use /api/v3")
	}

	addr := strings.TrimPrefix(em.URL, "http://")
	_, port, _ := net.SplitHostPort(addr)
	dialer := &net.Dialer{}
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, addr)
		},
	}}
	plain, _ := newClient(t, "http://api.emulator.test:"+port, emulator.DemoTokenAlice, func(o *Options) { o.HTTPClient = hc })
	if plain.RESTURL() != "http://api.emulator.test:"+port+"/" {
		t.Fatalf("plain layout resolved to %s, want %s", plain.RESTURL(), "http://api.emulator.test:"+port+"/")
	}
	is, _, err = plain.GetIssue(ctx, owner, repo, 1)
	wantNumber(t, "plain layout", is, err, 1)
	if em.count("GET "+issuePath(1)) != 1 {
		t.Fatal("the plain layout did not use the root paths")
	}
}

// The client sends GitHub's API version header, its user agent and the
// token, and sends the token to GitHub's host only: never to a host a
// redirect points at.
func TestHeadersAndTokenScope(t *testing.T) {
	var first, got http.Header
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"number":1}`))
	}))
	defer other.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first = r.Header.Clone()
		http.Redirect(w, r, other.URL+"/moved", http.StatusFound)
	}))
	defer home.Close()
	c, _ := newClient(t, home.URL, "tok-123", func(o *Options) { o.UserAgent = "ghgate-test/1" })
	if _, _, err := c.GetIssue(context.Background(), owner, repo, 1); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"Authorization": "Bearer tok-123", "X-GitHub-Api-Version": APIVersion, "User-Agent": "ghgate-test/1"} {
		if got := first.Get(name); got != want {
			t.Errorf("%s to GitHub = %q, want %q", name, got, want)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if got == nil {
		t.Fatal("the redirect was not followed")
	}
	if got.Get("Authorization") != "" {
		t.Fatal("the token was sent to another host")
	}
}

// GitHub answers a transferred issue with a 301 to its new home, which the
// HTTP client follows: the issue that comes back belongs to a repository
// the caller did not name, and is refused as not found there rather than
// returned (or, worse, acted on) as the one asked for.
func TestTransferredIssueIsNotPassedOffAsTheOneNamed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/repos/"+owner+"/"+repo+"/issues/5") {
			http.Redirect(w, r, "/repositories/42/issues/5", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"number":5,"node_id":"I_moved","repository_url":"https://api.github.com/repos/acme/secret"}`))
	}))
	defer srv.Close()
	c, _ := newClient(t, srv.URL, "tok-123")
	is, _, err := c.GetIssue(context.Background(), owner, repo, 5)
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("a transferred issue: error = %v, want a *Error", err)
	}
	if ge.Code != NotFound {
		t.Fatalf("a transferred issue: error code = %q, want %q (%v)", ge.Code, NotFound, ge)
	}
	if is != nil {
		t.Fatalf("a transferred issue: got issue %+v, want none", is)
	}
	// The repository's own issue, its name in another case, is its own.
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"number":5,"repository_url":"https://api.github.com/repos/` + strings.ToUpper(owner) + `/` + repo + `"}`))
	}))
	defer srv2.Close()
	c2, _ := newClient(t, srv2.URL, "tok-123")
	is, _, err = c2.GetIssue(context.Background(), owner, repo, 5)
	wantNumber(t, "the repository's own issue", is, err, 5)
}
