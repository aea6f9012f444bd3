package reports

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// A CHANGELOG.md over 1 MB comes from the contents API without its
// content (encoding "none"): the entry is looked for in the file read
// through the raw media type, one call more, not taken as missing.
// (The emulator serves every file's content, so this is GitHub's answer
// as its documentation gives it, from a server of the test's own.)
func TestReleaseChangelogOverOneMB(t *testing.T) {
	t.Parallel()
	big := "# Changelog\n\n## v2.0.0\n\n- One.\n- Two.\n\n## v1.0.0\n" + strings.Repeat("- an older item\n", 80_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != "/api/v3/repos/acme/widgets/contents/CHANGELOG.md" || r.URL.Query().Get("ref") != "abc123":
			http.NotFound(w, r)
		case strings.Contains(r.Header.Get("Accept"), "raw"):
			_, _ = w.Write([]byte(big))
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"file","name":"CHANGELOG.md","path":"CHANGELOG.md","encoding":"none","content":"","size":1280042}`))
		}
	}))
	t.Cleanup(srv.Close)
	c, err := github.New(github.Options{BaseURL: srv.URL, Token: "ghp_test"})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := compileRelease(toolkit.ReleaseSettings{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sc := &releaseScan{run: fanout.New(ctx, fanout.Options{Client: c, MaxCalls: 10}), c: c, in: ReleaseIn{Owner: "acme"}, conv: conv}
	p := releasePull{repo: "widgets", number: 7, title: "release: v2.0.0", head: "abc123"}
	allowed := sc.worst(p)
	p.allowed = &allowed
	log, err := sc.changelog(ctx, p, "2.0.0")
	if err != nil || log.path != "CHANGELOG.md" || items(log.entry) != 2 {
		t.Fatalf("changelog: %+v, %v", log, err)
	}
	// The docs path (404), CHANGELOG.md and its raw read.
	if calls := sc.run.Calls(); calls != 3 || allowed != sc.worst(p)-3 {
		t.Errorf("%d calls, %d of worst %d left", calls, allowed, sc.worst(p))
	}
}

// A README over 1 MB comes from the readme endpoint without its content:
// it is read raw by the path GitHub names (docs/README.md here), one call
// more, and its "What's new" block is found.
func TestReleaseReadmeOverOneMB(t *testing.T) {
	t.Parallel()
	big := "# widgets\n\n## What's new\n\n- v2.0.0 is out.\n\n## History\n" + strings.Repeat("- an older note\n", 80_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Query().Get("ref") != "abc123":
			http.NotFound(w, r)
		case r.URL.Path == "/api/v3/repos/acme/widgets/readme":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"file","name":"README.md","path":"docs/README.md","encoding":"none","content":"","size":1280042}`))
		case r.URL.Path == "/api/v3/repos/acme/widgets/contents/docs/README.md" && strings.Contains(r.Header.Get("Accept"), "raw"):
			_, _ = w.Write([]byte(big))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := github.New(github.Options{BaseURL: srv.URL, Token: "ghp_test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sc := &releaseScan{run: fanout.New(ctx, fanout.Options{Client: c, MaxCalls: 10}), c: c, in: ReleaseIn{Owner: "acme"}, conv: conv(t)}
	allowed := 2
	p := releasePull{repo: "widgets", number: 7, title: "release: v2.0.0", head: "abc123", allowed: &allowed}
	doc, err := sc.readme(ctx, p)
	if err != nil || !doc.found || !doc.mentions("2.0.0") {
		t.Fatalf("readme: %+v, %v; want a block naming 2.0.0", doc, err)
	}
	if calls := sc.run.Calls(); calls != 2 || allowed != 0 {
		t.Errorf("%d calls (%d of 2 left), want the readme and its raw read", calls, allowed)
	}
}
