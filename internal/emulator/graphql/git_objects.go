package graphql

import (
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Repository.object: a git object by revision expression, as GitHub
// resolves `object(expression: "HEAD:path")` (git's "<rev>:<path>"
// syntax: HEAD is the default branch) or by oid. A file is a Blob, a
// directory a Tree, a revision alone its Commit; what names nothing is
// null, not an error.

type objectArgs struct {
	Expression *string `json:"expression"`
	OID        *string `json:"oid"`
}

// gitBlob is a file of a commit's tree; gitTree a directory of one
// (path "" is the root).
type gitBlob struct {
	repo    *state.Repo
	commit  *state.GitCommit
	content string
}

type gitTree struct {
	repo   *state.Repo
	commit *state.GitCommit
	path   string
}

func registerGitObjects(r *resolvers) {
	resolveArgs(r, "Repository.object", func(_ *gqlContext, repo *state.Repo, a objectArgs) (any, error) {
		switch {
		case a.Expression != nil:
			return objectAt(repo, *a.Expression), nil
		case a.OID != nil && repo.Git != nil:
			if c := repo.Git.Commits[strings.ToLower(*a.OID)]; c != nil {
				return &commitRef{repo: repo, commit: c}, nil
			}
		}
		return nil, nil
	})

	objectType(r, func(*gitBlob) string { return "Blob" })
	const b = "Blob"
	resolve(r, b+".id", func(_ *gqlContext, o *gitBlob) (any, error) {
		return state.NodeID("B", o.repo.ID) + state.BlobSHA(o.content)[:12], nil
	})
	resolve(r, b+".oid", func(_ *gqlContext, o *gitBlob) (any, error) { return state.BlobSHA(o.content), nil })
	resolve(r, b+".abbreviatedOid", func(_ *gqlContext, o *gitBlob) (any, error) { return state.ShortSHA(state.BlobSHA(o.content)), nil })
	resolve(r, b+".byteSize", func(_ *gqlContext, o *gitBlob) (any, error) { return len(o.content), nil })
	resolve(r, b+".isBinary", func(_ *gqlContext, o *gitBlob) (any, error) { return !utf8.ValidString(o.content), nil })
	resolve(r, b+".isTruncated", func(_ *gqlContext, _ *gitBlob) (any, error) { return false, nil })
	resolve(r, b+".text", func(_ *gqlContext, o *gitBlob) (any, error) {
		if !utf8.ValidString(o.content) {
			return nil, nil
		}
		return o.content, nil
	})
	resolve(r, b+".repository", func(_ *gqlContext, o *gitBlob) (any, error) { return o.repo, nil })
	resolve(r, b+".commitUrl", func(x *gqlContext, o *gitBlob) (any, error) {
		return x.webURL("/" + o.repo.FullName() + "/commit/" + o.commit.SHA), nil
	})
	resolve(r, b+".commitResourcePath", func(_ *gqlContext, o *gitBlob) (any, error) {
		return "/" + o.repo.FullName() + "/commit/" + o.commit.SHA, nil
	})

	objectType(r, func(*gitTree) string { return "Tree" })
	const t = "Tree"
	resolve(r, t+".id", func(_ *gqlContext, o *gitTree) (any, error) { return state.NodeID("T", o.repo.ID) + o.oid()[:12], nil })
	resolve(r, t+".oid", func(_ *gqlContext, o *gitTree) (any, error) { return o.oid(), nil })
	resolve(r, t+".abbreviatedOid", func(_ *gqlContext, o *gitTree) (any, error) { return state.ShortSHA(o.oid()), nil })
	resolve(r, t+".repository", func(_ *gqlContext, o *gitTree) (any, error) { return o.repo, nil })
	resolve(r, t+".commitUrl", func(x *gqlContext, o *gitTree) (any, error) {
		return x.webURL("/" + o.repo.FullName() + "/commit/" + o.commit.SHA), nil
	})
	resolve(r, t+".commitResourcePath", func(_ *gqlContext, o *gitTree) (any, error) {
		return "/" + o.repo.FullName() + "/commit/" + o.commit.SHA, nil
	})
}

func (o *gitTree) oid() string {
	if o.path == "" {
		return state.TreeSHA(o.commit.Files)
	}
	return state.TreeOf(o.commit.Files, o.path+"/")
}

// objectAt resolves "<rev>", "<rev>:" (the root tree) or "<rev>:<path>".
func objectAt(repo *state.Repo, expr string) any {
	g := repo.Git
	if g == nil {
		return nil
	}
	rev, path, hasPath := strings.Cut(expr, ":")
	var c *state.GitCommit
	if rev == "" || rev == "HEAD" {
		c = g.Branches[state.RepoDefaultBranch]
	} else {
		c = g.Resolve(rev)
	}
	switch {
	case c == nil:
		return nil
	case !hasPath:
		return &commitRef{repo: repo, commit: c}
	}
	path = strings.Trim(path, "/")
	if path == "" {
		return &gitTree{repo: repo, commit: c}
	}
	if content, ok := c.Files[path]; ok {
		return &gitBlob{repo: repo, commit: c, content: content}
	}
	for p := range c.Files {
		if strings.HasPrefix(p, path+"/") {
			return &gitTree{repo: repo, commit: c, path: path}
		}
	}
	return nil
}
