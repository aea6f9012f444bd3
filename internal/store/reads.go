package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	qReadNote = hotQuery(`INSERT INTO flow_reads (session, repo, until) VALUES (?, ?, ?)
		ON CONFLICT (session, repo) DO UPDATE SET until = max(until, excluded.until)`)
	qReadsOf = hotQuery(`SELECT repo FROM flow_reads WHERE session = ? AND until > ? ORDER BY until DESC LIMIT ?`)
)

// The data-flow guard's memory of what a session read, kept in the
// backend for sessions whose requests may land on any replica (an HTTP
// client's): a replica asked to write for the client knows what another
// replica read for it. Each repository is remembered until its ttl from
// the last read passes; sessions and repositories are ghgate's own names
// ("client:NAME", "owner/repo"), never secrets.

// maxReadsListed bounds what ReadsOf returns: a session that read more
// repositories than this is judged on the most recent.
const maxReadsListed = 1000

// NoteRead remembers that session read repo, until ttl from now.
func (s *Store) NoteRead(ctx context.Context, session, repo string, ttl time.Duration) error {
	until := s.now().Add(ttl).UnixMilli()
	_, err := s.stmt(qReadNote).ExecContext(ctx, session, repo, until)
	if err != nil {
		return fmt.Errorf("store: note a read: %w", err)
	}
	return nil
}

// ReadsOf lists the repositories session read that are still remembered,
// the most recently read first.
func (s *Store) ReadsOf(ctx context.Context, session string) ([]string, error) {
	rows, err := s.stmt(qReadsOf).QueryContext(ctx,
		session, s.now().UnixMilli(), maxReadsListed)
	if err != nil {
		return nil, fmt.Errorf("store: list reads: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var repo string
		if err := rows.Scan(&repo); err != nil {
			return nil, fmt.Errorf("store: list reads: %w", err)
		}
		out = append(out, repo)
	}
	return out, rows.Err()
}

// pruneReads forgets reads past their time.
func (s *Store) pruneReads(ctx context.Context, q interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}) error {
	_, err := q.ExecContext(ctx, `DELETE FROM flow_reads WHERE until <= ?`, s.now().UnixMilli())
	return err
}

// --- Redis: one sorted set per session, each repository scored by the
// Unix ms until which it is remembered; the set expires with its last.

// noteReadScript scores ARGV[3] at the server's now plus ARGV[2] ms,
// never lowering a later score, and keeps the set until its last score.
var noteReadScript = redis.NewScript(luaNow + `
local expires = now(ARGV[1]) + tonumber(ARGV[2])
local cur = redis.call('ZSCORE', KEYS[1], ARGV[3])
if (not cur) or tonumber(cur) < expires then redis.call('ZADD', KEYS[1], ms(expires), ARGV[3]) end
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`)

// readsScript lists the members scored after the server's now, latest
// first, at most ARGV[2].
var readsScript = redis.NewScript(luaNow + `
return redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '(' .. ms(now(ARGV[1])), 'LIMIT', 0, tonumber(ARGV[2]))
`)

// NoteRead is [Store.NoteRead], timed by the Redis server's clock.
func (r *Redis) NoteRead(ctx context.Context, session, repo string, ttl time.Duration) error {
	if err := noteReadScript.Run(ctx, r.rdb, []string{r.prefix + "reads:" + session}, r.aheadMS(), ttl.Milliseconds(), repo).Err(); err != nil {
		return fail("note a read", err)
	}
	return nil
}

// ReadsOf is [Store.ReadsOf], timed by the Redis server's clock.
func (r *Redis) ReadsOf(ctx context.Context, session string) ([]string, error) {
	out, err := readsScript.Run(ctx, r.rdb, []string{r.prefix + "reads:" + session}, r.aheadMS(), maxReadsListed).StringSlice()
	if err != nil {
		return nil, fail("list reads", err)
	}
	return out, nil
}
