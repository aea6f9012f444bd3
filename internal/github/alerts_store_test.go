package github

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/ghgate/ghgate/internal/store"
)

// A server that ignores hide_secret=true sends the leaked value with an
// ETag. The secret list's answer must not reach the conditional-request
// store, which the broker keeps on disk: after the call the SQLite file
// (and its WAL) holds no byte of the secret and no entry for the URL. A
// Dependabot list from the same server, with a marker of its own, is
// stored as before, so the scan is shown to see what is written.
func TestSecretAlertsNeverStored(t *testing.T) {
	const secret = "ghp_LEAKEDvalueTheStoreMustNeverHold0001"
	const marker = "DEPENDABOT-MARKER-STORED-0001"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("ETag", `"v1"`)
		switch r.URL.Path {
		case "/api/v3/repos/acme/widgets/secret-scanning/alerts":
			_, _ = w.Write([]byte(`[{"number":1,"state":"open","secret_type":"github_personal_access_token","secret":"` + secret + `","validity":"active"}]`))
		case "/api/v3/repos/acme/widgets/dependabot/alerts":
			_, _ = w.Write([]byte(`[{"number":1,"state":"open","security_advisory":{"summary":"` + marker + `"}}]`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "ghgate.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, srv.URL, "ghp_test", func(o *Options) { o.Store = st })
	ctx := context.Background()

	p, err := c.ListSecretAlerts(ctx, "acme", "widgets", AlertListOptions{State: "open"})
	if err != nil {
		t.Fatalf("secret list: %v", err)
	}
	if len(p.Alerts) != 1 {
		t.Fatalf("secret list holds %d alerts, want 1: %+v", len(p.Alerts), p.Alerts)
	}
	if p.Alerts[0].SecretType == "" {
		t.Fatalf("secret alert's SecretType is empty, want one: %+v", p.Alerts[0])
	}
	d, err := c.ListDependabotAlerts(ctx, "acme", "widgets", AlertListOptions{State: "open"})
	if err != nil {
		t.Fatalf("dependabot list: %v", err)
	}
	if len(d.Alerts) != 1 {
		t.Fatalf("dependabot list holds %d alerts, want 1: %+v", len(d.Alerts), d.Alerts)
	}
	// The requests as the transport keys them: the list's URL with its
	// query, and go-github's Accept.
	key := func(kind, extra string) store.ETagKey {
		return store.ETagKey{Credential: c.cred, Accept: "application/vnd.github.v3+json",
			URL: srv.URL + "/api/v3/repos/acme/widgets/" + kind + "/alerts?direction=asc" + extra + "&sort=created&state=open"}
	}
	if _, ok, err := st.GetETag(ctx, key("secret-scanning", "&hide_secret=true")); err != nil {
		t.Errorf("GetETag for the secret list: %v", err)
	} else if ok {
		t.Errorf("the store holds an entry for the secret list, want none")
	}
	if _, ok, err := st.GetETag(ctx, key("dependabot", "")); err != nil {
		t.Errorf("GetETag for the Dependabot list: %v", err)
	} else if !ok {
		t.Errorf("no entry for the Dependabot list, want one: the key lookup proves nothing")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var disk []byte
	files, _ := filepath.Glob(path + "*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		disk = append(disk, b...)
	}
	if bytes.Contains(disk, []byte(secret)) {
		t.Errorf("the store's files hold the secret")
	}
	if !bytes.Contains(disk, []byte(marker)) {
		t.Errorf("the Dependabot answer was not stored either: the scan proves nothing (%d bytes in %v)", len(disk), files)
	}
}
