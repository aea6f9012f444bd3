package state

import "time"

// Fork creates owner's fork of parent at the given moment: a repository of
// the same name whose default branch is the parent's, as GitHub's "Copy
// the main branch only" fork makes it.
func (s *State) Fork(parent *Repo, owner *Account, at time.Time) *Repo {
	return s.forkNamed(parent, owner, parent.Name, at)
}

// forkNamed is Fork with the fork's name given.
func (s *State) forkNamed(parent *Repo, owner *Account, name string, at time.Time) *Repo {
	f := s.AddRepo(owner, name, parent.Description, parent.Private, at)
	f.Parent = parent
	for p, c := range parent.Files {
		f.Files[p] = c
	}
	pg := s.EnsureGit(parent)
	f.Git = NewGitRepo()
	tip := pg.Branches[RepoDefaultBranch]
	for _, c := range History(tip) {
		f.Git.add(c)
	}
	f.Git.Branches[RepoDefaultBranch] = tip
	return f
}

// SyncFork moves a fork's default branch to its parent's, as GitHub's
// "Sync fork" does when the fork has no commits of its own there.
func (s *State) SyncFork(f *Repo) {
	tip := f.Parent.Git.Branches[RepoDefaultBranch]
	for _, c := range History(tip) {
		f.Git.add(c)
	}
	f.Git.Branches[RepoDefaultBranch] = tip
}

// trackHead makes a pull request's commits reachable by sha in its base
// repository, as GitHub's refs/pull/<number>/head does for a head branch
// that lives in a fork.
func (s *State) trackHead(is *Issue) {
	p := is.Pull
	if p.HeadRepo == is.Repo {
		return
	}
	for _, c := range p.Commits() {
		is.Repo.Git.add(c)
	}
}
