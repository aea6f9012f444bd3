package rest

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Release assets: uploaded to the upload_url a release carries (the
// uploads host), listed, renamed, deleted, and downloaded by asking for
// application/octet-stream, which GitHub answers with a redirect to a
// signed storage URL.

const assetsDocs = "rest/releases/assets"

// maxAssetSize bounds an upload the emulator keeps in memory; GitHub's
// limit (2 GiB) is for a real store.
const maxAssetSize = 64 << 20

// releaseAssetJSON is GitHub's release-asset.
type releaseAssetJSON struct {
	URL                string    `json:"url"`
	BrowserDownloadURL string    `json:"browser_download_url"`
	ID                 int64     `json:"id"`
	NodeID             string    `json:"node_id"`
	Name               string    `json:"name"`
	Label              *string   `json:"label"`
	State              string    `json:"state"`
	ContentType        string    `json:"content_type"`
	Size               int       `json:"size"`
	Digest             *string   `json:"digest"`
	DownloadCount      int       `json:"download_count"`
	CreatedAt          string    `json:"created_at"`
	UpdatedAt          string    `json:"updated_at"`
	Uploader           *userJSON `json:"uploader"`
}

func (c *call) releaseAssetJSON(r *state.Repo, rel *state.Release, a *state.ReleaseAsset) releaseAssetJSON {
	digest := fmt.Sprintf("sha256:%x", sha256.Sum256(a.Content))
	out := releaseAssetJSON{URL: fmt.Sprintf("%s/releases/assets/%d", c.Links.Repo(r), a.ID),
		BrowserDownloadURL: c.Links.Web + "/" + r.FullName() + "/releases/download/" + url.PathEscape(rel.TagName) + "/" + url.PathEscape(a.Name),
		ID:                 a.ID, NodeID: a.NodeID, Name: a.Name, State: "uploaded", ContentType: a.ContentType, Size: len(a.Content),
		Digest: &digest, DownloadCount: a.Downloads, CreatedAt: wire.Timestamp(a.CreatedAt), UpdatedAt: wire.Timestamp(a.UpdatedAt),
		Uploader: renderSimpleUser(c.Links, a.Uploader)}
	if a.Label != "" {
		out.Label = &a.Label
	}
	return out
}

// assetFor resolves {asset_id} among the assets of the releases the
// caller may see; nil when it has answered 404.
func (c *call) assetFor(r *state.Repo) (*state.Release, *state.ReleaseAsset) {
	id, err := strconv.ParseInt(c.Req.PathValue("asset_id"), 10, 64)
	rel, a := r.FindAsset(id)
	if err != nil || a == nil || (rel.Draft && c.Token.Permission(r) < state.PermWrite) {
		c.NotFound()
		return nil, nil
	}
	return rel, a
}

func listReleaseAssets(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	rel := c.releaseFor(r)
	if rel == nil {
		return
	}
	out := []releaseAssetJSON{}
	for _, a := range paginate(c, rel.Assets) {
		out = append(out, c.releaseAssetJSON(r, rel, a))
	}
	c.JSON(http.StatusOK, out)
}

// getReleaseAsset answers the asset, or, to a client that accepts
// application/octet-stream, redirects to its file.
func getReleaseAsset(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	rel, a := c.assetFor(r)
	if a == nil {
		return
	}
	if strings.Contains(strings.Join(c.Req.Header.Values("Accept"), ","), "application/octet-stream") {
		root := strings.TrimSuffix(c.Links.API, "/api/v3")
		c.W.Header().Set("Location", root+c.State.SignedAssetPath(a.ID))
		c.W.WriteHeader(http.StatusFound)
		return
	}
	c.JSON(http.StatusOK, c.releaseAssetJSON(r, rel, a))
}

// assetWrite is the body of PATCH .../releases/assets/{asset_id}.
type assetWrite struct {
	Name  wire.Optional[string] `json:"name"`
	Label wire.Optional[string] `json:"label"`
	// State is accepted as GitHub describes it; every stored asset is
	// already "uploaded".
	State wire.Optional[string] `json:"state"`
}

func updateReleaseAsset(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	rel, a := c.assetFor(r)
	if a == nil {
		return
	}
	var in assetWrite
	if !c.Decode(&in) {
		return
	}
	const doc = assetsDocs + "#update-a-release-asset"
	if in.Name.Set {
		name := assetName(in.Name.Value)
		if name == "" {
			c.Invalid("", doc, wire.FieldError{Resource: "ReleaseAsset", Field: "name", Code: "missing_field"})
			return
		}
		if other := findAssetNamed(rel, name); other != nil && other != a {
			c.Invalid("", doc, wire.FieldError{Resource: "ReleaseAsset", Field: "name", Code: "already_exists"})
			return
		}
		a.Name = name
	}
	if in.Label.Set {
		a.Label = in.Label.Value
	}
	a.UpdatedAt = c.State.Now()
	c.JSON(http.StatusOK, c.releaseAssetJSON(r, rel, a))
}

func deleteReleaseAsset(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	if rel, a := c.assetFor(r); a != nil {
		c.State.DeleteAsset(rel, a)
		c.NoContent()
	}
}

// uploadReleaseAsset stores the request's raw body as an asset named by
// the name query parameter (renamed as GitHub renames it), typed by the
// request's Content-Type. A name the release already has is refused.
func uploadReleaseAsset(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	rel := c.releaseFor(r)
	if rel == nil {
		return
	}
	const doc = assetsDocs + "#upload-a-release-asset"
	q := c.Req.URL.Query()
	name := assetName(q.Get("name"))
	if name == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "ReleaseAsset", Field: "name", Code: "missing_field"})
		return
	}
	if findAssetNamed(rel, name) != nil {
		c.Invalid("", doc, wire.FieldError{Resource: "ReleaseAsset", Field: "name", Code: "already_exists"})
		return
	}
	body, err := io.ReadAll(io.LimitReader(c.Req.Body, maxAssetSize+1))
	if err != nil {
		c.Fail(http.StatusBadRequest, "Problems reading the request body", "rest")
		return
	}
	if len(body) > maxAssetSize {
		c.Invalid("", doc, wire.FieldError{Resource: "ReleaseAsset", Field: "size", Code: "invalid"})
		return
	}
	ctype := c.Req.Header.Get("Content-Type")
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	now := c.State.Now()
	a := c.State.AddAsset(rel, &state.ReleaseAsset{Name: name, Label: q.Get("label"), ContentType: ctype, Content: body,
		Uploader: c.Viewer, CreatedAt: now, UpdatedAt: now})
	c.JSON(http.StatusCreated, c.releaseAssetJSON(r, rel, a))
}

func findAssetNamed(rel *state.Release, name string) *state.ReleaseAsset {
	for _, a := range rel.Assets {
		if a.Name == name {
			return a
		}
	}
	return nil
}

var (
	assetNameOther = regexp.MustCompile(`(?i)[^a-z0-9\-_+@]+`)
	assetNameDots  = regexp.MustCompile(`\.{2,}`)
)

// assetName renames an uploaded file as GitHub does: each run of
// characters other than letters, digits and -_+@ becomes one ".", leading
// and trailing dots go, and a name left with only an extension is
// "default.<ext>".
func assetName(name string) string {
	v := name
	if strings.HasPrefix(v, ".") {
		v = "default" + v
	}
	v = assetNameOther.ReplaceAllLiteralString(v, ".")
	v = assetNameDots.ReplaceAllLiteralString(v, ".")
	v = strings.Trim(v, ".")
	if v != "" && name != v && !strings.Contains(v, ".") {
		v = "default." + v
	}
	return v
}
