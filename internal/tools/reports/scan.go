package reports

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// target is one repository to scan, as the owner's listing showed it.
type target struct {
	name string
	// issuesOff: the repository's issues are turned off, so its issues
	// list answers 410 and its pull requests are read from the pulls list.
	issuesOff bool
	archived  bool
}

// scan is one call of github_report_unlabeled.
type scan struct {
	run *fanout.Run
	c   *github.Client
	in  UnlabeledIn
	pos *resume

	mu       sync.Mutex
	rows     []UnlabeledRow
	skipped  []SkippedRepo
	scanned  Scanned
	finished map[string]bool
	pages    map[string]int
	capped   bool // a repository had more than per_repo_limit items
	order    []string
	taken    int // repositories started by this call
	// whole: every page of the owner's listing was taken, so order holds
	// every name the done prefix may move over.
	whole bool
	more  bool // eligible repositories beyond max_repos were left
	// withheld counts the repositories left out as outside the caller's
	// read grant.
	withheld int
	// fatal fails the call: the one repository named cannot be found.
	fatal error
}

// report scans up to max_repos of the repositories not yet done, in name
// order, per_repo_limit items each, within the run's bounds: the one
// repository named (archived or not: it says which), or the owner's
// repositories (the archived ones with include_archived), each page of
// the listing started on as it arrives.
func (s *scan) report() error {
	s.finished, s.pages = map[string]bool{}, map[string]int{}
	s.scanned.IncludeArchived = s.in.IncludeArchived
	defer s.scanned.done()
	g := s.run.Group()
	var err error
	if s.in.Repo != "" {
		archived, stopped, err := repoArchived(s.run, s.c, s.in.Owner, s.in.Repo)
		if stopped || err != nil {
			return repoFailure(err, s.in.Owner, s.in.Repo, toolkit.NameReportUnlabeled, nil)
		}
		s.whole, s.scanned.Archived = true, archived
		s.take(g, []target{{name: s.in.Repo, archived: archived}})
	} else {
		s.whole, err = ownerRepos(s.run, g, s.c, s.in.Owner, func(repos []*github.OwnerRepo) { s.take(g, s.targets(repos)) })
	}
	if werr := g.Wait(); werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	slices.SortFunc(s.order, byName)
	return s.fatal
}

// targets are the repositories of one listing page worth scanning: not
// archived unless include_archived (those left out are named in
// scanned), and not those with issues off when only issues are wanted.
// An archived repository outside the caller's read grant is neither
// named nor counted: its name is not the caller's to learn.
func (s *scan) targets(repos []*github.OwnerRepo) []target {
	var out []target
	for _, r := range repos {
		ok := readable(s.run.Context(), s.in.Owner, r.GetName())
		if r.GetArchived() && !s.in.IncludeArchived {
			if ok {
				s.scanned.skipArchived(r.GetName())
			}
			continue
		}
		if !ok {
			s.withheld++
			continue
		}
		off := !r.GetHasIssues()
		if off && s.in.Target == "issues" {
			continue // nothing of it to report
		}
		out = append(out, target{name: r.GetName(), issuesOff: off, archived: r.GetArchived()})
	}
	return out
}

// take starts scanning the targets not done by an earlier call, until
// max_repos are under way; those beyond it are left for the next call.
// Every target joins the order the resume position moves along.
func (s *scan) take(g *fanout.Group, targets []target) {
	var work []target
	for _, t := range targets {
		s.order = append(s.order, t.name)
		switch {
		case s.pos.done(t.name):
		case s.taken == int(s.in.MaxRepos):
			s.more = true
		default:
			s.taken++
			work = append(work, t)
		}
	}
	g.Expect(len(work))
	reach := caller.ReachFrom(s.run.Context())
	for _, t := range work {
		reach.Named(s.in.Owner, t.name)
	}
	for _, t := range work {
		if !g.Go(func(ctx context.Context) { s.repo(ctx, t) }) {
			return
		}
	}
}

