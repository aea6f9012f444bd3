package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	qTaskExpire = hotQuery(`DELETE FROM tasks WHERE expires <= ?`)
	qTaskCreate = hotQuery(`INSERT INTO tasks (id, owner, version, data, expires) VALUES (?, ?, 1, ?, ?) ON CONFLICT (id) DO NOTHING`)
	qTaskGet    = hotQuery(`SELECT version, data, expires FROM tasks WHERE id = ? AND owner = ? AND expires > ?`)
	qTaskSwap   = hotQuery(`UPDATE tasks SET version = version + 1, data = ?, expires = ?
		WHERE id = ? AND owner = ? AND version = ? AND expires > ?`)
)

// TaskRecord is one MCP task as the backend keeps it. The store reads only
// who owns it, its version and when it expires; Data is the tasks
// package's own record.
type TaskRecord struct {
	ID    string
	Owner string
	// Version is 1 once created; each successful SwapTask adds one.
	Version int64
	Data    json.RawMessage
	// Expires is when the task is forgotten: GetTask no longer finds it.
	Expires time.Time
}

// ErrTaskExists is CreateTask's answer for an id already in use.
var ErrTaskExists = errors.New("store: task id already in use")

func (t TaskRecord) valid() error {
	if t.ID == "" || len(t.Data) == 0 || t.Expires.IsZero() {
		return fmt.Errorf("store: task record needs an id, data and an expiry")
	}
	return nil
}

// CreateTask stores a new task at version 1.
func (s *Store) CreateTask(ctx context.Context, t TaskRecord) error {
	if err := t.valid(); err != nil {
		return err
	}
	now := s.now().UnixMilli()
	// Expired tasks go as new ones come, so the table holds only live ones.
	if _, err := s.stmt(qTaskExpire).ExecContext(ctx, now); err != nil {
		return fmt.Errorf("store: drop expired tasks: %w", err)
	}
	res, err := s.stmt(qTaskCreate).ExecContext(ctx,
		t.ID, t.Owner, []byte(t.Data), t.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: create task: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrTaskExists
	}
	return nil
}

// GetTask returns the task if it exists, has not expired and belongs to
// owner; a task of another owner is not found, as an unknown one.
func (s *Store) GetTask(ctx context.Context, owner, id string) (TaskRecord, bool, error) {
	var (
		version, expires int64
		data             []byte
	)
	err := s.stmt(qTaskGet).QueryRowContext(ctx,
		id, owner, s.now().UnixMilli()).Scan(&version, &data, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return TaskRecord{}, false, nil
	} else if err != nil {
		return TaskRecord{}, false, fmt.Errorf("store: read task: %w", err)
	}
	return TaskRecord{ID: id, Owner: owner, Version: version, Data: data, Expires: time.UnixMilli(expires)}, true, nil
}

// SwapTask writes t's data and expiry as version t.Version+1 if the stored
// task (of t.Owner, not expired) is still at t.Version; false means another
// write came first (or the task is gone) and nothing was written.
func (s *Store) SwapTask(ctx context.Context, t TaskRecord) (bool, error) {
	if err := t.valid(); err != nil {
		return false, err
	}
	res, err := s.stmt(qTaskSwap).ExecContext(ctx,
		[]byte(t.Data), t.Expires.UnixMilli(), t.ID, t.Owner, t.Version, s.now().UnixMilli())
	if err != nil {
		return false, fmt.Errorf("store: write task: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// --- Redis: one hash per task (owner, version, data, expires), expiring
// with the task.

func (r *Redis) taskKey(id string) string { return r.prefix + "task:" + id }

var createTaskScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'version', '1', 'data', ARGV[2], 'expires', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`)

// lifetime is how long Redis keeps the key, in milliseconds: relative, so
// it holds whatever the server's clock says (the expiry itself is checked
// against the store's clock on every read).
func (r *Redis) lifetime(t TaskRecord) int64 {
	return max(1, t.Expires.Sub(r.now()).Milliseconds())
}

// CreateTask stores a new task at version 1.
func (r *Redis) CreateTask(ctx context.Context, t TaskRecord) error {
	if err := t.valid(); err != nil {
		return err
	}
	n, err := createTaskScript.Run(ctx, r.rdb, []string{r.taskKey(t.ID)}, t.Owner, string(t.Data), t.Expires.UnixMilli(), r.lifetime(t)).Int()
	if err != nil {
		return fail("create task", err)
	}
	if n == 0 {
		return ErrTaskExists
	}
	return nil
}

// GetTask returns the task if it exists, has not expired and belongs to
// owner.
func (r *Redis) GetTask(ctx context.Context, owner, id string) (TaskRecord, bool, error) {
	v, err := r.rdb.HMGet(ctx, r.taskKey(id), "owner", "version", "data", "expires").Result()
	if err != nil {
		return TaskRecord{}, false, fail("read task", err)
	}
	o, ok := v[0].(string)
	if !ok || o != owner {
		return TaskRecord{}, false, nil
	}
	vs, _ := v[1].(string)
	data, _ := v[2].(string)
	es, _ := v[3].(string)
	version, err1 := strconv.ParseInt(vs, 10, 64)
	expires, err2 := strconv.ParseInt(es, 10, 64)
	if err1 != nil || err2 != nil || data == "" {
		return TaskRecord{}, false, fmt.Errorf("store: redis task %s is malformed", id)
	}
	if expires <= r.now().UnixMilli() {
		return TaskRecord{}, false, nil
	}
	return TaskRecord{ID: id, Owner: owner, Version: version, Data: json.RawMessage(data), Expires: time.UnixMilli(expires)}, true, nil
}

var swapTaskScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'owner', 'version', 'expires')
if f[1] ~= ARGV[1] or f[2] ~= ARGV[2] or tonumber(f[3]) <= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'version', tostring(tonumber(ARGV[2]) + 1), 'data', ARGV[3], 'expires', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`)

// SwapTask writes t as version t.Version+1 if the stored task is still at
// t.Version.
func (r *Redis) SwapTask(ctx context.Context, t TaskRecord) (bool, error) {
	if err := t.valid(); err != nil {
		return false, err
	}
	n, err := swapTaskScript.Run(ctx, r.rdb, []string{r.taskKey(t.ID)}, t.Owner, strconv.FormatInt(t.Version, 10),
		string(t.Data), t.Expires.UnixMilli(), r.now().UnixMilli(), r.lifetime(t)).Int()
	if err != nil {
		return false, fail("write task", err)
	}
	return n == 1, nil
}
