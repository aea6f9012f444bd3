package state

import (
	"fmt"
	"strconv"
	"strings"
)

// MergeOptions are a merge's method (merge, squash or rebase) and, for
// the first two, the commit's title and message; empty ones take GitHub's
// defaults.
type MergeOptions struct {
	Method  string
	Title   string
	Message string
}

// MergePull merges an open pull request with a merge commit, as the seed
// and GitHub's default merge button do.
func (s *State) MergePull(is *Issue, actor *Account) *GitCommit {
	return s.Merge(is, actor, MergeOptions{Method: "merge"})
}

// Merge lands an open pull request on its base branch and closes it:
// "merge" writes a merge commit, "squash" one commit of the whole change,
// "rebase" replays each commit on the base. The base tip's files get the
// head's changes since their merge base, as git writes them when nothing
// conflicts (callers refuse conflicting pull requests first). It returns
// the commit the base branch now points at.
func (s *State) Merge(is *Issue, actor *Account, o MergeOptions) *GitCommit {
	p := is.Pull
	now := s.Now()
	g := is.Repo.Git
	tip := g.Branches[p.BaseRef]
	sig := Signature(actor, now)
	apply := func(onto map[string]string, changes []FileChange) map[string]string {
		files := make(map[string]string, len(onto))
		for path, c := range onto {
			files[path] = c
		}
		for _, fc := range changes {
			if fc.Status == "removed" {
				delete(files, fc.Path)
			} else {
				files[fc.Path] = fc.After
			}
		}
		return files
	}
	merged := apply(tip.Files, Changes(MergeBase(tip, p.Head).Files, p.Head.Files))
	var result *GitCommit
	switch o.Method {
	case "squash":
		title, msg := o.Title, o.Message
		if title == "" {
			title = fmt.Sprintf("%s (#%d)", is.Title, is.Number)
		}
		if msg == "" {
			var b strings.Builder
			for _, c := range p.Commits() {
				b.WriteString("* " + c.Headline() + "\n")
			}
			msg = strings.TrimSuffix(b.String(), "\n")
		}
		// GitHub credits the pull request's author for a squash.
		result = g.Commit(p.BaseRef, []*GitCommit{tip}, merged, Signature(is.User, now), sig, title+"\n\n"+msg)
	case "rebase":
		result = tip
		for _, c := range p.Commits() {
			var parent map[string]string
			if len(c.Parents) > 0 {
				parent = c.Parents[0].Files
			}
			files := apply(result.Files, Changes(parent, c.Files))
			result = g.Commit(p.BaseRef, []*GitCommit{result}, files, c.Author, sig, c.Message)
		}
	default:
		title, msg := o.Title, o.Message
		if title == "" {
			title = "Merge pull request #" + strconv.Itoa(is.Number) + " from " + p.HeadRepo.Owner.Login + "/" + p.HeadRef
		}
		if msg == "" {
			msg = is.Title
		}
		result = g.Commit(p.BaseRef, []*GitCommit{tip, p.Head}, merged, sig, sig, title+"\n\n"+msg)
	}
	p.Base, p.MergeCommit = tip, result
	if p.BaseRef == RepoDefaultBranch {
		// Repo.Files is the default branch's tree.
		is.Repo.Files = make(map[string]string, len(result.Files))
		for path, c := range result.Files {
			is.Repo.Files[path] = c
		}
	}
	p.MergedAt, p.MergedBy = &now, actor
	is.Merged = true
	// GitHub's timeline shows the merge, then the close it brings.
	s.addEvent(is, &Event{Event: "merged", Actor: actor, Commit: result, CreatedAt: now})
	s.ClosePull(is, actor)
	return result
}

// ClosePull closes a pull request. Pull requests carry no state_reason
// on GitHub, so the one Close records is cleared.
func (s *State) ClosePull(is *Issue, actor *Account) {
	e := s.close(is, actor, "")
	is.StateReason = nil
	if e != nil {
		e.StateReason = nil
	}
}

// MergeBlocker is why the base branch's protection refuses a merge by
// someone below admin (admins may bypass it, as enforce_admins is off):
// the one approving review it requires, then its required checks. It is
// "" when nothing blocks.
func MergeBlocker(is *Issue) string {
	p := is.Pull
	if !ProtectedBranch(p.BaseRef) {
		return ""
	}
	if p.ReviewDecision() != "APPROVED" {
		return "At least 1 approving review is required by reviewers with write access."
	}
	g := is.Repo.Git
	for _, name := range RequiredChecks {
		state := ""
		for _, cr := range g.CheckRuns[p.Head.SHA] {
			if cr.Name == name {
				state = CheckRunState(cr)
			}
		}
		for _, st := range LatestStatuses(g.Statuses[p.Head.SHA]) {
			if st.Context == name {
				state = EnumValue(st.State)
			}
		}
		switch state {
		case "SUCCESS", "NEUTRAL", "SKIPPED":
		case "":
			return fmt.Sprintf("Required status check %q is expected.", name)
		case "QUEUED", "IN_PROGRESS", "PENDING", "WAITING", "REQUESTED":
			return fmt.Sprintf("Required status check %q is in progress.", name)
		default:
			return fmt.Sprintf("Required status check %q is failing.", name)
		}
	}
	return ""
}

// ProtectedBranch reports whether a branch is protected: the default
// branch is, with the rule the pull requests' review decision follows.
func ProtectedBranch(name string) bool { return name == RepoDefaultBranch }

// CheckRunState is a check run's CheckConclusionState or, before it
// completes, its CheckStatusState, as the rollup's counts key them.
func CheckRunState(cr *CheckRun) string {
	if cr.Conclusion != nil {
		return EnumValue(*cr.Conclusion)
	}
	return EnumValue(cr.Status)
}

// EnumValue writes a REST-style value ("not_planned", "off-topic", "too
// heated") as the GraphQL enum value ("NOT_PLANNED", "OFF_TOPIC",
// "TOO_HEATED").
func EnumValue(s string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(s))
}

// RequiredChecks are the checks the default branch's protection requires.
var RequiredChecks = []string{"build", "test"}
