package tools

import (
	"container/list"
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

// knownMaxRepos bounds how many repositories' names are remembered. A
// search across an organisation names a repository per hit, but an agent
// writes to a handful at a time: 1,024 holds that working set, and what a
// search adds beyond it is the long tail, cheap to confirm again.
const knownMaxRepos = 1024

// knownNames remembers, per credential and repository, the names confirmed
// to exist, with the repository's spelling: by a write's preflight, by a
// metadata listing, or by appearing on an issue that was read. It holds at
// most knownMaxRepos repositories, forgetting the least recently used
// first, each for at most knownTTL. The zero value is ready to use; every
// method needs mu held.
type knownNames struct {
	mu      sync.Mutex
	entries map[string]*list.Element // key -> element of order
	order   list.List                // of *knownRepo, most recently used first
}

type knownRepo struct {
	key        string
	at         time.Time
	labels     map[string]string // lower -> spelling
	milestones map[int]string    // number -> title
	types      map[string]string // lower -> name; nil: not known
	assignable map[string]string // lower -> login
}

func knownKey(c *github.Client, owner, repo string) string {
	return string(c.CredentialKey()) + "\x00" + strings.ToLower(owner+"/"+repo)
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
	s.known.drop(knownKey(c, owner, repo))
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

// live returns the repository's entry while it is within knownTTL, marking
// it used; an expired one is dropped and nil returned.
func (k *knownNames) live(key string, now time.Time) *knownRepo {
	el := k.entries[key]
	if el == nil {
		return nil
	}
	e := el.Value.(*knownRepo)
	if now.Sub(e.at) > knownTTL {
		k.remove(el)
		return nil
	}
	k.order.MoveToFront(el)
	return e
}

// entry returns the repository's entry, made afresh if absent or expired,
// and marks it used. Making one forgets expired entries at the idle end,
// then the least recently used past knownMaxRepos.
// An entry's age is that of its first name, so adding names (or using
// them) never extends the trust in older ones.
func (k *knownNames) entry(key string, now time.Time) *knownRepo {
	if e := k.live(key, now); e != nil {
		return e
	}
	if k.entries == nil {
		k.entries = map[string]*list.Element{}
	}
	for back := k.order.Back(); back != nil && now.Sub(back.Value.(*knownRepo).at) > knownTTL; back = k.order.Back() {
		k.remove(back)
	}
	for k.order.Len() >= knownMaxRepos {
		k.remove(k.order.Back())
	}
	e := &knownRepo{key: key, at: now, labels: map[string]string{}, milestones: map[int]string{}, assignable: map[string]string{}}
	k.entries[key] = k.order.PushFront(e)
	return e
}

// drop forgets the repository's entry.
func (k *knownNames) drop(key string) {
	if el := k.entries[key]; el != nil {
		k.remove(el)
	}
}

func (k *knownNames) remove(el *list.Element) {
	delete(k.entries, el.Value.(*knownRepo).key)
	k.order.Remove(el)
}

// len is how many repositories are remembered.
func (k *knownNames) len() int { return k.order.Len() }

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
