package issues

import (
	"context"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	gh "github.com/google/go-github/v88/github"
)

// recoveryMargin widens the window in which a lost create is looked for,
// for the difference between this host's clock and GitHub's when no answer
// from GitHub has shown it yet. Once one has (its Date header), the window
// opens recoverySlack before the attempt by GitHub's clock: Date and
// created_at are whole seconds. A narrow window matters: an identical issue
// the same user opened just before, without the key, is not this request's.
const (
	recoveryMargin = time.Minute
	recoverySlack  = 2 * time.Second
)

// recoveryWindow is where to look for what an attempt that reserved its
// key at reserved (this host's clock) may have written: from is the
// earliest GitHub time such a write can carry, at the reservation itself
// on GitHub's clock.
func recoveryWindow(c *github.Client, reserved time.Time) (from, at time.Time) {
	if onGitHub, ok := c.GitHubTime(reserved); ok {
		return onGitHub.Add(-recoverySlack), onGitHub
	}
	return reserved.Add(-recoveryMargin), reserved
}

// recoveryPages bounds the listing of the viewer's recent issues.
const recoveryPages = 5

// findCreated looks for the issue an earlier attempt of this request may
// have created after since (when the attempt reserved its key): one opened
// by this credential's user, with the same title and body. Bodies are the
// agent's content, so no marker is hidden in them; the match is on what
// was sent. It returns nil when there is none.
func (s *Tools) findCreated(ctx context.Context, c *github.Client, in CreateIssueIn, since time.Time) (*github.CreatedIssue, error) {
	me, _, err := c.Viewer(ctx)
	if err != nil {
		return nil, err
	}
	from, _ := recoveryWindow(c, since)
	title, body := strings.TrimSpace(in.Title), normalizeBody(in.Body)
	var oldest *gh.Issue
	for page := 1; page <= recoveryPages; page++ {
		list, meta, err := c.ListIssues(ctx, in.Owner, in.Repo, github.ListIssuesOptions{State: "all", Creator: me.GetLogin(),
			Since: from, Sort: "created", Direction: "desc", Page: page, PerPage: 50})
		if err != nil {
			return nil, err
		}
		done := meta.NextPage == 0
		for _, is := range list {
			if is.GetCreatedAt().Before(from) {
				done = true // newest first: the rest are older still
				break
			}
			if !is.IsPullRequest() && strings.TrimSpace(is.GetTitle()) == title && normalizeBody(is.GetBody()) == body {
				oldest = is // keep going: the first attempt's is the oldest match
			}
		}
		if done {
			break
		}
	}
	if oldest == nil {
		return nil, nil
	}
	return github.CreatedIssueOf(oldest), nil
}

func normalizeBody(b string) string { return strings.TrimSpace(strings.ReplaceAll(b, "\r\n", "\n")) }
