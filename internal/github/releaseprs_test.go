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
	if err != nil {
		t.Fatalf("GetFileAt of a directory: %v", err)
	}
	if dir.Type != "dir" {
		t.Errorf("directory: Type = %q, want dir", dir.Type)
	}
	if dir.Path != "docs" {
		t.Errorf("directory: Path = %q, want docs", dir.Path)
	}
}

// prefixWriter keeps the first limit bytes and takes every write whole.
func TestPrefixWriter(t *testing.T) {
	w := prefixWriter{limit: 5}
	for _, s := range []string{"abc", "defg", "hij"} {
		n, err := w.Write([]byte(s))
		if err != nil {
			t.Fatalf("Write(%q): %v", s, err)
		}
		if n != len(s) {
			t.Fatalf("Write(%q) = %d, want %d", s, n, len(s))
		}
	}
	if string(w.buf) != "abcde" {
		t.Errorf("kept %q, want abcde", w.buf)
	}
}
