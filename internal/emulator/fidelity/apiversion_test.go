package fidelity

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The X-GitHub-Api-Version header: absent or naming a supported version,
// the request is served; naming any other version, it answers 400 with
// GitHub's basic-error, charged like any other malformed request. GraphQL
// ignores the header.
func TestAPIVersionHeader(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	version := func(v string) http.Header { return http.Header{"X-GitHub-Api-Version": {v}} }

	if res := w.do(t, "GET", "/repos/acme/widgets/issues/2", tokCarol, nil); res.Status != 200 {
		t.Errorf("no version: status %d, want %d: %s", res.Status, 200, res.Body)
	}
	for _, v := range []string{"2022-11-28", "2026-03-10"} {
		for _, path := range []string{"/repos/acme/widgets/issues/2", "/api/v3/repos/acme/widgets/issues/2"} {
			if res := w.srv.Do(t, "GET", path, tokCarol, nil, version(v)); res.Status != 200 {
				t.Errorf("version %s, GET %s: %d %s", v, path, res.Status, res.Body)
			}
		}
	}

	issues := func() int {
		st := w.srv.Emu.State()
		st.Lock()
		defer st.Unlock()
		return len(st.Repo("acme", "widgets").Issues)
	}
	before := issues()
	for _, tc := range []struct{ method, path, version string }{
		{"GET", "/repos/acme/widgets/issues/2", "2021-01-01"},
		{"GET", "/api/v3/repos/acme/widgets/issues/2", "v3"},
		{"GET", "/repos/acme/widgets/labels", "2022-11-29"},
		{"POST", "/repos/acme/widgets/issues", "2099-01-01"},
		{"POST", "/api/v3/repos/acme/widgets/issues", "2026-03-10 "},
	} {
		var body any
		if tc.method == "POST" {
			body = map[string]any{"title": "Never filed"}
		}
		res := w.srv.Do(t, tc.method, tc.path, tokBob, body, version(tc.version))
		if strings.TrimSpace(tc.version) == "2026-03-10" {
			if res.Status != 201 {
				t.Errorf("version %q (spaces around a supported one), %s %s: %d %s", tc.version, tc.method, tc.path, res.Status, res.Body)
			}
			before++
			continue
		}
		var e struct {
			Message          string `json:"message"`
			DocumentationURL string `json:"documentation_url"`
			Status           string `json:"status"`
		}
		res.JSON(t, &e)
		if res.Status != http.StatusBadRequest {
			t.Errorf("version %q, %s %s: status %d, want %d: %s", tc.version, tc.method, tc.path, res.Status, http.StatusBadRequest, res.Body)
		}
		if e.Status != "400" {
			t.Errorf("version %q, %s %s: body status %q, want \"400\"", tc.version, tc.method, tc.path, e.Status)
		}
		if e.DocumentationURL == "" {
			t.Errorf("version %q, %s %s: no documentation_url, want one: %s", tc.version, tc.method, tc.path, res.Body)
		}
		for _, want := range []string{`"` + tc.version + `"`, `"2022-11-28"`, `"2026-03-10"`} {
			if !strings.Contains(e.Message, want) {
				t.Errorf("version %q: message %q does not name %s", tc.version, e.Message, want)
			}
		}
	}
	if n := issues(); n != before {
		t.Errorf("%d issues, want %d: a request naming an unsupported version was carried out", n, before)
	}

	// Charged one request, as a body that is not JSON is.
	used := func(h http.Header) int {
		n, err := strconv.Atoi(h.Get("X-RateLimit-Used"))
		if err != nil {
			t.Fatalf("x-ratelimit-used %q", h.Get("X-RateLimit-Used"))
		}
		return n
	}
	first := w.do(t, "GET", "/repos/acme/widgets", tokBob, nil)
	badJSON := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, `{"title": `)
	badVersion := w.srv.Do(t, "GET", "/repos/acme/widgets", tokBob, nil, version("1999-12-31"))
	u0, u1, u2 := used(first.Header), used(badJSON.Header), used(badVersion.Header)
	if badJSON.Status != 400 {
		t.Errorf("bad JSON: status %d, want 400", badJSON.Status)
	}
	if badVersion.Status != 400 {
		t.Errorf("bad version: status %d, want 400", badVersion.Status)
	}
	if u1-u0 != 1 {
		t.Errorf("budget used %d, then %d after bad JSON, want one more", u0, u1)
	}
	if u2-u1 != 1 {
		t.Errorf("budget used %d, then %d after a bad version, want one more", u1, u2)
	}

	// GraphQL is not versioned by the header.
	gql := w.srv.Do(t, "POST", "/graphql", tokCarol, map[string]any{"query": "{ viewer { login } }"}, version("2021-01-01"))
	checkResponse(t, "GraphQL with an unsupported version header", gql, 200, `"login":"carol"`)

	// go-github sends 2022-11-28, or the version a request asks for.
	client, err := gh.NewClient(gh.WithHTTPClient(w.srv.Client()), gh.WithAuthToken(tokCarol),
		gh.WithEnterpriseURLs(w.srv.URL+"/api/v3/", w.srv.URL+"/api/uploads/"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := client.Issues.Get(ctx, "acme", "widgets", 2); err != nil {
		t.Errorf("go-github: %v", err)
	}
	for v, want := range map[string]int{"2026-03-10": 200, "2021-01-01": 400} {
		req, err := client.NewRequest(ctx, "GET", "repos/acme/widgets/issues/2", nil, gh.WithVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Do(req, nil)
		var ghErr *gh.ErrorResponse
		switch {
		case want == 200:
			if err != nil {
				t.Errorf("go-github naming %s: %v, want no error", v, err)
			}
		case !errors.As(err, &ghErr):
			t.Errorf("go-github naming %s: error %v, want a *github.ErrorResponse", v, err)
		case res.StatusCode != want:
			t.Errorf("go-github naming %s: status %d, want %d", v, res.StatusCode, want)
		}
	}
}
