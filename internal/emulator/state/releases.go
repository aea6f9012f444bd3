package state

import (
	"cmp"
	"crypto/hmac"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Release is a GitHub release of a tag: a draft until it is published.
// A draft's tag need not exist yet: publishing creates it from
// TargetCommitish, as GitHub does.
type Release struct {
	ID              int64
	NodeID          string
	TagName         string
	TargetCommitish string
	Name            string
	Body            string
	Draft           bool
	Prerelease      bool
	Author          *Account
	CreatedAt       time.Time
	// PublishedAt is zero while the release is a draft.
	PublishedAt time.Time
	UpdatedAt   time.Time
	Assets      []*ReleaseAsset
}

// ReleaseAsset is a file uploaded to a release.
type ReleaseAsset struct {
	ID          int64
	NodeID      string
	Name        string
	Label       string
	ContentType string
	Content     []byte
	Downloads   int
	Uploader    *Account
	CreatedAt   time.Time
	UpdatedAt   time.Time
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
	return s.NewRelease(r, &Release{TagName: tag, TargetCommitish: RepoDefaultBranch, Name: tag, Body: body,
		Prerelease: strings.Contains(tag, "-"), Author: author, CreatedAt: at, PublishedAt: at})
}

// NewRelease adds rel to r with a fresh id.
func (s *State) NewRelease(r *Repo, rel *Release) *Release {
	rel.ID = s.nextID()
	rel.NodeID = NodeID("RE", rel.ID)
	if rel.UpdatedAt.IsZero() {
		rel.UpdatedAt = rel.CreatedAt
	}
	r.Releases = append(r.Releases, rel)
	s.nodes[rel.NodeID] = rel
	return rel
}

// DeleteRelease removes a release and its assets; its tag stays, as on
// GitHub.
func (s *State) DeleteRelease(r *Repo, rel *Release) {
	r.Releases = slices.DeleteFunc(r.Releases, func(x *Release) bool { return x == rel })
	if r.MarkedLatest == rel {
		r.MarkedLatest = nil
	}
	delete(s.nodes, rel.NodeID)
	for _, a := range rel.Assets {
		delete(s.nodes, a.NodeID)
	}
}

// AddAsset attaches an uploaded file to rel.
func (s *State) AddAsset(rel *Release, a *ReleaseAsset) *ReleaseAsset {
	a.ID = s.nextID()
	a.NodeID = NodeID("RA", a.ID)
	rel.Assets = append(rel.Assets, a)
	s.nodes[a.NodeID] = a
	return a
}

// DeleteAsset removes an asset from its release.
func (s *State) DeleteAsset(rel *Release, a *ReleaseAsset) {
	rel.Assets = slices.DeleteFunc(rel.Assets, func(x *ReleaseAsset) bool { return x == a })
	delete(s.nodes, a.NodeID)
}

// FindRelease is r's release with this id, nil if none.
func (r *Repo) FindRelease(id int64) *Release {
	for _, rel := range r.Releases {
		if rel.ID == id {
			return rel
		}
	}
	return nil
}

// PublishedRelease is the published release of a tag, nil if none: a tag
// has at most one, drafts aside.
func (r *Repo) PublishedRelease(tag string) *Release {
	for _, rel := range r.Releases {
		if rel.TagName == tag && !rel.Draft {
			return rel
		}
	}
	return nil
}

// FindAsset is the asset with this id among r's releases, with its
// release; nil if none.
func (r *Repo) FindAsset(id int64) (*Release, *ReleaseAsset) {
	for _, rel := range r.Releases {
		for _, a := range rel.Assets {
			if a.ID == id {
				return rel, a
			}
		}
	}
	return nil, nil
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
	slices.SortStableFunc(list, func(a, b *Release) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID) // created in the same second: the later first
	})
	return list
}

// LatestRelease is the release marked latest while it is still neither a
// draft nor a pre-release, else the newest release that is neither, as
// GitHub documents "latest"; nil if there is none.
func (r *Repo) LatestRelease() *Release {
	if m := r.MarkedLatest; m != nil && !m.Draft && !m.Prerelease {
		return m
	}
	for _, rel := range r.ReleasesNewestFirst() {
		if !rel.Draft && !rel.Prerelease {
			return rel
		}
	}
	return nil
}

// MarkLatest applies a write's make_latest ("true", "false" or
// "legacy", "" when absent) to rel, which the write just published or
// edited. "true", the default for a published release, makes it latest;
// "false" leaves latest where it was; "legacy" goes back to creation
// order. Drafts and pre-releases cannot be latest.
func (r *Repo) MarkLatest(rel *Release, makeLatest string) {
	switch {
	case makeLatest == "legacy":
		r.MarkedLatest = nil
	case makeLatest == "false":
		if r.MarkedLatest == nil {
			// Pin what was latest so the new release does not take over
			// by being newest.
			r.MarkedLatest = r.latestExcept(rel)
		}
	case !rel.Draft && !rel.Prerelease:
		r.MarkedLatest = rel
	}
}

func (r *Repo) latestExcept(skip *Release) *Release {
	for _, rel := range r.ReleasesNewestFirst() {
		if rel != skip && !rel.Draft && !rel.Prerelease {
			return rel
		}
	}
	return nil
}

// GeneratedNotes writes the notes GitHub generates for a release of tag
// at head, since the tag prev ("" for none): the pull requests merged
// into head after prev, and the full changelog's compare link.
func GeneratedNotes(r *Repo, webRepo, tag, prev string, head, base *GitCommit) string {
	merged := map[string]bool{}
	for _, c := range Between(base, head) {
		merged[c.SHA] = true
	}
	var b strings.Builder
	b.WriteString("## What's Changed\n")
	for _, is := range r.Issues {
		if is == nil {
			continue
		}
		if p := is.Pull; p != nil && p.MergeCommit != nil && merged[p.MergeCommit.SHA] {
			fmt.Fprintf(&b, "* %s by @%s in %s/pull/%d\n", is.Title, is.User.Login, webRepo, is.Number)
		}
	}
	if prev == "" {
		fmt.Fprintf(&b, "\n\n**Full Changelog**: %s/commits/%s", webRepo, tag)
	} else {
		fmt.Fprintf(&b, "\n\n**Full Changelog**: %s/compare/%s...%s", webRepo, prev, tag)
	}
	return b.String()
}

// SignedAssetPath is the path, on the emulator's own host, of an asset's
// file: signed and expiring like the storage URL GitHub redirects a
// download to, so it needs no token.
func (s *State) SignedAssetPath(assetID int64) string {
	exp := s.Clock().Add(logURLLifetime).Unix()
	return "/_emulator/assets/" + strconv.FormatInt(assetID, 10) + "?expires=" + strconv.FormatInt(exp, 10) + "&sig=" + s.urlSig("assets", assetID, exp)
}

// SignedAsset checks a signed asset URL's values and returns the asset,
// counting the download; ok is false for a bad signature, an expired URL
// or an asset since deleted.
func (s *State) SignedAsset(assetID int64, expires, sig string) (a *ReleaseAsset, ok bool) {
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || s.Clock().Unix() > exp || !hmac.Equal([]byte(sig), []byte(s.urlSig("assets", assetID, exp))) {
		return nil, false
	}
	for _, r := range s.repoOrder {
		if _, a := r.FindAsset(assetID); a != nil {
			a.Downloads++
			return a, true
		}
	}
	return nil, false
}
