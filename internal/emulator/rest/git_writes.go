package rest

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

type createRefRequest struct {
	Ref string `json:"ref"`
	SHA string `json:"sha"`
}

const createRefDoc = "rest/git/refs#create-a-reference"

// createRef creates a branch (refs/heads/...) or a lightweight tag
// (refs/tags/...) at an existing commit.
func createRef(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	g := c.State.EnsureGit(r)
	var in createRefRequest
	if !c.Decode(&in) {
		return
	}
	kind, name, ok := strings.Cut(strings.TrimPrefix(in.Ref, "refs/"), "/")
	if !strings.HasPrefix(in.Ref, "refs/") || !ok || name == "" || (kind != "heads" && kind != "tags") {
		c.Invalid("Reference name is invalid", createRefDoc)
		return
	}
	target := g.Commits[strings.ToLower(in.SHA)]
	if target == nil {
		c.Invalid("Object does not exist", createRefDoc)
		return
	}
	if _, tips := state.Refs(g); tips[kind+"/"+name] != nil {
		c.Invalid("Reference already exists", createRefDoc)
		return
	}
	if kind == "heads" {
		g.Branches[name] = target
	} else {
		c.State.Tag(r, name, target)
	}
	out := c.gitRef(r, kind+"/"+name, target)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

type putContentsRequest struct {
	Message string `json:"message"`
	Content string `json:"content"`
	SHA     string `json:"sha"`
	Branch  string `json:"branch"`
}

const putContentsDoc = "rest/repos/contents#create-or-update-file-contents"

// putContents commits one file to a branch, as GitHub's contents API does:
// updating a file needs the blob sha it replaces (409 when it is not the
// current one).
func putContents(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	g := c.State.EnsureGit(r)
	var in putContentsRequest
	if !c.Decode(&in) {
		return
	}
	path := strings.Trim(c.Req.PathValue("path"), "/")
	switch {
	case path == "":
		c.Invalid("", putContentsDoc, wire.FieldError{Resource: "Content", Field: "path", Code: "missing_field"})
		return
	case in.Message == "":
		c.Invalid("Invalid request.\n\n\"message\" wasn't supplied.", putContentsDoc)
		return
	}
	content, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(in.Content, "\n", ""))
	if err != nil {
		c.Invalid("content is not valid Base64", putContentsDoc)
		return
	}
	branch := in.Branch
	if branch == "" {
		branch = state.RepoDefaultBranch
	}
	tip := g.Branches[branch]
	if tip == nil {
		c.Fail(http.StatusNotFound, "Branch "+branch+" not found", putContentsDoc)
		return
	}
	old, exists := tip.Files[path]
	switch {
	case exists && in.SHA == "":
		c.Invalid("Invalid request.\n\n\"sha\" wasn't supplied.", putContentsDoc)
		return
	case exists && in.SHA != state.BlobSHA(old):
		c.Fail(http.StatusConflict, path+" does not match "+in.SHA, putContentsDoc)
		return
	}
	cm := c.State.PushFile(r, branch, c.Viewer, in.Message, path, string(content))
	entry := c.contentEntry(r, path, false, string(content))
	commit := c.commitJSON(r, cm, false)
	out := struct {
		Content contentJSON   `json:"content"`
		Commit  gitObjectJSON `json:"commit"`
	}{Content: entry}
	oc := &out.Commit
	oc.SHA, oc.NodeID, oc.URL, oc.HTMLURL = cm.SHA, commit.NodeID, c.Links.Repo(r)+"/git/commits/"+cm.SHA, commit.HTMLURL
	oc.Author, oc.Committer, oc.Message, oc.Tree = commit.Commit.Author, commit.Commit.Committer, commit.Commit.Message, commit.Commit.Tree
	oc.Parents, oc.Verification = commit.Parents, commit.Commit.Verification
	status := http.StatusCreated
	if exists {
		status = http.StatusOK
	}
	c.JSON(status, out)
}

const deleteRefDoc = "rest/git/refs#delete-a-reference"

// deleteRef deletes a tag or a branch other than the default one (the
// pull requests whose head it was record it, and close); a ref that does
// not exist answers GitHub's 422 "Reference does not exist".
func deleteRef(c *call) {
	r, g := c.gitFor(state.PermWrite)
	if r == nil {
		return
	}
	ref := strings.TrimPrefix(c.Req.PathValue("ref"), "refs/")
	kind, name, _ := strings.Cut(ref, "/")
	if _, tips := state.Refs(g); tips[ref] == nil {
		c.Invalid("Reference does not exist", deleteRefDoc)
		return
	}
	if kind == "tags" {
		delete(g.Tags, name)
	} else {
		if name == state.RepoDefaultBranch {
			c.Invalid("Cannot delete the default branch", deleteRefDoc)
			return
		}
		c.State.DeleteBranch(r, name, c.Viewer)
	}
	c.NoContent()
}
