package reports

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// The paths a type's alerts are read by ([TypeScopes]).
const (
	scopeOrg     = "org"
	scopeRepo    = "repo"
	scopeSkipped = "skipped"
	// scopePending: the call stopped (on the owner's listing, or before
	// the organization answered) before the type's path was known.
	scopePending = "pending"
)

// alertsPos is where a truncated security alert report goes on, carried
// in its signed cursor. Per type: the path it took once GitHub answered
// (an organization list refused is not asked again), where its
// organization list stopped, or which repositories' lists are done and
// where those stopped part way are; and the repositories' lists that
// failed in the last call (Failed), which one more failure gives up.
type alertsPos struct {
	Scope   map[AlertType]string             `json:"s,omitempty"`
	Org     map[AlertType]pagePos            `json:"o,omitempty"`
	OrgDone []AlertType                      `json:"od,omitempty"`
	Repos   map[AlertType]*resume            `json:"r,omitempty"`
	At      map[AlertType]map[string]pagePos `json:"t,omitempty"`
	Failed  map[AlertType][]string           `json:"f,omitempty"`
	// Tiers are the repositories classify is done with.
	Tiers *resume `json:"c,omitempty"`
	// Counts are the alerts of the run's earlier calls, by type and
	// severity, so each call's counts cover the whole run so far.
	Counts *AlertCounts `json:"n,omitempty"`
}

// pagePos is a page of an alert list (its cursor, or its number where
// GitHub pages by number; neither for the first) and the last alert an
// earlier call took from it (Last, "repo#number", created at Created):
// alert_limit may stop a call part way through a page, and the next call
// reads that page again from after that alert. Naming the alert rather
// than counting rows keeps an alert closed in between from shifting the
// page under the count and losing the row after it.
type pagePos struct {
	After   string `json:"a,omitempty"`
	Page    int    `json:"p,omitempty"`
	Last    string `json:"l,omitempty"`
	Created string `json:"c,omitempty"`
}

// list is one alert list read page by page: an organization's (repo "")
// or one repository's, of one type.
type list struct {
	typ  AlertType
	repo string
}

// alertsScan is one call of github_report_security_alerts.
type alertsScan struct {
	run   *fanout.Run
	c     *github.Client
	in    AlertsIn
	pos   *alertsPos
	base  int // lists done before the current phase, for progress
	units int // units of the repositories' phase, for classify's progress

	mu   sync.Mutex
	rows []AlertRow
	// room is how many more rows this call may return (-1: no bound, for
	// summary_only, which returns counts only).
	room     int
	disabled TypeCounts
	answered map[AlertType]bool // organization lists GitHub answered
	refused  map[AlertType]bool // organization lists GitHub refused
	finished map[list]bool
	stopped  map[list]pagePos
	order    []string // the repositories of the repo path, in name order
	more     bool     // repositories beyond max_repos were left
	fatal    error
	// withheld counts the repositories and organization list rows left
	// out as outside the caller's read grant.
	withheld int
	// listing is the owner's repositories, read first when none are
	// named; archived says which are archived (lower-case names), for
	// the organization lists' rows, which do not say; scanned is the
	// coverage this call reports.
	listing  []*github.OwnerRepo
	archived map[string]bool
	scanned  AlertsScanned
	covered  int // listed repositories the organization's lists answer for
	// listCalls counts the alert list calls the budget let through: none,
	// with the budget spent, is a call that read no list (the listing or
	// the lookups took it all), whose next_call would do the same.
	listCalls int

	// one is the repository named by repo, whose absence fails the call.
	one string
	// failed are the lists GitHub did not answer (alerts_fail.go);
	// retry those this call leaves for the next (truncated), missing the
	// named repositories that do not exist, and checks the GET /repos
	// that told them apart from a type turned off.
	failed  []FailedList
	retry   []list
	missing map[string]error
	checks  map[string]*repoCheck

	// tierOrder are the repositories classify covers, tiered the rows
	// this call classified, tierMore whether max_repos left some.
	tierOrder []string
	tiered    []RepoTier
	tierMore  bool
}

