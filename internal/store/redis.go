package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the state of many ghgate replicas in one Redis: every replica
// behind a load balancer sees the same idempotency keys, cached responses,
// confirmed names, cursor-signing key and rate picture, so a retry that
// lands on another replica replays the first result, a read one replica
// cached is answered 304 for another, and all of them slow down together
// before the credential's budget is spent.
//
// Keys are "ghgate:<namespace>:<kind>:..." where the namespace names the
// deployment (the URL's namespace parameter, default "default") and every
// per-credential key carries the [CredentialKey] digest, never the token.
// Each check-and-set is one Lua script, so it is atomic across replicas.
// The scripts touch keys derived from their KEYS (cache eviction), which a
// single Redis (or a primary with replicas) allows; Redis Cluster is not
// supported.
type Redis struct {
	rdb    *redis.Client
	prefix string
	salt   []byte
	// now is this replica's clock. Nothing shared is decided by it: every
	// script takes the time from the Redis server (see luaNow), so a
	// replica whose clock is off neither takes over another's key nor
	// keeps a stale entry alive.
	now        func() time.Time
	ahead      func() time.Duration // see Store.serverAhead
	etagBudget int64
	describe   string
}

// Timeouts short enough that an unreachable Redis fails a call quickly
// (and a keyed write is refused) instead of hanging it.
const (
	redisDialTimeout = 2 * time.Second
	redisIOTimeout   = 2 * time.Second
)

// OpenRedis connects to the Redis rawURL names (redis://[user:pass@]host:port/db,
// rediss:// for TLS, unix:///path) and loads (or creates) the deployment's
// credential salt. The URL's "namespace" query parameter separates
// deployments sharing one Redis. [WithClock] and [WithETagBudget] apply as they
// do to Open.
func OpenRedis(ctx context.Context, rawURL string, opts ...Option) (*Redis, error) {
	cfg := Store{now: time.Now, etagBudget: DefaultETagBudget}
	for _, o := range opts {
		o(&cfg)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: state URL: %w", err)
	}
	q := u.Query()
	ns := q.Get("namespace")
	q.Del("namespace")
	u.RawQuery = q.Encode()
	if ns == "" {
		ns = "default"
	}
	if strings.ContainsAny(ns, ":{} \t\r\n") {
		return nil, fmt.Errorf("store: redis namespace %q must not contain ':', braces or spaces", ns)
	}
	ro, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("store: redis URL: %w", err)
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = redisDialTimeout, redisIOTimeout, redisIOTimeout
	ro.PoolTimeout = redisIOTimeout
	ro.MaxRetries = 1
	// One dial per attempt: a Redis that refuses connections is reported
	// at once, and the pool keeps probing in the background, so recovery
	// needs nothing from the caller.
	ro.DialerRetries, ro.DialerRetryTimeout = 1, 50*time.Millisecond
	quietRedisLog.Do(func() { redis.SetLogger(discardRedisLog{}) })
	r := &Redis{rdb: redis.NewClient(ro), prefix: "ghgate:" + ns + ":", now: cfg.now, ahead: cfg.serverAhead, etagBudget: cfg.etagBudget}
	r.describe = fmt.Sprintf("redis %s/%d namespace=%s", ro.Addr, ro.DB, ns)
	if r.salt, err = r.loadSalt(ctx); err != nil {
		_ = r.rdb.Close()
		return nil, err
	}
	return r, nil
}

// go-redis logs pool trouble on its own through a package-wide logger;
// ghgate reports an unreachable store itself, once per outage, through its
// structured log, so the library's lines are dropped.
var quietRedisLog sync.Once

type discardRedisLog struct{}

func (discardRedisLog) Printf(context.Context, string, ...any) {}

