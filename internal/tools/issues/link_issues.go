package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// LinkIssuesIn are github_link_issues' arguments.
type LinkIssuesIn struct {
	Owner             string              `json:"owner"`
	Repo              string              `json:"repo"`
	IssueNumber       toolkit.IssueNumber `json:"issue_number" jsonschema:"the parent, or the blocked issue"`
	Relation          Relation            `json:"relation"`
	Action            LinkAction          `json:"action"`
	TargetIssueNumber toolkit.IssueNumber `json:"target_issue_number" jsonschema:"the sub-issue, or the blocker"`
	TargetOwner       string              `json:"target_owner,omitempty" jsonschema:"default: owner"`
	TargetRepo        string              `json:"target_repo,omitempty" jsonschema:"default: repo"`
	AfterIssueNumber  toolkit.IssueNumber `json:"after_issue_number,omitempty" jsonschema:"reorder: after this"`
	BeforeIssueNumber toolkit.IssueNumber `json:"before_issue_number,omitempty" jsonschema:"reorder: or before"`
}

// Validate checks the rules that span fields, before any request.
func (in *LinkIssuesIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if tOwner, tRepo := in.targetRepo(); in.TargetOwner != "" || in.TargetRepo != "" {
		if e := toolkit.CheckNames(tOwner, tRepo); e != nil {
			return e
		}
	}
	if in.TargetIssueNumber == in.IssueNumber && in.sameRepo() {
		return contract.Errorf(contract.CodeSelfLink, "issue #%d cannot be linked to itself", in.IssueNumber).
			WithField("target_issue_number", "must differ from issue_number").
			WithRepair(contract.Repair{NextStep: "find the other issue to link, then call again with its number as target_issue_number",
				Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: in.Owner, Repo: in.Repo}})
	}
	anchors := 0
	for _, n := range []int{int(in.AfterIssueNumber), int(in.BeforeIssueNumber)} {
		if n != 0 {
			anchors++
		}
	}
	unanchored := *in
	unanchored.AfterIssueNumber, unanchored.BeforeIssueNumber = 0, 0
	switch {
	case in.Action != "reorder" && anchors > 0:
		return contract.Errorf(contract.CodeInvalidField, "after_issue_number and before_issue_number are for reorder only").
			WithField("after_issue_number", "only with action reorder").
			WithRepair(contract.Repair{NextStep: "call again without the anchor", Tool: toolkit.NameLinkIssues, Arguments: unanchored})
	case in.Action == "reorder" && !in.sameRepo():
		return contract.Errorf(contract.CodeInvalidField, "reorder moves a sub-issue among its siblings by number in %s/%s", in.Owner, in.Repo).
			WithField("target_repo", "not with reorder: name the sub-issue by its number in this repository's listing")
	case in.Action == "reorder" && in.Relation != "sub_issue":
		return contract.Errorf(contract.CodeInvalidField, "only sub-issues have an order").WithField("action", "reorder needs relation sub_issue")
	case in.Action == "reorder" && anchors == 0:
		return contract.Errorf(contract.CodeInvalidField, "reorder needs exactly one of after_issue_number and before_issue_number").
			WithField("after_issue_number", "give exactly one of after_issue_number and before_issue_number").
			WithRepair(contract.Repair{NextStep: "list the sub-issues in their order, then call again with one of them as after_issue_number",
				Tool: toolkit.NameListIssueItems, Arguments: ListIssueItemsIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber, Collection: "sub_issues"}})
	case in.Action == "reorder" && anchors != 1:
		after := *in
		after.BeforeIssueNumber = 0
		return contract.Errorf(contract.CodeInvalidField, "reorder needs exactly one of after_issue_number and before_issue_number").
			WithField("before_issue_number", "give exactly one of after_issue_number and before_issue_number").
			WithRepair(contract.Repair{NextStep: "call again with after_issue_number alone", Tool: toolkit.NameLinkIssues, Arguments: after,
				Alternative: "or with before_issue_number alone"})
	case in.Action == "reorder" && (in.anchor() == in.TargetIssueNumber || in.anchor() == in.IssueNumber):
		return contract.Errorf(contract.CodeInvalidField, "the anchor must be another sub-issue of #%d", in.IssueNumber).
			WithField("after_issue_number", "must name a sibling sub-issue, not the target or the parent")
	}
	return nil
}

// targetRepo is the repository of the target issue: the issue's own
// unless target_owner or target_repo name another.
func (in *LinkIssuesIn) targetRepo() (owner, repo string) {
	owner, repo = in.TargetOwner, in.TargetRepo
	if owner == "" {
		owner = in.Owner
	}
	if repo == "" {
		repo = in.Repo
	}
	return owner, repo
}

