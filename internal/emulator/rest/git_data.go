package rest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GitHub's Git Data API over the git model: trees, commits and moving a
// ref, which clients combine to commit several files at once.

type treeEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	SHA  string `json:"sha"`
	Size *int   `json:"size,omitempty"`
	URL  string `json:"url"`
}

type treeJSON struct {
	SHA       string          `json:"sha"`
	URL       string          `json:"url"`
	Tree      []treeEntryJSON `json:"tree"`
	Truncated bool            `json:"truncated"`
}

// treeJSON lists a root tree's entries: its direct children, or with
// recursive every file and directory beneath it, in git's order.
func (c *call) treeJSON(r *state.Repo, files map[string]string, recursive bool) treeJSON {
	api := c.Links.Repo(r)
	sha := state.TreeSHA(files)
	out := treeJSON{SHA: sha, URL: api + "/git/trees/" + sha, Tree: []treeEntryJSON{}}
	dirs := map[string]bool{}
	var paths []string
	for p := range files {
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			dirs[strings.Join(parts[:i], "/")] = true
		}
		paths = append(paths, p)
	}
	for d := range dirs {
		paths = append(paths, d)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if !recursive && strings.Contains(p, "/") {
			continue
		}
		if dirs[p] {
			tsha := state.TreeOf(files, p+"/")
			out.Tree = append(out.Tree, treeEntryJSON{Path: p, Mode: "040000", Type: "tree", SHA: tsha, URL: api + "/git/trees/" + tsha})
			continue
		}
		size := len(files[p])
		bsha := state.BlobSHA(files[p])
		out.Tree = append(out.Tree, treeEntryJSON{Path: p, Mode: "100644", Type: "blob", SHA: bsha, Size: &size, URL: api + "/git/blobs/" + bsha})
	}
	return out
}

// getTree answers a root tree by sha (or a commit-ish, as GitHub accepts).
func getTree(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	ref := c.Req.PathValue("tree_sha")
	files := g.Trees[strings.ToLower(ref)]
	if files == nil {
		if cm := g.Resolve(ref); cm != nil {
			files = cm.Files
		}
	}
	if files == nil {
		c.NotFound()
		return
	}
	rec := c.Req.URL.Query().Get("recursive")
	c.JSON(http.StatusOK, c.treeJSON(r, files, rec != "" && rec != "0" && rec != "false"))
}

type treeEntryRequest struct {
	Path    string  `json:"path"`
	Mode    string  `json:"mode"`
	Type    string  `json:"type"`
	SHA     *string `json:"sha"`
	Content *string `json:"content"`
}

type createTreeRequest struct {
	BaseTree string             `json:"base_tree"`
	Tree     []treeEntryRequest `json:"tree"`
}

const createTreeDoc = "rest/git/trees#create-a-tree"

// createTree writes a root tree: base_tree's files (if given) with each
// entry set from content or a blob's sha, or deleted by a null sha. The
// emulator keeps regular files only.
func createTree(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	g := c.State.EnsureGit(r)
	var in createTreeRequest
	if !c.Decode(&in) {
		return
	}
	files := map[string]string{}
	if in.BaseTree != "" {
		base := g.Trees[strings.ToLower(in.BaseTree)]
		if base == nil {
			c.Invalid("Invalid tree info", createTreeDoc)
			return
		}
		for p, body := range base {
			files[p] = body
		}
	}
	for _, t := range in.Tree {
		path := strings.Trim(t.Path, "/")
		switch {
		case path == "":
			c.Invalid("", createTreeDoc, wire.FieldError{Resource: "Tree", Field: "path", Code: "missing_field"})
			return
		case t.Mode != "100644" || t.Type != "" && t.Type != "blob":
			c.Invalid("The emulator keeps regular files only: mode 100644, type blob.", createTreeDoc,
				wire.FieldError{Resource: "Tree", Field: "mode", Code: "invalid", Value: t.Mode})
			return
		case t.Content != nil && t.SHA != nil:
			c.Invalid("Must supply either tree.sha or tree.content. Request contains both.", createTreeDoc)
			return
		case t.Content != nil:
			files[path] = *t.Content
		case t.SHA == nil:
			delete(files, path)
		default:
			body, ok := g.Blobs[strings.ToLower(*t.SHA)]
			if !ok {
				c.Invalid("Invalid tree info", createTreeDoc)
				return
			}
			files[path] = body
		}
	}
	g.AddTree(files)
	c.JSON(http.StatusCreated, c.treeJSON(r, files, false))
}

// gitObjectJSON is GitHub's git-commit; a timeline's committed event
// carries the same fields.
type gitObjectJSON struct {
	SHA          string           `json:"sha"`
	NodeID       string           `json:"node_id"`
	URL          string           `json:"url"`
	HTMLURL      string           `json:"html_url"`
	Author       gitUserJSON      `json:"author"`
	Committer    gitUserJSON      `json:"committer"`
	Message      string           `json:"message"`
	Tree         shaURLJSON       `json:"tree"`
	Parents      []shaURLJSON     `json:"parents"`
	Verification verificationJSON `json:"verification"`
}

