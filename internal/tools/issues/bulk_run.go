package issues

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// BulkConcurrency is how many issues of a bulk edit are written at once.
// GitHub asks integrations to keep concurrent requests low (its secondary
// limits count them, and content writes per minute); a few at a time
// divides the wall time without provoking them. Each item's writes stay
// in order within it, as github_update_issue sends them.
const BulkConcurrency = 5

// bulk is one github_bulk_update_issues call in progress.
type bulk struct {
	s  *Tools
	c  *github.Client
	in BulkUpdateIssuesIn
	pf *preflightResult

	mu      sync.Mutex
	items   []BulkItem
	stopped string
	// created names the labels createLabels made.
	created *LabelsDone
}

// preflight reads every issue and checks every name the changes use, in
// one request, and refuses the whole run when a name is unknown: nothing
// is written then. The names are checked by github_update_issue's own
// planning, against an issue that holds nothing yet, so the refusal is
// the one it would give.
func (b *bulk) preflight(ctx context.Context) error {
	in := b.in
	res, err := b.read(ctx)
	if err != nil {
		return err
	}
	b.pf = res
	if err := b.createLabels(ctx); err != nil {
		return err
	}
	b.items = make([]BulkItem, len(in.IssueNumbers))
	for i, n := range in.IssueNumbers {
		b.items[i] = BulkItem{IssueNumber: int(n), Settlement: BulkNotStarted}
		if e := res.notIssues[int(n)]; e != nil {
			if e.Repair != nil && e.Repair.Tool == toolkit.NameUpdateIssue {
				e.Repair.Arguments = in.single(n)
			}
			b.items[i].Settlement, b.items[i].Error = BulkFailed, e
			b.stop("#%d failed before any write and continue_on_error is false", n)
		}
	}
	return nil
}

// read is the preflight's one request and the check of the names the
// changes use; it writes nothing (a dry run stops here).
func (b *bulk) read(ctx context.Context) (*preflightResult, error) {
	in := b.in
	pf := preflight{owner: in.Owner, repo: in.Repo}
	for _, n := range in.IssueNumbers {
		pf.issues = append(pf.issues, int(n))
	}
	in.Changes.lookups(&pf)
	res, err := b.s.preflight(ctx, b.c, pf)
	if err != nil {
		return nil, toolkit.NotStarted(err)
	}
	check := &update{s: b.s, c: b.c, in: in.single(in.IssueNumbers[0]), before: &gh.Issue{}, pf: res}
	if err := check.plan(ctx); err != nil {
		if e, ok := contract.AsError(err); ok {
			return nil, in.asBulk(e)
		}
		return nil, toolkit.NotStarted(err)
	}
	return res, nil
}

// createLabels creates, once for the whole run, the labels
// labels.create_missing asks for; each item then finds them in place. A
// failure ends the run before any issue is written: labels created so far
// stay, and the same call finishes the job.
func (b *bulk) createLabels(ctx context.Context) error {
	l := b.in.Changes.Labels
	if l == nil || !l.CreateMissing.On {
		return nil
	}
	b.created = &LabelsDone{}
	for _, name := range planLabels(l, nil, b.pf.labels).create {
		_, _, err := b.c.CreateLabel(ctx, b.in.Owner, b.in.Repo, name, l.CreateMissing.color())
		switch {
		case err == nil:
			b.created.Created = append(b.created.Created, name)
		case !alreadyExists(err):
			e := itemError(err)
			e.Message = fmt.Sprintf("creating label %q failed, so no issue was written: %s", name, e.Message)
			return e
		}
		b.pf.labels[strings.ToLower(name)] = name
	}
	return nil
}

// stop records the first reason the run stops starting items; with
// continue_on_error, only the rate limit and cancellation stop it.
func (b *bulk) stop(format string, args ...any) {
	if b.in.ContinueOnError {
		return
	}
	b.stopNow(format, args...)
}

func (b *bulk) stopNow(format string, args ...any) {
	if b.stopped == "" {
		b.stopped = fmt.Sprintf(format, args...)
	}
}

