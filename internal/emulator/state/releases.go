package state

import (
	"slices"
	"strings"
	"time"
)

// Release is a published GitHub release of a tag.
type Release struct {
	ID          int64
	NodeID      string
	TagName     string
	Name        string
	Body        string
	Draft       bool
	Prerelease  bool
	Author      *Account
	CreatedAt   time.Time
	PublishedAt time.Time
}

// Tag records a lightweight tag on a commit.
func (s *State) Tag(r *Repo, name string, c *GitCommit) {
	g := s.EnsureGit(r)
	if g.Tags == nil {
		g.Tags = map[string]*GitCommit{}
	}
	g.Tags[name] = c
}

// AddRelease publishes a release of an existing tag. A version with a
// pre-release part ("-rc.1") is a pre-release, as semver says.
func (s *State) AddRelease(r *Repo, tag, body string, author *Account, at time.Time) *Release {
	id := s.nextID()
	rel := &Release{ID: id, NodeID: NodeID("RE", id), TagName: tag, Name: tag, Body: body,
		Prerelease: strings.Contains(tag, "-"), Author: author, CreatedAt: at, PublishedAt: at}
	r.Releases = append(r.Releases, rel)
	s.nodes[rel.NodeID] = rel
	return rel
}

// TipAt is the commit a branch pointed at, at moment t: the newest commit
// on its first-parent line committed by then.
func TipAt(tip *GitCommit, t time.Time) *GitCommit {
	for c := tip; c != nil; {
		if !c.Committer.When.After(t) {
			return c
		}
		if len(c.Parents) == 0 {
			return c
		}
		c = c.Parents[0]
	}
	return tip
}

// ReleasesNewestFirst is the order GitHub lists releases in.
func (r *Repo) ReleasesNewestFirst() []*Release {
	list := slices.Clone(r.Releases)
	slices.SortStableFunc(list, func(a, b *Release) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return list
}

// LatestRelease is the newest release that is neither a draft nor a
// pre-release, as GitHub documents "latest", nil if there is none.
func (r *Repo) LatestRelease() *Release {
	for _, rel := range r.ReleasesNewestFirst() {
		if !rel.Draft && !rel.Prerelease {
			return rel
		}
	}
	return nil
}
