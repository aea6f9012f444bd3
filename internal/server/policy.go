package server

import (
	"errors"

	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"github.com/ghgate/ghgate/internal/github"
	"log/slog"
	"time"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// PolicyOptions are what a deployment's write path is built from.
type PolicyOptions struct {
	// Rules apply to calls whose scope names none (stdio, and the
	// defaults of HTTP clients and broker agents).
	Rules policy.Rules
	// Shared marks a deployment serving agents other than its operator
	// (HTTP, the broker): mentions are neutralised by default.
	Shared bool
	// Key is the deployment's secret key material (the cursor key); the
	// confirmation key is derived from it.
	Key []byte
	Log *slog.Logger
	Now func() time.Time
}

// PolicyStore is the part of the state store the write path uses: the
// quotas' counts and the data-flow guard's memory of sessions' reads.
// internal/store's Backend (SQLite or Redis) holds it.
type PolicyStore interface {
	policy.Counter
	policy.ReadLog
}

// NewPolicyPath builds the write path for a service: quotas counted in
// its store (shared by replicas when the store is), confirmations signed
// with a key derived from the deployment's, and the data-flow guard
// reading visibility with the service's read credential.
func NewPolicyPath(svc *toolkit.Service, st PolicyStore, o PolicyOptions) (*policy.Path, error) {
	if err := o.Rules.Validate(); err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, o.Key)
	mac.Write([]byte("ghgate confirmation key"))
	confirmations, err := policy.NewConfirmations(mac.Sum(nil), o.Now)
	if err != nil {
		return nil, fmt.Errorf("confirmation key: %w", err)
	}
	p := &policy.Path{Rules: o.Rules, Shared: o.Shared, Confirmations: confirmations, Log: o.Log,
		Flow: &policy.FlowGuard{Visibility: repoPrivate(svc), Now: o.Now, Store: st}, Counter: st}
	return p, nil
}

// repoPrivate reads whether a repository is private (a GitHub "internal"
// repository counts as private: its content is not for the public).
func repoPrivate(svc *toolkit.Service) func(ctx context.Context, owner, repo string) (bool, error) {
	return func(ctx context.Context, owner, repo string) (bool, error) {
		c, err := svc.Client(ctx, owner, tooldef.Read)
		if err != nil {
			return false, err
		}
		r, _, err := c.GetRepo(ctx, owner, repo)
		var ge *github.Error
		if errors.As(err, &ge) && ge.Code == github.NotFound {
			// A repository the credential cannot see gave the session
			// nothing to carry (a GraphQL read of it answered only errors).
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return r.GetPrivate() || r.GetVisibility() == "internal", nil
	}
}

// issueBefore reads an issue with the read credential for a dry run.
func issueBefore(svc *toolkit.Service) func(ctx context.Context, t policy.Target) (*policy.IssueBefore, error) {
	return func(ctx context.Context, t policy.Target) (*policy.IssueBefore, error) {
		c, err := svc.Client(ctx, t.Owner, tooldef.Read)
		if err != nil {
			return nil, err
		}
		is, _, err := c.GetIssue(ctx, t.Owner, t.Repo, t.Number)
		if err != nil {
			return nil, err
		}
		b := &policy.IssueBefore{Title: is.GetTitle(), State: is.GetState(), Labels: []string{}, Assignees: []string{},
			Milestone: is.GetMilestone().GetTitle(), Locked: is.GetLocked(), BodyLength: len(is.GetBody())}
		for _, l := range is.Labels {
			b.Labels = append(b.Labels, l.GetName())
		}
		for _, a := range is.Assignees {
			b.Assignees = append(b.Assignees, a.GetLogin())
		}
		return b, nil
	}
}
