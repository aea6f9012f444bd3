package reports

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
)

// The repository lists GitHub did not answer, apart from the refusals
// that count a type as disabled: a failure (retried once by next_call,
// then given up, named in failed either way), and a named repository
// that does not exist.

// repoCheck is one GET /repos of a named repository, made once however
// many lists it has: it says whether the repository is archived and,
// when one of its lists answered 404, whether it is there at all.
type repoCheck struct {
	once     sync.Once
	err      error
	archived bool
}

// check looks a named repository up, once, and records whether it is
// archived (for its rows, and scanned.archived).
func (s *alertsScan) check(ctx context.Context, repo string) *repoCheck {
	key := strings.ToLower(repo)
	s.mu.Lock()
	ck := s.checks[key]
	if ck == nil {
		ck = &repoCheck{}
		s.checks[key] = ck
	}
	s.mu.Unlock()
	ck.once.Do(func() {
		ck.err = s.run.Call(ctx, func(ctx context.Context) (github.Meta, error) {
			r, m, err := s.c.GetRepo(ctx, s.in.Owner, repo)
			ck.archived = r.GetArchived()
			return m, err
		})
		if ck.err == nil && ck.archived {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.archived[key] = true
			s.scanned.Archived = true
		}
	})
	return ck
}

// absent decides a 404 on a named repository's list and reports whether
// it dealt with the list. GitHub also answers 404 where code or secret
// scanning is off, so a 404 alone cannot say the repository is missing:
// the repository's lookup (check, made once before its lists, for
// whether it is archived) says whether it is there. A
// repository that is not there is not counted as disabled: when it is the
// one repo named the call fails with repo_not_found (report), and one of
// repos is listed in failed without a type, and done.
func (s *alertsScan) absent(ctx context.Context, l list, at pagePos, err error) bool {
	if len(s.in.Repos) == 0 || !isNotFound(err) {
		return false
	}
	key := strings.ToLower(l.repo)
	ck := s.check(ctx, l.repo)
	switch {
	case ck.err == nil:
		return false
	case isNotFound(ck.err):
		s.mu.Lock()
		defer s.mu.Unlock()
		s.finished[l] = true
		if s.missing[key] == nil {
			s.missing[key] = ck.err
			s.failed = append(s.failed, FailedList{Repo: l.repo, Reason: string(contract.CodeRepoNotFound)})
		}
	case errors.Is(ck.err, fanout.ErrStopped), s.run.Stopped() != "":
		s.stop(l, at)
	default:
		s.fail(l, at, ck.err)
	}
	return true
}

// fail records a list GitHub did not answer, in failed. The first time,
// the list is left where it stopped, for next_call to read again (the
// report is truncated); when it failed in the previous call too, it is
// given up, so a list that always fails cannot keep the report from
// finishing.
func (s *alertsScan) fail(l list, at pagePos, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = append(s.failed, FailedList{Repo: l.repo, Type: l.typ, Reason: skipCode(err)})
	if slices.Contains(s.pos.Failed[l.typ], strings.ToLower(l.repo)) {
		s.finished[l] = true
		return
	}
	s.stopped[l] = at
	s.retry = append(s.retry, l)
}

// failedLists are the failed lists in repository then type order.
func (s *alertsScan) failedLists() []FailedList {
	out := slices.Clone(s.failed)
	slices.SortFunc(out, func(a, b FailedList) int { return cmp.Or(byName(a.Repo, b.Repo), cmp.Compare(a.Type, b.Type)) })
	return out
}