// fail wraps a Redis error: a server's error reply is a bug or a refusal
// and stays as it is; anything else (refused, reset, timed out) means
// Redis is out of reach and wraps [ErrUnavailable].
func fail(op string, err error) error {
	var reply redis.Error
	if errors.As(err, &reply) && !strings.HasPrefix(reply.Error(), "LOADING") && !strings.HasPrefix(reply.Error(), "MASTERDOWN") {
		return fmt.Errorf("store: redis %s: %w", op, err)
	}
	return fmt.Errorf("store: redis %s: %w: %w", op, ErrUnavailable, err)
}

func (r *Redis) loadSalt(ctx context.Context) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("store: make credential salt: %w", err)
	}
	salt, err := r.setOnce(ctx, r.prefix+"meta:"+saltKey, fresh)
	if err != nil {
		return nil, fail("credential salt", err)
	}
	if len(salt) < 16 {
		return nil, errors.New("store: credential salt is damaged")
	}
	return salt, nil
}

// setOnce stores value under key unless a value is there, and returns the
// one that is.
func (r *Redis) setOnce(ctx context.Context, key string, value []byte) ([]byte, error) {
	if err := r.rdb.SetNX(ctx, key, value, 0).Err(); err != nil {
		return nil, err
	}
	return r.rdb.Get(ctx, key).Bytes()
}

// CredentialKey derives the key that stands for token in this deployment.
func (r *Redis) CredentialKey(token string) CredentialKey {
	m := hmac.New(sha256.New, r.salt)
	m.Write([]byte("ghgate credential v1\x00"))
	m.Write([]byte(token))
	return CredentialKey(hex.EncodeToString(m.Sum(nil)))
}

// Secret returns the deployment's secret under name, created once.
func (r *Redis) Secret(ctx context.Context, name string, size int) ([]byte, error) {
	fresh := make([]byte, size)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("store: make secret %s: %w", name, err)
	}
	out, err := r.setOnce(ctx, r.prefix+"secret:"+name, fresh)
	if err != nil {
		return nil, fail("secret "+name, err)
	}
	if len(out) < size {
		return nil, fmt.Errorf("store: secret %s is shorter than %d bytes", name, size)
	}
	return out, nil
}

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// luaNow starts every script that needs the time: now(ahead) is the
// Redis server's clock in milliseconds (TIME), plus ahead, which is zero
// except where a test lets shared time pass. A replica's own clock never
// enters a lease, an expiry or a recency: replicas disagree by their
// skew, the server does not disagree with itself. Scripts call TIME
// before writing, which Redis 5 and later replicate by their effects;
// older servers are asked to.
const luaNow = `
if redis.replicate_commands then redis.replicate_commands() end
local function now(ahead)
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ahead)
end
local function ms(n) return string.format('%.0f', n) end
`

// aheadMS is the argument every script's now takes.
func (r *Redis) aheadMS() int64 {
	if r.ahead == nil {
		return 0
	}
	return r.ahead().Milliseconds()
}

// --- idempotency keys

func (r *Redis) idemKey(scope IdempotencyScope, key string) string {
	return r.prefix + "idem:" + string(scope.Credential) + ":" + digest(scope.Caller, strings.ToLower(scope.Repo), scope.Tool, key)
}

// claimScript reserves a key, or (mode "takeover") re-reserves a pending
// key made at ARGV[6] whose in-flight marker has lapsed; otherwise it
// reports the live entry: {state, created, live, result} or {"reused"}.
// Creation, expiry and the marker are all the server's time (ARGV[2] is
// now's ahead).
var claimScript = redis.NewScript(luaNow + `
local f = redis.call('HMGET', KEYS[1], 'fp', 'state', 'created', 'lease', 'result')
local t = now(ARGV[2])
local ttl = tonumber(ARGV[3])
if f[1] and f[3] and t < tonumber(f[3]) + ttl then
  if f[1] ~= ARGV[1] then return {'reused'} end
  local live = t < tonumber(f[4] or '0')
  if not (ARGV[5] == 'takeover' and f[2] == 'pending' and f[3] == ARGV[6] and not live) then
    return {f[2], f[3], live and '1' or '0', f[5] or ''}
  end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'pending', 'created', ms(t), 'lease', ms(t + tonumber(ARGV[4])))
redis.call('PEXPIRE', KEYS[1], ttl)
return {'reserved', ms(t), '1', ''}
`)

