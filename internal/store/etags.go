package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// CachedResponse is a GET response kept for conditional requests: the
// validators to send back, and what to serve when GitHub answers 304.
type CachedResponse struct {
	ETag         string
	LastModified string
	Status       int
	// Header holds the response headers a 304 does not repeat but a caller
	// needs (Content-Type, Link); the caller chooses which.
	Header   http.Header
	Body     []byte
	StoredAt time.Time
}

// ETagKey addresses one cached response.
type ETagKey struct {
	Credential CredentialKey
	URL        string
	// Accept is the request's Accept header: one URL can answer in several
	// media types, each with its own ETag.
	Accept string
}

// GetETag returns the cached response for key, if there is one.
func (s *Store) GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	var (
		r      CachedResponse
		header string
		stored int64
	)
	err := s.db.QueryRowContext(ctx,
		`SELECT etag, last_modified, status, header, body, stored_at FROM etags
		 WHERE credential = ? AND url = ? AND accept = ?`,
		string(key.Credential), key.URL, key.Accept,
	).Scan(&r.ETag, &r.LastModified, &r.Status, &header, &r.Body, &stored)
	if errors.Is(err, sql.ErrNoRows) {
		return CachedResponse{}, false, nil
	}
	if err != nil {
		return CachedResponse{}, false, fmt.Errorf("store: read cached response: %w", err)
	}
	if err := json.Unmarshal([]byte(header), &r.Header); err != nil {
		return CachedResponse{}, false, fmt.Errorf("store: cached response header: %w", err)
	}
	r.StoredAt = time.UnixMilli(stored)
	return r, true, nil
}

// PutETag stores (or replaces) the cached response for key.
func (s *Store) PutETag(ctx context.Context, key ETagKey, r CachedResponse) error {
	if key.Credential == "" || key.URL == "" || r.ETag == "" {
		return errors.New("store: a cached response needs a credential, a URL and an ETag")
	}
	header, err := json.Marshal(r.Header)
	if err != nil {
		return fmt.Errorf("store: encode cached response header: %w", err)
	}
	if r.Header == nil {
		header = []byte("{}")
	}
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	stored := r.StoredAt
	if stored.IsZero() {
		stored = s.now()
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO etags (credential, url, accept, etag, last_modified, status, header, body, stored_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		 ON CONFLICT (credential, url, accept) DO UPDATE SET
		   etag = excluded.etag, last_modified = excluded.last_modified, status = excluded.status,
		   header = excluded.header, body = excluded.body, stored_at = excluded.stored_at`,
		string(key.Credential), key.URL, key.Accept, r.ETag, r.LastModified, r.Status, string(header), body, stored.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: save cached response: %w", err)
	}
	return nil
}

// DeleteETag forgets the cached response for key.
func (s *Store) DeleteETag(ctx context.Context, key ETagKey) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM etags WHERE credential = ? AND url = ? AND accept = ?`,
		string(key.Credential), key.URL, key.Accept)
	if err != nil {
		return fmt.Errorf("store: delete cached response: %w", err)
	}
	return nil
}

// PruneETags drops cached responses stored before cutoff and reports how
// many went. A dropped entry only costs one full read the next time.
func (s *Store) PruneETags(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM etags WHERE stored_at < ?`, cutoff.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store: prune cached responses: %w", err)
	}
	return res.RowsAffected()
}
