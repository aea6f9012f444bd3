package contract

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// CursorTTL is how long a cursor stays valid after it was minted.
const CursorTTL = 15 * time.Minute

// ErrCursorInvalid is returned for a cursor that was not minted by this
// deployment, was altered, or belongs to another tool, repository or filter
// set.
var ErrCursorInvalid = errors.New("cursor_invalid")

// ErrCursorExpired is returned for a genuine cursor older than [CursorTTL].
var ErrCursorExpired = errors.New("cursor_expired")

// Cursors mints and opens opaque pagination cursors. A cursor is signed
// with the deployment key, so an agent cannot forge or edit one, and bound
// to the tool, the repository and a fingerprint of the filters it was minted
// for, so it cannot be replayed against another query.
type Cursors struct {
	key []byte
	now func() time.Time
}

// NewCursors uses key (at least 32 bytes of secret material) to sign.
// now is the clock; [time.Now] when nil.
func NewCursors(key []byte, now func() time.Time) (*Cursors, error) {
	if len(key) < 32 {
		return nil, errors.New("cursor key must be at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Cursors{key: append([]byte(nil), key...), now: now}, nil
}

// cursorPayload is what a cursor carries, in short keys to keep it small.
type cursorPayload struct {
	Tool     string `json:"t"`
	Repo     string `json:"r"`
	Filters  string `json:"f"`
	Position string `json:"p"`
	Issued   int64  `json:"i"`
}

// FiltersFingerprint is a short stable digest of a filter value; structs
// marshal their fields in declaration order, so equal filters give equal
// fingerprints.
func FiltersFingerprint(filters any) string {
	b, err := json.Marshal(filters)
	if err != nil {
		b = []byte("unmarshalable")
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func (c *Cursors) sign(payload []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte("ghgate-cursor-v1\x00"))
	m.Write(payload)
	return m.Sum(nil)[:16]
}

// Mint returns a cursor for position (an upstream page number or cursor)
// in the listing that tool, repo and filters describe.
func (c *Cursors) Mint(tool, repo string, filters any, position string) string {
	p, _ := json.Marshal(cursorPayload{Tool: tool, Repo: strings.ToLower(repo), Filters: FiltersFingerprint(filters),
		Position: position, Issued: c.now().Unix()})
	return base64.RawURLEncoding.EncodeToString(p) + "." + base64.RawURLEncoding.EncodeToString(c.sign(p))
}

// Open checks a cursor against the listing it is presented for and returns
// its position. It fails with [ErrCursorInvalid] or [ErrCursorExpired].
func (c *Cursors) Open(cursor, tool, repo string, filters any) (string, error) {
	body, sig, ok := strings.Cut(cursor, ".")
	if !ok || len(cursor) > 4096 {
		return "", ErrCursorInvalid
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(body)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, c.sign(payload)) {
		return "", ErrCursorInvalid
	}
	var p cursorPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return "", ErrCursorInvalid
	}
	if p.Tool != tool || p.Repo != strings.ToLower(repo) || p.Filters != FiltersFingerprint(filters) {
		return "", ErrCursorInvalid
	}
	issued := time.Unix(p.Issued, 0)
	if c.now().Sub(issued) > CursorTTL || issued.After(c.now().Add(time.Minute)) {
		return "", ErrCursorExpired
	}
	return p.Position, nil
}