// gitCommitJSON is GitHub's git-commit of a commit of r.
func (c *call) gitCommitJSON(r *state.Repo, cm *state.GitCommit) gitObjectJSON {
	full := c.commitJSON(r, cm, false)
	parents := []shaURLJSON{}
	for _, p := range full.Parents {
		parents = append(parents, shaURLJSON{SHA: p.SHA, URL: c.Links.Repo(r) + "/git/commits/" + p.SHA, HTMLURL: p.HTMLURL})
	}
	return gitObjectJSON{cm.SHA, full.NodeID, full.Commit.URL, full.HTMLURL, full.Commit.Author, full.Commit.Committer,
		full.Commit.Message, full.Commit.Tree, parents, full.Commit.Verification}
}

func getGitCommit(c *call) {
	r, g := c.gitFor(state.PermRead)
	if r == nil {
		return
	}
	cm := g.Commits[strings.ToLower(c.Req.PathValue("commit_sha"))]
	if cm == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, c.gitCommitJSON(r, cm))
}

type gitIdentityRequest struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type createCommitRequest struct {
	Message   string              `json:"message"`
	Tree      string              `json:"tree"`
	Parents   []string            `json:"parents"`
	Author    *gitIdentityRequest `json:"author"`
	Committer *gitIdentityRequest `json:"committer"`
}

const createCommitDoc = "rest/git/commits#create-a-commit"

// createCommit writes a commit of a known tree over known parents; no
// branch moves until a ref is updated. Author and committer default to
// the caller, at the current time.
func createCommit(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	g := c.State.EnsureGit(r)
	var in createCommitRequest
	if !c.Decode(&in) {
		return
	}
	files := g.Trees[strings.ToLower(in.Tree)]
	if files == nil {
		c.Invalid("Tree SHA does not exist", createCommitDoc)
		return
	}
	if in.Message == "" {
		c.Invalid("", createCommitDoc, wire.FieldError{Resource: "Commit", Field: "message", Code: "missing_field"})
		return
	}
	var parents []*state.GitCommit
	for _, sha := range in.Parents {
		p := g.Commits[strings.ToLower(sha)]
		if p == nil {
			c.Invalid("Parent SHA does not exist or is not a commit object", createCommitDoc)
			return
		}
		parents = append(parents, p)
	}
	sig := func(id *gitIdentityRequest, dflt state.GitSignature) (state.GitSignature, bool) {
		if id == nil {
			return dflt, true
		}
		s := state.GitSignature{Name: id.Name, Email: id.Email, When: dflt.When}
		if id.Date != "" {
			t, err := time.Parse(time.RFC3339, id.Date)
			if err != nil {
				return s, false
			}
			s.When = t.UTC()
		}
		if s.Name == "" || s.Email == "" {
			return s, false
		}
		s.User = accountOfEmail(c.State, s.Email)
		return s, true
	}
	author, ok := sig(in.Author, state.Signature(c.Viewer, c.State.Now()))
	if !ok {
		c.Invalid("", createCommitDoc, wire.FieldError{Resource: "Commit", Field: "author", Code: "invalid"})
		return
	}
	committer, ok := sig(in.Committer, author)
	if !ok {
		c.Invalid("", createCommitDoc, wire.FieldError{Resource: "Commit", Field: "committer", Code: "invalid"})
		return
	}
	cm := g.Commit("", parents, files, author, committer, in.Message)
	out := c.gitCommitJSON(r, cm)
	c.W.Header().Set("Location", c.Links.Repo(r)+"/git/commits/"+cm.SHA)
	c.JSON(http.StatusCreated, out)
}

// accountOfEmail is the account a commit email belongs to: GitHub's
// noreply address "<id>+<login>@users.noreply.github.com".
func accountOfEmail(st *state.State, email string) *state.Account {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || domain != "users.noreply.github.com" {
		return nil
	}
	_, login, _ := strings.Cut(local, "+")
	a := st.Account(login)
	if a == nil || fmt.Sprintf("%d+%s", a.ID, a.Login) != local {
		return nil
	}
	return a
}

type updateRefRequest struct {
	SHA   string `json:"sha"`
	Force bool   `json:"force"`
}

const updateRefDoc = "rest/git/refs#update-a-reference"

// updateRef moves a branch (or tag) to a commit; a branch only moves
// forward unless forced, as GitHub refuses a non-fast-forward update.
func updateRef(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	g := c.State.EnsureGit(r)
	var in updateRefRequest
	if !c.Decode(&in) {
		return
	}
	ref := strings.TrimPrefix(c.Req.PathValue("ref"), "refs/")
	kind, name, _ := strings.Cut(ref, "/")
	_, tips := state.Refs(g)
	old := tips[ref]
	if old == nil {
		c.Invalid("Reference does not exist", updateRefDoc)
		return
	}
	target := g.Commits[strings.ToLower(in.SHA)]
	if target == nil {
		c.Invalid("Object does not exist", updateRefDoc)
		return
	}
	if kind == "tags" {
		c.State.Tag(r, name, target)
	} else {
		if !in.Force && state.MergeBase(old, target) != old {
			c.Invalid("Update is not a fast forward", updateRefDoc)
			return
		}
		c.State.MoveBranch(r, name, target, c.Viewer)
	}
	c.JSON(http.StatusOK, c.gitRef(r, ref, target))
}
