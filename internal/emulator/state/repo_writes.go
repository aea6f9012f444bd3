package state

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// repoName is what GitHub accepts as a repository name: ASCII letters,
// digits, '.', '-' and '_', at most 100 of them.
var repoName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`) })

// ValidRepoName reports whether GitHub accepts name for a repository:
// "." and ".." are refused as path names.
func ValidRepoName(name string) bool {
	return repoName().MatchString(name) && name != "." && name != ".."
}

// topicName is GitHub's rule for a topic: lower-case letters, digits and
// hyphens, starting with a letter or digit, at most 50 characters.
var topicName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,49}$`) })

// MaxTopics is how many topics GitHub lets a repository have.
const MaxTopics = 20

// NormalizeTopics lower-cases and de-duplicates topic names as GitHub
// does, and reports the first it refuses ("" when all are valid).
func NormalizeTopics(names []string) (out []string, invalid string) {
	out = []string{}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if !topicName().MatchString(n) {
			return nil, n
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, ""
}

// MayCreateRepoIn reports whether a may create (or fork) a repository
// owned by org: members and those with a role in it may; others get
// GitHub's refusal.
func (s *State) MayCreateRepoIn(org, a *Account) bool {
	return a != nil && (s.IsOrgMember(org, a) || s.OrgRole(org, a.Login) != "")
}

// CreateRepo makes a new repository for owner, created by creator, as
// GitHub's "Create a repository" does: empty, or with an initial commit when autoInit.
func (s *State) CreateRepo(owner, creator *Account, name, description string, private, autoInit bool) *Repo {
	now := s.Now()
	r := s.AddRepo(owner, name, description, private, now)
	// Whoever creates a repository administers it, in an organization too.
	for _, t := range s.tokens {
		if creator != nil && strings.EqualFold(t.Login, creator.Login) && t.Perms != nil {
			t.Perms[strings.ToLower(r.FullName())] = PermAdmin
		}
	}
	if autoInit {
		s.EnsureGit(r)
	}
	return r
}

// RenameRepo gives r a new name; its former name keeps redirecting to it
// (RepoRedirect) until another repository takes that name.
func (s *State) RenameRepo(r *Repo, name string) {
	old := strings.ToLower(r.FullName())
	delete(s.repos, old)
	r.Name = name
	s.repos[strings.ToLower(r.FullName())] = r
	// Grants follow the repository to its new name.
	for _, t := range s.tokens {
		if p, ok := t.Perms[old]; ok {
			delete(t.Perms, old)
			t.Perms[strings.ToLower(r.FullName())] = p
		}
	}
	if s.renamed == nil {
		s.renamed = map[string]*Repo{}
	}
	s.renamed[old] = r
	r.UpdatedAt = s.Now()
}

// RepoRedirect is the repository a former owner/name now names, nil if
// none: GitHub answers requests under a renamed repository's old name
// with a permanent redirect to the new one.
func (s *State) RepoRedirect(owner, name string) *Repo {
	key := strings.ToLower(owner + "/" + name)
	if s.repos[key] != nil {
		return nil
	}
	return s.renamed[key]
}

// DeleteRepo removes r, its issues and its nodes. Its forks stay and
// take r's parent as theirs, as GitHub gives a deleted repository's forks
// a new upstream.
func (s *State) DeleteRepo(r *Repo) {
	delete(s.repos, strings.ToLower(r.FullName()))
	s.repoOrder = slices.DeleteFunc(s.repoOrder, func(o *Repo) bool { return o == r })
	for k, v := range s.renamed {
		if v == r {
			delete(s.renamed, k)
		}
	}
	for _, o := range s.repoOrder {
		if o.Parent == r {
			o.Parent = r.Parent
		}
	}
	for id, n := range s.nodes {
		if n == r {
			delete(s.nodes, id)
		}
	}
	for _, is := range r.Issues {
		delete(s.issuesByID, is.ID)
		delete(s.nodes, is.NodeID)
	}
}

// ForkFor is owner's fork of parent, made if owner has none: GitHub
// answers a second fork request with the fork already there. A fork is
// named as its parent unless name says otherwise or owner already has a
// repository of that name, when GitHub adds "-1", "-2", ….
func (s *State) ForkFor(parent *Repo, owner *Account, name string) *Repo {
	for _, r := range s.repoOrder {
		if r.Owner == owner && r.Parent == parent {
			return r
		}
	}
	if name == "" {
		name = parent.Name
	}
	base := name
	for i := 1; s.Repo(owner.Login, name) != nil; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	f := s.forkNamed(parent, owner, name, s.Now())
	return f
}
