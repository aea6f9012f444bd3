package store

import (
	"context"
	"crypto/rand"
	"fmt"
)

// Secret returns the random secret stored under name, creating it with
// size bytes on first use. ghgate keeps its cursor-signing key here when
// the configuration gives none, so cursors survive a restart.
func (s *Store) Secret(ctx context.Context, name string, size int) ([]byte, error) {
	fresh := make([]byte, size)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("store: make secret %s: %w", name, err)
	}
	key := "secret:" + name
	if _, err := s.db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, fresh); err != nil {
		return nil, fmt.Errorf("store: save secret %s: %w", name, err)
	}
	var out []byte
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&out); err != nil {
		return nil, fmt.Errorf("store: read secret %s: %w", name, err)
	}
	if len(out) < size {
		return nil, fmt.Errorf("store: secret %s is shorter than %d bytes", name, size)
	}
	return out, nil
}