func (r *Redis) claim(ctx context.Context, scope IdempotencyScope, key, fingerprint, mode string, since time.Time) (Reservation, error) {
	if err := scope.valid(key); err != nil {
		return Reservation{}, err
	}
	v, err := claimScript.Run(ctx, r.rdb, []string{r.idemKey(scope, key)}, fingerprint, r.aheadMS(),
		IdempotencyTTL.Milliseconds(), LeaseTTL.Milliseconds(), mode, since.UnixMilli()).StringSlice()
	if err != nil {
		return Reservation{}, fail("reserve idempotency key", err)
	}
	if len(v) == 1 && v[0] == "reused" {
		return Reservation{}, ErrKeyReused
	}
	if len(v) != 4 {
		return Reservation{}, fmt.Errorf("store: redis reserve: unexpected reply %q", v)
	}
	created, _ := strconv.ParseInt(v[1], 10, 64)
	out := Reservation{CreatedAt: time.UnixMilli(created), Live: v[2] == "1"}
	out.ExpiresAt = out.CreatedAt.Add(IdempotencyTTL)
	switch v[0] {
	case "reserved":
		out.Outcome = Reserved
	case "complete":
		out.Outcome, out.Result = Replay, json.RawMessage(v[3])
	default:
		out.Outcome = InProgress
	}
	return out, nil
}

// Reserve claims key or reports its earlier use; see [Store.Reserve].
func (r *Redis) Reserve(ctx context.Context, scope IdempotencyScope, key, fingerprint string) (Reservation, error) {
	return r.claim(ctx, scope, key, fingerprint, "reserve", time.Time{})
}

// Takeover claims a pending key whose holder is gone; see [Store.Takeover].
func (r *Redis) Takeover(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) (Reservation, error) {
	return r.claim(ctx, scope, key, fingerprint, "takeover", since)
}

// pendingScript changes the pending entry with fingerprint ARGV[1] made
// at ARGV[4] (never one another holder has taken over since): ARGV[2]
// "complete" stores ARGV[3] as the result, "release" deletes it, "renew"
// moves its marker ARGV[3] milliseconds past the server's now (ARGV[5]
// is now's ahead), or into the past when ARGV[3] is not positive.
var pendingScript = redis.NewScript(luaNow + `
local f = redis.call('HMGET', KEYS[1], 'fp', 'state', 'created')
if f[1] ~= ARGV[1] or f[2] ~= 'pending' or f[3] ~= ARGV[4] then return 0 end
if ARGV[2] == 'complete' then
  redis.call('HSET', KEYS[1], 'state', 'complete', 'result', ARGV[3])
elseif ARGV[2] == 'release' then
  redis.call('DEL', KEYS[1])
else
  local lease = tonumber(ARGV[3])
  local untilms = 0
  if lease > 0 then untilms = now(ARGV[5]) + lease end
  redis.call('HSET', KEYS[1], 'lease', ms(untilms))
end
return 1
`)

func (r *Redis) pending(ctx context.Context, scope IdempotencyScope, key, fingerprint, op string, args ...any) error {
	if err := scope.valid(key); err != nil {
		return err
	}
	n, err := pendingScript.Run(ctx, r.rdb, []string{r.idemKey(scope, key)}, append([]any{fingerprint, op}, args...)...).Int()
	if err != nil {
		return fail(op+" idempotency key", err)
	}
	if n == 0 {
		return ErrNotReserved
	}
	return nil
}

// Complete records the reserved write's result; see [Store.Complete].
func (r *Redis) Complete(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, result json.RawMessage) error {
	if !json.Valid(result) {
		return errors.New("store: an idempotency result must be JSON")
	}
	return r.pending(ctx, scope, key, fingerprint, "complete", []byte(result), since.UnixMilli(), r.aheadMS())
}

