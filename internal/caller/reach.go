package caller

import (
	"context"
	"slices"
	"strings"
	"sync"
)

// Reach gathers the repositories one call names and reads, for the
// call's audit line. A report's arguments name one repository, a few, or
// none (the owner's every repository), so what it reached is known only
// as it runs: the deployment's wrapper attaches a Reach before the tool
// runs ([WithReach]) and writes what it holds when the call ends, and the
// tool records into it. A nil *Reach records nothing, so a tool records
// the same way whether or not anyone audits the call.
type Reach struct {
	mu sync.Mutex
	// repos maps each repository's lower-case "owner/name" to its first
	// spelling and whether it was read.
	repos map[string]*reached
}

type reached struct {
	name string
	read bool
	// untrusted: the call was shown strangers' text of it that lockdown
	// withholds, because it asked (include_untrusted).
	untrusted bool
}

type reachKey struct{}

// WithReach attaches a new Reach to ctx and returns both. A call inside
// another (a resource read answered by a tool) gets its own.
func WithReach(ctx context.Context) (context.Context, *Reach) {
	r := &Reach{}
	return context.WithValue(ctx, reachKey{}, r), r
}

// ReachFrom returns the Reach ctx carries, or nil.
func ReachFrom(ctx context.Context) *Reach {
	r, _ := ctx.Value(reachKey{}).(*Reach)
	return r
}

// Named records that the call names owner/repo: an argument, or a
// repository it set out to read.
func (r *Reach) Named(owner, repo string) { r.add(owner, repo, false) }

// Read records that the call read owner/repo: GitHub answered at least
// one request about it, or a row it returns comes from it.
func (r *Reach) Read(owner, repo string) { r.add(owner, repo, true) }

// Untrusted records that the call was shown text of owner/repo that
// lockdown withholds from strangers, because it asked to be
// (include_untrusted): the audit line names each such repository.
func (r *Reach) Untrusted(owner, repo string) {
	if r == nil || owner == "" || repo == "" {
		return
	}
	r.add(owner, repo, true)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.repos[strings.ToLower(owner+"/"+repo)].untrusted = true
}

func (r *Reach) add(owner, repo string, read bool) {
	if r == nil || owner == "" || repo == "" {
		return
	}
	name := owner + "/" + repo
	key := strings.ToLower(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.repos == nil {
		r.repos = map[string]*reached{}
	}
	e := r.repos[key]
	if e == nil {
		e = &reached{name: name}
		r.repos[key] = e
	}
	e.read = e.read || read
}

// AuditRepos is how many repositories an audit line names; the rest are
// counted.
const AuditRepos = 50

// ReachSummary is what an audit line says of a call's Reach.
type ReachSummary struct {
	// Repos are the repositories named or read, in lower-case name
	// order, at most the limit asked for.
	Repos []string
	// More counts those left out of Repos by the limit.
	More int
	// Read counts the repositories read, listed or not.
	Read int
	// Untrusted are the repositories whose withheld text the call was
	// shown (include_untrusted), in lower-case name order, every one of
	// them: an operator audits these, so none is left to a count.
	Untrusted []string
}

// Summary sums up what r holds, listing at most limit names; ok is false
// when nothing was recorded (the call reached no repository it told of).
func (r *Reach) Summary(limit int) (s ReachSummary, ok bool) {
	if r == nil {
		return s, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.repos) == 0 {
		return s, false
	}
	keys := make([]string, 0, len(r.repos))
	for k, e := range r.repos {
		keys = append(keys, k)
		if e.read {
			s.Read++
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if r.repos[k].untrusted {
			s.Untrusted = append(s.Untrusted, r.repos[k].name)
		}
	}
	for i, k := range keys {
		if i == limit {
			s.More = len(keys) - limit
			break
		}
		s.Repos = append(s.Repos, r.repos[k].name)
	}
	return s, true
}
