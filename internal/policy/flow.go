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

	mu       sync.Mutex
	sessions map[string]*sessionReads
	vis      map[string]visibility
}

type sessionReads struct {
	repos map[string]string // lower-case name → as read
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
}

// Reading attaches the session's read recorder to ctx; the GitHub
// client records into it (RecordRead) every repository GitHub answered
// about.
func (g *FlowGuard) Reading(ctx context.Context, session string) context.Context {
	if g == nil {
		return ctx
	}
	return context.WithValue(ctx, readsKey{}, reader{g: g, session: session})
}

// RecordRead notes that the call in ctx read owner/repo.
func RecordRead(ctx context.Context, owner, repo string) {
	r, ok := ctx.Value(readsKey{}).(reader)
	if !ok || owner == "" || repo == "" {
		return
	}
	r.g.record(r.session, owner+"/"+repo)
}

func (g *FlowGuard) record(session, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sessions == nil {
		g.sessions = map[string]*sessionReads{}
	}
	now := g.now()
	g.prune(now)
	s := g.sessions[session]
	if s == nil {
		s = &sessionReads{repos: map[string]string{}}
		g.sessions[session] = s
	}
	s.repos[lower(name)] = name
	s.last = now
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

func (g *FlowGuard) readBy(session string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sessions[session]
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.repos))
	for _, n := range s.repos {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
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
	return p.Flow.Reading(ctx, sessionKey(p.scope(ctx), mcpSession))
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
	read := p.Flow.readBy(sessionKey(scope, sessionFrom(ctx)))
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
