package graphql

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Repository.releases and Repository.release(tagName:), as `gh release
// list` and `gh release view` read them, from the releases REST serves
// (state/releases.go). Draft releases are listed and found only for
// callers with write access, as GitHub shows drafts only to those who can
// push.

// releaseOrder is GitHub's ReleaseOrder input.
type releaseOrder struct {
	Field     string `json:"field"`     // CREATED_AT | NAME
	Direction string `json:"direction"` // ASC | DESC
}

type releasesArgs struct {
	connArgs
	OrderBy *releaseOrder `json:"orderBy"`
}

type tagNameArgs struct {
	TagName string `json:"tagName"`
}

func registerReleases(r *resolvers) {
	registerConnectionType(r, "ReleaseConnection", "ReleaseEdge")
	objectType(r, func(*state.Release) string { return "Release" })
	resolveArgs(r, "Repository.releases", func(x *gqlContext, repo *state.Repo, a releasesArgs) (any, error) {
		list := x.visibleReleases(repo)
		if a.OrderBy != nil {
			slices.SortStableFunc(list, func(p, q *state.Release) int {
				c := p.CreatedAt.Compare(q.CreatedAt)
				if a.OrderBy.Field == "NAME" {
					c = strings.Compare(p.Name, q.Name)
				}
				if c == 0 {
					c = cmp.Compare(p.ID, q.ID) // created in the same second
				}
				if a.OrderBy.Direction == "DESC" {
					return -c
				}
				return c
			})
		}
		return pageOf(x, list, a.connArgs)
	})
	resolveArgs(r, "Repository.release", func(x *gqlContext, repo *state.Repo, a tagNameArgs) (any, error) {
		for _, rel := range x.visibleReleases(repo) {
			if rel.TagName == a.TagName {
				return rel, nil
			}
		}
		return nil, nil
	})
	resolve(r, "Repository.latestRelease", func(_ *gqlContext, repo *state.Repo) (any, error) {
		if rel := repo.LatestRelease(); rel != nil {
			return rel, nil
		}
		return nil, nil
	})

	const t = "Release"
	field := func(name string, fn func(x *gqlContext, rel *state.Release) any) {
		resolve(r, t+"."+name, func(x *gqlContext, rel *state.Release) (any, error) { return fn(x, rel), nil })
	}
	field("id", func(_ *gqlContext, rel *state.Release) any { return rel.NodeID })
	field("databaseId", func(_ *gqlContext, rel *state.Release) any { return rel.ID })
	field("name", func(_ *gqlContext, rel *state.Release) any { return rel.Name })
	field("tagName", func(_ *gqlContext, rel *state.Release) any { return rel.TagName })
	field("description", func(_ *gqlContext, rel *state.Release) any { return rel.Body })
	field("isDraft", func(_ *gqlContext, rel *state.Release) any { return rel.Draft })
	field("isPrerelease", func(_ *gqlContext, rel *state.Release) any { return rel.Prerelease })
	field("createdAt", func(_ *gqlContext, rel *state.Release) any { return rel.CreatedAt })
	field("updatedAt", func(_ *gqlContext, rel *state.Release) any { return rel.PublishedAt })
	field("author", func(_ *gqlContext, rel *state.Release) any { return rel.Author })
	field("publishedAt", func(_ *gqlContext, rel *state.Release) any {
		if rel.Draft {
			return nil
		}
		return rel.PublishedAt
	})
	resolve(r, t+".isLatest", func(x *gqlContext, rel *state.Release) (any, error) {
		repo := x.releaseRepo(rel)
		return repo != nil && repo.LatestRelease() == rel, nil
	})
	resolve(r, t+".url", func(x *gqlContext, rel *state.Release) (any, error) {
		repo := x.releaseRepo(rel)
		if repo == nil {
			return nil, fmt.Errorf("emulator: release %d has no repository", rel.ID)
		}
		return x.webURL("/" + repo.FullName() + "/releases/tag/" + url.PathEscape(rel.TagName)), nil
	})
}

// visibleReleases are repo's releases the caller may see, oldest first.
func (x *gqlContext) visibleReleases(repo *state.Repo) []*state.Release {
	drafts := x.c.Token.Permission(repo) >= state.PermWrite
	return slices.DeleteFunc(slices.Clone(repo.Releases), func(rel *state.Release) bool { return rel.Draft && !drafts })
}

// releaseRepo finds the repository a release belongs to: releases do not
// point back at theirs.
func (x *gqlContext) releaseRepo(rel *state.Release) *state.Repo {
	for _, repo := range x.st.Repos() {
		if slices.Contains(repo.Releases, rel) {
			return repo
		}
	}
	return nil
}