// sameRepo reports whether the target is in the issue's repository.
func (in *LinkIssuesIn) sameRepo() bool {
	owner, repo := in.targetRepo()
	return strings.EqualFold(owner, in.Owner) && strings.EqualFold(repo, in.Repo)
}

// targetName names the target issue for a message: #N, or owner/repo#N
// in another repository.
func (in *LinkIssuesIn) targetName() string {
	if in.sameRepo() {
		return fmt.Sprintf("#%d", in.TargetIssueNumber)
	}
	owner, repo := in.targetRepo()
	return fmt.Sprintf("%s/%s#%d", owner, repo, in.TargetIssueNumber)
}

func (in *LinkIssuesIn) anchor() toolkit.IssueNumber {
	return max(in.AfterIssueNumber, in.BeforeIssueNumber)
}

// LinkIssuesOut is the link as it stands after the call: the two issues
// in fields that say which way it points, and the same in words, so the
// agent need not list the relations again to learn which issue now
// blocks which.
type LinkIssuesOut struct {
	Relation LinkRelation `json:"relation"`
	// Note is Relation in words ("acme/gadgets#16 is blocked by
	// acme/widgets#31"), with what the call found already so.
	Note      string `json:"note" jsonschema:"the relation as it now stands, in words"`
	NoOp      bool   `json:"no_op,omitempty" jsonschema:"it already stood so: nothing was written"`
	SubIssues *int   `json:"sub_issues,omitempty" jsonschema:"the parent's sub-issue count after the edit"`
}

// LinkRelation is a link between two issues as it stands, each named
// owner/repo#number. The field names give the direction: issue is
// blocked_by another, parent has sub_issue, issue is related_to another.
type LinkRelation struct {
	Issue     string `json:"issue,omitempty" jsonschema:"blocked_by and related: the issue named by issue_number"`
	BlockedBy string `json:"blocked_by,omitempty" jsonschema:"the issue that blocks issue (target_issue_number)"`
	RelatedTo string `json:"related_to,omitempty" jsonschema:"the issue related to issue (target_issue_number), shown on both"`
	Parent    string `json:"parent,omitempty" jsonschema:"sub_issue: the parent (issue_number)"`
	SubIssue  string `json:"sub_issue,omitempty" jsonschema:"the parent's sub-issue (target_issue_number)"`
	Linked    bool   `json:"linked" jsonschema:"whether the link exists now: false once removed"`
	Position  int    `json:"position,omitempty" jsonschema:"after a reorder: sub_issue's place among the parent's sub-issues (1 = first)"`
}

// linker carries one call's context through the relation's steps.
type linker struct {
	s   *Tools
	c   *github.Client
	in  LinkIssuesIn
	out LinkIssuesOut
}

func (s *Tools) linkIssues(ctx context.Context, in LinkIssuesIn) (LinkIssuesOut, error) {
	l := &linker{s: s, in: in}
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return LinkIssuesOut{}, toolkit.NotStarted(err)
	}
	l.c = c
	if s.AllowedIssueCreator != "" {
		// Under the creator scope the issue itself is read first; otherwise
		// no request is spent on it.
		rec, err := fetchIssue(ctx, c, in.Owner, in.Repo, int(in.IssueNumber))
		if err != nil {
			return LinkIssuesOut{}, toolkit.NotStarted(err)
		}
		if !s.CreatorAllowed(rec.GetUser().GetLogin()) {
			return LinkIssuesOut{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
		}
	}
	switch {
	case in.Relation == "sub_issue" && in.Action == "reorder":
		err = l.reorder(ctx)
	case in.Relation == "sub_issue":
		err = l.subIssue(ctx)
	case in.Relation == "blocked_by":
		err = l.blockedBy(ctx)
	case in.Relation == "related":
		err = l.related(ctx)
	default:
		err = contract.Errorf(contract.CodeInvalidField, "unknown relation").WithField("relation", "must be sub_issue, blocked_by or related")
	}
	if err != nil {
		return LinkIssuesOut{}, err
	}
	return l.out, nil
}