// repo scans one repository from the page it goes on from, until its
// last page, per_repo_limit, or the run stops.
func (s *scan) repo(ctx context.Context, t target) {
	page := s.pos.page(t.name)
	pulls := t.issuesOff
	budget := (int(s.in.PerRepoLimit) + perPage - 1) / perPage
	read, items := 0, 0
	defer func() {
		if read > 0 {
			caller.ReachFrom(ctx).Read(s.in.Owner, t.name)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if read > 0 {
			s.scanned.Repos++
			s.scanned.Items += items
		}
	}()
	for {
		if read == budget {
			s.stopAt(t.name, page, true)
			return
		}
		var rows []UnlabeledRow
		var next, n int
		err := s.run.Call(ctx, func(ctx context.Context) (github.Meta, error) {
			var m github.Meta
			var err error
			if pulls {
				rows, n, m, err = s.pullsPage(ctx, t.name, page)
			} else {
				rows, n, m, err = s.issuesPage(ctx, t.name, page)
			}
			next = m.NextPage
			return m, err
		})
		switch {
		case errors.Is(err, fanout.ErrStopped), err != nil && s.run.Stopped() != "":
			s.stopAt(t.name, page, false)
			return
		case err != nil && !pulls && page == 1 && toolkit.GitHubCode(err) == github.Gone && s.in.Target != "issues":
			// Issues turned off: the pull requests are still there.
			pulls = true
			continue
		case err != nil:
			s.skip(t.name, err)
			return
		}
		read++
		items += n
		for i := range rows {
			rows[i].Archived = t.archived
		}
		s.add(rows)
		if next == 0 {
			s.finish(t.name)
			return
		}
		page = next
	}
}

// issuesPage reads one page of the issues list, which holds the pull
// requests too (with a pull_request key, and draft): one list answers both
// targets, so a repository costs one call per 100 items whatever the
// target.
func (s *scan) issuesPage(ctx context.Context, repo string, page int) ([]UnlabeledRow, int, github.Meta, error) {
	list, m, err := s.c.ListIssueItems(ctx, s.in.Owner, repo, github.ListIssuesOptions{State: string(s.in.State),
		Sort: "created", Direction: "asc", Page: toolkit.PageParam(page), PerPage: perPage})
	if err != nil {
		return nil, 0, m, err
	}
	var rows []UnlabeledRow
	for _, is := range list {
		if is == nil {
			continue
		}
		pull := is.PullRequest != nil
		if len(is.Labels) > 0 || !s.wants(pull, is.Draft) {
			continue
		}
		rows = append(rows, row(repo, pull, is.Number, is.Title, is.HTMLURL, is.CreatedAt))
	}
	return rows, len(list), m, nil
}

// pullsPage reads one page of the pulls list, for a repository whose
// issues are turned off.
func (s *scan) pullsPage(ctx context.Context, repo string, page int) ([]UnlabeledRow, int, github.Meta, error) {
	list, m, err := s.c.ListPulls(ctx, s.in.Owner, repo, string(s.in.State), gh.ListOptions{Page: toolkit.PageParam(page), PerPage: perPage})
	if err != nil {
		return nil, 0, m, err
	}
	var rows []UnlabeledRow
	for _, p := range list {
		if len(p.Labels) > 0 || !s.wants(true, p.GetDraft()) {
			continue
		}
		rows = append(rows, row(repo, true, p.GetNumber(), p.GetTitle(), p.GetHTMLURL(), p.GetCreatedAt().Time))
	}
	return rows, len(list), m, nil
}

// wants reports whether an item of this kind is reported.
func (s *scan) wants(pull, draft bool) bool {
	switch {
	case pull && s.in.Target == "issues", !pull && s.in.Target == "pulls":
		return false
	case pull && draft:
		return s.in.IncludeDrafts
	}
	return true
}

func row(repo string, pull bool, number int, title, url string, created time.Time) UnlabeledRow {
	kind := "issue"
	if pull {
		kind = "pull"
	}
	return UnlabeledRow{Repo: repo, Type: kind, Number: number, Title: title, URL: url, CreatedAt: created.UTC().Format(time.RFC3339)}
}

func (s *scan) add(rows []UnlabeledRow) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows = append(s.rows, rows...)
}

func (s *scan) finish(repo string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished[repo] = true
}

// stopAt records where repo goes on; capped when per_repo_limit stopped it.
func (s *scan) stopAt(repo string, page int, capped bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[repo] = page
	s.capped = s.capped || capped
}

// skip records a repository that could not be read: not a rate limit (the
// run stops for those), but a feature turned off or a refusal, which the
// report goes on past. It is done: the next call does not try it again.
func (s *scan) skip(repo string, err error) {
	if s.in.Repo != "" && isNotFound(err) {
		s.mu.Lock()
		s.fatal = repoFailure(err, s.in.Owner, repo, toolkit.NameReportUnlabeled, nil)
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped = append(s.skipped, SkippedRepo{Repo: repo, Reason: skipCode(err)})
	s.finished[repo] = true
}

// result assembles the report, rows in repository then number order, and
// moves the resume position past what was done.
func (s *scan) result() UnlabeledOut {
	out := UnlabeledOut{Rows: s.rows, Scanned: s.scanned, Skipped: s.skipped,
		APICalls: s.run.Calls(), ConditionalHits: s.run.ConditionalHits(), Withheld: s.withheld}
	out.Rows = ordered(out.Rows, func(r UnlabeledRow) (string, int) { return r.Repo, r.Number })
	slices.SortFunc(out.Skipped, func(a, b SkippedRepo) int { return strings.Compare(a.Repo, b.Repo) })
	reason := s.run.Stopped()
	switch {
	case reason != "":
	case s.capped:
		reason = fanout.MaxItems
	case s.more:
		reason = fanout.MaxRepos
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, Stop(reason)
		s.pos.advance(s.order, s.finished, s.pages, s.whole)
	}
	return out
}

// ownerFailure names what a failed repository listing means for the owner.
func ownerFailure(err error, owner string) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	return ownerNotFound(e, owner)
}

// ownerNotFound says the owner is not there, with the call that finds
// the name.
func ownerNotFound(e *contract.Error, owner string) *contract.Error {
	e.Message = fmt.Sprintf("%s is not a GitHub organization or user visible to this credential", owner)
	return e.WithRepair(contract.Repair{NextStep: "check the owner's name: search issues by text to find it", Tool: toolkit.NameSearchIssues,
		Arguments: map[string]any{"query": owner, "state": "all"}})
}

// repoFailure is the error for the one repository named, when it cannot
// be read at all: repo_not_found for a 404, else GitHub's refusal. The
// repair runs tool over every repository of the owner instead (with args
// besides the owner), each row naming its repository.
func repoFailure(err error, owner, repo, tool string, args map[string]any) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeRepoNotFound
	e.Message = fmt.Sprintf("%s/%s does not exist or is not visible to this credential", owner, repo)
	all := map[string]any{"owner": owner}
	for k, v := range args {
		all[k] = v
	}
	return e.WithRepair(contract.Repair{NextStep: "report on every repository of the owner instead: each row names its repository",
		Tool: tool, Arguments: all})
}

func isNotFound(err error) bool { return toolkit.GitHubCode(err) == github.NotFound }
