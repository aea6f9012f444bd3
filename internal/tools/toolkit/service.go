// Package toolkit is what every toolset's tools share: the Service and its
// GitHub clients, the mapping of errors to envelopes, paging and cursors,
// tri-state inputs, input field types, name checks, idempotency keys and
// the cache of names confirmed to exist. Toolsets (internal/tools/issues)
// build on it; it knows none of them.
package toolkit

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
)

// Clients chooses the GitHub client for a call by its target owner and the
// tool's mode. A single-user server has one client; the broker routes per
// owner and mode between read and write credentials.
type Clients interface {
	For(ctx context.Context, owner string, mode tooldef.Mode) (*github.Client, error)
}

// OneClient serves every call with the same client.
type OneClient struct{ Client *github.Client }

// For implements Clients.
func (o OneClient) For(context.Context, string, tooldef.Mode) (*github.Client, error) {
	if o.Client == nil {
		return nil, contract.Errorf(contract.CodeMissingCredential, "no GitHub token is configured: the operator signs in with ghgate auth login, or sets GITHUB_TOKEN or GH_TOKEN, or uses --demo").
			WithRepair(contract.Repair{NextStep: "stop: the operator must configure a GitHub token; retrying will not help"})
	}
	return o.Client, nil
}

// State is the part of ghgate's state store the tools use: idempotency
// keys and confirmed names. [store.Backend] (SQLite or Redis) holds it.
type State interface {
	IdempotencyStore
	NameStore
}

// IdempotencyStore is the store's side of idempotency keys (see
// internal/store's idempotency.go for the protocol; [IdemKey] is the
// tools' side).
type IdempotencyStore interface {
	Reserve(ctx context.Context, scope store.IdempotencyScope, key, fingerprint string) (store.Reservation, error)
	Complete(ctx context.Context, scope store.IdempotencyScope, key, fingerprint string, since time.Time, result json.RawMessage) error
	Release(ctx context.Context, scope store.IdempotencyScope, key, fingerprint string, since time.Time) error
	Renew(ctx context.Context, scope store.IdempotencyScope, key, fingerprint string, since time.Time, lease time.Duration) error
	Takeover(ctx context.Context, scope store.IdempotencyScope, key, fingerprint string, since time.Time) (store.Reservation, error)
}

// NameStore holds the confirmed names of one repository as one
// credential sees them, shared by replicas (see [Service.ShareNames]).
type NameStore interface {
	Names(ctx context.Context, key string, ttl time.Duration) (map[string]string, bool, error)
	AddNames(ctx context.Context, key string, names map[string]string, ttl time.Duration) error
	DropNames(ctx context.Context, key string) error
}

// Service is what the tools share.
type Service struct {
	Clients Clients
	// Store holds idempotency keys and, with SharedNames, confirmed
	// names; nil refuses keyed writes.
	Store   State
	Cursors *contract.Cursors
	Log     *slog.Logger
	Now     func() time.Time
	// AllowedIssueCreator, when set, limits reads to issues that user opened
	// and refuses writes to others.
	AllowedIssueCreator string
	// Credential names the credential for idempotency scoping (a digest,
	// never the token).
	Credential func(ctx context.Context, owner string) string
	// SharedNames writes confirmed names through to Store and reads them
	// from it, for replicas sharing one store (see NameFields).
	SharedNames bool
	// SyncRoot is the absolute directory local mirrors may be written
	// under (github_sync_issues, and github_get_issue's source mirror);
	// empty refuses both with sync_not_configured.
	SyncRoot string
	// Releases are the release pull request conventions the reports
	// toolset reads (zero: the defaults).
	Releases ReleaseSettings
	// Tiers are the operator's repository tiers the security alert
	// report's classify evaluates (none: tiers.Default).
	Tiers tiers.Rules
	// FanoutPerCredential is how many calls every report on one
	// credential has in flight together, whichever client or task runs
	// it (0: fanout.DefaultShared).
	FanoutPerCredential int
	// Lockdown is the rule on strangers' text for a call on owner's
	// repositories (per server, HTTP client or broker route; see
	// Untrusted); nil: off.
	Lockdown func(ctx context.Context, owner string) Lockdown

	// known remembers names confirmed to exist (see KnownNames).
	known KnownNames
	// projects remembers boards' fields and items (see KnownProjects).
	projects KnownProjects
	// fanout is the reports' shared budget (see Fanout).
	fanout     fanout.Shared
	fanoutOnce sync.Once
}

// Fanout is the budget of calls in flight that every report of this
// Service shares per credential (FanoutPerCredential of them).
func (s *Service) Fanout() *fanout.Shared {
	s.fanoutOnce.Do(func() { s.fanout.Max = s.FanoutPerCredential })
	return &s.fanout
}

// Projects is the cache of project boards, shared by every tool of this
// Service.
func (s *Service) Projects() *KnownProjects { return &s.projects }

// Known is the cache of names confirmed to exist, shared by every tool of
// this Service.
func (s *Service) Known() *KnownNames { return &s.known }

// CurrentTime is the Service's clock: Now when set (tests), else the
// wall clock.
func (s *Service) CurrentTime() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Client is the GitHub client for a call on owner's resources in mode.
func (s *Service) Client(ctx context.Context, owner string, mode tooldef.Mode) (*github.Client, error) {
	return s.Clients.For(ctx, owner, mode)
}

// CreatorAllowed reports whether an issue by login may be touched under the
// creator scope.
func (s *Service) CreatorAllowed(login string) bool {
	return s.AllowedIssueCreator == "" || strings.EqualFold(login, s.AllowedIssueCreator)
}

// Logger is Log, or a logger that discards when none is set.
func (s *Service) Logger() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}
