package github

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/store"
)

// BenchmarkWarmRead is a read GitHub answers 304 and ghgate serves from its
// conditional-request cache, through the production store (a SQLite file
// behind OpenBackend): one issue, and a 100-row issue list page.
func BenchmarkWarmRead(b *testing.B) {
	em := startEmu(b, emulator.Options{})
	st := em.State()
	st.Lock()
	r := st.Repo(owner, repo)
	author := st.Account("alice")
	for len(r.Issues) < 120 {
		body := "filler issue for the list benchmark"
		st.CreateIssue(r, author, fmt.Sprintf("Filler %d", len(r.Issues)), &body, state.IssueTriage{})
	}
	st.Unlock()
	ctx := context.Background()
	be, err := store.OpenBackend(ctx, filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = be.Close() })
	c, _ := newClient(b, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = be })

	b.Run("issue", func(b *testing.B) {
		if _, _, err := c.GetIssue(ctx, owner, repo, 5); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			_, m, err := c.GetIssue(ctx, owner, repo, 5)
			if err != nil {
				b.Fatalf("GetIssue: %v", err)
			}
			if !m.Cached {
				b.Fatalf("GetIssue: Cached = false, want a cached read")
			}
		}
	})
	b.Run("list100", func(b *testing.B) {
		o := ListIssuesOptions{State: "all", PerPage: 100}
		if _, _, err := c.ListIssues(ctx, owner, repo, o); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			rows, m, err := c.ListIssues(ctx, owner, repo, o)
			if err != nil {
				b.Fatalf("ListIssues: %v", err)
			}
			if !m.Cached {
				b.Fatalf("ListIssues: Cached = false, want a cached read")
			}
			if len(rows) != 100 {
				b.Fatalf("ListIssues read %d rows, want 100", len(rows))
			}
		}
	})
}

// fixedUpstream answers every GET with one JSON body and its ETag, or 304
// when the request carries that ETag: GitHub at no cost, so a benchmark
// through it measures ghgate's own side of a conditional read.
type fixedUpstream struct {
	etag string
	body []byte
	// fresh answers 200 every time, as if the resource had changed.
	fresh bool
}

func (u fixedUpstream) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{"Etag": {u.etag}, "X-Ratelimit-Limit": {"5000"}, "X-Ratelimit-Remaining": {"4999"},
		"X-Ratelimit-Used": {"1"}, "X-Ratelimit-Reset": {"4102444800"}, "X-Ratelimit-Resource": {"core"}}
	if !u.fresh && r.Header.Get("If-None-Match") == u.etag {
		return &http.Response{StatusCode: http.StatusNotModified, Status: "304 Not Modified", Header: h,
			Body: http.NoBody, Request: r, ProtoMajor: 1, ProtoMinor: 1}, nil
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: h, ContentLength: int64(len(u.body)),
		Body: io.NopCloser(bytes.NewReader(u.body)), Request: r, ProtoMajor: 1, ProtoMinor: 1}, nil
}

// BenchmarkConditionalTransport is a 304-answered read through the
// transport and the production store (a SQLite file behind OpenBackend),
// with an upstream that costs nothing and a caller that only reads the
// bytes: what is left is ghgate's conditional-request path. The bodies are
// one issue (5 KB) and a 100-row issue page (450 KB).
func BenchmarkConditionalTransport(b *testing.B) {
	row := `{"number":1,"title":"` + strings.Repeat("t", 60) + `","body":"` + strings.Repeat("b", 4000) + `","labels":[]}`
	type opener func(ctx context.Context, path string) (store.Backend, error)
	production := func(ctx context.Context, path string) (store.Backend, error) { return store.OpenBackend(ctx, path) }
	// direct is the SQLite store alone: every lookup reaches the file, as
	// when the memory layer misses.
	direct := func(ctx context.Context, path string) (store.Backend, error) { return store.Open(ctx, path) }
	list := "[" + strings.Repeat(row+",", 99) + row + "]"
	for _, tc := range []struct {
		name  string
		body  string
		open  opener
		fresh bool
	}{
		{"issue", row, production, false},
		{"list100", list, production, false},
		{"issue-direct", row, direct, false},
		{"list100-direct", list, direct, false},
		// A 200 each time, for comparison: a 304 should cost less.
		{"issue-fresh", row, production, true},
		{"list100-fresh", list, production, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			be, err := tc.open(ctx, filepath.Join(b.TempDir(), "state.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = be.Close() })
			up := fixedUpstream{etag: `"bench"`, body: []byte(tc.body), fresh: tc.fresh}
			c, _ := newClient(b, "https://ghe.example", "tok", func(o *Options) {
				o.Store, o.HTTPClient = be, &http.Client{Transport: up}
			})
			read := func() string {
				req, err := c.rest.NewRequest(ctx, "GET", "repos/acme/widgets/issues", nil)
				if err != nil {
					b.Fatal(err)
				}
				resp, err := c.rest.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if n != int64(len(tc.body)) {
					b.Fatalf("read %d bytes, want %d", n, len(tc.body))
				}
				return resp.Header.Get(CacheHeader)
			}
			read()
			// Let the write-behind store the first answer, so the reads
			// below find it in the backend, not in the write queue.
			time.Sleep(100 * time.Millisecond)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if hit := read() == "hit"; hit == tc.fresh {
					b.Fatalf("served from the cache: %v, want %v", hit, !tc.fresh)
				}
			}
		})
	}
}
