package reports

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/core"
	gh "github.com/google/go-github/v88/github"
)

// repoPages bounds the owner's repository listing: 1,000 repositories.
const repoPages = 10

// ownerRepos lists every non-archived repository of owner (an
// organization's, else a user's public ones) in name order, each page one
// call of run. It returns nil and no error when the run stopped first.
func ownerRepos(run *fanout.Run, c *github.Client, owner string) ([]*gh.Repository, error) {
	var repos []*gh.Repository
	list, asUser := c.ListOrgRepos, false
	for page := 1; page <= repoPages; page++ {
		var got []*gh.Repository
		var next int
		err := run.Call(run.Context(), func(ctx context.Context) (github.Meta, error) {
			r, m, err := list(ctx, owner, gh.ListOptions{Page: core.PageParam(page), PerPage: perPage})
			got, next = r, m.NextPage
			return m, err
		})
		if page == 1 && isNotFound(err) && !asUser {
			// Not an organization: the owner's public repositories as a user.
			list, asUser, page = c.ListUserRepos, true, 0
			continue
		}
		if errors.Is(err, fanout.ErrStopped) || run.Stopped() != "" {
			return nil, nil
		}
		if err != nil {
			return nil, ownerFailure(err, owner)
		}
		repos = append(repos, got...)
		if next == 0 {
			break
		}
	}
	repos = slices.DeleteFunc(repos, func(r *gh.Repository) bool { return r.GetArchived() })
	slices.SortFunc(repos, func(a, b *gh.Repository) int { return byName(a.GetName(), b.GetName()) })
	return repos, nil
}

// byName orders repository names as the continuation cursors do: by
// their lower-case form.
func byName(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }
