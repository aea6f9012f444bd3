package reports

import (
	"context"
	"errors"
	"slices"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
)

// archivedNames bounds the archived repositories a report names: past
// it, the count says how many more.
const archivedNames = 10

// Coverage says which repositories a report covered, beside its scanned
// counts, so an agent need not infer it: whether archived repositories
// were asked for, which of the owner's were left out for being archived,
// and whether a repository named is archived. It is the same in every
// report that takes an owner's repositories.
type Coverage struct {
	IncludeArchived bool `json:"include_archived"`
	// ArchivedSkipped counts the archived repositories left out of an
	// owner-wide scan without include_archived; ArchivedNames names the
	// first of them (archivedNames) by name.
	ArchivedSkipped int      `json:"archived_skipped,omitempty" jsonschema:"archived repositories left out: include_archived covers them"`
	ArchivedNames   []string `json:"archived_names,omitempty" jsonschema:"the first 10 of them by name"`
	// Archived: a repository the call named is archived (its rows carry
	// archived too).
	Archived bool `json:"archived,omitempty" jsonschema:"a repository named is archived"`
}

// skipArchived records one archived repository left out.
func (c *Coverage) skipArchived(name string) {
	c.ArchivedSkipped++
	c.ArchivedNames = append(c.ArchivedNames, name)
}

// done puts the names in order and cuts them to archivedNames; the
// listing's pages may arrive in any order.
func (c *Coverage) done() {
	slices.SortFunc(c.ArchivedNames, byName)
	if len(c.ArchivedNames) > archivedNames {
		c.ArchivedNames = c.ArchivedNames[:archivedNames]
	}
}

// repoArchived reads whether the one repository a report names is
// archived (GET /repos), so the report says so rather than answering as
// for any other. stopped: the run stopped before GitHub answered.
func repoArchived(run *fanout.Run, c *github.Client, owner, repo string) (archived, stopped bool, err error) {
	err = run.Call(run.Context(), func(ctx context.Context) (github.Meta, error) {
		r, m, err := c.GetRepo(ctx, owner, repo)
		archived = r.GetArchived()
		return m, err
	})
	if isStopped(run, err) {
		return false, true, nil
	}
	return archived, false, err
}

// isStopped reports whether err means the run stopped (a bound, a rate
// limit, cancellation) rather than GitHub refusing.
func isStopped(run *fanout.Run, err error) bool {
	return errors.Is(err, fanout.ErrStopped) || err != nil && run.Stopped() != ""
}
