package reports

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// repoPages bounds the owner's repository listing: 1,000 repositories.
const repoPages = 10

// errPageLost is a listing page whose read ended without an answer.
var errPageLost = errors.New("reports: a page of the owner's repositories was not read")

// listPage is one page of an owner's repository listing.
type listPage func(ctx context.Context, owner string, o gh.ListOptions) ([]*github.OwnerRepo, github.Meta, error)

// pageResult is what the read of one listing page brought.
type pageResult struct {
	repos []*github.OwnerRepo
	next  int // the page after it, 0 at the last
	err   error
}

// ownerRepos lists an owner's repositories (an organization's, else a
// user's public ones) in name order and hands each page to take, in page
// order, on the caller's goroutine, as soon as it and the pages before it
// have arrived. The first page says how many there are (its Link header),
// so the others are read side by side in the group's slots, ahead of the
// work take starts, with their calls set aside from the budget first: a
// report over 200 repositories starts on the first 100 while the second
// page is read, instead of reading every page first. (Without a last page
// in the Link header the pages are read one after another.)
//
// whole says every page was taken, up to repoPages: when it is false the
// repositories of the pages not taken are unknown, and a report must not
// take its position among names it has not seen as done. It returns the
// owner's failure when the listing was refused.
func ownerRepos(run *fanout.Run, g *fanout.Group, c *github.Client, owner string, take func([]*github.OwnerRepo)) (whole bool, err error) {
	first, meta, list, err := firstPage(run, c, owner)
	if err != nil || first == nil && run.Stopped() != "" {
		return false, err
	}
	last := min(max(meta.LastPage, 1), repoPages)
	ctx := run.Context()
	if run.Prepay(last - 1) {
		ctx = fanout.Prepaid(ctx)
	}
	read := func(page int) chan pageResult {
		ch := make(chan pageResult, 1)
		if !g.Aside(func(context.Context) {
			// The page's answer is sent even if the read panics (the group
			// turns the panic into the run's error), so take never waits
			// for a page that will not come.
			got := pageResult{err: errPageLost}
			defer func() { ch <- got }()
			got = readPage(ctx, run, list, owner, page)
		}) {
			return nil
		}
		return ch
	}
	var rest []chan pageResult
	for page := 2; page <= last; page++ {
		ch := read(page)
		if ch == nil {
			break
		}
		rest = append(rest, ch)
	}
	take(first)
	next := meta.NextPage
	for i := 0; next != 0; i++ {
		var ch chan pageResult
		switch {
		case next > repoPages:
			return true, nil // the first repoPages pages are the listing
		case i < len(rest):
			ch = rest[i]
		case len(rest) < last-1:
			return false, nil // a page was not started: the run stopped
		default:
			if ch = read(next); ch == nil {
				return false, nil
			}
		}
		got := <-ch
		switch {
		case errors.Is(got.err, fanout.ErrStopped), got.err != nil && run.Stopped() != "":
			return false, nil
		case got.err != nil:
			return false, ownerFailure(got.err, owner)
		}
		take(got.repos)
		next = got.next
	}
	return true, nil
}

// firstPage reads the first page as an organization's, falling back to a
// user's when the owner is not an organization, and says how many pages
// there are and which listing answered.
func firstPage(run *fanout.Run, c *github.Client, owner string) ([]*github.OwnerRepo, github.Meta, listPage, error) {
	list := listPage(c.ListOrgRepos)
	for _, user := range []bool{false, true} {
		if user {
			list = c.ListUserRepos
		}
		var got []*github.OwnerRepo
		var meta github.Meta
		err := run.Call(run.Context(), func(ctx context.Context) (github.Meta, error) {
			r, m, err := list(ctx, owner, gh.ListOptions{Page: 1, PerPage: perPage})
			got, meta = r, m
			return m, err
		})
		switch {
		case !user && isNotFound(err):
			continue // not an organization: the owner's repositories as a user
		case errors.Is(err, fanout.ErrStopped), err != nil && run.Stopped() != "":
			return nil, github.Meta{}, nil, nil
		case err != nil:
			return nil, github.Meta{}, nil, ownerFailure(err, owner)
		}
		return got, meta, list, nil
	}
	return nil, github.Meta{}, nil, nil // unreachable: the user listing answers above
}

// readPage reads one listing page after the first.
func readPage(ctx context.Context, run *fanout.Run, list listPage, owner string, page int) pageResult {
	var got pageResult
	got.err = run.Call(ctx, func(ctx context.Context) (github.Meta, error) {
		r, m, err := list(ctx, owner, gh.ListOptions{Page: toolkit.PageParam(page), PerPage: perPage})
		got.repos, got.next = r, m.NextPage
		return m, err
	})
	return got
}

// ownerRepoList is every repository of owner, archived ones too, in name
// order, for a report that needs the whole list before it starts (its
// pages are still read side by side after the first).
func ownerRepoList(run *fanout.Run, c *github.Client, owner string) ([]*github.OwnerRepo, error) {
	g := run.Group()
	var repos []*github.OwnerRepo
	_, err := ownerRepos(run, g, c, owner, func(page []*github.OwnerRepo) { repos = append(repos, page...) })
	if werr := g.Wait(); werr != nil {
		return nil, werr
	}
	if err != nil || run.Stopped() != "" {
		return nil, err
	}
	slices.SortFunc(repos, func(a, b *github.OwnerRepo) int { return byName(a.GetName(), b.GetName()) })
	return repos, nil
}

// byName orders repository names as the continuation cursors do: by
// their lower-case form.
func byName(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }
