package reports

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// searchPages bounds the owner-wide search: GitHub returns at most 1,000
// results for any query.
const searchPages = 10

// releasePull is one release pull request as the search or listing found
// it; head and base are filled from the pull request itself where the
// search result does not carry them (head is the head commit's SHA,
// headRef its branch). allowed is what is left of the calls shared out
// to it (see report).
type releasePull struct {
	repo, title, url string
	number           int
	head, base       string
	headRef          string
	draft, archived  bool
	allowed          *int
	removed          contract.Removed
}

// setTitle keeps the title as the report shows it: the author's text with
// the hidden characters removed (counted in removed), so that the version
// read from it, the calls it is given (cost) and the row agree.
func (p *releasePull) setTitle(raw string) { p.title, p.removed = contract.SanitizeText(raw) }

func (p releasePull) key() string { return strings.ToLower(fmt.Sprintf("%s#%d", p.repo, p.number)) }

// releaseScan is one call of github_report_release_prs.
type releaseScan struct {
	run  *fanout.Run
	c    *github.Client
	in   ReleaseIn
	conv *releaseConv
	// pages is how many calls the search or listing takes: each call of
	// the report makes them again before any pull request. It starts at
	// their floor (listingFloor), and grows as the first pages say how
	// many there are, so a budget stopped before is still told enough.
	pages int

	mu   sync.Mutex
	done map[string]bool // pull requests finished, by this call or before
	rows []ReleaseRow
	// summary counts the statuses of the pull requests finished, by this
	// call and (from the cursor) the calls before it.
	summary ReleaseSummary
	skipped []SkippedRepo
	scanned ReleaseScanned
	// incomplete: GitHub's search said incomplete_results, so release
	// pull requests may be missing from what it found.
	incomplete bool
	// capped: the search or listing had more pages than it reads (GitHub
	// answers no search past 1,000 results), so the release pull requests
	// past them are not found, by this call or any other.
	capped bool
	// fresh is how many of the release pull requests found were not done
	// before this call.
	fresh int
	// short: a pull request was left for the next call because the
	// budget could not pay for it, or it needed more calls than it was
	// given.
	short bool
	// next is the first pull request left unfinished, for the next call.
	next *releasePull
	// withheld counts the pull requests found in repositories outside
	// the caller's read grant, left out.
	withheld int
}

// report finds the open release pull requests and examines those not yet
// done, one unit of the fan-out each.
//
// A unit finishes only when every call it needs was answered, and the
// units run side by side: started all at once under a small budget, each
// would get a call or two and none would finish, and the next call would
// do the same. So the budget left after the listing is shared out before
// any is spent, each pull request given the calls it takes (cost) and
// spending no more: the first its most (worst), when the budget holds
// it, so that one always finishes; the others wait for the next call. A
// budget that cannot finish one is refused, with the budget that can.
func (s *releaseScan) report() error {
	var pulls []releasePull
	var err error
	s.pages = s.listingFloor()
	if s.in.Repo != "" {
		pulls, err = s.listRepo()
	} else {
		pulls, err = s.search()
	}
	if err != nil {
		return err
	}
	if s.run.Stopped() == fanout.MaxAPICalls {
		// The listing alone takes more than the budget.
		return s.tooFewCalls(s.pages + s.unitCost())
	}
	if s.run.Stopped() != "" {
		return nil
	}
	s.scanned.Found = len(pulls)
	var work []releasePull
	left := int(s.in.MaxAPICalls) - s.run.Calls()
	for _, p := range pulls {
		if s.done[p.key()] {
			continue
		}
		s.fresh++
		give := s.cost(p)
		if len(work) == 0 && s.worst(p) <= left {
			give = s.worst(p)
		}
		if s.short || give > left {
			if !s.short {
				s.short, s.next = true, &p
			}
			continue
		}
		left -= give
		p.allowed = &give
		work = append(work, p)
	}
	if s.short && len(work) == 0 {
		return s.tooFewCalls(s.pages + s.cost(*s.next))
	}
	if err := s.run.Each(len(work), func(ctx context.Context, i int) { s.pull(ctx, work[i]) }); err != nil {
		return err
	}
	for i := range work {
		if !s.done[work[i].key()] {
			if reason := s.run.Stopped(); (reason == "" || reason == fanout.MaxAPICalls) && s.scanned.Pulls+len(s.skipped) == 0 {
				// Not one finished: the first needed more calls than its
				// listings take as a rule (one page each), and more than
				// the budget held.
				return s.tooFewCalls(s.pages + s.worst(work[i]))
			}
			s.next = &work[i]
			break
		}
	}
	if s.short {
		s.run.Stop(fanout.MaxAPICalls)
	}
	return nil
}

