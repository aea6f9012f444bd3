package state

import "errors"

// Why UpdateBranch refuses, in GitHub's words.
var (
	ErrHeadUpToDate    = errors.New("There are no new commits on the base branch.")
	ErrHeadSHAMismatch = errors.New("expected head sha didn’t match current head ref.")
	ErrUpdateConflict  = errors.New("merge conflict between base and head")
)

// MayUpdateBranch reports whether the token may update the pull request's
// head branch: write access to the base repository and, for a fork's
// branch, write access to the fork or the author's leave for maintainers
// to edit it ("Allow edits from maintainers", on by default).
func MayUpdateBranch(is *Issue, t *Token) bool {
	p := is.Pull
	if t.Permission(is.Repo) < PermWrite {
		return false
	}
	return p.HeadRepo == is.Repo || p.MaintainerCanModify || t.Permission(p.HeadRepo) >= PermWrite
}

// UpdateBranch merges the base branch's tip into the pull request's head
// branch, as GitHub's "Update branch" button does: a merge commit on the
// head branch whose parents are the old head and the base tip. expected,
// when not empty, must be the head's SHA. It refuses a head that already
// holds the base tip and a merge that conflicts.
func (s *State) UpdateBranch(is *Issue, actor *Account, expected string) (*GitCommit, error) {
	p := is.Pull
	tip := is.Repo.Git.Branches[p.BaseRef]
	switch {
	case expected != "" && expected != p.Head.SHA:
		return nil, ErrHeadSHAMismatch
	case tip == nil || ancestors(p.Head)[tip.SHA]:
		return nil, ErrHeadUpToDate
	case p.Conflicts(is.Repo):
		return nil, ErrUpdateConflict
	}
	files := make(map[string]string, len(p.Head.Files))
	for path, c := range p.Head.Files {
		files[path] = c
	}
	for _, fc := range Changes(MergeBase(tip, p.Head).Files, tip.Files) {
		if fc.Status == "removed" {
			delete(files, fc.Path)
		} else {
			files[fc.Path] = fc.After
		}
	}
	sig := Signature(actor, s.Now())
	g := s.EnsureGit(p.HeadRepo)
	c := g.Commit("", []*GitCommit{p.Head, tip}, files, sig, sig, "Merge branch '"+p.BaseRef+"' into "+p.HeadRef)
	if p.HeadRepo != is.Repo {
		// The base tip's history reaches the fork with the merge.
		for _, h := range History(tip) {
			g.add(h)
		}
	}
	// The pull request now compares against the tip it took in.
	p.Base = tip
	s.MoveBranch(p.HeadRepo, p.HeadRef, c, actor)
	s.Touch(is)
	return c, nil
}
