package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Refs over GraphQL: Repository.ref and refs, and Ref.target.

type qualifiedNameArgs struct {
	QualifiedName string `json:"qualifiedName"`
}

// refOrder is GitHub's RefOrder input.
type refOrder struct {
	Field     string `json:"field"`     // ALPHABETICAL | TAG_COMMIT_DATE
	Direction string `json:"direction"` // ASC | DESC
}

type refsArgs struct {
	connArgs
	RefPrefix string    `json:"refPrefix"`
	Query     *string   `json:"query"`
	OrderBy   *refOrder `json:"orderBy"`
	Direction *string   `json:"direction"`
}

// tip is the commit a ref points at, nil when it no longer exists.
func (ref *gitRef) tip() *state.GitCommit {
	g := ref.repo.Git
	if g == nil {
		return nil
	}
	if ref.prefix == "refs/tags/" {
		return g.Tags[ref.name]
	}
	return g.Branches[ref.name]
}

// lookupRef finds a ref by fully qualified name, then by short name among
// branches and then tags, as GitHub's Repository.ref does.
func lookupRef(repo *state.Repo, name string) *gitRef {
	g := repo.Git
	if g == nil {
		return nil
	}
	if b, ok := strings.CutPrefix(name, "refs/heads/"); ok {
		if g.Branches[b] != nil {
			return &gitRef{repo: repo, name: b}
		}
		return nil
	}
	if t, ok := strings.CutPrefix(name, "refs/tags/"); ok {
		if g.Tags[t] != nil {
			return &gitRef{repo: repo, name: t, prefix: "refs/tags/"}
		}
		return nil
	}
	if g.Branches[name] != nil {
		return &gitRef{repo: repo, name: name}
	}
	if g.Tags[name] != nil {
		return &gitRef{repo: repo, name: name, prefix: "refs/tags/"}
	}
	return nil
}

func registerRefs(r *resolvers) {
	resolve(r, "Ref.id", func(_ *gqlContext, ref *gitRef) (any, error) {
		p := ref.prefix
		if p == "" {
			p = "refs/heads/"
		}
		return state.NodeID("REF", ref.repo.ID) + strings.ReplaceAll(strings.TrimPrefix(p, "refs/")+ref.name, "/", "_"), nil
	})
	resolve(r, "Ref.target", func(_ *gqlContext, ref *gitRef) (any, error) {
		c := ref.tip()
		if c == nil {
			return nil, nil
		}
		return &commitRef{repo: ref.repo, commit: c}, nil
	})
	resolveArgs(r, "Repository.ref", func(_ *gqlContext, repo *state.Repo, a qualifiedNameArgs) (any, error) {
		if ref := lookupRef(repo, a.QualifiedName); ref != nil {
			return ref, nil
		}
		return nil, nil
	})
	resolveArgs(r, "Repository.refs", func(x *gqlContext, repo *state.Repo, a refsArgs) (any, error) {
		var list []*gitRef
		if g := repo.Git; g != nil {
			names, _ := state.Refs(g)
			for _, n := range names {
				full := "refs/" + n
				if !strings.HasPrefix(full, a.RefPrefix) || !strings.HasSuffix(a.RefPrefix, "/") {
					continue
				}
				short := strings.TrimPrefix(full, a.RefPrefix)
				if a.Query != nil && !strings.Contains(strings.ToLower(short), strings.ToLower(*a.Query)) {
					continue
				}
				ref := &gitRef{repo: repo, name: strings.TrimPrefix(n, "heads/")}
				if t, ok := strings.CutPrefix(n, "tags/"); ok {
					ref = &gitRef{repo: repo, name: t, prefix: "refs/tags/"}
				}
				list = append(list, ref)
			}
		}
		desc := a.Direction != nil && *a.Direction == "DESC"
		if o := a.OrderBy; o != nil {
			desc = o.Direction == "DESC"
			if o.Field == "TAG_COMMIT_DATE" {
				slices.SortStableFunc(list, func(p, q *gitRef) int { return p.tip().Committer.When.Compare(q.tip().Committer.When) })
			}
		}
		if desc {
			slices.Reverse(list)
		}
		return pageOf(x, list, a.connArgs)
	})
	registerConnectionType(r, "RefConnection", "RefEdge")

	resolve(r, "Commit.commitUrl", func(x *gqlContext, c *commitRef) (any, error) {
		return x.webURL("/" + c.repo.FullName() + "/commit/" + c.commit.SHA), nil
	})
	resolve(r, "Commit.commitResourcePath", func(_ *gqlContext, c *commitRef) (any, error) {
		return "/" + c.repo.FullName() + "/commit/" + c.commit.SHA, nil
	})
}