// Release gives up a reservation whose write did not happen.
func (r *Redis) Release(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) error {
	return r.pending(ctx, scope, key, fingerprint, "release", "", since.UnixMilli(), r.aheadMS())
}

// Renew moves the in-flight marker of the reservation made at since to
// lease past the server's now; see [Store.Renew].
func (r *Redis) Renew(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, lease time.Duration) error {
	return r.pending(ctx, scope, key, fingerprint, "renew", lease.Milliseconds(), since.UnixMilli(), r.aheadMS())
}

// lookupScript reads a key's entry and the server's now (ARGV[1] is its
// ahead): {fp, state, created, result, now}.
var lookupScript = redis.NewScript(luaNow + `
local f = redis.call('HMGET', KEYS[1], 'fp', 'state', 'created', 'result')
return {f[1] or '', f[2] or '', f[3] or '', f[4] or '', ms(now(ARGV[1]))}
`)

// Lookup reports the live entry for key without claiming it.
func (r *Redis) Lookup(ctx context.Context, scope IdempotencyScope, key string) (IdempotencyEntry, bool, error) {
	if err := scope.valid(key); err != nil {
		return IdempotencyEntry{}, false, err
	}
	v, err := lookupScript.Run(ctx, r.rdb, []string{r.idemKey(scope, key)}, r.aheadMS()).StringSlice()
	if err != nil {
		return IdempotencyEntry{}, false, fail("read idempotency key", err)
	}
	if len(v) != 5 {
		return IdempotencyEntry{}, false, fmt.Errorf("store: redis lookup: unexpected reply %q", v)
	}
	fp, state, result := v[0], v[1], v[3]
	created, perr := strconv.ParseInt(v[2], 10, 64)
	now, nerr := strconv.ParseInt(v[4], 10, 64)
	if fp == "" || perr != nil || nerr != nil {
		return IdempotencyEntry{}, false, nil
	}
	e := IdempotencyEntry{Fingerprint: fp, CreatedAt: time.UnixMilli(created)}
	e.ExpiresAt = e.CreatedAt.Add(IdempotencyTTL)
	if now >= e.ExpiresAt.UnixMilli() {
		return IdempotencyEntry{}, false, nil
	}
	e.Complete = state == "complete"
	if e.Complete {
		e.Result = json.RawMessage(result)
	}
	return e, true, nil
}

// --- conditional-request cache

// The cache is bounded like the SQLite one: lru (a sorted set of entry keys
// by last use), sizes (entry key -> bytes) and bytes (the running total).
// An entry that Redis expired ([ETagMaxAge]) stays counted until eviction
// reaches it, which errs on the side of the bound.
func (r *Redis) etagKeys(key ETagKey) []string {
	return []string{
		r.prefix + "etag:" + string(key.Credential) + ":" + digest(key.URL, key.Accept),
		r.prefix + "etag-lru", r.prefix + "etag-size", r.prefix + "etag-bytes",
	}
}

// putETagScript stores an entry and evicts the least recently used past
// the budget; recency is the server's time (ARGV[2] is now's ahead), so
// a replica whose clock runs ahead does not keep its entries longest.
var putETagScript = redis.NewScript(luaNow + `
local old = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'etag', ARGV[5], 'lm', ARGV[6], 'status', ARGV[7], 'header', ARGV[8], 'body', ARGV[9], 'stored', ARGV[10])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('HSET', KEYS[3], KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ms(now(ARGV[2])), KEYS[1])
local total = redis.call('INCRBY', KEYS[4], tonumber(ARGV[1]) - old)
if total > tonumber(ARGV[3]) then
  local target = math.floor(tonumber(ARGV[3]) * 0.9)
  while total > target do
    local m = redis.call('ZRANGE', KEYS[2], 0, 0)
    if #m == 0 then break end
    local sz = tonumber(redis.call('HGET', KEYS[3], m[1]) or '0')
    redis.call('DEL', m[1])
    redis.call('HDEL', KEYS[3], m[1])
    redis.call('ZREM', KEYS[2], m[1])
    total = redis.call('DECRBY', KEYS[4], sz)
  end
end
return total
`)