// listingFloor is the fewest calls the search or listing takes: a page
// of each search (two with include_archived), or the repository's read
// and a page of its pull requests.
func (s *releaseScan) listingFloor() int {
	if s.in.Repo != "" || s.in.IncludeArchived {
		return 2
	}
	return 1
}

// cost is the calls a pull request takes when each listing is one page,
// as a rule: its head (from the search), for a version each changelog
// path and the README, and with analyze the open listing, and for a
// version the releases and the merged listing. worst is its most, every
// listing at its bound of pages and every changelog file and the README
// over 1 MB (read again).
func (s *releaseScan) cost(p releasePull) int {
	n := 0
	if p.head == "" {
		n++
	}
	version := s.conv.version(p.title) != ""
	if version {
		n += len(s.conv.paths) + 1
	}
	if s.in.Analyze {
		n++
		if version {
			n += 2
		}
	}
	return n
}

func (s *releaseScan) worst(p releasePull) int {
	n := s.cost(p)
	if s.conv.version(p.title) != "" {
		n += len(s.conv.paths) + 1
	}
	if s.in.Analyze {
		n += repoPages - 1
		if s.conv.version(p.title) != "" {
			n += shippedPages - 1
		}
	}
	return n
}

// unitCost is the most calls one pull request can take as a rule, for a
// budget spent before any pull request is known.
func (s *releaseScan) unitCost() int {
	n := len(s.conv.paths) + 1
	if s.in.Repo == "" {
		n++
	}
	if s.in.Analyze {
		n += 3
	}
	return n
}

// call makes one of p's calls, within the calls shared out to it: past
// them p is left for the next call (ErrStopped), and the run goes on.
func (s *releaseScan) call(ctx context.Context, p releasePull, do func(context.Context) (github.Meta, error)) error {
	if *p.allowed <= 0 {
		s.mu.Lock()
		s.short = true
		s.mu.Unlock()
		return fanout.ErrStopped
	}
	*p.allowed--
	return s.run.Call(ctx, do)
}

// tooFewCalls refuses a call whose budget cannot finish the next release
// pull request: the same call again would never finish the report. The
// repair is the same call with the budget that can.
func (s *releaseScan) tooFewCalls(need int) error {
	more := s.in
	more.MaxAPICalls = MaxAPICalls(need)
	msg := fmt.Sprintf("max_api_calls %d is too few to finish the next release pull request: with the listing that finds it, it takes %d", s.in.MaxAPICalls, need)
	return contract.Errorf(contract.CodeInvalidField, "%s", msg).WithField("max_api_calls", msg).
		WithRepair(contract.Repair{NextStep: "call again with enough calls for one pull request", Tool: toolkit.NameReportReleasePRs, Arguments: more})
}

// stopped reports whether err means the run stopped (a bound, a rate
// limit, cancellation): the unit returns unfinished, for the next call.
func (s *releaseScan) stopped(err error) bool { return isStopped(s.run, err) }

