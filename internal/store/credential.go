package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
)

// CredentialKey names a credential in the database without revealing it:
// the hex HMAC-SHA256 of the token under this database's salt. The same
// token always maps to the same key in one database, and a stolen database
// file cannot be used to test guesses against another one's keys.
type CredentialKey string

const saltKey = "credential_salt"

// loadSalt returns the database's salt, creating it on first use. The
// insert is conditional so two processes opening a new file agree on one.
func loadSalt(ctx context.Context, db *sql.DB) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("store: make credential salt: %w", err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, saltKey, fresh); err != nil {
		return nil, fmt.Errorf("store: save credential salt: %w", err)
	}
	var salt []byte
	if err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, saltKey).Scan(&salt); err != nil {
		return nil, fmt.Errorf("store: read credential salt: %w", err)
	}
	if len(salt) < 16 {
		return nil, errors.New("store: credential salt is damaged")
	}
	return salt, nil
}

// CredentialKey derives the key that stands for token in this database.
func (s *Store) CredentialKey(token string) CredentialKey {
	m := hmac.New(sha256.New, s.salt)
	m.Write([]byte("ghgate credential v1\x00"))
	m.Write([]byte(token))
	return CredentialKey(hex.EncodeToString(m.Sum(nil)))
}