// touchETagScript marks an entry used now, by the server's time (ARGV[1]
// is now's ahead), if it is still in the cache.
var touchETagScript = redis.NewScript(luaNow + `
return redis.call('ZADD', KEYS[1], 'XX', ms(now(ARGV[1])), ARGV[2])
`)

var deleteETagScript = redis.NewScript(`
local sz = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[3], KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
if sz > 0 then redis.call('DECRBY', KEYS[4], sz) end
return sz
`)

// PeekETag returns the validators of the cached response for key (see
// [Store.PeekETag]) and marks it used.
func (r *Redis) PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	keys := r.etagKeys(key)
	v, err := r.rdb.HMGet(ctx, keys[0], "etag", "lm", "status").Result()
	if err != nil {
		return CachedResponse{}, false, fail("read cached response", err)
	}
	etag, _ := v[0].(string)
	if etag == "" {
		return CachedResponse{}, false, nil
	}
	cr := CachedResponse{ETag: etag, Partial: true}
	cr.LastModified, _ = v[1].(string)
	status, _ := v[2].(string)
	cr.Status, _ = strconv.Atoi(status)
	// A failure here only makes the entry look idler than it is.
	_ = touchETagScript.Run(ctx, r.rdb, []string{keys[1]}, r.aheadMS(), keys[0]).Err()
	return cr, true, nil
}

// GetETag returns the cached response for key and marks it used.
func (r *Redis) GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	keys := r.etagKeys(key)
	v, err := r.rdb.HMGet(ctx, keys[0], "etag", "lm", "status", "header", "body", "stored").Result()
	if err != nil {
		return CachedResponse{}, false, fail("read cached response", err)
	}
	etag, _ := v[0].(string)
	if etag == "" {
		return CachedResponse{}, false, nil
	}
	var cr CachedResponse
	cr.ETag = etag
	cr.LastModified, _ = v[1].(string)
	status, _ := v[2].(string)
	cr.Status, _ = strconv.Atoi(status)
	header, _ := v[3].(string)
	if err := json.Unmarshal([]byte(header), &cr.Header); err != nil {
		return CachedResponse{}, false, fmt.Errorf("store: cached response header: %w", err)
	}
	body, _ := v[4].(string)
	cr.Body = []byte(body)
	stored, _ := v[5].(string)
	ms, _ := strconv.ParseInt(stored, 10, 64)
	cr.StoredAt = time.UnixMilli(ms)
	// A failure here only makes the entry look idler than it is.
	_ = touchETagScript.Run(ctx, r.rdb, []string{keys[1]}, r.aheadMS(), keys[0]).Err()
	return cr, true, nil
}

// PutETag stores the cached response for key, evicting the least recently
// used entries past the budget; see [Store.PutETag].
func (r *Redis) PutETag(ctx context.Context, key ETagKey, cr CachedResponse) error {
	if key.Credential == "" || key.URL == "" || cr.ETag == "" {
		return errors.New("store: a cached response needs a credential, a URL and an ETag")
	}
	header := []byte("{}")
	if cr.Header != nil {
		var err error
		if header, err = json.Marshal(cr.Header); err != nil {
			return fmt.Errorf("store: encode cached response header: %w", err)
		}
	}
	stored := cr.StoredAt
	if stored.IsZero() {
		stored = r.now()
	}
	size := int64(len(cr.Body) + len(header))
	if size > r.etagBudget {
		return r.DeleteETag(ctx, key)
	}
	err := putETagScript.Run(ctx, r.rdb, r.etagKeys(key), size, r.aheadMS(), r.etagBudget,
		ETagMaxAge.Milliseconds(), cr.ETag, cr.LastModified, cr.Status, header, cr.Body, stored.UnixMilli()).Err()
	if err != nil {
		return fail("save cached response", err)
	}
	return nil
}