// run writes the items, [BulkConcurrency] at a time, in the order given.
// Once the run stops, items not yet started stay not_started; those in
// flight finish and report what they did.
func (b *bulk) run(ctx context.Context) {
	sem := make(chan struct{}, BulkConcurrency)
	var wg sync.WaitGroup
	for i := range b.items {
		if b.items[i].Settlement != BulkNotStarted {
			continue
		}
		sem <- struct{}{}
		b.mu.Lock()
		if ctx.Err() != nil {
			b.stopNow("the call was cancelled")
		}
		stopped := b.stopped != ""
		b.mu.Unlock()
		if stopped {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			item := b.item(ctx, b.items[i].IssueNumber)
			b.mu.Lock()
			defer b.mu.Unlock()
			b.items[i] = item
			if item.Settlement != BulkFailed {
				return
			}
			switch {
			case item.Error.Code == contract.CodeRateLimited:
				b.stopNow("#%d met the rate limit: %s", item.IssueNumber, item.Error.Message)
			case ctx.Err() != nil:
				b.stopNow("the call was cancelled")
			default:
				b.stop("#%d failed and continue_on_error is false", item.IssueNumber)
			}
		}()
	}
	wg.Wait()
}

// item makes the changes to one issue as github_update_issue would, from
// the state the preflight read: the same plan, the same writes, the same
// no-ops and the same envelope when it fails.
func (b *bulk) item(ctx context.Context, n int) (out BulkItem) {
	out = BulkItem{IssueNumber: n, Settlement: BulkFailed}
	defer func() {
		// A panic here would end the server, not just this call.
		if v := recover(); v != nil {
			b.s.Logger().Error("bulk item panic", "issue", n, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			e := contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition on issue #%d", n)
			e.Settlement = contract.Indeterminate
			out = BulkItem{IssueNumber: n, Settlement: BulkFailed, Error: e}
		}
	}()
	before := b.pf.issues[n]
	if !b.s.CreatorAllowed(before.GetUser().GetLogin()) {
		out.Error = b.s.creatorRefusal(b.in.Owner, b.in.Repo, n)
		return out
	}
	after := *before
	u := &update{s: b.s, c: b.c, in: b.in.single(toolkit.IssueNumber(n)), before: before, pf: b.pf, after: &after}
	err := u.plan(ctx)
	if err == nil {
		err = u.apply(ctx)
	}
	if err != nil {
		out.Error = itemError(err)
		return out
	}
	res := u.output()
	out.Settlement, out.ChangedFields, out.Version, out.Notes, out.Labels = BulkApplied, res.ChangedFields, res.Version, res.Notes, res.Labels
	if res.NoOp {
		out.Settlement = BulkNoOp
	}
	return out
}

// itemError is a failed item's envelope. A write that failed without
// saying how far it got is reported as unknown, as the adapter does for a
// whole tool.
func itemError(err error) *contract.Error {
	e := toolkit.MapError(err)
	if e == nil {
		e = contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition on this issue")
	}
	if e.Settlement == "" {
		e.Settlement = contract.Indeterminate
	}
	return e
}

// bulkNotAnIssue is the failure of a bulk item whose number the preflight
// found no issue under: a pull request's number is refused (a bulk edit
// reads issues only), with the github_update_issue call that edits it; any
// other number is issue_not_found.
func bulkNotAnIssue(kind []byte, owner, repo string, n int) *contract.Error {
	if isPullRequest(kind) {
		e := contract.Errorf(contract.CodeInvalidField, "%s/%s#%d is a pull request; nothing was written to it", owner, repo, n).
			WithField("issue_numbers", "names a pull request, not an issue")
		e.Settlement = contract.NotStarted
		return e.WithRepair(contract.Repair{NextStep: "edit the pull request on its own with github_update_issue",
			Tool: toolkit.NameUpdateIssue, Arguments: UpdateIssueIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(n)}})
	}
	e, _ := contract.AsError(toolkit.NotFoundIssue(&github.Error{Code: github.NotFound, Message: "Not Found"}, owner, repo, n))
	e.Settlement = contract.NotStarted
	return e
}