// report reads the owner's repositories (when none are named: which are
// archived is known from nowhere else), then the organization lists of
// the types whose path is not yet known or is org, then, for the types
// the organization refused (or all of them when repositories are named),
// each repository's list.
func (s *alertsScan) report() error {
	s.room = int(s.in.AlertLimit)
	if s.in.SummaryOnly {
		s.room = -1
	}
	s.answered, s.refused = map[AlertType]bool{}, map[AlertType]bool{}
	s.finished, s.stopped = map[list]bool{}, map[list]pagePos{}
	s.missing, s.checks = map[string]error{}, map[string]*repoCheck{}
	s.archived = map[string]bool{}
	s.scanned.IncludeArchived = s.in.IncludeArchived
	defer s.scanned.done()
	if len(s.in.Repos) == 0 {
		if err := s.list(); err != nil || s.run.Stopped() != "" {
			return err
		}
	}
	if s.pos.Scope == nil {
		s.pos.Scope = map[AlertType]string{}
	}
	var orgs []list
	for _, t := range s.in.Types {
		if s.pos.Scope[t] == "" && len(s.in.Repos) > 0 {
			s.pos.Scope[t] = scopeRepo // named repositories: their own lists
		}
		if s.pos.Scope[t] != scopeRepo && !slices.Contains(s.pos.OrgDone, t) {
			orgs = append(orgs, list{typ: t})
		}
	}
	err := s.run.Each(len(orgs), func(ctx context.Context, i int) { s.read(ctx, orgs[i], s.pos.Org[orgs[i].typ]) })
	if err != nil || s.fatal != nil {
		return errors.Join(err, s.fatal)
	}
	s.base = len(orgs)
	var types []AlertType
	for _, t := range s.in.Types {
		switch {
		case s.refused[t]:
			s.pos.Scope[t] = scopeRepo
		case s.answered[t]:
			s.pos.Scope[t] = scopeOrg
		}
		if s.pos.Scope[t] == scopeRepo {
			types = append(types, t)
		}
	}
	if len(types) == 0 || s.run.Stopped() != "" {
		return nil
	}
	if err := s.targets(); err != nil || s.run.Stopped() != "" {
		return err
	}
	var work []list
	repos := 0
	for _, name := range s.order {
		var pending []list
		for _, t := range types {
			if !s.pos.repos(t).done(name) {
				pending = append(pending, list{typ: t, repo: name})
			}
		}
		if len(pending) == 0 {
			continue
		}
		if repos == int(s.in.MaxRepos) {
			s.more = true
			break
		}
		repos++
		work = append(work, pending...)
	}
	s.scanned.Repos = max(s.scanned.Repos, repos)
	s.units = len(work)
	err = s.run.Each(len(work), func(ctx context.Context, i int) {
		l := work[i]
		s.read(ctx, l, s.pos.At[l.typ][strings.ToLower(l.repo)])
	})
	if gone := s.missing[strings.ToLower(s.one)]; err == nil && s.one != "" && gone != nil {
		return repoFailure(gone, s.in.Owner, s.one, toolkit.NameReportSecurityAlerts, nil)
	}
	return err
}

// list reads the owner's repositories, names the archived ones it leaves
// out (those outside the caller's read grant are not the caller's to
// learn of), and counts those the organization's lists answer for.
func (s *alertsScan) list() error {
	repos, err := ownerRepoList(s.run, s.c, s.in.Owner)
	if err != nil {
		return err
	}
	s.listing = repos
	for _, r := range repos {
		s.archived[strings.ToLower(r.GetName())] = r.GetArchived()
		switch ok := readable(s.run.Context(), s.in.Owner, r.GetName()); {
		case r.GetArchived() && !s.in.IncludeArchived:
			if ok {
				s.scanned.skipArchived(r.GetName())
			}
		case ok:
			s.covered++
		}
	}
	return nil
}

