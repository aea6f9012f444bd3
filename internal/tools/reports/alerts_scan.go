package reports

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// The paths a type's alerts are read by (TypeScopes).
const (
	scopeOrg     = "org"
	scopeRepo    = "repo"
	scopeSkipped = "skipped"
)

// alertsPos is where a truncated security alert report goes on, carried
// in its signed cursor. Per type: the path it took once GitHub answered
// (an organization list refused is not asked again), where its
// organization list stopped, or which repositories' lists are done and
// where those stopped part way are.
type alertsPos struct {
	Scope   map[AlertType]string             `json:"s,omitempty"`
	Org     map[AlertType]pagePos            `json:"o,omitempty"`
	OrgDone []AlertType                      `json:"od,omitempty"`
	Repos   map[AlertType]*resume            `json:"r,omitempty"`
	At      map[AlertType]map[string]pagePos `json:"t,omitempty"`
}

// pagePos is a page of an alert list (its cursor, or its number where
// GitHub pages by number; neither for the first) and how many of its
// alerts an earlier call already took: alert_limit may stop a call part
// way through a page, and the next call reads that page again from there.
type pagePos struct {
	After string `json:"a,omitempty"`
	Page  int    `json:"p,omitempty"`
	Skip  int    `json:"k,omitempty"`
}

// list is one alert list read page by page: an organization's (repo "")
// or one repository's, of one type.
type list struct {
	typ  AlertType
	repo string
}

// alertsScan is one call of github_report_security_alerts.
type alertsScan struct {
	run  *fanout.Run
	c    *github.Client
	in   AlertsIn
	pos  *alertsPos
	base int // lists done before the current phase, for progress

	mu   sync.Mutex
	rows []AlertRow
	// room is how many more rows this call may return (-1: no bound, for
	// summary_only, which returns counts only).
	room     int
	disabled TypeCounts
	answered map[AlertType]bool // organization lists GitHub answered
	refused  map[AlertType]bool // organization lists GitHub refused
	orgDone  map[AlertType]bool
	finished map[list]bool
	stopped  map[list]pagePos
	order    []string // the repositories of the repo path, in name order
	more     bool     // repositories beyond max_repos were left
	fatal    error
}

// report reads the organization lists of the types whose path is not yet
// known or is org, then, for the types the organization refused (or all
// of them when repositories are named), each repository's list.
func (s *alertsScan) report() error {
	s.room = int(s.in.AlertLimit)
	if s.in.SummaryOnly {
		s.room = -1
	}
	s.answered, s.refused, s.orgDone = map[AlertType]bool{}, map[AlertType]bool{}, map[AlertType]bool{}
	s.finished, s.stopped = map[list]bool{}, map[list]pagePos{}
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
	return s.run.Each(len(work), func(ctx context.Context, i int) {
		l := work[i]
		s.read(ctx, l, s.pos.At[l.typ][strings.ToLower(l.repo)])
	})
}

// targets are the repositories named, or every non-archived one of the
// owner, in name order.
func (s *alertsScan) targets() error {
	if len(s.in.Repos) > 0 {
		s.order = s.in.Repos // withDefaults sorted them
		return nil
	}
	repos, err := ownerRepoList(s.run, s.c, s.in.Owner)
	for _, r := range repos {
		s.order = append(s.order, r.GetName())
	}
	return err
}

// read reads one list from the page at, until its last page, the room
// for rows runs out, or the run stops.
func (s *alertsScan) read(ctx context.Context, l list, at pagePos) {
	first := at == pagePos{}
	for {
		var pg alertPage
		err := s.run.Call(ctx, func(ctx context.Context) (github.Meta, error) {
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
		case err != nil:
			// The type is off in this repository, or its alerts are not
			// readable with this credential (a rate limit stopped the run
			// above instead): counted, and done.
			s.disable(l)
			return
		}
		if l.repo == "" && first {
			s.mark(s.answered, l.typ)
		}
		first = false
		if took, full := s.add(pg.rows, at.Skip); full {
			at.Skip += took
			s.stop(l, at)
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
	code := core.GitHubCode(err)
	return code == github.NotFound || code == github.InsufficientScope
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
	o := github.AlertListOptions{State: "open", Severity: severityFilter(l.typ, s.in.MinSeverity),
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

// add keeps a page's rows from skip on that reach min_severity, while
// there is room. It returns how many of the page's rows it went through,
// and full when it stopped for want of room with rows left.
func (s *alertsScan) add(rows []AlertRow, skip int) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	min := s.in.MinSeverity.rank()
	for i := skip; i < len(rows); i++ {
		if rows[i].Severity.rank() < min {
			continue
		}
		if s.room == 0 {
			return i - skip, true
		}
		s.rows = append(s.rows, rows[i])
		if s.room > 0 {
			s.room--
		}
	}
	return 0, false
}

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
	out := AlertsOut{ByRepo: byRepo(s.rows), Disabled: s.disabled, APICalls: s.run.Calls(), ConditionalHits: s.run.ConditionalHits()}
	scopes := map[AlertType]*string{Dependabot: &out.Scope.Dependabot, CodeScanning: &out.Scope.CodeScanning, SecretScanning: &out.Scope.SecretScanning}
	for t, p := range scopes {
		*p = scopeSkipped
		if slices.Contains(s.in.Types, t) {
			*p = s.pos.Scope[t]
		}
	}
	if !s.in.SummaryOnly {
		out.Alerts = s.rows
		sortAlerts(out.Alerts)
	}
	reason := s.run.Stopped()
	if reason == "" && s.more {
		reason = fanout.MaxRepos
	}
	if reason != "" {
		out.Truncated, out.TruncatedReason = true, Stop(reason)
		s.advance()
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
}