// DeleteETag forgets the cached response for key.
func (r *Redis) DeleteETag(ctx context.Context, key ETagKey) error {
	if err := deleteETagScript.Run(ctx, r.rdb, r.etagKeys(key)).Err(); err != nil {
		return fail("delete cached response", err)
	}
	return nil
}

// CachedBytes is the cache's running byte total, for tests and metrics.
func (r *Redis) CachedBytes(ctx context.Context) (int64, error) {
	n, err := r.rdb.Get(ctx, r.prefix+"etag-bytes").Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fail("read cached response bytes", err)
	}
	return n, nil
}

// --- rate picture

// rateTTL keeps a credential's picture a day after its last update: a
// window lasts an hour, so older figures are of no use.
const rateTTL = 24 * time.Hour

// observeRateScript merges one observation. A secondary pause is kept in
// the server's time: ARGV[5] is how long it lasts from now, ARGV[7] now's
// ahead; the longer pause wins.
var observeRateScript = redis.NewScript(luaNow + `
if ARGV[1] == '' then
  local old = tonumber(redis.call('HGET', KEYS[1], '') or '0')
  local pause = now(ARGV[7]) + tonumber(ARGV[5])
  if pause > old then redis.call('HSET', KEYS[1], '', ms(pause)) end
else
  local old = redis.call('HGET', KEYS[1], ARGV[1])
  if old then
    local _, _, _, _, oused, oreset = string.find(old, '^(-?%d+) (-?%d+) (-?%d+) (-?%d+)$')
    local used, reset = tonumber(ARGV[4]), tonumber(ARGV[5])
    oused, oreset = tonumber(oused), tonumber(oreset)
    if reset < oreset or (reset == oreset and used < oused) then
      redis.call('PEXPIRE', KEYS[1], ARGV[6])
      return 0
    end
  end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4] .. ' ' .. ARGV[5])
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`)

// rateScript reads a credential's picture with the server's now first
// (ARGV[1] is its ahead), to bring the pause into this replica's time.
var rateScript = redis.NewScript(luaNow + `
local out = redis.call('HGETALL', KEYS[1])
table.insert(out, 1, ms(now(ARGV[1])))
return out
`)

func (r *Redis) rateKey(cred CredentialKey) string { return r.prefix + "rate:" + string(cred) }

// ObserveRate merges one response's figures (or a secondary pause) into
// the shared picture, keeping the newest. The figures' reset times are
// GitHub's; a pause, which this replica's clock dated, is stored as its
// length from the server's now, so replicas' skews do not shift it.
func (r *Redis) ObserveRate(ctx context.Context, cred CredentialKey, obs RateObservation) error {
	if cred == "" {
		return errors.New("store: a rate observation needs a credential")
	}
	args := []any{"", 0, 0, 0, obs.SecondaryUntil.Sub(r.now()).Milliseconds(), rateTTL.Milliseconds(), r.aheadMS()}
	if obs.SecondaryUntil.IsZero() {
		if obs.Resource == "" {
			return errors.New("store: a rate observation needs a resource")
		}
		args = []any{obs.Resource, obs.Limit, obs.Remaining, obs.Used, obs.Reset.UnixMilli(), rateTTL.Milliseconds(), 0}
	}
	if err := observeRateScript.Run(ctx, r.rdb, []string{r.rateKey(cred)}, args...).Err(); err != nil {
		return fail("save rate picture", err)
	}
	return nil
}

