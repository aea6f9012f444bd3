package state

import (
	"slices"
	"strconv"
	"time"
)

// PullRequest is what a pull request holds beyond the issue it also is:
// its branches and the git state they point at, its reviews and the
// outcome of merging. An Issue with IsPull has one once it is opened with
// OpenPull.
type PullRequest struct {
	// HeadRepo is where the head branch lives: the base repository, or a
	// fork of it for a cross-repository pull request.
	HeadRepo *Repo
	HeadRef  string
	BaseRef  string
	// Head is the head branch's commit as the pull request last saw it;
	// Base is the base branch's tip when the pull request was opened (or,
	// once merged, when it was merged): the diff runs from their merge base
	// to Head, so it stays what was proposed after the base moves on.
	Head *GitCommit
	Base *GitCommit

	Draft               bool
	MaintainerCanModify bool
	MergedAt            *time.Time
	MergedBy            *Account
	MergeCommit         *GitCommit

	RequestedReviewers []*Account
	RequestedTeams     []*Team
	Reviews            []*Review
	Threads            []*ReviewThread
}

// Review is a submitted pull request review.
type Review struct {
	ID          int64
	NodeID      string
	Pull        *Issue
	User        *Account
	Body        string
	State       string // APPROVED | CHANGES_REQUESTED | COMMENTED | DISMISSED, or PENDING until submitted
	Commit      *GitCommit
	CreatedAt   time.Time
	SubmittedAt time.Time // zero while pending
	Comments    []*ReviewComment
}

// ReviewThread is a conversation on a line, a range of lines (StartLine
// to Line) or, with File, the whole of a file in a pull request's diff.
type ReviewThread struct {
	ID         int64
	NodeID     string
	Pull       *Issue
	Path       string
	Line       int // 0 on a file
	StartLine  int // 0 unless the thread spans lines
	File       bool
	Resolved   bool
	ResolvedBy *Account
	Comments   []*ReviewComment
}

// Outdated reports whether the thread's line changed after it was written:
// GitHub marks a thread outdated once a later push touches its file.
func (t *ReviewThread) Outdated() bool {
	if len(t.Comments) == 0 {
		return false
	}
	c := t.Comments[0]
	head := t.Pull.Pull.Head
	return c.Commit != head && c.Commit.Files[t.Path] != head.Files[t.Path]
}

// ReviewComment is a comment in a review thread.
type ReviewComment struct {
	ID        int64
	NodeID    string
	Review    *Review
	Thread    *ReviewThread
	InReplyTo *ReviewComment
	User      *Account
	Body      string
	Path      string
	Line      int
	Commit    *GitCommit // the commit the comment was written on
	DiffHunk  string
	CreatedAt time.Time
	UpdatedAt time.Time
	Reactions []*Reaction // in the order given (reactions.go)
}