// search finds the owner's open release pull requests with one search
// (a page per 100) rather than a listing of every repository. org: and
// user: are one qualifier to GitHub's search (either names a user or an
// organization: cli/cli#5693), so one query serves both kinds of owner.
// archived:false leaves out archived repositories, as the other reports
// do unless include_archived; then a second search, archived:true, finds
// theirs, so each row says whether its repository is archived (a search
// result does not). The search spends GitHub's search budget (30 a
// minute), not the core one the rest of the report does, so its own
// floor is watched.
func (s *releaseScan) search() ([]releasePull, error) {
	var out []releasePull
	for _, archived := range []bool{false, true} {
		if archived && !s.in.IncludeArchived {
			break
		}
		found, err := s.searchArchived(archived)
		if err != nil || found == nil && s.run.Stopped() != "" {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// searchArchived finds the open release pull requests of the owner's
// repositories that are archived, or those that are not, page by page;
// nil when the run stopped.
func (s *releaseScan) searchArchived(archived bool) ([]releasePull, error) {
	out := []releasePull{}
	// The label is quoted as GitHub's syntax quotes (the settings refuse
	// a label holding a quote), so a name with spaces is one.
	q := fmt.Sprintf("is:pr is:open archived:%t label:\"%s\" org:%s", archived, s.conv.label, s.in.Owner)
	for page := 1; ; page++ {
		var res *gh.IssuesSearchResult
		var m github.Meta
		err := s.run.CallOn(s.run.Context(), "search", func(ctx context.Context) (github.Meta, error) {
			var err error
			res, m, err = s.c.SearchIssues(ctx, q, github.SearchOptions{Sort: "created", Order: "asc", Page: page, PerPage: perPage})
			return m, err
		})
		if s.stopped(err) {
			return nil, nil
		}
		if toolkit.GitHubCode(err) == github.ValidationFailed {
			// GitHub's search says the owner "cannot be searched": there is
			// no such account, or this credential cannot see it.
			return nil, ownerNotFound(contract.Errorf(contract.CodeNotFound, "owner not found"), s.in.Owner)
		}
		if err != nil {
			return nil, ownerFailure(err, s.in.Owner)
		}
		if page == 1 {
			s.pages += max(1, min(m.LastPage, searchPages)) - 1 // its first page is in the floor
		}
		s.incomplete = s.incomplete || res.GetIncompleteResults()
		for _, is := range res.Issues {
			p := releasePull{repo: path.Base(is.GetRepositoryURL()), number: is.GetNumber(), url: is.GetHTMLURL(), archived: archived}
			caller.ReachFrom(s.run.Context()).Read(s.in.Owner, p.repo)
			if !readable(s.run.Context(), s.in.Owner, p.repo) {
				s.withheld++
				continue
			}
			p.setTitle(is.GetTitle())
			out = append(out, p)
		}
		if m.NextPage == 0 || page == searchPages {
			s.capped = s.capped || m.NextPage != 0
			return out, nil
		}
	}
}

// listRepo lists the one repository's open pull requests and keeps those
// with the release label: the listing carries head and base, so no pull
// request is read again, and a repository that is not there is a 404
// (repo_not_found) rather than a search's refusal. The repository is
// read first, for whether it is archived: a report on an archived one
// says so.
func (s *releaseScan) listRepo() ([]releasePull, error) {
	var out []releasePull
	archived, stopped, err := repoArchived(s.run, s.c, s.in.Owner, s.in.Repo)
	if stopped || err != nil {
		return nil, repoFailure(err, s.in.Owner, s.in.Repo, toolkit.NameReportReleasePRs, nil)
	}
	s.scanned.Archived = archived
	for page := 1; ; page++ {
		var list []*gh.PullRequest
		var m github.Meta
		err := s.run.Call(s.run.Context(), func(ctx context.Context) (github.Meta, error) {
			var err error
			list, m, err = s.c.ListPullsBy(ctx, s.in.Owner, s.in.Repo, github.PullsQuery{State: "open", Page: toolkit.PageParam(page), PerPage: perPage})
			return m, err
		})
		if s.stopped(err) {
			return nil, nil
		}
		if err != nil {
			return nil, repoFailure(err, s.in.Owner, s.in.Repo, toolkit.NameReportReleasePRs, nil)
		}
		caller.ReachFrom(s.run.Context()).Read(s.in.Owner, s.in.Repo)
		if page == 1 {
			s.pages += max(1, min(m.LastPage, repoPages)) - 1 // its first page is in the floor
		}
		for _, p := range list {
			if hasLabel(p.Labels, s.conv.label) {
				r := releasePull{repo: s.in.Repo, number: p.GetNumber(), url: p.GetHTMLURL(),
					head: p.GetHead().GetSHA(), headRef: p.GetHead().GetRef(), base: p.GetBase().GetRef(), draft: p.GetDraft(), archived: archived}
				r.setTitle(p.GetTitle())
				out = append(out, r)
			}
		}
		if m.NextPage == 0 || page == repoPages {
			s.capped = m.NextPage != 0
			return out, nil
		}
	}
}

func hasLabel(labels []*gh.Label, name string) bool {
	return slices.ContainsFunc(labels, func(l *gh.Label) bool { return strings.EqualFold(l.GetName(), name) })
}

// pull examines one release pull request: its head, its version, its
// changelog and README at the head commit and, with analyze, what is
// open against its base and what shipped since the last release. It adds
// the row only once every call it needs was answered, so a unit the run
// stopped is done again, whole, by the next call.
func (s *releaseScan) pull(ctx context.Context, p releasePull) {
	if p.head == "" {
		var pr *gh.PullRequest
		err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
			r, m, err := s.c.GetPull(ctx, s.in.Owner, p.repo, p.number)
			pr = r
			return m, err
		})
		if s.stopped(err) {
			return
		}
		if err != nil {
			s.skip(p, err)
			return
		}
		p.head, p.base = pr.GetHead().GetSHA(), pr.GetBase().GetRef()
		p.headRef, p.draft = pr.GetHead().GetRef(), pr.GetDraft()
		p.setTitle(pr.GetTitle())
	}
	row := ReleaseRow{Repo: p.repo, Number: p.number, Title: p.title, URL: p.url, HeadSHA: p.head, Draft: p.draft,
		Status: StatusUnknownVersion, Archived: p.archived}
	row.removed(p.removed)
	var rm contract.Removed
	row.Head, rm = contract.SanitizeText(p.headRef)
	row.removed(rm)
	row.Base, rm = contract.SanitizeText(p.base)
	row.removed(rm)
	row.Version = s.conv.version(p.title)
	var log changelog
	var doc readmeDoc
	if row.Version != "" {
		var err error
		if log, err = s.changelog(ctx, p, row.Version); s.stopped(err) {
			return
		} else if err != nil {
			s.skip(p, err)
			return
		}
		row.Status, row.ChangelogPath, row.CheckedPaths = StatusNeedsChangelog, log.path, log.checked
		if log.path != "" {
			row.Status = StatusReady
		}
		if doc, err = s.readme(ctx, p); s.stopped(err) {
			return
		} else if err != nil {
			s.skip(p, err)
			return
		}
		if doc.found {
			mentions := doc.mentions(row.Version)
			row.ReadmeMentionsVersion = &mentions
		}
		row.ReadmeNote = doc.note
	}
	if s.in.Analyze {
		if err := s.analyze(ctx, p, &row, log, doc); s.stopped(err) {
			return
		} else if err != nil {
			s.skip(p, err)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[p.key()] = true
	s.scanned.Pulls++
	s.summary.add(row.Status)
	if !s.in.OnlyMissing || row.Status == StatusNeedsChangelog {
		s.rows = append(s.rows, row)
	}
}

// changelog is what was found of the entry: where, and its text; checked
// are the paths read, in order.
type changelog struct {
	path, entry string
	checked     []string
}

// changelog looks the version's entry up at the head commit, path by
// path in the operator's order: a 404 is "not there", the next path is
// tried; a running changelog counts only when it names the version.
func (s *releaseScan) changelog(ctx context.Context, p releasePull, version string) (changelog, error) {
	var checked []string
	for _, cand := range s.conv.candidates(version) {
		checked = append(checked, cand.path)
		var f github.ContentEntry
		err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
			e, m, err := s.c.GetFileAt(ctx, s.in.Owner, p.repo, cand.path, p.head)
			f = e
			return m, err
		})
		if toolkit.GitHubCode(err) == github.NotFound && !s.stopped(err) {
			continue
		}
		if err != nil {
			return changelog{}, err
		}
		if f.Type != "file" {
			continue
		}
		text := string(f.Decoded())
		if f.Encoding == "none" {
			// Over 1 MB the contents API leaves the content out: it is
			// read through the raw media type.
			err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
				b, m, err := s.c.GetRawFileAt(ctx, s.in.Owner, p.repo, cand.path, p.head)
				text = string(b)
				return m, err
			})
			if err != nil {
				return changelog{}, err
			}
		}
		if cand.mustName && !names(text, version) {
			continue
		}
		return changelog{path: cand.path, entry: entry(text, version, cand.mustName), checked: checked}, nil
	}
	return changelog{checked: checked}, nil
}