// targets are the repositories named, or every one of the owner's (the
// archived ones with include_archived), in name order.
func (s *alertsScan) targets() error {
	if len(s.in.Repos) > 0 {
		s.order = s.in.Repos // withDefaults sorted them
		return nil
	}
	for _, r := range s.listing {
		switch {
		case r.GetArchived() && !s.in.IncludeArchived:
		case !readable(s.run.Context(), s.in.Owner, r.GetName()):
			s.withheld++
		default:
			s.order = append(s.order, r.GetName())
		}
	}
	return nil
}

// read reads one list from the page at, until its last page, the room
// for rows runs out, or the run stops.
func (s *alertsScan) read(ctx context.Context, l list, at pagePos) {
	first := at == pagePos{}
	reach := caller.ReachFrom(ctx)
	reach.Named(s.in.Owner, l.repo)
	if l.repo != "" && len(s.in.Repos) > 0 {
		// A named repository is looked up once (GET /repos), before its
		// lists' rows, for whether it is archived.
		if ck := s.check(ctx, l.repo); isStopped(s.run, ck.err) {
			s.stop(l, at)
			return
		}
	}
	for {
		var pg alertPage
		err := s.run.Call(ctx, func(ctx context.Context) (github.Meta, error) {
			s.mu.Lock()
			s.listCalls++
			s.mu.Unlock()
			var err error
			pg, err = s.fetch(ctx, l, at)
			return pg.meta, err
		})
		switch {
		case errors.Is(err, fanout.ErrStopped), err != nil && s.run.Stopped() != "":
			s.stop(l, at)
			return
		case err != nil && l.repo == "" && first && refusal(err):
			// Not an organization, or not one whose alerts this
			// credential may list: each repository's list instead.
			s.mark(s.refused, l.typ)
			return
		case err != nil && l.repo == "":
			// GitHub answered the organization's list before: a failure
			// now is not a refusal, and the call fails with it.
			s.mu.Lock()
			if s.fatal == nil {
				s.fatal = err
			}
			s.mu.Unlock()
			return
		case err != nil && refusal(err):
			// The type is off in this repository, or its alerts are not
			// readable with this credential (a rate limit stopped the run
			// above instead): counted, and done. Unless the repository
			// itself is missing: a named one is checked (absent).
			if !s.absent(ctx, l, at, err) {
				s.disable(l)
			}
			return
		case err != nil:
			// Anything else (a 5xx after the retries, a 401, a 422, the
			// network) says nothing about the type: the list is failed,
			// not disabled, and retried by next_call.
			s.fail(l, at, err)
			return
		}
		if l.repo == "" && first {
			s.mark(s.answered, l.typ)
		}
		reach.Read(s.in.Owner, l.repo)
		for _, r := range pg.rows {
			reach.Read(s.in.Owner, r.Repo) // an organization list's rows name theirs
		}
		pg.rows = s.archivedRows(l, s.readableRows(ctx, pg.rows))
		first = false
		if next, full := s.add(pg.rows, at); full {
			s.stop(l, next)
			s.run.Stop(fanout.MaxResults)
			return
		}
		if pg.after == "" && pg.next == 0 {
			s.finish(l)
			return
		}
		at = pagePos{After: pg.after, Page: pg.next}
	}
}

// refusal is a 404 or a 403 that is not a rate limit (internal/github
// classifies those as rate_limited): a user owner, a feature turned off,
// or a credential that may not read the list.
func refusal(err error) bool {
	return isNotFound(err) || toolkit.GitHubCode(err) == github.InsufficientScope
}

// alertPage is one page of a list, as rows, one per alert GitHub sent.
type alertPage struct {
	rows  []AlertRow
	after string
	next  int
	meta  github.Meta
}

func pageOf[T any](p github.AlertPage[T], l list, row func(T, string) AlertRow, repoOf func(T) *github.AlertRepo) alertPage {
	out := alertPage{after: p.After, next: p.Next, meta: p.Meta}
	for _, a := range p.Alerts {
		repo := l.repo
		if r := repoOf(a); repo == "" && r != nil {
			repo = r.Name
		}
		out.rows = append(out.rows, row(a, repo))
	}
	return out
}

