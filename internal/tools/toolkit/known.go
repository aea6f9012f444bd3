package toolkit

import (
	"container/list"
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/github"
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

// KnownNames remembers, per credential and repository, the names confirmed
// to exist, with the repository's spelling: by a write's preflight, by a
// metadata listing, or by appearing on an issue that was read. It holds at
// most knownMaxRepos repositories, forgetting the least recently used
// first, each for at most knownTTL. The zero value is ready to use; every
// method needs the lock held.
type KnownNames struct {
	sync.Mutex
	entries map[string]*list.Element // key -> element of order
	order   list.List                // of *KnownRepo, most recently used first
}

// KnownRepo is what is known of one repository's names.
type KnownRepo struct {
	key        string
	at         time.Time
	Labels     map[string]string // lower -> spelling
	Milestones map[int]string    // number -> title
	Types      map[string]string // lower -> name; nil: not known
	Assignable map[string]string // lower -> login
}

// KnownKey is the cache key of a repository as seen through c's credential.
func KnownKey(c *github.Client, owner, repo string) string {
	return string(c.CredentialKey()) + "\x00" + strings.ToLower(owner+"/"+repo)
}

// Live returns the repository's entry while it is within knownTTL, marking
// it used; an expired one is dropped and nil returned.
func (k *KnownNames) Live(key string, now time.Time) *KnownRepo {
	el := k.entries[key]
	if el == nil {
		return nil
	}
	e := el.Value.(*KnownRepo)
	if now.Sub(e.at) > knownTTL {
		k.remove(el)
		return nil
	}
	k.order.MoveToFront(el)
	return e
}

// Entry returns the repository's entry, made afresh if absent or expired,
// and marks it used. Making one forgets expired entries at the idle end,
// then the least recently used past knownMaxRepos.
// An entry's age is that of its first name, so adding names (or using
// them) never extends the trust in older ones.
func (k *KnownNames) Entry(key string, now time.Time) *KnownRepo {
	if e := k.Live(key, now); e != nil {
		return e
	}
	if k.entries == nil {
		k.entries = map[string]*list.Element{}
	}
	for back := k.order.Back(); back != nil && now.Sub(back.Value.(*KnownRepo).at) > knownTTL; back = k.order.Back() {
		k.remove(back)
	}
	for k.order.Len() >= knownMaxRepos {
		k.remove(k.order.Back())
	}
	e := &KnownRepo{key: key, at: now, Labels: map[string]string{}, Milestones: map[int]string{}, Assignable: map[string]string{}}
	k.entries[key] = k.order.PushFront(e)
	return e
}

// Drop forgets the repository's entry.
func (k *KnownNames) Drop(key string) {
	if el := k.entries[key]; el != nil {
		k.remove(el)
	}
}

func (k *KnownNames) remove(el *list.Element) {
	delete(k.entries, el.Value.(*KnownRepo).key)
	k.order.Remove(el)
}

// Len is how many repositories are remembered.
func (k *KnownNames) Len() int { return k.order.Len() }

// Shared confirmed names. With a shared store (Redis) the names one
// replica confirmed save the others their preflight reads: each name is
// written through to the store as a field ("l:" label, "a:" assignee,
// "m:" milestone number, "t:" issue type, and "t" alone marking the type
// list complete), and a preflight that misses locally merges the store's
// entry first. The store's entry lapses knownTTL after its first name; a
// merged local entry is trusted for knownTTL from the merge, so a name is
// trusted at most twice knownTTL after it was confirmed, which the
// write-side refusals bound as above.

// NameFields encodes names for the store.
func NameFields(labels, assignable map[string]string, milestones map[int]string, types map[string]string) map[string]string {
	f := map[string]string{}
	for k, v := range labels {
		f["l:"+k] = v
	}
	for k, v := range assignable {
		f["a:"+k] = v
	}
	for n, v := range milestones {
		f["m:"+strconv.Itoa(n)] = v
	}
	if types != nil {
		f["t"] = ""
		for k, v := range types {
			f["t:"+k] = v
		}
	}
	return f
}

// merge adds the store's fields to e.
func (e *KnownRepo) merge(fields map[string]string) {
	for f, v := range fields {
		kind, name, _ := strings.Cut(f, ":")
		switch kind {
		case "l":
			e.Labels[name] = v
		case "a":
			e.Assignable[name] = v
		case "m":
			if n, err := strconv.Atoi(name); err == nil {
				e.Milestones[n] = v
			}
		case "t":
			if e.Types == nil {
				e.Types = map[string]string{}
			}
			if name != "" {
				e.Types[name] = v
			}
		}
	}
}

// sharedNamesTimeout bounds a store round trip for names: they only save
// a read, so a slow store is skipped rather than waited for.
const sharedNamesTimeout = 500 * time.Millisecond

// ShareNames writes confirmed names through to a shared store.
func (s *Service) ShareNames(ctx context.Context, key string, fields map[string]string) {
	if !s.SharedNames || s.Store == nil || len(fields) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedNamesTimeout)
	defer cancel()
	if err := s.Store.AddNames(ctx, key, fields, knownTTL); err != nil {
		s.Logger().Debug("confirmed names not shared", "err", err)
	}
}

// LoadSharedNames merges the shared store's names for key into this
// process's cache.
func (s *Service) LoadSharedNames(ctx context.Context, key string) {
	if !s.SharedNames || s.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, sharedNamesTimeout)
	defer cancel()
	fields, ok, err := s.Store.Names(ctx, key, knownTTL)
	if err != nil || !ok {
		return
	}
	s.known.Lock()
	defer s.known.Unlock()
	s.known.Entry(key, s.CurrentTime()).merge(fields)
}

// DropSharedNames forgets key's names in the shared store.
func (s *Service) DropSharedNames(ctx context.Context, key string) {
	if !s.SharedNames || s.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedNamesTimeout)
	defer cancel()
	_ = s.Store.DropNames(ctx, key)
}