// skip records a pull request that could not be read (its repository
// gone from view, or not permitted): done, with the reason's code.
func (s *releaseScan) skip(p releasePull, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped = append(s.skipped, SkippedRepo{Repo: fmt.Sprintf("%s#%d", p.repo, p.number), Reason: skipCode(err)})
	s.done[p.key()] = true
}

// result assembles the report, rows in repository then number order.
func (s *releaseScan) result() ReleaseOut {
	out := ReleaseOut{Rows: s.rows, Scanned: s.scanned, Summary: s.summary, Skipped: s.skipped, APICalls: s.run.Calls(), ConditionalHits: s.run.ConditionalHits(),
		Withheld: s.withheld}
	out.Scanned.IncludeArchived = s.in.IncludeArchived
	out.Rows = ordered(out.Rows, func(r ReleaseRow) (string, int) { return r.Repo, r.Number })
	slices.SortFunc(out.Skipped, func(a, b SkippedRepo) int { return strings.Compare(a.Repo, b.Repo) })
	reason := s.run.Stopped()
	if reason == "" && s.incomplete {
		reason = fanout.IncompleteSearch
	}
	if reason == "" && s.capped {
		reason = fanout.MaxItems
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, ReleaseStop(reason)
	}
	return out
}

// resumable reports whether the next call can report what this one did
// not: it stopped at a bound, or GitHub's search was incomplete and found
// pull requests not done before (a search run again may find others). A
// search incomplete again with nothing new, or a listing at its pages'
// bound, would find the same pull requests again, done: a next_call
// would repeat this one for ever.
func (s *releaseScan) resumable() bool {
	return s.run.Stopped() != "" || s.incomplete && s.fresh > 0
}

// notes say why a truncated report that cannot resume stopped.
func (s *releaseScan) notes() []string {
	var out []string
	if s.incomplete {
		out = append(out, "GitHub's search answered incomplete_results (it ran out of time) and found no release pull request not already reported: some may be missing, and calling again now finds nothing new; try again later without cursor")
	}
	if s.capped {
		note := "GitHub's search answers at most 1,000 results: release pull requests past them are not reported; name one repository (repo) to list its own"
		if s.in.Repo != "" {
			note = fmt.Sprintf("the listing reads at most %d open pull requests: release pull requests past them are not reported", repoPages*perPage)
		}
		out = append(out, note)
	}
	return out
}
