// Package admin is the admin toolset: a repository's labels and
// milestones, and deleting issues. Its writes change what every issue of
// the repository can name (or remove an issue for good), so it is opt-in
// (--toolsets admin) and never in the default set.
package admin

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Toolset is this toolset's name.
const Toolset = "admin"

// Tools builds the admin tools over a Service.
type Tools struct{ *toolkit.Service }

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{s}
	return []tooldef.Spec{t.ManageLabels(), t.ManageMilestones(), t.DeleteIssue()}
}

// forget drops the names this Service remembers for the repository, for
// the write credential and the read one: a label or milestone created,
// renamed or deleted here makes them stale, and the issue tools skip
// their preflight on what they remember.
func (s *Tools) forget(ctx context.Context, c *github.Client, owner, repo string) {
	keys := []string{toolkit.KnownKey(c, owner, repo)}
	if rc, err := s.Client(ctx, owner, tooldef.Read); err == nil && rc != nil {
		keys = append(keys, toolkit.KnownKey(rc, owner, repo))
	}
	s.Known().Lock()
	defer s.Known().Unlock()
	for _, k := range keys {
		s.Known().Drop(k)
	}
}

// repoMissing turns a 404 met while the repository itself is in doubt
// into repo_not_found, with a search of the owner's issues to find it.
func repoMissing(err error, owner, repo string) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeRepoNotFound
	e.Message = fmt.Sprintf("%s/%s does not exist or is not visible to this credential", owner, repo)
	return e.WithRepair(contract.Repair{NextStep: "search " + owner + "'s issues: each row names its repository",
		Tool: toolkit.NameSearchIssues, Arguments: map[string]any{"owner": owner, "state": "all"}})
}

// absentOrRepoMissing decides what a 404 on a label or milestone means:
// the repository answers, so only the object is absent (nil), or the
// repository itself is not there (repo_not_found). GitHub's 404 says the
// same for both.
func absentOrRepoMissing(ctx context.Context, c *github.Client, owner, repo string) error {
	if _, _, err := c.GetRepo(ctx, owner, repo); err != nil {
		return repoMissing(err, owner, repo)
	}
	return nil
}

// isNotFound reports whether err is GitHub's 404.
func isNotFound(err error) bool { return toolkit.GitHubCode(err) == github.NotFound }

// writeLost finishes the envelope of a write that may have been applied
// (no answer, an unreadable answer, a 5xx). Every action of these tools
// reads before it writes and answers no_op when the state already holds,
// so the same call is the safe way to find out and finish: temporary,
// with that call as the repair.
func writeLost(err error, tool string, in any) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	if toolkit.MayHaveWritten(e) {
		e.Temporary = true
		e.Repair = &contract.Repair{NextStep: "call again with the same arguments: ghgate reads first, so a write that landed answers no_op",
			Tool: tool, Arguments: in}
	}
	return e
}

// notStarted is [toolkit.NotStarted] for a read made before the write.
func notStarted(err error) error { return toolkit.NotStarted(err) }

// refuse builds a refusal made before anything was written.
func refuse(code contract.Code, field, reason, format string, args ...any) *contract.Error {
	e := contract.Errorf(code, format, args...)
	if field != "" {
		e.WithField(field, reason)
	}
	e.Settlement = contract.NotStarted
	return e
}
