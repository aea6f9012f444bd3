package store

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

func TestSecretIsCreatedOnceAndKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Secret(ctx, "cursor", 32)
	if err != nil || len(a) != 32 {
		t.Fatalf("first: %d bytes, %v", len(a), err)
	}
	b, _ := s.Secret(ctx, "cursor", 32)
	other, _ := s.Secret(ctx, "other", 32)
	if !bytes.Equal(a, b) || bytes.Equal(a, other) {
		t.Fatal("secret not stable per name")
	}
	_ = s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	c, _ := s2.Secret(ctx, "cursor", 32)
	if !bytes.Equal(a, c) {
		t.Fatal("secret changed across reopen")
	}
}
