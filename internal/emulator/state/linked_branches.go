package state

import (
	"strconv"
	"strings"
	"unicode"
)

// Linked branches: a branch created for an issue (the issue's Development
// section, `gh issue develop`), recorded as linked to it. GitHub's schema
// has createLinkedBranch, which makes the branch at a commit and links it,
// deleteLinkedBranch, which unlinks it, and Issue.linkedBranches. A link
// whose branch has since been deleted is no longer listed, as on GitHub.

// LinkedBranch is one branch linked to an issue.
type LinkedBranch struct {
	ID     int64
	NodeID string
	Issue  *Issue
	// Repo is the repository the branch lives in: the issue's own or
	// another one the caller can write to.
	Repo *Repo
	Name string
}

// Exists reports whether the branch is still there.
func (lb *LinkedBranch) Exists() bool {
	return lb.Repo.Git != nil && lb.Repo.Git.Branches[lb.Name] != nil
}

// LinkedBranchName is the name GitHub gives a branch created for an issue
// without one: "<number>-<title as a slug>".
func LinkedBranchName(is *Issue) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(is.Title) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	slug := b.String()
	if slug == "" {
		return strconv.Itoa(is.Number)
	}
	return strconv.Itoa(is.Number) + "-" + slug
}

// CreateLinkedBranch makes branch name in repo at commit and links it to
// the issue; it fails when the name is taken or is no valid branch name.
func (s *State) CreateLinkedBranch(is *Issue, repo *Repo, name string, at *GitCommit) (*LinkedBranch, error) {
	g := s.EnsureGit(repo)
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.Contains(name, "..") ||
		strings.ContainsAny(name, " ~^:?*[\\") {
		return nil, &UnprocessableError{"Name is not a valid branch name"}
	}
	if _, tips := Refs(g); tips["heads/"+name] != nil {
		return nil, &UnprocessableError{"Name already exists on this repository"}
	}
	g.Branches[name] = at
	id := s.nextID()
	lb := &LinkedBranch{ID: id, NodeID: NodeID("LB", id), Issue: is, Repo: repo, Name: name}
	is.LinkedBranches = append(is.LinkedBranches, lb)
	s.nodes[lb.NodeID] = lb
	return lb, nil
}

// DeleteLinkedBranch unlinks a branch from its issue; the branch stays.
func (s *State) DeleteLinkedBranch(lb *LinkedBranch) {
	is := lb.Issue
	for i, x := range is.LinkedBranches {
		if x == lb {
			is.LinkedBranches = append(is.LinkedBranches[:i:i], is.LinkedBranches[i+1:]...)
			break
		}
	}
	delete(s.nodes, lb.NodeID)
}

// UnprocessableError is an operation refused for its input, as GitHub
// refuses it with UNPROCESSABLE (GraphQL) or 422 (REST).
type UnprocessableError struct{ Message string }

func (e *UnprocessableError) Error() string { return e.Message }
