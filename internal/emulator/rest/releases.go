package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
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
	URL             string        `json:"url"`
	HTMLURL         string        `json:"html_url"`
	AssetsURL       string        `json:"assets_url"`
	UploadURL       string        `json:"upload_url"`
	TarballURL      *string       `json:"tarball_url"`
	ZipballURL      *string       `json:"zipball_url"`
	ID              int64         `json:"id"`
	NodeID          string        `json:"node_id"`
	TagName         string        `json:"tag_name"`
	TargetCommitish string        `json:"target_commitish"`
	Name            *string       `json:"name"`
	Body            *string       `json:"body"`
	Draft           bool          `json:"draft"`
	Prerelease      bool          `json:"prerelease"`
	Immutable       bool          `json:"immutable"`
	CreatedAt       string        `json:"created_at"`
	PublishedAt     *string       `json:"published_at"`
	UpdatedAt       *string       `json:"updated_at"`
	Author          *userJSON     `json:"author"`
	Assets          []struct{}    `json:"assets"`
	Reactions       reactionsJSON `json:"reactions"`
}

func (c *call) releaseJSON(r *state.Repo, rel *state.Release) releaseJSON {
	u := fmt.Sprintf("%s/releases/%d", c.Links.Repo(r), rel.ID)
	tag := url.PathEscape(rel.TagName)
	tar := c.Links.Repo(r) + "/tarball/" + tag
	zip := c.Links.Repo(r) + "/zipball/" + tag
	// Uploads go to GitHub's uploads host (uploads.github.com beside
	// api.github.com).
	up := strings.Replace(c.Links.API, "://api.", "://uploads.", 1)
	return releaseJSON{URL: u, HTMLURL: c.Links.Web + "/" + r.FullName() + "/releases/tag/" + tag,
		AssetsURL: u + "/assets", UploadURL: fmt.Sprintf("%s/repos/%s/releases/%d/assets{?name,label}", up, r.FullName(), rel.ID),
		TarballURL: &tar, ZipballURL: &zip, ID: rel.ID, NodeID: rel.NodeID, TagName: rel.TagName,
		TargetCommitish: state.RepoDefaultBranch, Name: &rel.Name, Body: &rel.Body, Draft: rel.Draft, Prerelease: rel.Prerelease,
		CreatedAt: wire.Timestamp(rel.CreatedAt), PublishedAt: wire.TimestampPtr(&rel.PublishedAt), UpdatedAt: wire.TimestampPtr(&rel.PublishedAt),
		Author: renderSimpleUser(c.Links, rel.Author), Assets: []struct{}{}, Reactions: reactionsJSON{URL: u + "/reactions"}}
}

func listReleases(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	out := []releaseJSON{}
	for _, rel := range paginate(c, r.ReleasesNewestFirst()) {
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

func getReleaseByTag(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	for _, rel := range r.Releases {
		if rel.TagName == c.Req.PathValue("tag") && !rel.Draft {
			c.JSON(http.StatusOK, c.releaseJSON(r, rel))
			return
		}
	}
	c.NotFound()
}
