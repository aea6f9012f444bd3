package rest

import (
	"crypto/sha1"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// tagJSON is GitHub's tag.
type tagJSON struct {
	Name       string     `json:"name"`
	Commit     shaURLJSON `json:"commit"`
	ZipballURL string     `json:"zipball_url"`
	TarballURL string     `json:"tarball_url"`
	NodeID     string     `json:"node_id"`
}

// tagNames lists a repository's tags newest first: by the tagged commit's
// date, then by name.
func tagNames(g *state.GitRepo) []string {
	names := make([]string, 0, len(g.Tags))
	for n := range g.Tags {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := g.Tags[b].Committer.When.Compare(g.Tags[a].Committer.When); c != 0 {
			return c
		}
		return strings.Compare(b, a)
	})
	return names
}

func listTags(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	out := []tagJSON{}
	for _, n := range paginate(c, tagNames(g)) {
		sha := g.Tags[n].SHA
		out = append(out, tagJSON{Name: n, Commit: shaURLJSON{SHA: sha, URL: c.Links.Repo(r) + "/commits/" + sha},
			ZipballURL: c.Links.Repo(r) + "/zipball/refs/tags/" + url.PathEscape(n),
			TarballURL: c.Links.Repo(r) + "/tarball/refs/tags/" + url.PathEscape(n),
			NodeID:     state.NodeID("REF", r.ID) + "tag_" + n})
	}
	c.JSON(http.StatusOK, out)
}

// releaseJSON is GitHub's release.
type releaseJSON struct {
	URL             string             `json:"url"`
	HTMLURL         string             `json:"html_url"`
	AssetsURL       string             `json:"assets_url"`
	UploadURL       string             `json:"upload_url"`
	TarballURL      *string            `json:"tarball_url"`
	ZipballURL      *string            `json:"zipball_url"`
	ID              int64              `json:"id"`
	NodeID          string             `json:"node_id"`
	TagName         string             `json:"tag_name"`
	TargetCommitish string             `json:"target_commitish"`
	Name            *string            `json:"name"`
	Body            *string            `json:"body"`
	Draft           bool               `json:"draft"`
	Prerelease      bool               `json:"prerelease"`
	Immutable       bool               `json:"immutable"`
	CreatedAt       string             `json:"created_at"`
	PublishedAt     *string            `json:"published_at"`
	UpdatedAt       *string            `json:"updated_at"`
	Author          *userJSON          `json:"author"`
	Assets          []releaseAssetJSON `json:"assets"`
	Reactions       reactionsJSON      `json:"reactions"`
}

func (c *call) releaseJSON(r *state.Repo, rel *state.Release) releaseJSON {
	u := fmt.Sprintf("%s/releases/%d", c.Links.Repo(r), rel.ID)
	out := releaseJSON{URL: u, HTMLURL: c.Links.Web + "/" + r.FullName() + "/releases/tag/" + url.PathEscape(rel.TagName),
		AssetsURL: u + "/assets", UploadURL: fmt.Sprintf("%s/repos/%s/releases/%d/assets{?name,label}", c.Links.Uploads(), r.FullName(), rel.ID),
		ID: rel.ID, NodeID: rel.NodeID, TagName: rel.TagName,
		TargetCommitish: rel.TargetCommitish, Name: &rel.Name, Body: &rel.Body, Draft: rel.Draft, Prerelease: rel.Prerelease,
		CreatedAt: wire.Timestamp(rel.CreatedAt), UpdatedAt: wire.TimestampPtr(&rel.UpdatedAt),
		Author: renderSimpleUser(c.Links, rel.Author), Assets: []releaseAssetJSON{}, Reactions: reactionsJSON{URL: u + "/reactions"}}
	if rel.Draft {
		// A draft has no tag yet: GitHub gives it an "untagged-" page
		// and no archives.
		out.HTMLURL = c.Links.Web + "/" + r.FullName() + "/releases/tag/" + untaggedName(rel)
	} else {
		tag := url.PathEscape(rel.TagName)
		tar := c.Links.Repo(r) + "/tarball/" + tag
		zip := c.Links.Repo(r) + "/zipball/" + tag
		out.TarballURL, out.ZipballURL = &tar, &zip
		out.PublishedAt = wire.TimestampPtr(&rel.PublishedAt)
	}
	for _, a := range rel.Assets {
		out.Assets = append(out.Assets, c.releaseAssetJSON(r, rel, a))
	}
	return out
}

// untaggedName is the stand-in tag of a draft's page, "untagged-" and
// twenty hex digits as on GitHub.
func untaggedName(rel *state.Release) string {
	sum := sha1.Sum([]byte(rel.NodeID))
	return fmt.Sprintf("untagged-%x", sum[:10])
}

// visibleReleases are r's releases the caller may see, newest first:
// drafts only to those who can push, as on GitHub.
func (c *call) visibleReleases(r *state.Repo) []*state.Release {
	drafts := c.Token.Permission(r) >= state.PermWrite
	return slices.DeleteFunc(r.ReleasesNewestFirst(), func(rel *state.Release) bool { return rel.Draft && !drafts })
}

func listReleases(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	out := []releaseJSON{}
	for _, rel := range paginate(c, c.visibleReleases(r)) {
		out = append(out, c.releaseJSON(r, rel))
	}
	c.JSON(http.StatusOK, out)
}

// getLatestRelease answers the newest release that is neither a draft nor
// a pre-release, as GitHub documents.
func getLatestRelease(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if rel := r.LatestRelease(); rel != nil {
		c.JSON(http.StatusOK, c.releaseJSON(r, rel))
		return
	}
	c.NotFound()
}

// getReleaseByTag finds the published release of a tag: drafts are
// found only by id.
func getReleaseByTag(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if rel := r.PublishedRelease(c.Req.PathValue("tag")); rel != nil {
		c.JSON(http.StatusOK, c.releaseJSON(r, rel))
		return
	}
	c.NotFound()
}

// releaseFor resolves {release_id} among the releases the caller may
// see; nil when it has answered 404.
func (c *call) releaseFor(r *state.Repo) *state.Release {
	id, err := strconv.ParseInt(c.Req.PathValue("release_id"), 10, 64)
	rel := r.FindRelease(id)
	if err != nil || rel == nil || (rel.Draft && c.Token.Permission(r) < state.PermWrite) {
		c.NotFound()
		return nil
	}
	return rel
}

func getRelease(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if rel := c.releaseFor(r); rel != nil {
		c.JSON(http.StatusOK, c.releaseJSON(r, rel))
	}
}
