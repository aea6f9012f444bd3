package github

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
)

// The log's signed URL never receives the credential: not on another
// host (GitHub's log storage), and not on the API's own host either (the
// emulator's), since it needs none. The tail starts at a line, and the
// credentials in it are redacted.
func TestJobLogTailSendsNoCredentialToTheSignedURL(t *testing.T) {
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	var mu sync.Mutex
	auth := map[string]string{}
	logText := "2026-01-02T15:04:05.0000000Z first line\n" + strings.Repeat("x", 100) + "\nmiddle " + token + "\nlast gho_abcdefghijklmnopqrstuvwxyz0123\n"
	storage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth["storage "+r.Host] = r.Header.Get("Authorization")
		mu.Unlock()
		_, _ = w.Write([]byte(logText))
	}))
	defer storage.Close()
	var api *httptest.Server
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth[r.URL.Path] = r.Header.Get("Authorization")
		mu.Unlock()
		switch r.URL.Path {
		case "/api/v3/repos/o/r/actions/jobs/1/logs":
			w.Header().Set("Location", storage.URL+"/logs/1?sig=abc")
		case "/api/v3/repos/o/r/actions/jobs/2/logs":
			w.Header().Set("Location", api.URL+"/logs/2?sig=abc")
		case "/logs/2":
			_, _ = w.Write([]byte(logText))
			return
		default:
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusFound)
	}))
	defer api.Close()
	c, err := New(Options{BaseURL: api.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 2} {
		tail, _, err := c.JobLogTail(context.Background(), "o", "r", id, 100, nil)
		if err != nil {
			t.Fatalf("job %d: %v", id, err)
		}
		if strings.Contains(tail.Text, token) {
			t.Errorf("job %d: tail %q holds the credential, want it redacted", id, tail.Text)
		}
		if tail.Redacted != 2 {
			t.Errorf("job %d: Redacted = %d, want 2", id, tail.Redacted)
		}
		if !tail.Cut {
			t.Errorf("job %d: Cut = false, want true", id)
		}
		if want := "middle [redacted]\nlast [redacted]\n"; tail.Text != want {
			t.Errorf("job %d: tail = %q, want the last whole lines %q", id, tail.Text, want)
		}
	}
	// A job whose log is gone is GitHub's 404, not a download failure.
	if _, _, err := c.JobLogTail(context.Background(), "o", "r", 3, 60, nil); err == nil || err.(*Error).Code != NotFound {
		t.Errorf("missing log: error = %v, want code %q", err, NotFound)
	}
	mu.Lock()
	defer mu.Unlock()
	if auth["/api/v3/repos/o/r/actions/jobs/1/logs"] != "Bearer "+token {
		t.Errorf("the logs route itself was sent without the credential: %v", auth)
	}
	for k, v := range auth {
		if (strings.HasPrefix(k, "storage ") || k == "/logs/2") && v != "" {
			t.Errorf("%s received Authorization %q", k, v)
		}
	}
	if len(auth) != 5 {
		t.Errorf("%d requests seen (%v), want 5", len(auth), auth)
	}
}

// The CI report's documents are valid against GitHub's published schema
// (not only the emulator's pruned copy), under GitHub's rules.
func TestPullChecksDocumentsAreValidForGitHub(t *testing.T) {
	s, src := publishedSchema(t)
	for name, doc := range map[string]string{"PullsChecksDoc": PullsChecksDoc, "PullChecksDoc": PullChecksDoc} {
		if _, errs := gqlparser.LoadQueryWithRules(s, doc, graphql.ValidationRules(s)); len(errs) > 0 {
			t.Errorf("%s is not valid against %s: %v", name, src, errs)
		}
		broken := strings.Replace(doc, "headRefOid", "headCommitOid", 1)
		if _, errs := gqlparser.LoadQueryWithRules(s, broken, graphql.ValidationRules(s)); len(errs) == 0 {
			t.Errorf("%s: GitHub's schema accepted an unknown field", name)
		}
	}
}

// Credentials are looked for in the text as shaped, last: a token split by
// something the shaping removes (a colour code, an invisible character)
// is redacted once joined, the client's own token included, and so is a
// token glued to a word.
func TestJobLogTailRedactsAfterShaping(t *testing.T) {
	const own = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	other := "ghs_abcdefghijklmnopqrstuvwxyz0123456789"
	logText := "a " + own[:10] + "\x1b[0m" + own[10:] + "\n" +
		"b " + other[:10] + "\u200b" + other[10:] + "\n" +
		"c x" + other + "\n"
	var api *httptest.Server
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v3/repos/o/r/actions/jobs/1/logs":
			w.Header().Set("Location", api.URL+"/logs/1")
			w.WriteHeader(http.StatusFound)
		case "/logs/1":
			_, _ = w.Write([]byte(logText))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	c, err := New(Options{BaseURL: api.URL, Token: own})
	if err != nil {
		t.Fatal(err)
	}
	shape := func(s string) string { return strings.NewReplacer("\x1b[0m", "", "\u200b", "").Replace(s) }
	tail, _, err := c.JobLogTail(context.Background(), "o", "r", 1, 1000, shape)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a [redacted]\nb [redacted]\nc x[redacted]\n"; tail.Text != want {
		t.Errorf("tail = %q, want %q (the tokens redacted after shaping)", tail.Text, want)
	}
	if tail.Redacted != 3 {
		t.Errorf("Redacted = %d, want 3", tail.Redacted)
	}
}

// The log arrives in pieces of any size and is cut to its tail before it
// is redacted: a credential that straddles a read, or a line break the
// cut falls before, is redacted in what remains of it, in every form.
func TestJobLogTailRedactsAcrossReadsAndTheCut(t *testing.T) {
	t.Parallel()
	const own = "opaque-ghgate-credential-0123456789"
	h := hex.EncodeToString([]byte(own))
	b := base64.StdEncoding.EncodeToString([]byte("k=" + own))
	var percent strings.Builder
	for _, c := range []byte(own) {
		fmt.Fprintf(&percent, "%%%02X", c)
	}
	tail := own[12:] + " continued\n" + // the rest of a token split across the cut
		"hex " + h[:20] + "\n  " + h[20:] + "\n" +
		"b64 " + b + "\n" +
		"url " + percent.String() + "\n"
	logText := strings.Repeat("filler line\n", 3000) + "split " + own[:12] + "\n" + tail
	var api *httptest.Server
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v3/repos/o/r/actions/jobs/1/logs":
			w.Header().Set("Location", api.URL+"/logs/1")
			w.WriteHeader(http.StatusFound)
		case "/logs/1":
			// Pieces of 7 bytes, each flushed: the reader's chunks split
			// the credentials wherever they fall.
			for piece := range slices.Chunk([]byte(logText), 7) {
				_, _ = w.Write(piece)
				w.(http.Flusher).Flush()
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	c, err := New(Options{BaseURL: api.URL, Token: own})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.JobLogTail(context.Background(), "o", "r", 1, len(tail)+5, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The base64 characters that also carry bits of "k=" and of the
	// padding stay.
	want := "[redacted] continued\nhex [redacted]\nb64 " + b[:3] + "[redacted]" + b[49:] + "\nurl [redacted]\n"
	if got.Text != want {
		t.Errorf("tail = %q, want %q", got.Text, want)
	}
	if got.Redacted != 4 {
		t.Errorf("redacted = %d, want 4", got.Redacted)
	}
}