// target reads the target issue, for its database id (the link endpoints
// take ids, not numbers) and its current parent.
// A target in another repository is read with the credential that serves
// that repository's owner.
func (l *linker) target(ctx context.Context) (*github.IssueRecord, error) {
	owner, repo := l.in.targetRepo()
	c := l.c
	if !strings.EqualFold(owner, l.in.Owner) {
		var err error
		if c, err = l.s.Client(ctx, owner, tooldef.Read); err != nil {
			return nil, toolkit.NotStarted(err)
		}
	}
	rec, err := fetchIssue(ctx, c, owner, repo, int(l.in.TargetIssueNumber))
	if err != nil {
		if e, ok := contract.AsError(err); ok && e.Code == contract.CodeIssueNotFound {
			e.WithField("target_issue_number", "no such issue in "+owner+"/"+repo)
		}
		return nil, toolkit.NotStarted(err)
	}
	if !l.s.CreatorAllowed(rec.GetUser().GetLogin()) {
		return nil, l.s.creatorRefusal(owner, repo, int(l.in.TargetIssueNumber))
	}
	return rec, nil
}

// issueName and targetFull name the two issues as a relation does:
// owner/repo#number, whichever repository they are in.
func (l *linker) issueName() string {
	return fmt.Sprintf("%s/%s#%d", l.in.Owner, l.in.Repo, l.in.IssueNumber)
}

func (l *linker) targetFull() string {
	owner, repo := l.in.targetRepo()
	return fmt.Sprintf("%s/%s#%d", owner, repo, l.in.TargetIssueNumber)
}

// stands records the relation as it now stands: linked or not, whether
// the call found it so already, and the sentence that says it.
func (l *linker) stands(linked, noOp bool, format string, args ...any) {
	issue, target := l.issueName(), l.targetFull()
	r := LinkRelation{Linked: linked}
	switch l.in.Relation {
	case "sub_issue":
		r.Parent, r.SubIssue = issue, target
	case "blocked_by":
		r.Issue, r.BlockedBy = issue, target
	default:
		r.Issue, r.RelatedTo = issue, target
	}
	l.out.Relation, l.out.NoOp, l.out.Note = r, noOp, fmt.Sprintf(format, args...)
}

// subIssue adds or removes a sub-issue. The target's own record says who
// its parent is, so an add that is already done, or a remove of a link
// that is not there, is answered without a write.
func (l *linker) subIssue(ctx context.Context) error {
	in := l.in
	t, err := l.target(ctx)
	if err != nil {
		return err
	}
	parent := recordRelations(t, in.Owner, in.Repo)
	var current *issueview.IssueRef
	if parent != nil {
		current = parent.Parent
	}
	isOurs := current != nil && current.Repo == "" && current.Number == int(in.IssueNumber)
	var rec *github.IssueRecord
	switch in.Action {
	case "add":
		if isOurs {
			l.stands(true, true, "%s is already a sub-issue of %s", l.targetFull(), l.issueName())
			return nil
		}
		if current != nil {
			where := refString(current)
			if !newGrant(ctx, in.Owner, in.Repo).keeps(current.Repo) {
				where = "in a repository this client may not read"
			}
			e := contract.Errorf(contract.CodeValidationFailed, "%s already has a parent (%s); an issue has at most one",
				in.targetName(), where).WithField("target_issue_number", "already has another parent")
			e.Settlement = contract.NotStarted
			if current.Repo == "" {
				e.WithRepair(contract.Repair{NextStep: "remove it from its current parent first, then add it again",
					Tool: toolkit.NameLinkIssues, Arguments: LinkIssuesIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: toolkit.IssueNumber(current.Number),
						Relation: "sub_issue", Action: "remove", TargetIssueNumber: in.TargetIssueNumber, TargetOwner: in.TargetOwner, TargetRepo: in.TargetRepo}})
			}
			return e
		}
		rec, _, err = l.c.AddSubIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
	case "remove":
		if !isOurs {
			l.stands(false, true, "%s is not a sub-issue of %s", l.targetFull(), l.issueName())
			return nil
		}
		rec, _, err = l.c.RemoveSubIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
	default:
		return contract.Errorf(contract.CodeInvalidField, "unknown action").WithField("action", "must be add, remove or reorder")
	}
	if in.Action == "add" {
		l.stands(true, false, "%s is now a sub-issue of %s", l.targetFull(), l.issueName())
	} else {
		l.stands(false, false, "%s is no longer a sub-issue of %s", l.targetFull(), l.issueName())
	}
	if err != nil {
		return l.writeFailed(err)
	}
	l.countSubIssues(rec)
	return nil
}

func (l *linker) countSubIssues(rec *github.IssueRecord) {
	if rec.SubIssuesSummary != nil {
		n := rec.SubIssuesSummary.Total
		l.out.SubIssues = &n
	}
}

