package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StackOptions describe a whole single-credential ghgate: GitHub access,
// state, and the MCP server over them.
type StackOptions struct {
	// BaseURL selects GitHub.com (""), a GHES host or an emulator.
	BaseURL string
	// Token is the credential; empty serves every call a missing_credential
	// error.
	Token string
	// StorePath is the state: a SQLite path ("" keeps state in memory) or
	// a redis:// URL, which shares the state among replicas (see
	// store.OpenBackend).
	StorePath string
	// RateFloor keeps that many requests of each rate budget back (see
	// github.Options.RateFloor).
	RateFloor int
	// CursorKey signs cursors; nil takes (or makes) one from the store.
	CursorKey []byte
	Toolsets  []string
	ReadOnly  bool
	// AllowedIssueCreator limits the server to issues one user opened.
	AllowedIssueCreator string
	// SyncRoot is where local mirrors may be written (toolkit.Service).
	SyncRoot string
	// Releases are the release pull request conventions (toolkit.Service).
	Releases toolkit.ReleaseSettings
	// Tiers are the repository tiers of the reports' classify (toolkit.Service).
	Tiers      tiers.Rules
	HTTPClient *http.Client
	Log        *slog.Logger
	Now        func() time.Time
	// MaxReadRetries passes through to the access layer (0: its default).
	MaxReadRetries int
	// Wrap runs around every tool call (HTTP client policy and audit).
	Wrap tooldef.Wrapper
	// Observer is told of every GitHub request (metrics); nil: none.
	Observer github.Observer
	// TaskOwner, Tasks, Extra and Register pass through to Options.
	TaskOwner func(context.Context) string
	Tasks     tasks.Limits
	Extra     []Extra
	Register  func(*mcp.Server)
	// FanoutPerCredential bounds the reports' calls in flight on the
	// credential, all reports together (toolkit.Service).
	FanoutPerCredential int
	// Policy is the operator's write policy; PolicyShared marks an HTTP
	// deployment (mentions neutralised by default).
	Policy       policy.Rules
	PolicyShared bool
	// Lockdown is the rule on strangers' text (toolkit.Service), what the
	// server lists and says of it; LockdownFor, when set, decides per
	// call instead of Lockdown.Rule (an HTTP client's own rule).
	Lockdown    LockdownOptions
	LockdownFor func(ctx context.Context, owner string) toolkit.Lockdown
	// CheckOutputs passes through to Options (tests set it).
	CheckOutputs bool
}

// Stack is an assembled ghgate and the parts it owns.
type Stack struct {
	Server  *Server
	Service *toolkit.Service
	Store   store.Backend
	GitHub  *github.Client
	// Policy is the write path; a deployment may set its Observe.
	Policy *policy.Path
}

// NewStack opens the store, builds the GitHub client and the server.
func NewStack(ctx context.Context, o StackOptions) (*Stack, error) {
	st, err := store.OpenBackend(ctx, o.StorePath)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Stack, error) { return nil, errors.Join(err, st.Close()) }
	// A shared store also carries the rate picture and confirmed names, so
	// replicas spend one budget and confirm a name once. The embedded one
	// serves one process, which keeps both in memory as before.
	shared := store.IsRedisSpec(o.StorePath)
	key := o.CursorKey
	if len(key) == 0 {
		if key, err = st.Secret(ctx, "cursor-key", 32); err != nil {
			return fail(err)
		}
	}
	cursors, err := contract.NewCursors(key, o.Now)
	if err != nil {
		return fail(fmt.Errorf("cursor key: %w", err))
	}
	secrets := redact.NewRegistry(o.Token)
	var gh *github.Client
	if o.Token != "" {
		gh, err = github.New(github.Options{BaseURL: o.BaseURL, Token: o.Token, Secrets: secrets, Store: st, HTTPClient: o.HTTPClient,
			Now: o.Now, MaxReadRetries: o.MaxReadRetries, RateFloor: o.RateFloor, ShareRate: shared, Log: o.Log, Observer: o.Observer})
		if err != nil {
			return fail(err)
		}
	}
	svc := &toolkit.Service{Clients: toolkit.OneClient{Client: gh}, Store: st, Cursors: cursors, Log: o.Log, Now: o.Now,
		AllowedIssueCreator: o.AllowedIssueCreator, SharedNames: shared, SyncRoot: o.SyncRoot, Releases: o.Releases, Tiers: o.Tiers,
		FanoutPerCredential: o.FanoutPerCredential, Lockdown: o.LockdownFor}
	if svc.Lockdown == nil && o.Lockdown.Rule != (toolkit.Lockdown{}) {
		rule := o.Lockdown.Rule
		svc.Lockdown = func(context.Context, string) toolkit.Lockdown { return rule }
	}
	if gh != nil {
		cred := string(gh.CredentialKey())
		svc.Credential = func(context.Context, string) string { return cred }
	}
	path, err := NewPolicyPath(svc, st, PolicyOptions{Rules: o.Policy, Shared: o.PolicyShared, Key: key, Log: o.Log, Now: o.Now})
	if err != nil {
		return fail(err)
	}
	srv, err := New(svc, Options{Policy: path, Toolsets: o.Toolsets, ReadOnly: o.ReadOnly, Log: o.Log, Wrap: o.Wrap,
		TaskOwner: o.TaskOwner, Tasks: o.Tasks, TaskStore: st, Extra: o.Extra, Register: o.Register, Secrets: secrets, Lockdown: o.Lockdown,
		CheckOutputs: o.CheckOutputs})
	if err != nil {
		return fail(err)
	}
	return &Stack{Server: srv, Service: svc, Store: st, GitHub: gh, Policy: path}, nil
}

// Close releases the store.
func (s *Stack) Close() error { return s.Store.Close() }
