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
	if err != nil {
		t.Fatalf("changelog: %v", err)
	}
	if log.path != "CHANGELOG.md" {
		t.Fatalf("changelog: path = %q, want %q", log.path, "CHANGELOG.md")
	}
	if n := items(log.entry); n != 2 {
		t.Fatalf("changelog: entry items = %d, want 2 (entry %q)", n, log.entry)
	}
	// The docs path (404), CHANGELOG.md and its raw read.
	if calls := sc.run.Calls(); calls != 3 {
		t.Errorf("calls = %d, want 3", calls)
	}
	if want := sc.worst(p) - 3; allowed != want {
		t.Errorf("allowed left = %d, want %d (worst %d less 3)", allowed, want, sc.worst(p))
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
	if err != nil {
		t.Fatalf("readme: %v", err)
	}
	if !doc.found {
		t.Fatalf("readme: found = false, want a What's new block (%+v)", doc)
	}
	if !doc.mentions("2.0.0") {
		t.Fatalf("readme: versions = %q, want 2.0.0 among them", doc.versions)
	}
	if calls := sc.run.Calls(); calls != 2 {
		t.Errorf("calls = %d, want 2 (the readme and its raw read)", calls)
	}
	if allowed != 0 {
		t.Errorf("allowed left = %d of 2, want 0", allowed)
	}
}