// reorder moves a sub-issue next to a sibling. One read of the parent's
// sub-issues (at most 100, one page) gives both database ids, checks that
// both are its sub-issues, and shows whether the order already holds.
func (l *linker) reorder(ctx context.Context) error {
	in := l.in
	subs, _, err := l.c.ListSubIssues(ctx, in.Owner, in.Repo, int(in.IssueNumber), gh.ListOptions{PerPage: toolkit.MaxPageSize})
	if err != nil {
		return toolkit.NotStarted(toolkit.NotFoundIssue(err, in.Owner, in.Repo, int(in.IssueNumber)))
	}
	pos := map[int]int{}
	for i, s := range subs {
		if otherRepo(repoOf(s), in.Owner, in.Repo) == "" {
			pos[s.GetNumber()] = i
		}
	}
	for _, n := range []struct {
		num   int
		field string
	}{{int(in.TargetIssueNumber), "target_issue_number"}, {int(in.anchor()), anchorField(in)}} {
		if _, ok := pos[n.num]; !ok {
			e := contract.Errorf(contract.CodeValidationFailed, "#%d is not a sub-issue of #%d", n.num, in.IssueNumber).
				WithField(n.field, "must be a sub-issue of issue_number")
			e.Settlement = contract.NotStarted
			return e.WithRepair(contract.Repair{NextStep: "list the sub-issues to pick one", Tool: toolkit.NameListIssueItems,
				Arguments: ListIssueItemsIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber, Collection: "sub_issues"}})
		}
	}
	t, a := pos[int(in.TargetIssueNumber)], pos[int(in.anchor())]
	mv := github.SubIssueMove{SubIssueID: subs[t].GetID()}
	if in.AfterIssueNumber != 0 {
		if t == a+1 {
			l.placed(t, len(subs), true, "right after #%d", in.AfterIssueNumber)
			return nil
		}
		mv.AfterID = subs[a].GetID()
	} else {
		if t == a-1 {
			l.placed(t, len(subs), true, "right before #%d", in.BeforeIssueNumber)
			return nil
		}
		mv.BeforeID = subs[a].GetID()
	}
	// The new place follows from the order read and the move GitHub
	// accepted: the result says it, so no list is needed to confirm it.
	at := a + 1 // after the anchor
	if in.AfterIssueNumber == 0 {
		at = a // before it
	}
	if t < a {
		at-- // the sub-issue left a place ahead of the anchor
	}
	l.placed(at, len(subs), false, "")
	rec, _, err := l.c.ReprioritizeSubIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber), mv)
	if err != nil {
		return l.writeFailed(err)
	}
	l.countSubIssues(rec)
	return nil
}

// placed records a reordered sub-issue at index at of n; already names
// the place it was found in when nothing needed moving.
func (l *linker) placed(at, n int, noOp bool, already string, args ...any) {
	if noOp {
		l.stands(true, true, "%s is sub-issue %d of %d of %s, already %s", l.targetFull(), at+1, n, l.issueName(), fmt.Sprintf(already, args...))
	} else {
		l.stands(true, false, "%s is now sub-issue %d of %d of %s", l.targetFull(), at+1, n, l.issueName())
	}
	l.out.Relation.Position = at + 1
}

func anchorField(in LinkIssuesIn) string {
	if in.AfterIssueNumber != 0 {
		return "after_issue_number"
	}
	return "before_issue_number"
}

