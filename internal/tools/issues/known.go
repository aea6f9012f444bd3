// What the issue tools add to the Service's cache of confirmed names
// (toolkit.KnownNames): a preflight's answers, a metadata listing, the labels
// and milestones on issues read.

package issues

import (
	"context"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// remember keeps the names a preflight confirmed. Names it did not find
// are not remembered: they are asked again next time.
func (s *Tools) remember(key string, now time.Time, asked preflight, got *preflightResult) {
	var types map[string]string
	if asked.types {
		types = got.types
		if types == nil {
			types = map[string]string{}
		}
	}
	milestones := map[int]string{}
	if got.milestone != nil {
		milestones[got.milestone.GetNumber()] = got.milestone.GetTitle()
	}
	defer s.ShareNames(context.Background(), key, toolkit.NameFields(got.labels, got.assignable, milestones, types))
	s.Known().Lock()
	defer s.Known().Unlock()
	e := s.Known().Entry(key, now)
	for k, v := range got.labels {
		e.Labels[k] = v
	}
	for k, v := range got.assignable {
		e.Assignable[k] = v
	}
	if got.milestone != nil {
		e.Milestones[got.milestone.GetNumber()] = got.milestone.GetTitle()
	}
	if asked.types {
		e.Types = map[string]string{}
		for k, v := range got.types {
			e.Types[k] = v
		}
	}
}

// forget drops what is known about a repository, after GitHub refused a
// write in a way a stale name could explain.
func (s *Tools) forget(c *github.Client, owner, repo string) {
	s.DropSharedNames(context.Background(), toolkit.KnownKey(c, owner, repo))
	s.Known().Lock()
	defer s.Known().Unlock()
	s.Known().Drop(toolkit.KnownKey(c, owner, repo))
}

// rememberListed records names a metadata listing returned, so an agent
// that looks labels and milestones up before creating an issue pays for
// that one listing and no preflight. Issue types are remembered only from
// a whole list (GitHub answers them unpaged), since the preflight treats
// the remembered set as complete.
func (s *Tools) rememberListed(c *github.Client, owner, repo, kind string, items []RepoMetaItem) {
	got := newPreflightResult()
	var asked preflight
	switch kind {
	case "labels":
		for _, it := range items {
			got.labels[strings.ToLower(it.Name)] = it.Name
		}
	case "assignees":
		for _, it := range items {
			got.assignable[strings.ToLower(it.Login)] = it.Login
		}
	case "issue_types":
		asked.types = true
		for _, it := range items {
			got.types[strings.ToLower(it.Name)] = it.Name
		}
	case "milestones":
		for _, it := range items {
			s.remember(toolkit.KnownKey(c, owner, repo), s.CurrentTime(), preflight{}, withMilestone(&gh.Milestone{Number: gh.Ptr(it.Number), Title: gh.Ptr(it.Title)}))
		}
		return
	default:
		return
	}
	s.remember(toolkit.KnownKey(c, owner, repo), s.CurrentTime(), asked, got)
}

// rememberSeen records the labels and milestones that issues just read
// carry: a name GitHub returned on an issue exists in its repository. An
// agent that searches before creating (for duplicates, say) has then
// confirmed the names it will most likely use, and the create is one POST.
// Rows without a readable repository are skipped rather than guessed.
func (s *Tools) rememberSeen(c *github.Client, issues ...*github.IssueRow) {
	now := s.CurrentTime()
	shared := map[string]map[string]string{}
	defer func() {
		for key, fields := range shared {
			s.ShareNames(context.Background(), key, fields)
		}
	}()
	s.Known().Lock()
	defer s.Known().Unlock()
	for _, is := range issues {
		owner, repo, ok := strings.Cut(repoOfURL(is.RepositoryURL), "/")
		if !ok || len(is.Labels) == 0 && is.Milestone == nil {
			continue
		}
		key := toolkit.KnownKey(c, owner, repo)
		e := s.Known().Entry(key, now)
		labels, milestones := map[string]string{}, map[int]string{}
		for _, l := range is.Labels {
			if name := l.Name; name != "" {
				e.Labels[strings.ToLower(name)] = name
				labels[strings.ToLower(name)] = name
			}
		}
		if m := is.Milestone; m != nil && m.Number > 0 {
			e.Milestones[m.Number] = m.Title
			milestones[m.Number] = m.Title
		}
		if s.SharedNames {
			if shared[key] == nil {
				shared[key] = map[string]string{}
			}
			for f, v := range toolkit.NameFields(labels, nil, milestones, nil) {
				shared[key][f] = v
			}
		}
	}
}
