package emulator

import (
	"fmt"
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
	rel := &Release{ID: id, NodeID: nodeID("RE", id), TagName: tag, Name: tag, Body: body,
		Prerelease: strings.Contains(tag, "-"), Author: author, CreatedAt: at, PublishedAt: at}
	r.Releases = append(r.Releases, rel)
	s.nodes[rel.NodeID] = rel
	return rel
}

// tipAt is the commit a branch pointed at, at moment t: the newest commit
// on its first-parent line committed by then.
func tipAt(tip *GitCommit, t time.Time) *GitCommit {
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

// seedReleases tags each release of the demo repositories on main as it
// was that day and publishes it with notes listing the pull requests
// merged since the previous one, as GitHub's generated notes do.
func (sd *seeder) seedReleases(w *world) {
	for _, r := range []*Repo{w.widgets, w.gadgets} {
		l := layoutOf(r)
		main := r.Git.Branches[repoDefaultBranch]
		var prev time.Time
		for _, rel := range l.vocab.releases {
			sd.s.Tag(r, rel.version, tipAt(main, rel.at))
			var notes strings.Builder
			notes.WriteString("## What's Changed\n")
			for _, is := range r.Issues {
				if p := is.Pull; p != nil && p.MergedAt != nil && p.MergedAt.After(prev) && !p.MergedAt.After(rel.at) {
					fmt.Fprintf(&notes, "* %s by @%s in #%d\n", is.Title, is.User.Login, is.Number)
				}
			}
			if prev.IsZero() {
				notes.WriteString("\nFirst release tracked here.\n")
			}
			sd.s.AddRelease(r, rel.version, notes.String(), w.alice, rel.at.Add(9*time.Hour))
			prev = rel.at
		}
	}
}