// blockedBy adds or removes a dependency. Unlike a parent, the issue's
// blockers are not on either issue's record, so the write is tried and
// GitHub's refusal is checked: a 422 on add is a no-op only when a read
// confirms the link is there (otherwise it is a real refusal, such as a
// cycle), and a 404 on remove is a no-op only when a read confirms the
// issue exists.
func (l *linker) blockedBy(ctx context.Context) error {
	in := l.in
	t, err := l.target(ctx)
	if err != nil {
		return err
	}
	switch in.Action {
	case "add":
		l.stands(true, false, "%s is now blocked by %s", l.issueName(), l.targetFull())
		_, err = l.c.AddBlockedBy(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
		if ge := toolkit.GitHubCode(err); ge == github.ValidationFailed {
			if linked, rerr := l.isBlockedBy(ctx, int(in.TargetIssueNumber)); rerr == nil && linked {
				l.stands(true, true, "%s is already blocked by %s", l.issueName(), l.targetFull())
				return nil
			}
		}
	case "remove":
		l.stands(false, false, "%s is no longer blocked by %s", l.issueName(), l.targetFull())
		_, err = l.c.RemoveBlockedBy(ctx, in.Owner, in.Repo, int(in.IssueNumber), t.GetID())
		if ge := toolkit.GitHubCode(err); ge == github.NotFound {
			if _, rerr := fetchIssue(ctx, l.c, in.Owner, in.Repo, int(in.IssueNumber)); rerr == nil {
				l.stands(false, true, "%s was not blocked by %s", l.issueName(), l.targetFull())
				return nil
			}
		}
	default:
		return contract.Errorf(contract.CodeInvalidField, "unknown action").WithField("action", "must be add or remove for blocked_by")
	}
	if err != nil {
		return l.writeFailed(err)
	}
	return nil
}

// isBlockedBy reads the issue's blockers (bounded) looking for number.
func (l *linker) isBlockedBy(ctx context.Context, number int) (bool, error) {
	for page := 1; page <= 5; page++ {
		list, meta, err := l.c.ListBlockedBy(ctx, l.in.Owner, l.in.Repo, int(l.in.IssueNumber), gh.ListOptions{Page: toolkit.PageParam(page), PerPage: toolkit.MaxPageSize})
		if err != nil {
			return false, err
		}
		for _, is := range list {
			if owner, repo := l.in.targetRepo(); is.GetNumber() == number && otherRepo(repoOf(is), owner, repo) == "" {
				return true, nil
			}
		}
		if meta.NextPage == 0 {
			break
		}
	}
	return false, nil
}

// writeFailed maps a failed link write. GitHub's field names (sub_issue_id,
// issue_id) are not arguments here, so a refusal names target_issue_number.
// Two outcomes need no re-read: a 2xx whose body could not be read is a
// success (the result needs nothing from that body), and when no answer
// came at all the repair is the same call again, because a link edit is
// idempotent: the repeat either applies it or reports the no-op.
func (l *linker) writeFailed(err error) error {
	in := l.in
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	switch {
	case e.Settlement == contract.RemoteSuccessKnown:
		// The relation the call set is the one recorded before it was
		// sent; only what GitHub's answer would have added is missing.
		l.out.Note += " (GitHub confirmed the change, but its answer could not be read)"
		return nil
	case e.Settlement == contract.Indeterminate:
		e.Temporary = false
		e.Repair = &contract.Repair{NextStep: "call again with the same arguments: link edits are idempotent, so the repeat applies the change or reports no_op",
			Tool: toolkit.NameLinkIssues, Arguments: in}
	case e.Code == contract.CodeValidationFailed:
		// GitHub's own reason, when its answer named one, is what the agent
		// needs; its message alone is often just "Validation Failed".
		why := e.Message
		if e.Details != nil && e.Details.Reason != "" {
			why = strings.TrimPrefix(e.Details.Reason, "GitHub refused it: ")
		}
		e.Message = fmt.Sprintf("GitHub refused to %s the %s link between #%d and #%d: %s", in.Action, in.Relation, in.IssueNumber, in.TargetIssueNumber, why)
		e.WithField("target_issue_number", "GitHub refused this link (a cycle, a pull request, another owner, or a limit)")
		e.WithRepair(contract.Repair{NextStep: "pick another target_issue_number; GitHub will refuse this link again",
			Tool: toolkit.NameListIssueItems, Arguments: ListIssueItemsIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber, Collection: map[Relation]Collection{"sub_issue": "sub_issues", "blocked_by": "blocked_by", "related": "related"}[in.Relation]}})
	case e.Code == contract.CodeNotFound:
		e.Code = contract.CodeIssueNotFound
		e.Message = fmt.Sprintf("%s/%s#%d or #%d does not exist or is not visible to this credential", in.Owner, in.Repo, in.IssueNumber, in.TargetIssueNumber)
	}
	return e
}

// refString names an issue reference for a message.
func refString(r *issueview.IssueRef) string {
	if r.Repo != "" {
		return fmt.Sprintf("%s#%d", r.Repo, r.Number)
	}
	return fmt.Sprintf("#%d", r.Number)
}

// LinkIssues is github_link_issues.
func (s *Tools) LinkIssues() tooldef.Spec {
	return tooldef.Tool[LinkIssuesIn, LinkIssuesOut]{
		Name:        toolkit.NameLinkIssues,
		Toolset:     Toolset,
		Title:       "Link issues",
		Description: "Edit an issue link; already so: no_op; absent: none.",
		Mode:        tooldef.Write,
		Destructive: true,
		Idempotent:  true,
		Run:         s.linkIssues,
	}
}