func (s *alertsScan) fetch(ctx context.Context, l list, at pagePos) (alertPage, error) {
	o := github.AlertListOptions{State: "open", Severity: severityFilter(l, s.in.MinSeverity),
		After: at.After, Page: at.Page, PerPage: perPage}
	switch l.typ {
	case Dependabot:
		p, err := s.c.ListDependabotAlerts(ctx, s.in.Owner, l.repo, o)
		return pageOf(p, l, dependabotRow, func(a github.DependabotAlert) *github.AlertRepo { return a.Repository }), err
	case CodeScanning:
		p, err := s.c.ListCodeScanningAlerts(ctx, s.in.Owner, l.repo, o)
		return pageOf(p, l, codeScanningRow, func(a github.CodeScanningAlert) *github.AlertRepo { return a.Repository }), err
	}
	p, err := s.c.ListSecretAlerts(ctx, s.in.Owner, l.repo, o)
	return pageOf(p, l, secretRow, func(a github.SecretAlert) *github.AlertRepo { return a.Repository }), err
}

// archivedRows marks the rows of archived repositories, and leaves out
// those an organization's list holds of archived repositories not asked
// for (include_archived); a repository named is reported archived or not.
func (s *alertsScan) archivedRows(l list, rows []AlertRow) []AlertRow {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := rows[:0:0]
	for _, r := range rows {
		r.Archived = s.archived[strings.ToLower(r.Repo)]
		if r.Archived && l.repo == "" && !s.in.IncludeArchived {
			continue // counted in scanned.archived_skipped
		}
		kept = append(kept, r)
	}
	return kept
}

// readableRows leaves out the rows of repositories outside the caller's
// read grant, counting them: an organization's list holds every
// repository's alerts.
func (s *alertsScan) readableRows(ctx context.Context, rows []AlertRow) []AlertRow {
	kept := rows[:0:0]
	for _, r := range rows {
		if readable(ctx, s.in.Owner, r.Repo) {
			kept = append(kept, r)
			continue
		}
		s.mu.Lock()
		s.withheld++
		s.mu.Unlock()
	}
	return kept
}

// add keeps the rows of the page at that reach min_severity and that no
// earlier call took, while there is room. It returns full when it stopped
// for want of room with rows left, and at moved to the last row it kept.
func (s *alertsScan) add(rows []AlertRow, at pagePos) (pagePos, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	min := s.in.MinSeverity.rank()
	for _, r := range rows[at.from(rows):] {
		if r.Severity.rank() < min {
			continue
		}
		if s.room == 0 {
			return at, true
		}
		s.rows = append(s.rows, r)
		if s.room > 0 {
			s.room--
		}
		at.Last, at.Created = rowKey(r), r.CreatedAt
	}
	return at, false
}

// from is the index of the first row of a page after the last one an
// earlier call took: found by its key, or, when it was closed since and
// is gone from the page, the first row created after it (the lists are
// read oldest first).
func (p pagePos) from(rows []AlertRow) int {
	if p.Last == "" {
		return 0
	}
	if i := slices.IndexFunc(rows, func(r AlertRow) bool { return rowKey(r) == p.Last }); i >= 0 {
		return i + 1
	}
	i := 0
	for i < len(rows) && rows[i].CreatedAt <= p.Created {
		i++
	}
	return i
}

func rowKey(r AlertRow) string { return r.Repo + "#" + strconv.Itoa(r.Number) }

func (s *alertsScan) mark(m map[AlertType]bool, t AlertType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m[t] = true
}

func (s *alertsScan) stop(l list, at pagePos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped[l] = at
}

func (s *alertsScan) finish(l list) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished[l] = true
}

