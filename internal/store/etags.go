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
	// Partial marks an entry read by PeekETag: its validators and status
	// only, without Header, Body and StoredAt. GetETag reads the whole.
	Partial bool
}

// ETagKey addresses one cached response.
type ETagKey struct {
	Credential CredentialKey
	URL        string
	// Accept is the request's Accept header: one URL can answer in several
	// media types, each with its own ETag.
	Accept string
}

// etagTouchEvery is how stale an entry's last-use time may get before a
// lookup writes it again. Eviction order within a minute matters little,
// and skipping the write keeps repeated reads of one URL from each taking
// the database's write lock.
const etagTouchEvery = time.Minute

var (
	qETagPeek = hotQuery(`SELECT etag, last_modified, status, used_at FROM etags
		WHERE credential = ? AND url = ? AND accept = ?`)
	qETagGet = hotQuery(`SELECT etag, last_modified, status, header, body, stored_at, used_at FROM etags
		WHERE credential = ? AND url = ? AND accept = ?`)
	qETagTouch = hotQuery(`UPDATE etags SET used_at = ? WHERE credential = ? AND url = ? AND accept = ?`)
	qETagPut   = hotQuery(`INSERT INTO etags (credential, url, accept, etag, last_modified, status, header, body, stored_at, used_at, size)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (credential, url, accept) DO UPDATE SET
		  etag = excluded.etag, last_modified = excluded.last_modified, status = excluded.status,
		  header = excluded.header, body = excluded.body, stored_at = excluded.stored_at,
		  used_at = excluded.used_at, size = excluded.size`)
	qETagDelete = hotQuery(`DELETE FROM etags WHERE credential = ? AND url = ? AND accept = ?`)
	qETagTotal  = hotQuery(`SELECT total FROM etag_bytes`)
)

// PeekETag returns the validators of the cached response for key (ETag,
// Last-Modified, status; Partial set, no header or body), if there is
// one, and marks it used. It is what a request needs before it is sent:
// the body, which can be megabytes, is read by GetETag only when GitHub
// answers 304.
func (s *Store) PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	var (
		r      CachedResponse
		usedAt int64
	)
	err := s.stmt(qETagPeek).QueryRowContext(ctx, string(key.Credential), key.URL, key.Accept).
		Scan(&r.ETag, &r.LastModified, &r.Status, &usedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return CachedResponse{}, false, nil
	}
	if err != nil {
		return CachedResponse{}, false, fmt.Errorf("store: read cached response: %w", err)
	}
	r.Partial = true
	s.touchETag(ctx, key, usedAt)
	return r, true, nil
}

// GetETag returns the cached response for key, if there is one, and marks
// it used so eviction takes idle entries first.
func (s *Store) GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	var (
		r              CachedResponse
		header         string
		stored, usedAt int64
	)
	err := s.stmt(qETagGet).QueryRowContext(ctx, string(key.Credential), key.URL, key.Accept).
		Scan(&r.ETag, &r.LastModified, &r.Status, &header, &r.Body, &stored, &usedAt)
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
	s.touchETag(ctx, key, usedAt)
	return r, true, nil
}

// touchETag marks key used now when its last use (usedAt, Unix ms) is
// older than etagTouchEvery.
func (s *Store) touchETag(ctx context.Context, key ETagKey, usedAt int64) {
	now := s.now()
	if now.Sub(time.UnixMilli(usedAt)) < etagTouchEvery {
		return
	}
	// A failure here only makes the entry look idler than it is; the
	// response itself is good.
	_, _ = s.stmt(qETagTouch).ExecContext(ctx, now.UnixMilli(), string(key.Credential), key.URL, key.Accept)
}

// PutETag stores (or replaces) the cached response for key, evicting the
// least recently used entries when the cache would exceed its budget. A
// response larger than the whole budget is not kept (and any older entry
// for key is dropped, its validator being stale): keeping it would evict
// everything else.
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
	size := int64(len(body) + len(header))
	if size > s.etagBudget {
		return s.DeleteETag(ctx, key)
	}
	return s.withTx(ctx, func(tx *sql.Tx) error {
		_, err := s.txStmt(ctx, tx, qETagPut).ExecContext(ctx,
			string(key.Credential), key.URL, key.Accept, r.ETag, r.LastModified, r.Status, string(header), body,
			stored.UnixMilli(), s.now().UnixMilli(), size)
		if err != nil {
			return fmt.Errorf("store: save cached response: %w", err)
		}
		return s.evictETags(ctx, tx)
	})
}

// DeleteETag forgets the cached response for key.
func (s *Store) DeleteETag(ctx context.Context, key ETagKey) error {
	_, err := s.stmt(qETagDelete).ExecContext(ctx,
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
