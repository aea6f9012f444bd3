package store

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestETagRoundTripAndReplace(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	key := ETagKey{Credential: s.CredentialKey("t"), URL: "https://h/api/v3/repos/o/r/issues?page=2", Accept: "application/vnd.github.v3+json"}
	if _, ok, err := s.GetETag(ctx, key); ok || err != nil {
		t.Fatalf("empty store: ok=%v err=%v", ok, err)
	}
	h := http.Header{"Link": {`<https://h/x?page=3>; rel="next"`}, "Content-Type": {"application/json"}}
	want := CachedResponse{ETag: `W/"1"`, LastModified: "Mon, 01 Jan 2024 00:00:00 GMT", Status: 200, Header: h, Body: []byte(`[1]`)}
	if err := s.PutETag(ctx, key, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.GetETag(ctx, key)
	if err != nil || !ok {
		t.Fatalf("get: %v %v", ok, err)
	}
	if got.ETag != want.ETag || got.LastModified != want.LastModified || got.Status != 200 ||
		string(got.Body) != "[1]" || got.Header.Get("Link") != h.Get("Link") || got.StoredAt.IsZero() {
		t.Fatalf("got %+v", got)
	}
	// Another Accept or credential is another entry.
	other := key
	other.Accept = "application/vnd.github.raw+json"
	if _, ok, _ := s.GetETag(ctx, other); ok {
		t.Fatal("entry leaked across Accept values")
	}
	other = key
	other.Credential = s.CredentialKey("someone-else")
	if _, ok, _ := s.GetETag(ctx, other); ok {
		t.Fatal("entry leaked across credentials")
	}
	want.ETag, want.Body = `W/"2"`, []byte(`[2]`)
	if err := s.PutETag(ctx, key, want); err != nil {
		t.Fatal(err)
	}
	got, _, _ = s.GetETag(ctx, key)
	if got.ETag != `W/"2"` || string(got.Body) != "[2]" {
		t.Fatalf("replace: got %+v", got)
	}
	if err := s.DeleteETag(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetETag(ctx, key); ok {
		t.Fatal("entry survived delete")
	}
	if err := s.PutETag(ctx, ETagKey{URL: "u"}, want); err == nil {
		t.Fatal("an entry without a credential was accepted")
	}
}

func TestPruneETags(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := openMem(t, WithClock(func() time.Time { return now }))
	cred := s.CredentialKey("t")
	old := ETagKey{Credential: cred, URL: "old"}
	fresh := ETagKey{Credential: cred, URL: "fresh"}
	if err := s.PutETag(ctx, old, CachedResponse{ETag: "a", Status: 200, StoredAt: now.Add(-48 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutETag(ctx, fresh, CachedResponse{ETag: "b", Status: 200}); err != nil {
		t.Fatal(err)
	}
	n, err := s.PruneETags(ctx, now.Add(-24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want 1", n, err)
	}
	if _, ok, _ := s.GetETag(ctx, old); ok {
		t.Fatal("old entry survived")
	}
	if _, ok, _ := s.GetETag(ctx, fresh); !ok {
		t.Fatal("fresh entry was pruned")
	}
}
