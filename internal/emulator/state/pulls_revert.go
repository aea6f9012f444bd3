package state

import (
	"strconv"
)

// RevertPull opens, as actor, a pull request that reverts the merged pull
// request is, as GitHub's "Revert" button does: a branch
// "revert-<number>-<head branch>" from the base branch's tip, holding one
// commit that puts back what the merge changed, and a pull request from
// it into the same base. title and body default to GitHub's: Revert
// "<title>" and "Reverts <owner>/<repo>#<number>". is must be merged.
func (s *State) RevertPull(is *Issue, actor *Account, title, body *string, draft bool, hosts ...string) *Issue {
	p, r := is.Pull, is.Repo
	g := s.EnsureGit(r)
	mc := p.MergeCommit
	before := map[string]string{}
	if len(mc.Parents) > 0 {
		before = mc.Parents[0].Files
	}
	writes := map[string]*string{}
	for _, ch := range Changes(before, mc.Files) {
		if old, ok := before[ch.Path]; ok {
			writes[ch.Path] = &old
		} else {
			writes[ch.Path] = nil
		}
	}
	base := "revert-" + strconv.Itoa(is.Number) + "-" + p.HeadRef
	branch := base
	for i := 1; g.Branches[branch] != nil; i++ {
		branch = base + "-" + strconv.Itoa(i)
	}
	g.Branches[branch] = g.Branches[p.BaseRef]
	now := s.Now()
	msg := "Revert \"" + mc.Headline() + "\"\n\nThis reverts commit " + mc.SHA + "."
	s.Commit(r, branch, actor, now, msg, writes)
	t := "Revert \"" + is.Title + "\""
	if title != nil {
		t = *title
	}
	b := "Reverts " + r.FullName() + "#" + strconv.Itoa(is.Number)
	if body != nil {
		b = *body
	}
	return s.CreatePull(r, actor, t, &b, r, branch, p.BaseRef, draft, hosts...)
}
