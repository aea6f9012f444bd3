package tools

import (
	"context"
	"sort"
	"strings"

	"github.com/ghgate/ghgate/internal/tooldef"
	gh "github.com/google/go-github/v88/github"
)

// maxCompletions is how many values a completion returns at most.
const maxCompletions = 100

// filterPrefix keeps the values starting with prefix (case-insensitively),
// sorted and de-duplicated; never nil.
func filterPrefix(values []string, prefix string) []string {
	seen := map[string]bool{}
	out := []string{}
	p := strings.ToLower(prefix)
	for _, v := range values {
		if v == "" || seen[strings.ToLower(v)] || !strings.HasPrefix(strings.ToLower(v), p) {
			continue
		}
		seen[strings.ToLower(v)] = true
		out = append(out, v)
	}
	sort.Strings(out)
	if len(out) > maxCompletions {
		out = out[:maxCompletions]
	}
	return out
}

// CompleteOwners suggests owners: the credential's own login and the owners
// of repositories it can reach.
func (s *Service) CompleteOwners(ctx context.Context, prefix string) []string {
	c, err := s.client(ctx, "", tooldef.Read)
	if err != nil {
		return []string{}
	}
	var owners []string
	var me *gh.User
	if _, err := c.Read(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
		me, resp, err = rest.Users.Get(ctx, "")
		return resp, err
	}); err == nil {
		owners = append(owners, me.GetLogin())
	}
	var repos []*gh.Repository
	if _, err := c.Read(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
		repos, resp, err = rest.Repositories.ListByAuthenticatedUser(ctx, &gh.RepositoryListByAuthenticatedUserOptions{ListOptions: gh.ListOptions{PerPage: 100}})
		return resp, err
	}); err == nil {
		for _, r := range repos {
			owners = append(owners, r.GetOwner().GetLogin())
		}
	}
	return filterPrefix(owners, prefix)
}

// CompleteRepos suggests repository names of an owner.
func (s *Service) CompleteRepos(ctx context.Context, owner, prefix string) []string {
	if owner == "" || checkNames(owner, "") != nil {
		// The name goes into the request path unescaped.
		return []string{}
	}
	c, err := s.client(ctx, owner, tooldef.Read)
	if err != nil {
		return []string{}
	}
	var repos []*gh.Repository
	_, err = c.Read(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
		repos, resp, err = rest.Repositories.ListByOrg(ctx, owner, &gh.RepositoryListByOrgOptions{ListOptions: gh.ListOptions{PerPage: 100}})
		return resp, err
	})
	if err != nil {
		_, err = c.Read(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
			repos, resp, err = rest.Repositories.ListByUser(ctx, owner, &gh.RepositoryListByUserOptions{ListOptions: gh.ListOptions{PerPage: 100}})
			return resp, err
		})
	}
	if err != nil {
		return []string{}
	}
	names := make([]string, 0, len(repos))
	for _, r := range repos {
		names = append(names, r.GetName())
	}
	return filterPrefix(names, prefix)
}

// CompleteLabels suggests a repository's label names.
func (s *Service) CompleteLabels(ctx context.Context, owner, repo, prefix string) []string {
	if owner == "" || repo == "" || checkNames(owner, repo) != nil {
		// The names go into the request path unescaped.
		return []string{}
	}
	c, err := s.client(ctx, owner, tooldef.Read)
	if err != nil {
		return []string{}
	}
	var labels []*gh.Label
	if _, err := c.Read(ctx, func(ctx context.Context, rest *gh.Client) (resp *gh.Response, err error) {
		labels, resp, err = rest.Issues.ListLabels(ctx, owner, repo, &gh.ListOptions{PerPage: 100})
		return resp, err
	}); err != nil {
		return []string{}
	}
	names := make([]string, 0, len(labels))
	for _, l := range labels {
		names = append(names, l.GetName())
	}
	return filterPrefix(names, prefix)
}