func (s *alertsScan) disable(l list) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished[l] = true
	switch l.typ {
	case Dependabot:
		s.disabled.Dependabot++
	case CodeScanning:
		s.disabled.CodeScanning++
	case SecretScanning:
		s.disabled.SecretScanning++
	}
}

// repos is the done set of type t's repository lists.
func (p *alertsPos) repos(t AlertType) *resume {
	if r := p.Repos[t]; r != nil {
		return r
	}
	return &resume{}
}

// result assembles the report and, when a bound stopped it, moves the
// resume position past what was done.
func (s *alertsScan) result() AlertsOut {
	if len(s.answered) > 0 {
		// An organization's list answered: it covers the repositories
		// of the listing.
		s.scanned.Repos = max(s.scanned.Repos, s.covered)
	}
	out := AlertsOut{ByRepo: byRepo(s.rows), Scanned: s.scanned, Disabled: s.disabled, Failed: s.failedLists(),
		APICalls: s.run.Calls(), ConditionalHits: s.run.ConditionalHits(), Withheld: s.withheld}
	scopes := map[AlertType]*string{Dependabot: &out.Scope.Dependabot, CodeScanning: &out.Scope.CodeScanning, SecretScanning: &out.Scope.SecretScanning}
	for t, p := range scopes {
		*p = scopeSkipped
		if slices.Contains(s.in.Types, t) {
			*p = cmp.Or(s.pos.Scope[t], scopePending)
		}
	}
	out.Counts = countAlerts(s.rows, s.in.Types)
	out.Counts.add(s.pos.Counts)
	if s.in.SummaryOnly {
		n := len(s.rows)
		out.AlertsOmitted = &n
	} else {
		out.Alerts = s.rows
		sortAlerts(out.Alerts)
	}
	reason := s.run.Stopped()
	if reason == "" && (s.more || s.tierMore) {
		reason = fanout.MaxRepos
	}
	out.Tiers = s.tiered
	slices.SortFunc(out.Tiers, func(a, b RepoTier) int { return byName(a.Repo, b.Repo) })
	// Lists left to retry truncate the report though no bound stopped it;
	// failed says which.
	if reason == "" && len(s.retry) > 0 {
		reason = fanout.UpstreamError
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, Stop(reason)
		s.advance()
		s.pos.Counts = &out.Counts
	}
	return out
}

// advance records this call's outcome in the resume position. A list
// this call did not start keeps the position it had.
func (s *alertsScan) advance() {
	p := s.pos
	if p.Org == nil {
		p.Org = map[AlertType]pagePos{}
	}
	if p.Repos == nil {
		p.Repos = map[AlertType]*resume{}
	}
	if p.At == nil {
		p.At = map[AlertType]map[string]pagePos{}
	}
	for _, t := range s.in.Types {
		org := list{typ: t}
		switch at, stopped := s.stopped[org]; {
		case s.finished[org]:
			p.OrgDone = append(p.OrgDone, t)
			delete(p.Org, t)
		case stopped:
			p.Org[t] = at
		case s.refused[t]:
			delete(p.Org, t)
		}
		if p.Scope[t] != scopeRepo {
			continue
		}
		finished, pages := map[string]bool{}, map[string]pagePos{}
		for name, at := range p.At[t] {
			pages[name] = at
		}
		for _, name := range s.order {
			l, key := list{typ: t, repo: name}, strings.ToLower(name)
			if s.finished[l] {
				finished[name] = true
				delete(pages, key)
			} else if at, ok := s.stopped[l]; ok {
				pages[key] = at
			}
		}
		r := p.repos(t)
		r.advance(s.order, finished, nil, true) // the order is whole: ownerRepoList lists every page or none
		p.Repos[t], p.At[t] = r, pages
		if len(pages) == 0 {
			delete(p.At, t)
		}
	}
	s.advanceTiers()
	p.Failed = nil
	for _, l := range s.retry {
		if p.Failed == nil {
			p.Failed = map[AlertType][]string{}
		}
		p.Failed[l.typ] = append(p.Failed[l.typ], strings.ToLower(l.repo))
	}
}
