package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

var (
	qRateRead  = hotQuery(`SELECT resource, lim, remaining, used, reset FROM rate WHERE credential = ?`)
	qRatePause = hotQuery(`INSERT INTO rate (credential, resource, lim, remaining, used, reset) VALUES (?, '', 0, 0, 0, ?)
		ON CONFLICT (credential, resource) DO UPDATE SET reset = max(reset, excluded.reset)`)
	qRateSave = hotQuery(`INSERT INTO rate (credential, resource, lim, remaining, used, reset) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (credential, resource) DO UPDATE SET
		  lim = excluded.lim, remaining = excluded.remaining, used = excluded.used, reset = excluded.reset
		WHERE excluded.reset > rate.reset OR (excluded.reset = rate.reset AND excluded.used >= rate.used)`)
	qNamesRead = hotQuery(`SELECT field, value, born FROM names WHERE key = ?`)
	qNamesBorn = hotQuery(`SELECT min(born) FROM names WHERE key = ?`)
	qNamesDrop = hotQuery(`DELETE FROM names WHERE key = ?`)
	qNamesAdd  = hotQuery(`INSERT INTO names (key, field, value, born) VALUES (?, ?, ?, ?)
		ON CONFLICT (key, field) DO UPDATE SET value = excluded.value`)
)

// The rate picture and confirmed names in the SQLite file: what processes
// sharing one file agree on. Redis holds the same for many hosts
// (redis.go); the behavioural suite holds both to one contract.

// secondaryRow is the rate table's resource for the secondary pause.
const secondaryRow = ""

// Rate returns the credential's rate picture.
func (s *Store) Rate(ctx context.Context, cred CredentialKey) (RatePicture, error) {
	rows, err := s.stmt(qRateRead).QueryContext(ctx, string(cred))
	if err != nil {
		return RatePicture{}, fmt.Errorf("store: read rate picture: %w", err)
	}
	defer rows.Close()
	p := RatePicture{Resources: map[string]RateObservation{}}
	for rows.Next() {
		var (
			o     RateObservation
			reset int64
		)
		if err := rows.Scan(&o.Resource, &o.Limit, &o.Remaining, &o.Used, &reset); err != nil {
			return RatePicture{}, fmt.Errorf("store: read rate picture: %w", err)
		}
		if o.Resource == secondaryRow {
			p.SecondaryUntil = time.UnixMilli(reset)
			continue
		}
		o.Reset = time.UnixMilli(reset)
		p.Resources[o.Resource] = o
	}
	return p, rows.Err()
}

// ObserveRate merges one response's figures (or a secondary pause) into
// the picture, keeping the newest by newerRate.
func (s *Store) ObserveRate(ctx context.Context, cred CredentialKey, obs RateObservation) error {
	if cred == "" {
		return errors.New("store: a rate observation needs a credential")
	}
	if !obs.SecondaryUntil.IsZero() {
		_, err := s.stmt(qRatePause).ExecContext(ctx, string(cred), obs.SecondaryUntil.UnixMilli())
		if err != nil {
			return fmt.Errorf("store: save secondary pause: %w", err)
		}
		return nil
	}
	if obs.Resource == "" {
		return errors.New("store: a rate observation needs a resource")
	}
	_, err := s.stmt(qRateSave).ExecContext(ctx,
		string(cred), obs.Resource, obs.Limit, obs.Remaining, obs.Used, obs.Reset.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: save rate picture: %w", err)
	}
	return nil
}

// Names returns the confirmed names under key while the entry is younger
// than ttl (by its first name's time).
func (s *Store) Names(ctx context.Context, key string, ttl time.Duration) (map[string]string, bool, error) {
	rows, err := s.stmt(qNamesRead).QueryContext(ctx, key)
	if err != nil {
		return nil, false, fmt.Errorf("store: read names: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	cutoff := s.now().Add(-ttl).UnixMilli()
	for rows.Next() {
		var (
			f, v string
			born int64
		)
		if err := rows.Scan(&f, &v, &born); err != nil {
			return nil, false, fmt.Errorf("store: read names: %w", err)
		}
		if born < cutoff {
			return nil, false, rows.Err()
		}
		out[f] = v
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return out, len(out) > 0, nil
}

// AddNames adds names to key's entry, starting a fresh entry when there is
// none or it is older than ttl.
func (s *Store) AddNames(ctx context.Context, key string, names map[string]string, ttl time.Duration) error {
	if len(names) == 0 {
		return nil
	}
	return s.withTx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var born int64
		var nb sql.NullInt64
		if err := s.txStmt(ctx, tx, qNamesBorn).QueryRowContext(ctx, key).Scan(&nb); err != nil {
			return fmt.Errorf("store: read names: %w", err)
		}
		born = nb.Int64
		if !nb.Valid || born < now.Add(-ttl).UnixMilli() {
			if _, err := s.txStmt(ctx, tx, qNamesDrop).ExecContext(ctx, key); err != nil {
				return fmt.Errorf("store: reset names: %w", err)
			}
			born = now.UnixMilli()
		}
		add := s.txStmt(ctx, tx, qNamesAdd)
		for f, v := range names {
			if _, err := add.ExecContext(ctx, key, f, v, born); err != nil {
				return fmt.Errorf("store: save names: %w", err)
			}
		}
		return nil
	})
}

// DropNames forgets key's entry.
func (s *Store) DropNames(ctx context.Context, key string) error {
	if _, err := s.stmt(qNamesDrop).ExecContext(ctx, key); err != nil {
		return fmt.Errorf("store: drop names: %w", err)
	}
	return nil
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Describe names the backend.
func (s *Store) Describe() string {
	if s.path == "" {
		return "sqlite (in memory)"
	}
	return "sqlite " + s.path
}
