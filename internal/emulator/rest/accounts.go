package rest

import (
	"cmp"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// fullUserJSON is GitHub's public-user (and, for /user, private-user).
type fullUserJSON struct {
	*userJSON
	Name        *string `json:"name"`
	Company     *string `json:"company"`
	Blog        *string `json:"blog"`
	Location    *string `json:"location"`
	Email       *string `json:"email"`
	Hireable    *bool   `json:"hireable"`
	Bio         *string `json:"bio"`
	PublicRepos int     `json:"public_repos"`
	PublicGists int     `json:"public_gists"`
	Followers   int     `json:"followers"`
	Following   int     `json:"following"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	*privateUserFields
}

type privateUserFields struct {
	PrivateGists            int  `json:"private_gists"`
	TotalPrivateRepos       int  `json:"total_private_repos"`
	OwnedPrivateRepos       int  `json:"owned_private_repos"`
	DiskUsage               int  `json:"disk_usage"`
	Collaborators           int  `json:"collaborators"`
	TwoFactorAuthentication bool `json:"two_factor_authentication"`
}

func fullUser(c *call, a *state.Account, private bool) fullUserJSON {
	name := a.Name
	empty := ""
	u := fullUserJSON{userJSON: renderSimpleUser(c.Links, a), Name: &name, Blog: &empty,
		CreatedAt: wire.Timestamp(a.CreatedAt), UpdatedAt: wire.Timestamp(a.CreatedAt)}
	for _, r := range c.State.Repos() {
		if r.Owner == a {
			if r.Private {
				if private {
					u.privateUserFields = ensure(u.privateUserFields)
					u.privateUserFields.TotalPrivateRepos++
					u.privateUserFields.OwnedPrivateRepos++
				}
			} else {
				u.PublicRepos++
			}
		}
	}
	if private {
		u.privateUserFields = ensure(u.privateUserFields)
		// GitHub's private-user view says so; its public-user view admits
		// no private fields.
		u.UserViewType = "private"
	}
	return u
}

func ensure(p *privateUserFields) *privateUserFields {
	if p == nil {
		return &privateUserFields{}
	}
	return p
}

func getViewer(c *call) {
	if c.Viewer == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, fullUser(c, c.Viewer, true))
}

func getUser(c *call) {
	a := c.State.Account(c.Req.PathValue("username"))
	if a == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, fullUser(c, a, false))
}

// visibleRepos lists the repositories of owner the token can see, in the
// order GitHub's list endpoints default to (full_name for users, created
// for orgs).
func (c *call) visibleRepos(owner *state.Account, typ string) []*state.Repo {
	var out []*state.Repo
	for _, r := range c.State.Repos() {
		if r.Owner != owner || c.Token.Permission(r) == state.PermNone {
			continue
		}
		switch typ {
		case "public":
			if r.Private {
				continue
			}
		case "private":
			if !r.Private {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

func listUserRepos(c *call) {
	a := c.State.Account(c.Req.PathValue("username"))
	if a == nil || a.IsOrg {
		c.NotFound()
		return
	}
	repos := c.visibleRepos(a, c.Req.URL.Query().Get("type"))
	sortRepos(c, repos, "full_name")
	out := []repoJSON{}
	for _, r := range paginate(c, repos) {
		out = append(out, c.repoJSON(r, false))
	}
	c.JSON(http.StatusOK, out)
}

// listViewerRepos is GET /user/repos: the repositories the token's user
// owns or collaborates on (through an organization too), by full name.
func listViewerRepos(c *call) {
	if c.Viewer == nil {
		c.NotFound()
		return
	}
	var repos []*state.Repo
	for _, r := range c.State.Repos() {
		if c.Token.Permission(r) == state.PermNone {
			continue
		}
		if r.Owner == c.Viewer || r.IsCollaborator(c.Viewer.Login) {
			repos = append(repos, r)
		}
	}
	sortRepos(c, repos, "full_name") // GitHub's default for the viewer's own list
	out := []repoJSON{}
	for _, r := range paginate(c, repos) {
		out = append(out, c.repoJSON(r, false))
	}
	c.JSON(http.StatusOK, out)
}

func listOrgRepos(c *call) {
	a := c.State.Account(c.Req.PathValue("org"))
	if a == nil || !a.IsOrg {
		c.NotFound()
		return
	}
	repos := c.visibleRepos(a, c.Req.URL.Query().Get("type"))
	sortRepos(c, repos, "created")
	out := []repoJSON{}
	for _, r := range paginate(c, repos) {
		out = append(out, c.repoJSON(r, false))
	}
	c.JSON(http.StatusOK, out)
}

// sortRepos orders an owner's repositories as GitHub's list endpoints do:
// by the sort parameter (created, updated, pushed or full_name; the
// default differs between users and organizations), ascending by default
// for full_name and descending for the others, unless direction says.
// Nothing is pushed here, so pushed orders as updated.
func sortRepos(c *call, repos []*state.Repo, byDefault string) {
	q := c.Req.URL.Query()
	by := q.Get("sort")
	if by == "" {
		by = byDefault
	}
	asc := by == "full_name"
	switch q.Get("direction") {
	case "asc":
		asc = true
	case "desc":
		asc = false
	}
	less := func(a, b *state.Repo) int {
		switch by {
		case "full_name":
			return strings.Compare(strings.ToLower(a.FullName()), strings.ToLower(b.FullName()))
		case "updated", "pushed":
			return a.UpdatedAt.Compare(b.UpdatedAt)
		}
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	}
	slices.SortStableFunc(repos, func(a, b *state.Repo) int {
		if asc {
			return less(a, b)
		}
		return less(b, a)
	})
}

func getRepo(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	c.JSON(http.StatusOK, c.repoJSON(r, true))
}

type rateJSON struct {
	Limit     int    `json:"limit"`
	Remaining int    `json:"remaining"`
	Reset     int64  `json:"reset"`
	Used      int    `json:"used"`
	Resource  string `json:"resource,omitempty"`
}

func (a *api) getRateLimit(c *call) {
	all := a.limits.All(c.Token.Value)
	toJSON := func(s faults.Snapshot) rateJSON {
		return rateJSON{Limit: s.Limit, Remaining: s.Remaining, Reset: s.Reset.Unix(), Used: s.Used, Resource: s.Resource}
	}
	resources := map[string]rateJSON{}
	for name, s := range all {
		resources[name] = toJSON(s)
	}
	c.JSON(http.StatusOK, map[string]any{"resources": resources, "rate": toJSON(all["core"])})
}

func listOrgIssueTypes(c *call) {
	org := c.State.Account(c.Req.PathValue("org"))
	if org == nil || !org.IsOrg {
		c.NotFound()
		return
	}
	out := []*issueTypeJSON{}
	for _, t := range c.State.IssueTypes(org.Login) {
		out = append(out, issueType(t))
	}
	c.JSON(http.StatusOK, out)
}

func listRepoIssueTypes(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	out := []*issueTypeJSON{}
	for _, t := range c.State.IssueTypes(r.Owner.Login) {
		if t.IsEnabled {
			out = append(out, issueType(t))
		}
	}
	c.JSON(http.StatusOK, out)
}

type contentLinksJSON struct {
	Git  *string `json:"git"`
	HTML *string `json:"html"`
	Self string  `json:"self"`
}

type contentJSON struct {
	Type        string           `json:"type"`
	Encoding    string           `json:"encoding,omitempty"`
	Size        int              `json:"size"`
	Name        string           `json:"name"`
	Path        string           `json:"path"`
	Content     *string          `json:"content,omitempty"`
	SHA         string           `json:"sha"`
	URL         string           `json:"url"`
	GitURL      *string          `json:"git_url"`
	HTMLURL     *string          `json:"html_url"`
	DownloadURL *string          `json:"download_url"`
	Links       contentLinksJSON `json:"_links"`
}

func (c *call) contentEntry(r *state.Repo, path string, isDir bool, content string) contentJSON {
	name := path[strings.LastIndex(path, "/")+1:]
	// URLs carry the path escaped segment by segment, as GitHub's do.
	esc := escapePath(path)
	self := c.Links.Repo(r) + "/contents/" + esc + "?ref=main"
	html := c.Links.Web + "/" + r.FullName() + "/blob/main/" + esc
	typ, sha, size := "file", state.BlobSHA(content), len(content)
	gitURL := c.Links.Repo(r) + "/git/blobs/" + sha
	var download *string
	if isDir {
		typ, size = "dir", 0
		sha = state.BlobSHA("tree:" + path)
		html = c.Links.Web + "/" + r.FullName() + "/tree/main/" + esc
		gitURL = c.Links.Repo(r) + "/git/trees/" + sha
	} else {
		d := c.Links.Web + "/raw/" + r.FullName() + "/main/" + esc
		download = &d
	}
	return contentJSON{Type: typ, Size: size, Name: name, Path: path, SHA: sha, URL: self,
		GitURL: &gitURL, HTMLURL: &html, DownloadURL: download,
		Links: contentLinksJSON{Git: &gitURL, HTML: &html, Self: self}}
}

// fileContent is GitHub's content-file: a file's entry with its content
// in base64, wrapped at 60 characters with newlines as GitHub wraps it.
func (c *call) fileContent(r *state.Repo, path, body string) contentJSON {
	entry := c.contentEntry(r, path, false, body)
	enc := base64.StdEncoding.EncodeToString([]byte(body))
	var wrapped strings.Builder
	for i := 0; i < len(enc); i += 60 {
		wrapped.WriteString(enc[i:min(i+60, len(enc))])
		wrapped.WriteByte('\n')
	}
	s := wrapped.String()
	entry.Content, entry.Encoding = &s, "base64"
	return entry
}

// repoFiles resolves {owner}/{repo} for reading and its files at the
// ref asked for; nil with the answer written when either fails.
func (c *call) repoFiles() (*state.Repo, map[string]string) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return nil, nil
	}
	files, ok := c.filesAt(r)
	if !ok {
		return nil, nil
	}
	return r, files
}

func getContents(c *call) {
	r, files := c.repoFiles()
	if r == nil {
		return
	}
	path := strings.Trim(c.Req.PathValue("path"), "/")
	if body, ok := files[path]; ok {
		c.JSON(http.StatusOK, c.fileContent(r, path, body))
		return
	}
	// A directory lists its direct children: files and subdirectories.
	prefix := path + "/"
	if path == "" {
		prefix = ""
	}
	seen := map[string]bool{}
	var names []string
	for p := range files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		child, _, _ := strings.Cut(rest, "/")
		if !seen[child] {
			seen[child] = true
			names = append(names, child)
		}
	}
	if len(names) == 0 {
		c.NotFound()
		return
	}
	slices.Sort(names)
	out := []contentJSON{}
	for _, n := range names {
		full := prefix + n
		body, isFile := files[full]
		out = append(out, c.contentEntry(r, full, !isFile, body))
	}
	c.JSON(http.StatusOK, out)
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		parts[i] = url.PathEscape(part)
	}
	return strings.Join(parts, "/")
}
