package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A contents path that names a directory is answered with its listing (an
// array): GetFileAt says "dir" rather than failing to read it. (A file
// over 1 MB read raw: reports.TestReleaseChangelogOverOneMB.)
func TestGetFileAtDirectory(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v3/repos/acme/widgets/contents/docs" || r.URL.Query().Get("ref") != "abc123" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"type":"dir","name":"changelog","path":"docs/changelog"},{"type":"file","name":"a.md","path":"docs/a.md"}]`))
	}))
	t.Cleanup(srv.Close)
	c, _ := newClient(t, srv.URL, "ghp_test")
	dir, _, err := c.GetFileAt(context.Background(), "acme", "widgets", "docs", "abc123")
	if err != nil || dir.Type != "dir" || dir.Path != "docs" {
		t.Errorf("directory: %+v, %v", dir, err)
	}
}

// prefixWriter keeps the first limit bytes and takes every write whole.
func TestPrefixWriter(t *testing.T) {
	w := prefixWriter{limit: 5}
	for _, s := range []string{"abc", "defg", "hij"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if string(w.buf) != "abcde" {
		t.Errorf("kept %q, want abcde", w.buf)
	}
}
