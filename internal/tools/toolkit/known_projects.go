package toolkit

import (
	"container/list"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/github"
)

// knownProjectsMax bounds how many boards are remembered: an agent plans
// on a handful at a time.
const knownProjectsMax = 256

// KnownProjects remembers, per credential and board, the board's fields
// and options and the items of issues met on it, for knownTTL, so that
// setting a field of an issue already seen costs the write alone. A stale
// entry costs a refused write (GitHub answers NOT_FOUND for an id that is
// gone), after which the tools forget the board and read it again. The
// zero value is ready to use; it locks itself.
type KnownProjects struct {
	mu      sync.Mutex
	entries map[string]*list.Element
	order   list.List // of *KnownProject, most recently used first
}

// KnownProject is what is known of one board.
type KnownProject struct {
	key     string
	at      time.Time
	Project github.ProjectV2
	// Items maps "owner/repo#number" (lower case) to the issue's item id
	// on the board.
	Items map[string]string
}

// ProjectKey is the cache key of owner's board number seen through c's
// credential.
func ProjectKey(c *github.Client, owner string, number int) string {
	return string(c.CredentialKey()) + "\x00" + strings.ToLower(owner) + "\x00" + strconv.Itoa(number)
}

// IssueKey names an issue in KnownProject.Items.
func IssueKey(owner, repo string, number int) string {
	return strings.ToLower(owner+"/"+repo) + "#" + strconv.Itoa(number)
}

// Get returns a copy of the board's entry while it is within knownTTL.
func (k *KnownProjects) Get(key string, now time.Time) (KnownProject, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	el := k.entries[key]
	if el == nil {
		return KnownProject{}, false
	}
	e := el.Value.(*KnownProject)
	if now.Sub(e.at) > knownTTL {
		k.remove(el)
		return KnownProject{}, false
	}
	k.order.MoveToFront(el)
	cp := *e
	cp.Items = make(map[string]string, len(e.Items))
	for i, v := range e.Items {
		cp.Items[i] = v
	}
	return cp, true
}

// Put remembers a board read afresh; the items known of it are kept when
// it is the same board.
func (k *KnownProjects) Put(key string, p github.ProjectV2, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.entries == nil {
		k.entries = map[string]*list.Element{}
	}
	if el := k.entries[key]; el != nil {
		e := el.Value.(*KnownProject)
		if e.Project.ID != p.ID {
			e.Items = map[string]string{}
		}
		e.Project, e.at = p, now
		k.order.MoveToFront(el)
		return
	}
	for k.order.Len() >= knownProjectsMax {
		k.remove(k.order.Back())
	}
	e := &KnownProject{key: key, at: now, Project: p, Items: map[string]string{}}
	k.entries[key] = k.order.PushFront(e)
}

// SetItem records (or, with id "", forgets) an issue's item on a board
// already remembered.
func (k *KnownProjects) SetItem(key, issue, id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	el := k.entries[key]
	if el == nil {
		return
	}
	e := el.Value.(*KnownProject)
	if id == "" {
		delete(e.Items, issue)
		return
	}
	e.Items[issue] = id
}

// Drop forgets a board.
func (k *KnownProjects) Drop(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if el := k.entries[key]; el != nil {
		k.remove(el)
	}
}

func (k *KnownProjects) remove(el *list.Element) {
	delete(k.entries, el.Value.(*KnownProject).key)
	k.order.Remove(el)
}
