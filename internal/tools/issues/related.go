package issues

import (
	"context"
	"net/url"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// Related issues ("Relates to"): a symmetric link, served by GitHub's REST
// API version 2026-03-10 only (github/related.go). Where the server does
// not serve it, the answer is related_issues_unsupported and nothing is
// written: ghgate never falls back to writing the relation into a body.

// relatedPages bounds the pages of 100 read to find whether a link holds.
const relatedPages = 5

// related adds or removes a related link. The issue's related list is read
// first: it shows whether the server serves related issues at all (so an
// unsupported server is refused before any write), and whether the link
// already holds or is already absent, which is a no-op either way.
func (l *linker) related(ctx context.Context) error {
	in := l.in
	if in.Action != "add" && in.Action != "remove" {
		return contract.Errorf(contract.CodeInvalidField, "unknown action").WithField("action", "must be add or remove for related")
	}
	t, err := l.target(ctx)
	if err != nil {
		return err
	}
	linked, err := l.isRelated(ctx)
	if err != nil {
		return toolkit.NotStarted(relatedUnsupported(ctx, l.c, in.Owner, in.Repo, int(in.IssueNumber), err))
	}
	switch {
	case in.Action == "add" && linked:
		l.stands(true, true, "%s and %s are already related", l.issueName(), l.targetFull())
		return nil
	case in.Action == "remove" && !linked:
		l.stands(false, true, "%s and %s were not related", l.issueName(), l.targetFull())
		return nil
	case in.Action == "add":
		l.stands(true, false, "%s and %s are now related, shown on both", l.issueName(), l.targetFull())
		_, err = l.c.AddRelated(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
	default:
		l.stands(false, false, "%s and %s are no longer related, on either", l.issueName(), l.targetFull())
		_, err = l.c.RemoveRelated(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
	}
	if err != nil {
		return l.writeFailed(err)
	}
	return nil
}

// isRelated reads the issue's related issues (bounded) looking for the
// target.
func (l *linker) isRelated(ctx context.Context) (bool, error) {
	owner, repo := l.in.targetRepo()
	for page := 1; page <= relatedPages; page++ {
		list, meta, err := l.c.ListRelated(ctx, l.in.Owner, l.in.Repo, int(l.in.IssueNumber), gh.ListOptions{Page: toolkit.PageParam(page), PerPage: toolkit.MaxPageSize})
		if err != nil {
			return false, err
		}
		for _, is := range list {
			if is.GetNumber() == int(l.in.TargetIssueNumber) && otherRepo(repoOf(is), owner, repo) == "" {
				return true, nil
			}
		}
		if meta.NextPage == 0 {
			break
		}
	}
	return false, nil
}

// relatedUnsupported reads a failed related-issue request. A server that
// does not know API version 2026-03-10 answers 400; one that knows it but
// has no related issues (GitHub Enterprise Server) answers 404 on a path it
// does not serve. A 404 is told apart from a missing issue by reading the
// issue: when it exists, the endpoint is what is missing.
func relatedUnsupported(ctx context.Context, c *github.Client, owner, repo string, number int, err error) error {
	switch toolkit.GitHubCode(err) {
	case github.NotFound:
		if _, rerr := fetchIssue(ctx, c, owner, repo, number); rerr != nil {
			return rerr
		}
	case github.BadRequest:
	default:
		return err
	}
	e := contract.Errorf(contract.CodeRelatedIssuesUnsupported,
		"this GitHub server does not serve related issues (GitHub's REST API version %s has them; GitHub Enterprise Server does not yet); nothing was written", github.RelatedAPIVersion)
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "read the issue's timeline for the issues that mention it instead",
		Tool: toolkit.NameListIssueItems, Arguments: ListIssueItemsIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number), Collection: "timeline"},
		Alternative: "link with relation sub_issue or blocked_by only if one of those truly applies"})
}

// developmentCap is how many linked branches and closing pull requests one
// development listing reads: GitHub's largest page, read in one query.
const developmentCap = 100

// development lists the issue's Development section: linked branches, then
// the pull requests that will close it, those of repositories outside g
// left out. Under the creator scope, pull request titles are withheld
// (their authors are not read).
func (s *Tools) development(ctx context.Context, c *github.Client, in ListIssueItemsIn, g *grant) ([]IssueItem, bool, error) {
	d, err := c.IssueDevelopment(ctx, in.Owner, in.Repo, int(in.IssueNumber), developmentCap)
	if err != nil {
		return nil, false, err
	}
	out := make([]IssueItem, 0, len(d.Branches)+len(d.Pulls))
	for _, b := range d.Branches {
		if !g.keeps(b.Repo) {
			continue
		}
		out = append(out, IssueItem{Kind: "branch", Name: b.Name, Repo: otherRepo(b.Repo, in.Owner, in.Repo),
			URL: b.RepoURL + "/tree/" + (&url.URL{Path: b.Name}).EscapedPath()})
	}
	for _, p := range d.Pulls {
		if !g.keeps(p.Repo) {
			continue
		}
		row := IssueItem{Kind: "pull_request", Number: p.Number, Repo: otherRepo(p.Repo, in.Owner, in.Repo),
			State: strings.ToLower(p.State), Draft: p.Draft, URL: p.URL}
		if s.AllowedIssueCreator == "" {
			cleanTitle(&row, p.Title)
		}
		out = append(out, row)
	}
	return out, d.More, nil
}
