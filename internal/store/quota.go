package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	qQuotaRead = hotQuery(`SELECT used FROM quota WHERE key = ? AND span = ? AND start = ?`)
	qQuotaAdd  = hotQuery(`INSERT INTO quota (key, span, start, used, ends) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (key, span, start) DO UPDATE SET used = used + excluded.used`)
)

// Write quotas: a count per key and fixed window, kept in the backend so
// every replica sharing it counts against one limit. A window of length w
// holds the instants [k·w, (k+1)·w) after the Unix epoch, so every
// process agrees where windows begin without storing when a count
// started. Each check-and-add is atomic (one SQLite transaction, one Redis
// script): replicas racing for the last unit never both get it.

// MaxQuotaLimit bounds a quota's limit: a count never exceeds its limit,
// so stored counts and their sums stay exact integers in SQLite and in
// Redis's Lua, whose numbers are doubles.
const MaxQuotaLimit = 1 << 50

// maxQuotaKey is the longest key stored as given; a longer one is stored
// as its digest, so a caller's key cannot grow a row or a Redis key
// without bound.
const maxQuotaKey = 200

// quotaKey is key as the backends store it. The prefix keeps the two forms
// apart: a short key that spells a digest never shares a longer key's
// count.
func quotaKey(key string) string {
	if len(key) <= maxQuotaKey {
		return "k:" + key
	}
	sum := sha256.Sum256([]byte(key))
	return "h:" + hex.EncodeToString(sum[:])
}

// checkCount refuses arguments no quota can mean. n > limit is not among
// them: it is an answer (refused), not a mistake.
func checkCount(key string, n, limit int, window time.Duration) error {
	switch {
	case key == "":
		return errors.New("store: a quota count needs a key")
	case n < 0:
		return fmt.Errorf("store: quota count %d is negative", n)
	case limit < 0 || limit > MaxQuotaLimit:
		return fmt.Errorf("store: quota limit %d is outside 0..%d", limit, MaxQuotaLimit)
	case window < time.Millisecond || window%time.Millisecond != 0:
		return fmt.Errorf("store: quota window %v is not a positive whole number of milliseconds", window)
	}
	return nil
}

// windowAt places now in its window of length w: the window's start in
// Unix milliseconds and the time left until it ends.
func windowAt(now time.Time, w time.Duration) (startMS int64, left time.Duration) {
	ns, wns := now.UnixNano(), w.Nanoseconds()
	into := ns % wns
	if into < 0 { // before the epoch; % keeps the dividend's sign
		into += wns
	}
	return (ns - into) / int64(time.Millisecond), time.Duration(wns - into)
}

// Count adds n to the count under key for the window of length window
// that holds the store's now, unless the count would then pass limit;
// with commit false it only asks. It reports whether n fit and, when it
// did not, the time until the window ends. Several processes sharing the
// file share the count: the transaction takes the write lock at BEGIN
// (_txlock=immediate), so two never both read the last unit as free.
func (s *Store) Count(ctx context.Context, key string, n, limit int, window time.Duration, commit bool) (bool, time.Duration, error) {
	if err := checkCount(key, n, limit, window); err != nil {
		return false, 0, err
	}
	start, left := windowAt(s.now(), window)
	w := quotaWindow{key: quotaKey(key), span: window.Milliseconds(), start: start}
	var (
		ok  bool
		err error
	)
	if commit {
		err = s.withTx(ctx, func(tx *sql.Tx) error {
			if ok, err = w.fits(ctx, s.txStmt(ctx, tx, qQuotaRead), n, limit); err != nil || !ok {
				return err
			}
			return w.add(ctx, s.txStmt(ctx, tx, qQuotaAdd), n)
		})
	} else {
		ok, err = w.fits(ctx, s.stmt(qQuotaRead), n, limit)
	}
	if err != nil || ok {
		return ok, 0, err
	}
	return false, left, nil
}

// quotaWindow is one row of the quota table: a key's count in the window
// of span ms that starts at start (Unix ms).
type quotaWindow struct {
	key         string
	span, start int64
}

// fits reports whether n more stay within limit. read is qQuotaRead, on
// the database or, before an add, bound to the transaction that makes it.
func (w quotaWindow) fits(ctx context.Context, read *sql.Stmt, n, limit int) (bool, error) {
	var used int64
	err := read.QueryRowContext(ctx, w.key, w.span, w.start).Scan(&used)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("store: read quota count: %w", err)
	}
	return used <= int64(limit)-int64(n), nil
}

// add counts n more; insert is qQuotaAdd bound to the transaction.
func (w quotaWindow) add(ctx context.Context, insert *sql.Stmt, n int) error {
	_, err := insert.ExecContext(ctx, w.key, w.span, w.start, n, w.start+w.span)
	if err != nil {
		return fmt.Errorf("store: save quota count: %w", err)
	}
	return nil
}

// PruneQuotas deletes the counts of windows ended by now and reports how
// many went.
func (s *Store) PruneQuotas(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM quota WHERE ends <= ?`, s.now().UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("store: prune quota counts: %w", err)
	}
	return res.RowsAffected()
}

// --- Redis: one hash per key and window length, holding the current
// window's start and count and expiring when that window ends.

// countScript places the server's now (ARGV[1] is its ahead) in its
// window of ARGV[2] ms and adds ARGV[3] to the window's count unless that
// passes ARGV[4]; ARGV[5] "1" commits. A count kept for an earlier window
// is worth nothing and is replaced. It returns {fit, ms left in the
// window}.
var countScript = redis.NewScript(luaNow + `
local t, w = now(ARGV[1]), tonumber(ARGV[2])
local n, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local start = t - (t % w)
local left = start + w - t
local f = redis.call('HMGET', KEYS[1], 'start', 'used')
local used = 0
if f[1] == ms(start) then used = tonumber(f[2] or '0') end
if used + n > limit then return {'0', ms(left)} end
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], 'start', ms(start), 'used', ms(used + n))
  redis.call('PEXPIRE', KEYS[1], ms(left))
end
return {'1', ms(left)}
`)

// Count is [Store.Count] with the window placed by the Redis server's clock,
// so replicas whose clocks disagree still agree on the window.
func (r *Redis) Count(ctx context.Context, key string, n, limit int, window time.Duration, commit bool) (bool, time.Duration, error) {
	if err := checkCount(key, n, limit, window); err != nil {
		return false, 0, err
	}
	k := r.prefix + "quota:" + strconv.FormatInt(window.Milliseconds(), 10) + ":" + quotaKey(key)
	flag := "0"
	if commit {
		flag = "1"
	}
	v, err := countScript.Run(ctx, r.rdb, []string{k}, r.aheadMS(), window.Milliseconds(), n, limit, flag).StringSlice()
	if err != nil {
		return false, 0, fail("count quota", err)
	}
	if len(v) != 2 {
		return false, 0, fmt.Errorf("store: redis count quota: unexpected reply %q", v)
	}
	if v[0] == "1" {
		return true, 0, nil
	}
	left, err := strconv.ParseInt(v[1], 10, 64)
	if err != nil {
		return false, 0, fmt.Errorf("store: redis count quota: unexpected reply %q", v)
	}
	return false, time.Duration(left) * time.Millisecond, nil
}
