package tools

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	gh "github.com/google/go-github/v88/github"
)

// knownTTL is how long a confirmed name is trusted without
// asking again. Labels, milestones and issue types change rarely; within
// this window a write that names only confirmed values skips its
// preflight read. The cost of a stale entry is bounded: a milestone or type
// removed since is refused by GitHub's own 422 before anything is written,
// and a label deleted in the window would be re-created by GitHub on the
// write (its documented behaviour for unknown label names).
const knownTTL = 5 * time.Minute

// knownNames remembers, per credential and repository, the names confirmed
// to exist, with the repository's spelling: by a write's preflight, by a
// metadata listing, or by appearing on an issue that was read. The zero
// value is ready to use.
type knownNames struct {
	mu      sync.Mutex
	entries map[string]*knownRepo
}

type knownRepo struct {
	at         time.Time
	labels     map[string]string // lower -> spelling
	milestones map[int]string    // number -> title
	types      map[string]string // lower -> name; nil: not known
	assignable map[string]string // lower -> login
}

func knownKey(c *github.Client, owner, repo string) string {
	return string(c.CredentialKey()) + "\x00" + strings.ToLower(owner+"/"+repo)
}

// preflight runs p, answering from confirmed names where it can: when
// every name it asks about is known and it needs no issue state, no
// request is made at all.
func (s *Service) preflight(ctx context.Context, c *github.Client, p preflight) (*preflightResult, error) {
	now := s.now()
	key := knownKey(c, p.owner, p.repo)
	res := newPreflightResult()
	ask := p
	ask.labels, ask.assignees = nil, nil

	s.known.mu.Lock()
	entry := s.known.entries[key]
	if entry != nil && now.Sub(entry.at) > knownTTL {
		delete(s.known.entries, key)
		entry = nil
	}
	for _, l := range p.labels {
		if entry != nil && entry.labels[strings.ToLower(l)] != "" {
			res.labels[strings.ToLower(l)] = entry.labels[strings.ToLower(l)]
		} else {
			ask.labels = append(ask.labels, l)
		}
	}
	for _, a := range p.assignees {
		if entry != nil && entry.assignable[strings.ToLower(a)] != "" {
			res.assignable[strings.ToLower(a)] = entry.assignable[strings.ToLower(a)]
		} else {
			ask.assignees = append(ask.assignees, a)
		}
	}
	if p.milestone > 0 && entry != nil && entry.milestones[p.milestone] != "" {
		res.milestone = &gh.Milestone{Number: gh.Ptr(p.milestone), Title: gh.Ptr(entry.milestones[p.milestone])}
		ask.milestone = 0
	}
	if p.types && entry != nil && entry.types != nil {
		for k, v := range entry.types {
			res.types[k] = v
		}
		ask.types = false
	}
	s.known.mu.Unlock()

	if ask.empty() {
		return res, nil
	}
	got, err := ask.run(ctx, c)
	if err != nil {
		return nil, err
	}
	got.merge(res)
	s.remember(key, now, ask, got)
	return got, nil
}

// merge adds what was already known to a fresh answer.
func (r *preflightResult) merge(known *preflightResult) {
	for k, v := range known.labels {
		r.labels[k] = v
	}
	for k, v := range known.assignable {
		r.assignable[k] = v
	}
	if r.milestone == nil {
		r.milestone = known.milestone
	}
	if len(r.types) == 0 {
		for k, v := range known.types {
			r.types[k] = v
		}
	}
}

// remember keeps the names a preflight confirmed. Names it did not find
// are not remembered: they are asked again next time.
func (s *Service) remember(key string, now time.Time, asked preflight, got *preflightResult) {
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	e := s.known.entry(key, now)
	for k, v := range got.labels {
		e.labels[k] = v
	}
	for k, v := range got.assignable {
		e.assignable[k] = v
	}
	if got.milestone != nil {
		e.milestones[got.milestone.GetNumber()] = got.milestone.GetTitle()
	}
	if asked.types {
		e.types = map[string]string{}
		for k, v := range got.types {
			e.types[k] = v
		}
	}
}

// forget drops what is known about a repository, after GitHub refused a
// write in a way a stale name could explain.
func (s *Service) forget(c *github.Client, owner, repo string) {
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	delete(s.known.entries, knownKey(c, owner, repo))
}

// rememberListed records names a metadata listing returned, so an agent
// that looks labels and milestones up before creating an issue pays for
// that one listing and no preflight. Issue types are remembered only from
// a whole list (GitHub answers them unpaged), since the preflight treats
// the remembered set as complete.
func (s *Service) rememberListed(c *github.Client, owner, repo, kind string, items []RepoMetaItem) {
	got := newPreflightResult()
	var asked preflight
	switch kind {
	case "labels":
		for _, it := range items {
			got.labels[strings.ToLower(it.Name)] = it.Name
		}
	case "assignees":
		for _, it := range items {
			got.assignable[strings.ToLower(it.Login)] = it.Login
		}
	case "issue_types":
		asked.types = true
		for _, it := range items {
			got.types[strings.ToLower(it.Name)] = it.Name
		}
	case "milestones":
		for _, it := range items {
			s.remember(knownKey(c, owner, repo), s.now(), preflight{}, withMilestone(&gh.Milestone{Number: gh.Ptr(it.Number), Title: gh.Ptr(it.Title)}))
		}
		return
	default:
		return
	}
	s.remember(knownKey(c, owner, repo), s.now(), asked, got)
}

// entry returns the repository's entry, made afresh if absent or expired.
// The caller holds mu.
// An entry's age is that of its first name, so adding names never extends
// the trust in older ones.
func (k *knownNames) entry(key string, now time.Time) *knownRepo {
	if k.entries == nil {
		k.entries = map[string]*knownRepo{}
	}
	e := k.entries[key]
	if e == nil || now.Sub(e.at) > knownTTL {
		e = &knownRepo{at: now, labels: map[string]string{}, milestones: map[int]string{}, assignable: map[string]string{}}
		k.entries[key] = e
	}
	return e
}

// rememberSeen records the labels and milestones that issues just read
// carry: a name GitHub returned on an issue exists in its repository. An
// agent that searches before creating (for duplicates, say) has then
// confirmed the names it will most likely use, and the create is one POST.
// Rows without a readable repository are skipped rather than guessed.
func (s *Service) rememberSeen(c *github.Client, issues ...*gh.Issue) {
	now := s.now()
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	for _, is := range issues {
		owner, repo, ok := strings.Cut(repoOf(is), "/")
		if !ok || len(is.Labels) == 0 && is.Milestone == nil {
			continue
		}
		e := s.known.entry(knownKey(c, owner, repo), now)
		for _, l := range is.Labels {
			if name := l.GetName(); name != "" {
				e.labels[strings.ToLower(name)] = name
			}
		}
		if m := is.Milestone; m.GetNumber() > 0 {
			e.milestones[m.GetNumber()] = m.GetTitle()
		}
	}
}
