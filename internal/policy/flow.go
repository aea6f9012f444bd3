package policy

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
)

// FlowGuard is the data-flow guard's memory: which repositories each
// session has read, and which repositories are private. A session that
// has read a private repository may not put text in a public one unless
// the operator allows the pair or a person confirms it (the "toxic
// flow": a public issue telling an agent to copy private data into a
// public comment). Reads alone never refuse.
type FlowGuard struct {
	// Visibility reports whether owner/repo is private, as GitHub says
	// (the deployment reads the repository with a read credential).
	Visibility func(ctx context.Context, owner, repo string) (private bool, err error)
	// Remember is how long a session's reads count; a stateless HTTP
	// client's "session" is its name, so this is its window.
	Remember time.Duration
	Now      func() time.Time
	// Store keeps the reads of sessions marked ReadsShared, so every
	// replica judges a write on what any of them read.
	Store ReadLog

	mu       sync.Mutex
	sessions map[string]*sessionReads
	vis      map[string]visibility
}

// ReadLog is the state store's memory of what sessions read.
type ReadLog interface {
	NoteRead(ctx context.Context, session, repo string, ttl time.Duration) error
	ReadsOf(ctx context.Context, session string) ([]string, error)
}

type sessionReads struct {
	repos map[string]string    // lower-case name → as read
	noted map[string]time.Time // when each was last noted fresh
	last  time.Time
}

type visibility struct {
	private bool
	at      time.Time
}

// visibilityTTL bounds how long a repository's visibility is trusted: a
// repository made public is seen as such within it.
const visibilityTTL = 5 * time.Minute

func (g *FlowGuard) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

type readsKey struct{}

// reader records the repositories one session reads.
type reader struct {
	g       *FlowGuard
	session string
	shared  bool
}

// Reading attaches the session's read recorder to ctx; the GitHub
// client records into it ([RecordRead]) every repository GitHub answered
// about.
func (g *FlowGuard) Reading(ctx context.Context, session string, shared bool) context.Context {
	if g == nil {
		return ctx
	}
	return context.WithValue(ctx, readsKey{}, reader{g: g, session: session, shared: shared && g.Store != nil})
}

// RecordRead notes that the call in ctx read owner/repo.
func RecordRead(ctx context.Context, owner, repo string) {
	r, ok := ctx.Value(readsKey{}).(reader)
	if !ok || owner == "" || repo == "" {
		return
	}
	if fresh := r.g.record(r.session, owner+"/"+repo); fresh && r.shared {
		// Once per repository and process until half the memory has
		// passed: the store's copy outlives this one. A failure leaves
		// this replica's own memory, which still guards its writes.
		_ = r.g.Store.NoteRead(ctx, r.session, owner+"/"+repo, r.g.remember())
	}
}

func (g *FlowGuard) remember() time.Duration {
	if g.Remember > 0 {
		return g.Remember
	}
	return 24 * time.Hour
}

// record notes a read in this process; fresh reports a repository not
// noted for the session within half the memory's length.
func (g *FlowGuard) record(session, name string) (fresh bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sessions == nil {
		g.sessions = map[string]*sessionReads{}
	}
	now := g.now()
	g.prune(now)
	s := g.sessions[session]
	if s == nil {
		s = &sessionReads{repos: map[string]string{}, noted: map[string]time.Time{}}
		g.sessions[session] = s
	}
	key := lower(name)
	s.repos[key] = name
	s.last = now
	if at, ok := s.noted[key]; ok && now.Sub(at) < g.remember()/2 {
		return false
	}
	s.noted[key] = now
	return true
}

// prune forgets sessions idle past Remember (or a day), so memory is
// bounded by the sessions active in that time.
func (g *FlowGuard) prune(now time.Time) {
	keep := g.Remember
	if keep <= 0 {
		keep = 24 * time.Hour
	}
	for k, s := range g.sessions {
		if now.Sub(s.last) > keep {
			delete(g.sessions, k)
		}
	}
}

