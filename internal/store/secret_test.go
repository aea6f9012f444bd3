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
	if err != nil {
		t.Fatalf("first Secret: %v", err)
	}
	if len(a) != 32 {
		t.Fatalf("first Secret is %d bytes, want 32", len(a))
	}
	b, _ := s.Secret(ctx, "cursor", 32)
	other, _ := s.Secret(ctx, "other", 32)
	if !bytes.Equal(a, b) {
		t.Fatalf("second Secret(cursor) = %x, want the first's %x", b, a)
	}
	if bytes.Equal(a, other) {
		t.Fatalf("Secret(other) = Secret(cursor) = %x, want a secret per name", a)
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