// CommitStatus is a status a service reported on a commit.
type CommitStatus struct {
	ID          int64
	NodeID      string
	State       string // error | failure | pending | success
	Context     string
	Description string
	TargetURL   string
	Creator     *Account
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// CheckRun is one check a GitHub App ran on a commit.
type CheckRun struct {
	ID          int64
	NodeID      string
	Name        string
	Workflow    string // the Actions workflow that ran it
	HeadSHA     string
	Status      string  // queued | in_progress | completed
	Conclusion  *string // success | failure | neutral | cancelled | skipped | timed_out | action_required, once completed
	StartedAt   time.Time
	CompletedAt *time.Time
	DetailsURL  string
	// Repo is the repository whose commit it checked.
	Repo *Repo
	// Run is the Actions workflow run the check run is a job of, nil for
	// one reported without a run (actions.go); Steps are the job's steps
	// and Log writes its log text, when it is read (a fleet of hundreds
	// of jobs is seeded without writing their logs).
	Run   *WorkflowRun
	Steps []*JobStep
	Log   func() string
}

// EnsureGit gives a repository its git data, once: an initial commit on
// the default branch holding the repository's files, by its owner at its
// creation.
func (s *State) EnsureGit(r *Repo) *GitRepo {
	if r.Git != nil {
		return r.Git
	}
	r.Git = NewGitRepo()
	files := map[string]string{}
	for p, c := range r.Files {
		files[p] = c
	}
	if len(files) == 0 {
		files["README.md"] = "# " + r.Name + "\n"
	}
	sig := Signature(r.Owner, r.CreatedAt)
	r.Git.Commit(RepoDefaultBranch, nil, files, sig, sig, "Initial commit")
	return r.Git
}

// Commit records a commit on a branch of r (created from the default
// branch when new) that writes the given files (an empty content deletes
// one) and returns it.
func (s *State) Commit(r *Repo, branch string, author *Account, at time.Time, message string, writes map[string]*string) *GitCommit {
	g := s.EnsureGit(r)
	parent := g.Branches[branch]
	if parent == nil {
		parent = g.Branches[RepoDefaultBranch]
	}
	files := make(map[string]string, len(parent.Files)+len(writes))
	for p, c := range parent.Files {
		files[p] = c
	}
	for p, c := range writes {
		if c == nil {
			delete(files, p)
		} else {
			files[p] = *c
		}
	}
	sig := Signature(author, at)
	return g.Commit(branch, []*GitCommit{parent}, files, sig, sig, message)
}

// OpenPull makes is (an issue with IsPull) a pull request from the head
// branch of headRepo into the base branch of its repository, both of
// which must exist.
func (s *State) OpenPull(is *Issue, headRepo *Repo, headRef, baseRef string, draft bool) *PullRequest {
	base := s.EnsureGit(is.Repo).Branches[baseRef]
	head := s.EnsureGit(headRepo).Branches[headRef]
	if base == nil || head == nil {
		panic("emulator: OpenPull: no branch " + baseRef + " or " + headRef)
	}
	is.IsPull = true
	is.Pull = &PullRequest{HeadRepo: headRepo, HeadRef: headRef, BaseRef: baseRef, Head: head, Base: base,
		Draft: draft, MaintainerCanModify: headRepo != is.Repo}
	s.trackHead(is)
	s.headMoved(is, is.User, nil, is.CreatedAt)
	return is.Pull
}

// openBranchPull opens a pull request created without naming branches
// (AddIssue's callers are tests and tools that only need one to exist)
// from a new branch "patch-<number>" holding one commit by its author
// that changes nothing, as `git commit --allow-empty` makes.
func (s *State) openBranchPull(is *Issue) {
	r := is.Repo
	g := s.EnsureGit(r)
	branch := "patch-" + strconv.Itoa(is.Number)
	g.Branches[branch] = g.Branches[RepoDefaultBranch]
	s.Commit(r, branch, is.User, is.CreatedAt, is.Title, nil)
	s.OpenPull(is, r, branch, RepoDefaultBranch, false)
}

// Push commits writes on a pull request's head branch and moves the pull
// request to the new commit, as a push to its branch does.
func (s *State) Push(is *Issue, author *Account, at time.Time, message string, writes map[string]*string) *GitCommit {
	p := is.Pull
	old := p.Head
	p.Head = s.Commit(p.HeadRepo, p.HeadRef, author, at, message, writes)
	s.trackHead(is)
	s.headMoved(is, author, old, at)
	return p.Head
}

// AddReview records a review on the pull request's head commit: submitted
// at once (dropping the reviewer's review request, as submitting does), or
// with state PENDING, seen only by its author until SubmitReview.
func (s *State) AddReview(is *Issue, author *Account, state, body string, at time.Time) *Review {
	id := s.nextID()
	rv := &Review{ID: id, NodeID: NodeID("PRR", id), Pull: is, User: author, Body: body, State: "PENDING",
		Commit: is.Pull.Head, CreatedAt: at}
	is.Pull.Reviews = append(is.Pull.Reviews, rv)
	s.nodes[rv.NodeID] = rv
	if state != "PENDING" {
		s.SubmitReview(rv, state, body, at)
	}
	return rv
}

// SubmitReview submits a pending review: its threads appear on the pull
// request and the reviewer's review request is done.
func (s *State) SubmitReview(rv *Review, state, body string, at time.Time) {
	p := rv.Pull.Pull
	rv.State, rv.Body, rv.SubmittedAt = state, body, at
	s.addEvent(rv.Pull, &Event{Event: "reviewed", Actor: rv.User, Review: rv, CreatedAt: at})
	for _, c := range rv.Comments {
		c.CreatedAt, c.UpdatedAt = at, at
		if c.InReplyTo == nil {
			p.Threads = append(p.Threads, c.Thread)
		}
	}
	p.RequestedReviewers = slices.DeleteFunc(p.RequestedReviewers, func(a *Account) bool { return a == rv.User })
}

// DeleteReview deletes a pending review and its comments.
func (s *State) DeleteReview(rv *Review) {
	p := rv.Pull.Pull
	p.Reviews = slices.DeleteFunc(p.Reviews, func(x *Review) bool { return x == rv })
	delete(s.nodes, rv.NodeID)
	for _, c := range rv.Comments {
		delete(s.nodes, c.NodeID)
		if c.InReplyTo == nil {
			delete(s.nodes, c.Thread.NodeID)
		} else {
			c.Thread.Comments = slices.DeleteFunc(c.Thread.Comments, func(x *ReviewComment) bool { return x == c })
		}
	}
}

// PendingReview is the user's pending review on a pull request, if any.
func (p *PullRequest) PendingReview(user *Account) *Review {
	for _, rv := range p.Reviews {
		if rv.State == "PENDING" && rv.User == user {
			return rv
		}
	}
	return nil
}

// VisibleReviews are the reviews viewer may see: every submitted review,
// and their own pending one.
func (p *PullRequest) VisibleReviews(viewer *Account) []*Review {
	return slices.DeleteFunc(slices.Clone(p.Reviews), func(rv *Review) bool { return rv.State == "PENDING" && rv.User != viewer })
}

// AddReviewComment starts a thread on a line of the head commit's version
// of path (or, with replyTo, answers one) as part of rv.
func (s *State) AddReviewComment(rv *Review, replyTo *ReviewComment, path string, line int, body string, at time.Time) *ReviewComment {
	is := rv.Pull
	id := s.nextID()
	c := &ReviewComment{ID: id, NodeID: NodeID("PRRC", id), Review: rv, InReplyTo: replyTo, User: rv.User, Body: body,
		Path: path, Line: line, Commit: rv.Commit, CreatedAt: at, UpdatedAt: at}
	if replyTo != nil {
		c.Thread, c.Path, c.Line, c.DiffHunk = replyTo.Thread, replyTo.Path, replyTo.Line, replyTo.DiffHunk
	} else {
		tid := s.nextID()
		c.Thread = &ReviewThread{ID: tid, NodeID: NodeID("PRRT", tid), Pull: is, Path: path, Line: line}
		if rv.State != "PENDING" {
			// A pending review's threads appear when it is submitted.
			is.Pull.Threads = append(is.Pull.Threads, c.Thread)
		}
		s.nodes[c.Thread.NodeID] = c.Thread
		c.DiffHunk = diffHunkAt(is, path, line)
	}
	c.Thread.Comments = append(c.Thread.Comments, c)
	rv.Comments = append(rv.Comments, c)
	s.nodes[c.NodeID] = c
	return c
}

// diffHunkAt is the part of the pull request's diff of path that ends at
// line of the new file: what GitHub shows above a review comment.
func diffHunkAt(is *Issue, path string, line int) string {
	for _, fc := range is.Pull.Changes() {
		if fc.Path != path {
			continue
		}
		var out []string
		newLine := 0
		for _, l := range SplitPatch(fc.Patch) {
			if len(l) > 1 && l[:2] == "@@" {
				out = []string{l}
				newLine = HunkStart(l) - 1
				continue
			}
			out = append(out, l)
			if len(l) == 0 || l[0] != '-' {
				newLine++
			}
			if newLine >= line {
				break
			}
		}
		return joinLines(out)
	}
	return ""
}

// AddStatus records a commit status.
func (s *State) AddStatus(r *Repo, sha, state, context, description, target string, creator *Account, at time.Time) *CommitStatus {
	id := s.nextID()
	st := &CommitStatus{ID: id, NodeID: NodeID("SC", id), State: state, Context: context, Description: description,
		TargetURL: target, Creator: creator, CreatedAt: at, UpdatedAt: at}
	g := s.EnsureGit(r)
	g.Statuses[sha] = append(g.Statuses[sha], st)
	return st
}

// AddCheckRun records a completed check run (conclusion "") for a pending
// one on a commit.
func (s *State) AddCheckRun(r *Repo, sha, workflow, name, conclusion string, started time.Time, took time.Duration) *CheckRun {
	id := s.nextID()
	cr := &CheckRun{ID: id, NodeID: NodeID("CR", id), Name: name, Workflow: workflow, HeadSHA: sha, Status: "in_progress", StartedAt: started, Repo: r}
	if conclusion != "" {
		done := started.Add(took)
		cr.Status, cr.Conclusion, cr.CompletedAt = "completed", &conclusion, &done
	}
	g := s.EnsureGit(r)
	g.CheckRuns[sha] = append(g.CheckRuns[sha], cr)
	s.nodes[cr.NodeID] = cr
	return cr
}

// Changes is the pull request's diff: from the merge base of its base and
// head to its head.
func (p *PullRequest) Changes() []FileChange {
	return Changes(MergeBase(p.Base, p.Head).Files, p.Head.Files)
}

// Commits are the pull request's commits, oldest first.
func (p *PullRequest) Commits() []*GitCommit { return Between(p.Base, p.Head) }

// Conflicts reports whether the head and the base branch's current tip
// both changed a file since their merge base, differently.
func (p *PullRequest) Conflicts(r *Repo) bool {
	tip := r.Git.Branches[p.BaseRef]
	if tip == nil {
		return false
	}
	mb := MergeBase(tip, p.Head)
	if mb == nil {
		return true
	}
	ours := map[string]FileChange{}
	for _, fc := range Changes(mb.Files, tip.Files) {
		ours[fc.Path] = fc
	}
	for _, fc := range Changes(mb.Files, p.Head.Files) {
		if o, ok := ours[fc.Path]; ok && (o.Status != fc.Status || o.After != fc.After) {
			return true
		}
	}
	return false
}

// LatestReviews is each reviewer's latest review that counts towards the
// decision (approval or change request, else a comment), in submission
// order.
func (p *PullRequest) LatestReviews() []*Review {
	latest := map[*Account]*Review{}
	var order []*Account
	for _, rv := range p.Reviews {
		if rv.State == "PENDING" {
			continue
		}
		prev, seen := latest[rv.User]
		if !seen {
			order = append(order, rv.User)
		}
		// A comment does not replace an approval or a change request.
		if !seen || rv.State != "COMMENTED" || prev.State == "COMMENTED" {
			latest[rv.User] = rv
		}
	}
	out := make([]*Review, 0, len(order))
	for _, a := range order {
		out = append(out, latest[a])
	}
	slices.SortStableFunc(out, func(a, b *Review) int { return a.SubmittedAt.Compare(b.SubmittedAt) })
	return out
}

// ReviewDecision is GitHub's decision under the default branch's rule of
// one approving review: CHANGES_REQUESTED when a reviewer's latest review
// asks for changes, APPROVED when one approves, else REVIEW_REQUIRED.
func (p *PullRequest) ReviewDecision() string {
	approved := false
	for _, rv := range p.LatestReviews() {
		switch rv.State {
		case "CHANGES_REQUESTED":
			return "CHANGES_REQUESTED"
		case "APPROVED":
			approved = true
		}
	}
	if approved {
		return "APPROVED"
	}
	return "REVIEW_REQUIRED"
}

// ChecksState sums the head commit's statuses and check runs as GitHub's
// combined status does: failure if any failed, pending if any has not
// finished, success when all passed ("" when there are none).
func (g *GitRepo) ChecksState(sha string) string {
	state := ""
	set := func(s string) {
		rank := map[string]int{"": 0, "success": 1, "pending": 2, "failure": 3}
		if rank[s] > rank[state] {
			state = s
		}
	}
	for _, st := range LatestStatuses(g.Statuses[sha]) {
		switch st.State {
		case "error", "failure":
			set("failure")
		default:
			set(st.State)
		}
	}
	for _, cr := range g.CheckRuns[sha] {
		switch {
		case cr.Conclusion == nil:
			set("pending")
		case *cr.Conclusion == "failure" || *cr.Conclusion == "timed_out" || *cr.Conclusion == "cancelled" || *cr.Conclusion == "action_required":
			set("failure")
		default:
			set("success")
		}
	}
	return state
}

// LatestStatuses keeps the newest status per context, as the combined
// status does, ordered by context.
func LatestStatuses(list []*CommitStatus) []*CommitStatus {
	latest := map[string]*CommitStatus{}
	var order []string
	for _, st := range list {
		if _, ok := latest[st.Context]; !ok {
			order = append(order, st.Context)
		}
		latest[st.Context] = st
	}
	slices.Sort(order)
	out := make([]*CommitStatus, 0, len(order))
	for _, c := range order {
		out = append(out, latest[c])
	}
	return out
}

// MergeState is GitHub's mergeable_state for an open pull request (in
// lower case, as REST has it): dirty on conflicts, draft, blocked until
// the review rule is met, unstable when checks fail, else clean. Closed
// pull requests are "unknown".
func (p *PullRequest) MergeState(is *Issue) string {
	switch {
	case is.State != "open":
		return "unknown"
	case p.Conflicts(is.Repo):
		return "dirty"
	case p.Draft:
		return "draft"
	case p.ReviewDecision() != "APPROVED":
		return "blocked"
	case is.Repo.Git.ChecksState(p.Head.SHA) == "failure":
		return "unstable"
	}
	return "clean"
}

// CreatePull opens a pull request from an existing head branch (in r or a
// fork of it) into a base branch of r, and cross-references the issues its
// body mentions (hosts as AddIssue's).
func (s *State) CreatePull(r *Repo, author *Account, title string, body *string, headRepo *Repo, headRef, baseRef string, draft bool, hosts ...string) *Issue {
	now := s.Now()
	is := s.NewIssue(r, author, title, body, true, now)
	s.OpenPull(is, headRepo, headRef, baseRef, draft)
	if body != nil {
		s.CrossReference(is, author, *body, now, hosts...)
	}
	return is
}

// PushFile commits one file to a branch of r and moves the open pull
// requests whose head is that branch along, as a push does; on the
// default branch the repository's files follow.
func (s *State) PushFile(r *Repo, branch string, author *Account, message, path, content string) *GitCommit {
	c := s.Commit(r, branch, author, s.Now(), message, map[string]*string{path: &content})
	s.MoveBranch(r, branch, c, author)
	return c
}

// MoveBranch points a branch at a commit, as actor's push does: on the
// default branch the repository's files follow, and the open pull
// requests whose head is the branch move along, their timelines
// recording the push (pulls_events.go).
func (s *State) MoveBranch(r *Repo, branch string, c *GitCommit, actor *Account) {
	r.Git.Branches[branch] = c
	if branch == RepoDefaultBranch {
		r.Files = make(map[string]string, len(c.Files))
		for p, body := range c.Files {
			r.Files[p] = body
		}
	}
	for _, other := range s.Repos() {
		for _, is := range other.Issues {
			if p := is.Pull; p != nil && is.State == "open" && p.HeadRepo == r && p.HeadRef == branch {
				old := p.Head
				p.Head = c
				s.trackHead(is)
				s.headMoved(is, actor, old, s.Now())
			}
		}
	}
}