// readBy lists what session read: in this process, and for a shared
// session in the store too.
func (g *FlowGuard) readBy(ctx context.Context, session string, shared bool) ([]string, error) {
	seen := map[string]string{}
	g.mu.Lock()
	if s := g.sessions[session]; s != nil {
		for k, n := range s.repos {
			seen[k] = n
		}
	}
	g.mu.Unlock()
	if shared && g.Store != nil {
		stored, err := g.Store.ReadsOf(ctx, session)
		if err != nil {
			return nil, err
		}
		for _, n := range stored {
			if _, ok := seen[lower(n)]; !ok {
				seen[lower(n)] = n
			}
		}
	}
	out := make([]string, 0, len(seen))
	for _, n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

func (g *FlowGuard) private(ctx context.Context, name string) (bool, error) {
	key := lower(name)
	g.mu.Lock()
	v, ok := g.vis[key]
	g.mu.Unlock()
	if ok && g.now().Sub(v.at) < visibilityTTL {
		return v.private, nil
	}
	owner, repo, _ := strings.Cut(name, "/")
	priv, err := g.Visibility(ctx, owner, repo)
	if err != nil {
		return false, err
	}
	g.mu.Lock()
	if g.vis == nil {
		g.vis = map[string]visibility{}
	}
	g.vis[key] = visibility{private: priv, at: g.now()}
	g.mu.Unlock()
	return priv, nil
}

// sessionKey is what the guard remembers reads under.
func sessionKey(s Scope, mcpSession string) string {
	if s.Session != "" {
		return s.Session
	}
	return s.Subject + "|" + mcpSession
}

type sessionIDKey struct{}

// WithSession names the MCP session a call belongs to.
func WithSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionIDKey{}, id)
}

func sessionFrom(ctx context.Context) string {
	id, _ := ctx.Value(sessionIDKey{}).(string)
	return id
}

// Reading attaches the session's read recorder for a call in ctx.
func (p *Path) Reading(ctx context.Context, mcpSession string) context.Context {
	ctx = WithSession(ctx, mcpSession)
	if p == nil || p.Flow == nil {
		return ctx
	}
	s := p.scope(ctx)
	return p.Flow.Reading(ctx, sessionKey(s, mcpSession), s.ReadsShared)
}

// flow applies the data-flow guard. It returns a reason to ask a person
// when text would carry private content into a public repository.
func (p *Path) flow(ctx context.Context, c Call, scope Scope, r Rules) (string, *contract.Error) {
	if p.Flow == nil || !r.Flow.On() {
		return "", nil
	}
	targets := map[string]bool{}
	for _, w := range c.Writes {
		if w.Target.Repo == "" || !hasText(w) {
			continue
		}
		targets[w.Target.Repository()] = true
	}
	if len(targets) == 0 {
		return "", nil
	}
	read, err := p.Flow.readBy(ctx, sessionKey(scope, sessionFrom(ctx)), scope.ReadsShared)
	if err != nil {
		return "", refuse(contract.CodeUpstreamUnavailable, "flow", "what this client read could not be looked up, so the data-flow guard cannot admit the write; nothing was written").WithRetryAfter(1000)
	}
	if len(read) == 0 {
		return "", nil
	}
	names := make([]string, 0, len(targets))
	for t := range targets {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, target := range names {
		// Only repositories other than the target, outside any allowed
		// pair, can carry anything into it; with none, nothing is looked up.
		var sources []string
		for _, src := range read {
			if !strings.EqualFold(src, target) && !flowAllowed(r.Flow.Allow, src, target) {
				sources = append(sources, src)
			}
		}
		if len(sources) == 0 {
			continue
		}
		priv, err := p.Flow.private(ctx, target)
		if err != nil {
			return "", refuse(contract.CodeUpstreamUnavailable, "flow", "the visibility of %s could not be read, so the data-flow guard cannot admit the write; nothing was written", target).WithRetryAfter(1000)
		}
		if priv {
			continue
		}
		for _, src := range sources {
			srcPriv, err := p.Flow.private(ctx, src)
			if err != nil {
				// Not knowing is treated as private: the guard fails closed.
				srcPriv = true
			}
			if srcPriv {
				p.note(ctx, "flow_guard", c.Tool, "flow", "from", src, "to", target)
				return fmt.Sprintf("this session read the private repository %s and the text would be written to the public repository %s", src, target), nil
			}
		}
	}
	return "", nil
}

func hasText(w Write) bool {
	for _, t := range w.Text {
		if t.Value != nil && *t.Value != "" {
			return true
		}
	}
	return false
}

func flowAllowed(pairs []string, from, to string) bool {
	for _, pair := range pairs {
		f, t, err := parseFlowPair(pair)
		if err != nil {
			continue
		}
		if matchAny([]string{f}, from) && matchAny([]string{t}, to) {
			return true
		}
	}
	return false
}