// Rate returns the credential's shared rate picture, its pause in this
// replica's time.
func (r *Redis) Rate(ctx context.Context, cred CredentialKey) (RatePicture, error) {
	v, err := rateScript.Run(ctx, r.rdb, []string{r.rateKey(cred)}, r.aheadMS()).StringSlice()
	if err != nil {
		return RatePicture{}, fail("read rate picture", err)
	}
	p := RatePicture{Resources: map[string]RateObservation{}}
	if len(v) == 0 {
		return p, nil
	}
	serverNow, _ := strconv.ParseInt(v[0], 10, 64)
	for i := 1; i+1 < len(v); i += 2 {
		res, val := v[i], v[i+1]
		if res == "" {
			ms, _ := strconv.ParseInt(val, 10, 64)
			p.SecondaryUntil = r.now().Add(time.Duration(ms-serverNow) * time.Millisecond)
			continue
		}
		var o RateObservation
		var reset int64
		if _, err := fmt.Sscanf(val, "%d %d %d %d", &o.Limit, &o.Remaining, &o.Used, &reset); err != nil {
			continue
		}
		o.Resource, o.Reset = res, time.UnixMilli(reset)
		p.Resources[res] = o
	}
	return p, nil
}

// --- confirmed names

// bornField holds an entry's first name's time; "\x00" sorts before and
// never collides with a name field.
const bornField = "\x00born"

// addNamesScript adds names to an entry, starting afresh when its first
// name is older than ARGV[2] by the server's time (ARGV[1] is now's
// ahead).
var addNamesScript = redis.NewScript(luaNow + `
local born = tonumber(redis.call('HGET', KEYS[1], '\0born') or '0')
local t, ttl = now(ARGV[1]), tonumber(ARGV[2])
if born == 0 or born < t - ttl then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], '\0born', ms(t))
  redis.call('PEXPIRE', KEYS[1], ttl)
end
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i+1])
end
return 1
`)

// namesScript returns an entry's fields while its first name is younger
// than ARGV[2] by the server's time (ARGV[1] is now's ahead), else none.
var namesScript = redis.NewScript(luaNow + `
local born = tonumber(redis.call('HGET', KEYS[1], '\0born') or '0')
if born == 0 or born < now(ARGV[1]) - tonumber(ARGV[2]) then return {} end
return redis.call('HGETALL', KEYS[1])
`)

func (r *Redis) namesKey(key string) string {
	cred, repo, _ := strings.Cut(key, "\x00")
	return r.prefix + "names:" + digest(cred) + ":" + digest(repo)
}

// Names returns key's confirmed names while the entry is younger than ttl.
func (r *Redis) Names(ctx context.Context, key string, ttl time.Duration) (map[string]string, bool, error) {
	v, err := namesScript.Run(ctx, r.rdb, []string{r.namesKey(key)}, r.aheadMS(), ttl.Milliseconds()).StringSlice()
	if err != nil {
		return nil, false, fail("read names", err)
	}
	m := map[string]string{}
	for i := 0; i+1 < len(v); i += 2 {
		if v[i] != bornField {
			m[v[i]] = v[i+1]
		}
	}
	return m, len(m) > 0, nil
}

// AddNames adds names to key's entry, starting afresh when it is older
// than ttl.
func (r *Redis) AddNames(ctx context.Context, key string, names map[string]string, ttl time.Duration) error {
	if len(names) == 0 {
		return nil
	}
	args := []any{r.aheadMS(), ttl.Milliseconds()}
	for f, v := range names {
		args = append(args, f, v)
	}
	if err := addNamesScript.Run(ctx, r.rdb, []string{r.namesKey(key)}, args...).Err(); err != nil {
		return fail("save names", err)
	}
	return nil
}

// DropNames forgets key's entry.
func (r *Redis) DropNames(ctx context.Context, key string) error {
	if err := r.rdb.Del(ctx, r.namesKey(key)).Err(); err != nil {
		return fail("drop names", err)
	}
	return nil
}

// Ping checks Redis answers.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.rdb.Ping(ctx).Err(); err != nil {
		return fail("ping", err)
	}
	return nil
}

// Describe names the backend: address, database and namespace, never the
// password.
func (r *Redis) Describe() string { return r.describe }

// Close releases the connections.
func (r *Redis) Close() error { return r.rdb.Close() }
