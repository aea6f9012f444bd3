package state

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Star is one user's star on a repository.
type Star struct {
	User *Account
	At   time.Time
	// seq orders stars given in the same second (the emulator's clock may
	// stand still) by when they were given.
	seq int64
}

// StarredBy is u's star on r, nil if u has not starred it.
func (r *Repo) StarredBy(u *Account) *Star {
	i := slices.IndexFunc(r.Stars, func(s *Star) bool { return strings.EqualFold(s.User.Login, u.Login) })
	if i < 0 {
		return nil
	}
	return r.Stars[i]
}

// StarRepo stars r as u now; starring again keeps the first star, as
// GitHub's PUT is idempotent.
func (s *State) StarRepo(r *Repo, u *Account) {
	if r.StarredBy(u) == nil {
		r.Stars = append(r.Stars, &Star{User: u, At: s.Now(), seq: s.nextID()})
	}
}

// UnstarRepo removes u's star from r, if any.
func (s *State) UnstarRepo(r *Repo, u *Account) {
	r.Stars = slices.DeleteFunc(r.Stars, func(st *Star) bool { return strings.EqualFold(st.User.Login, u.Login) })
}

// Starred are the repositories u starred, with the stars, newest first.
func (s *State) Starred(u *Account) []*Repo {
	var out []*Repo
	for _, r := range s.repoOrder {
		if r.StarredBy(u) != nil {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b *Repo) int {
		x, y := a.StarredBy(u), b.StarredBy(u)
		if c := y.At.Compare(x.At); c != 0 {
			return c
		}
		return cmp.Compare(y.seq, x.seq)
	})
	return out
}
