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
	_, ok, err := s.GetETag(ctx, key)
	wantFound(t, "GetETag on an empty store", ok, err, false)
	h := http.Header{"Link": {`<https://h/x?page=3>; rel="next"`}, "Content-Type": {"application/json"}}
	want := CachedResponse{ETag: `W/"1"`, LastModified: "Mon, 01 Jan 2024 00:00:00 GMT", Status: 200, Header: h, Body: []byte(`[1]`)}
	if err := s.PutETag(ctx, key, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.GetETag(ctx, key)
	wantFound(t, "GetETag", ok, err, true)
	if got.ETag != want.ETag {
		t.Errorf("ETag = %s, want %s", got.ETag, want.ETag)
	}
	if got.LastModified != want.LastModified {
		t.Errorf("LastModified = %q, want %q", got.LastModified, want.LastModified)
	}
	if got.Status != 200 {
		t.Errorf("Status = %d, want 200", got.Status)
	}
	if string(got.Body) != "[1]" {
		t.Errorf("Body = %s, want [1]", got.Body)
	}
	if link := got.Header.Get("Link"); link != h.Get("Link") {
		t.Errorf("Link header = %q, want %q", link, h.Get("Link"))
	}
	if got.StoredAt.IsZero() {
		t.Errorf("StoredAt is zero, want the time it was stored")
	}
	if t.Failed() {
		t.FailNow()
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
	if got.ETag != `W/"2"` {
		t.Fatalf("after replace: ETag = %s, want %s", got.ETag, `W/"2"`)
	}
	if string(got.Body) != "[2]" {
		t.Fatalf("after replace: Body = %s, want [2]", got.Body)
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
	if err != nil {
		t.Fatalf("PruneETags: %v", err)
	}
	if n != 1 {
		t.Fatalf("pruned %d, want 1", n)
	}
	if _, ok, _ := s.GetETag(ctx, old); ok {
		t.Fatal("old entry survived")
	}
	if _, ok, _ := s.GetETag(ctx, fresh); !ok {
		t.Fatal("fresh entry was pruned")
	}
}
