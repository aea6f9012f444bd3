package toolkit

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
	c, err := s.Client(ctx, "", tooldef.Read)
	if err != nil {
		return []string{}
	}
	var owners []string
	if me, _, err := c.Viewer(ctx); err == nil {
		owners = append(owners, me.GetLogin())
	}
	if repos, _, err := c.ListViewerRepos(ctx, gh.ListOptions{PerPage: 100}); err == nil {
		for _, r := range repos {
			owners = append(owners, r.GetOwner().GetLogin())
		}
	}
	return filterPrefix(owners, prefix)
}

// CompleteRepos suggests repository names of an owner.
func (s *Service) CompleteRepos(ctx context.Context, owner, prefix string) []string {
	if owner == "" || CheckNames(owner, "") != nil {
		// A name GitHub would not accept is not worth a request.
		return []string{}
	}
	c, err := s.Client(ctx, owner, tooldef.Read)
	if err != nil {
		return []string{}
	}
	repos, _, err := c.ListOrgRepos(ctx, owner, gh.ListOptions{PerPage: 100})
	if err != nil {
		repos, _, err = c.ListUserRepos(ctx, owner, gh.ListOptions{PerPage: 100})
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
	if owner == "" || repo == "" || CheckNames(owner, repo) != nil {
		// A name GitHub would not accept is not worth a request.
		return []string{}
	}
	c, err := s.Client(ctx, owner, tooldef.Read)
	if err != nil {
		return []string{}
	}
	labels, _, err := c.ListLabels(ctx, owner, repo, gh.ListOptions{PerPage: 100})
	if err != nil {
		return []string{}
	}
	names := make([]string, 0, len(labels))
	for _, l := range labels {
		names = append(names, l.GetName())
	}
	return filterPrefix(names, prefix)
}
