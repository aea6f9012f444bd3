package graphql

import (
	"slices"
	"strconv"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// commitRef is a commit in a repository: GraphQL's Commit, which reaches
// its repository's statuses and check runs.
type commitRef struct {
	repo   *state.Repo
	commit *state.GitCommit
}

// rollup is a commit's StatusCheckRollup: its latest status per context
// and its check runs.
type rollup struct {
	repo *state.Repo
	sha  string
}

// contexts lists the rollup's check runs, then its statuses.
func (ro *rollup) contexts() []any {
	g := ro.repo.Git
	var out []any
	for _, cr := range g.CheckRuns[ro.sha] {
		out = append(out, cr)
	}
	for _, st := range state.LatestStatuses(g.Statuses[ro.sha]) {
		out = append(out, st)
	}
	return out
}

// rollupConnection is StatusCheckRollupContextConnection: a page of
// contexts and counts over all of them.
type rollupConnection struct {
	*connection
	all []any
}

// stateCount is CheckRunStateCount or StatusContextStateCount.
type stateCount struct {
	state string
	count int
}

// checkSuite stands for a check run's suite and workflow run, which the
// emulator does not keep apart from the run.
type checkSuite struct {
	repo *state.Repo
	run  *state.CheckRun
}

// workflow is an Actions workflow: the one run belongs to, or one known
// only by name when the check run was reported without a run.
type workflow struct {
	repo *state.Repo
	name string
	run  *state.WorkflowRun
}

// isRequiredArgs is the argument of CheckRun.isRequired and
// StatusContext.isRequired.
type isRequiredArgs struct {
	PullRequestID     *string `json:"pullRequestId"`
	PullRequestNumber *int    `json:"pullRequestNumber"`
}

func registerCommits(r *resolvers) {
	objectType(r, func(*commitRef) string { return "Commit" })
	const t = "Commit"
	resolve(r, t+".id", func(_ *gqlContext, c *commitRef) (any, error) {
		return state.NodeID("C", c.repo.ID) + c.commit.SHA[:10], nil
	})
	resolve(r, t+".oid", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.SHA, nil })
	resolve(r, t+".abbreviatedOid", func(_ *gqlContext, c *commitRef) (any, error) { return state.ShortSHA(c.commit.SHA), nil })
	resolve(r, t+".message", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.Message, nil })
	resolve(r, t+".messageHeadline", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.Headline(), nil })
	resolve(r, t+".messageBody", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.Body(), nil })
	resolve(r, t+".committedDate", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.Committer.When, nil })
	resolve(r, t+".authoredDate", func(_ *gqlContext, c *commitRef) (any, error) { return c.commit.Author.When, nil })
	resolve(r, t+".author", func(_ *gqlContext, c *commitRef) (any, error) { return &c.commit.Author, nil })
	resolve(r, t+".committer", func(_ *gqlContext, c *commitRef) (any, error) { return &c.commit.Committer, nil })
	resolveArgs(r, t+".authors", func(x *gqlContext, c *commitRef, a connArgs) (any, error) {
		return pageOf(x, []*state.GitSignature{&c.commit.Author}, a)
	})
	resolve(r, t+".url", func(x *gqlContext, c *commitRef) (any, error) {
		return x.webURL("/" + c.repo.FullName() + "/commit/" + c.commit.SHA), nil
	})
	resolve(r, t+".repository", func(_ *gqlContext, c *commitRef) (any, error) { return c.repo, nil })
	resolve(r, t+".statusCheckRollup", func(_ *gqlContext, c *commitRef) (any, error) {
		ro := &rollup{repo: c.repo, sha: c.commit.SHA}
		if len(ro.contexts()) == 0 {
			return nil, nil // GitHub has no rollup for a commit without checks
		}
		return ro, nil
	})

	objectType(r, func(*state.GitSignature) string { return "GitActor" })
	resolve(r, "GitActor.name", func(_ *gqlContext, s *state.GitSignature) (any, error) { return s.Name, nil })
	resolve(r, "GitActor.email", func(_ *gqlContext, s *state.GitSignature) (any, error) { return s.Email, nil })
	resolve(r, "GitActor.date", func(_ *gqlContext, s *state.GitSignature) (any, error) { return s.When, nil })
	resolve(r, "GitActor.user", func(_ *gqlContext, s *state.GitSignature) (any, error) { return s.User, nil })

	objectType(r, func(*rollup) string { return "StatusCheckRollup" })
	resolve(r, "StatusCheckRollup.state", func(_ *gqlContext, ro *rollup) (any, error) {
		return state.EnumValue(ro.repo.Git.ChecksState(ro.sha)), nil
	})
	resolveArgs(r, "StatusCheckRollup.contexts", func(x *gqlContext, ro *rollup, a connArgs) (any, error) {
		all := ro.contexts()
		if a.First == nil && a.Last == nil {
			// gh asks for the counts alone, without paging.
			return &rollupConnection{connection: &connection{total: len(all)}, all: all}, nil
		}
		c, err := pageOf(x, all, a)
		if err != nil {
			return nil, err
		}
		return &rollupConnection{connection: c, all: all}, nil
	})
	const rc = "StatusCheckRollupContextConnection"
	resolve(r, rc+".nodes", func(_ *gqlContext, c *rollupConnection) (any, error) { return c.nodes, nil })
	resolve(r, rc+".totalCount", func(_ *gqlContext, c *rollupConnection) (any, error) { return c.total, nil })
	resolve(r, rc+".pageInfo", func(_ *gqlContext, c *rollupConnection) (any, error) { return c.connection, nil })
	resolve(r, rc+".checkRunCount", func(_ *gqlContext, c *rollupConnection) (any, error) {
		n := 0
		for _, v := range c.all {
			if _, ok := v.(*state.CheckRun); ok {
				n++
			}
		}
		return n, nil
	})
	resolve(r, rc+".statusContextCount", func(_ *gqlContext, c *rollupConnection) (any, error) {
		n := 0
		for _, v := range c.all {
			if _, ok := v.(*state.CommitStatus); ok {
				n++
			}
		}
		return n, nil
	})
	resolve(r, rc+".checkRunCountsByState", func(_ *gqlContext, c *rollupConnection) (any, error) {
		return countStates(c.all, func(v any) (string, bool) {
			cr, ok := v.(*state.CheckRun)
			if !ok {
				return "", false
			}
			return state.CheckRunState(cr), true
		}), nil
	})
	resolve(r, rc+".statusContextCountsByState", func(_ *gqlContext, c *rollupConnection) (any, error) {
		return countStates(c.all, func(v any) (string, bool) {
			st, ok := v.(*state.CommitStatus)
			if !ok {
				return "", false
			}
			return state.EnumValue(st.State), true
		}), nil
	})
	for _, typ := range []string{"CheckRunStateCount", "StatusContextStateCount"} {
		objectType(r, func(*stateCount) string { return typ })
		resolve(r, typ+".state", func(_ *gqlContext, s *stateCount) (any, error) { return s.state, nil })
		resolve(r, typ+".count", func(_ *gqlContext, s *stateCount) (any, error) { return s.count, nil })
	}

	objectType(r, func(*state.CheckRun) string { return "CheckRun" })
	const cr = "CheckRun"
	resolve(r, cr+".id", func(_ *gqlContext, c *state.CheckRun) (any, error) { return c.NodeID, nil })
	resolve(r, cr+".databaseId", func(_ *gqlContext, c *state.CheckRun) (any, error) { return c.ID, nil })
	resolve(r, cr+".name", func(_ *gqlContext, c *state.CheckRun) (any, error) { return c.Name, nil })
	resolve(r, cr+".status", func(_ *gqlContext, c *state.CheckRun) (any, error) { return state.EnumValue(c.Status), nil })
	resolve(r, cr+".conclusion", func(_ *gqlContext, c *state.CheckRun) (any, error) {
		if c.Conclusion == nil {
			return nil, nil
		}
		return state.EnumValue(*c.Conclusion), nil
	})
	resolve(r, cr+".startedAt", func(_ *gqlContext, c *state.CheckRun) (any, error) { return c.StartedAt, nil })
	resolve(r, cr+".completedAt", func(_ *gqlContext, c *state.CheckRun) (any, error) { return c.CompletedAt, nil })
	resolve(r, cr+".detailsUrl", func(x *gqlContext, c *state.CheckRun) (any, error) { return x.webURL(wire.CheckRunPath(x.st, c)), nil })
	resolve(r, cr+".url", func(x *gqlContext, c *state.CheckRun) (any, error) { return x.webURL(wire.CheckRunPath(x.st, c)), nil })
	resolveArgs(r, cr+".isRequired", func(_ *gqlContext, c *state.CheckRun, _ isRequiredArgs) (any, error) {
		return slices.Contains(state.RequiredChecks, c.Name), nil
	})
	resolve(r, cr+".checkSuite", func(x *gqlContext, c *state.CheckRun) (any, error) {
		return &checkSuite{repo: state.RepoOfCheckRun(x.st, c), run: c}, nil
	})
	objectType(r, func(*checkSuite) string { return "CheckSuite" })
	resolve(r, "CheckSuite.workflowRun", func(_ *gqlContext, s *checkSuite) (any, error) { return s, nil })
	objectType(r, func(*workflow) string { return "Workflow" })
	resolve(r, "Workflow.name", func(_ *gqlContext, w *workflow) (any, error) { return w.name, nil })
	// A suite here is its workflow run too: the emulator keeps one run per
	// suite, so WorkflowRun resolves on the same value.
	resolve(r, "WorkflowRun.workflow", func(_ *gqlContext, s *checkSuite) (any, error) {
		return &workflow{repo: s.repo, name: s.run.Workflow, run: s.run.Run}, nil
	})
	// databaseId and url name the Actions run (the REST run id and its
	// page) when the check run is a job of one; an external app's check
	// run has no run id, and its details page stands in for the url.
	resolve(r, "WorkflowRun.databaseId", func(_ *gqlContext, s *checkSuite) (any, error) {
		if s.run.Run == nil {
			return nil, nil
		}
		return s.run.Run.ID, nil
	})
	resolve(r, "WorkflowRun.url", func(x *gqlContext, s *checkSuite) (any, error) {
		if w := s.run.Run; w != nil {
			return x.webURL("/" + w.Repo.FullName() + "/actions/runs/" + strconv.FormatInt(w.ID, 10)), nil
		}
		return x.webURL(wire.CheckRunPath(x.st, s.run)), nil
	})
	resolve(r, "WorkflowRun.event", func(_ *gqlContext, s *checkSuite) (any, error) {
		if s.run.Run != nil {
			return s.run.Run.Event, nil
		}
		return "pull_request", nil
	})

	objectType(r, func(*state.CommitStatus) string { return "StatusContext" })
	const sc = "StatusContext"
	resolve(r, sc+".id", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.NodeID, nil })
	resolve(r, sc+".context", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.Context, nil })
	resolve(r, sc+".state", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return state.EnumValue(s.State), nil })
	resolve(r, sc+".description", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.Description, nil })
	resolve(r, sc+".targetUrl", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.TargetURL, nil })
	resolve(r, sc+".createdAt", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.CreatedAt, nil })
	resolve(r, sc+".creator", func(_ *gqlContext, s *state.CommitStatus) (any, error) { return s.Creator, nil })
	resolveArgs(r, sc+".isRequired", func(_ *gqlContext, s *state.CommitStatus, _ isRequiredArgs) (any, error) {
		return slices.Contains(state.RequiredChecks, s.Context), nil
	})
}

// countStates counts the contexts pick keys, in order of first appearance.
func countStates(all []any, pick func(any) (string, bool)) []*stateCount {
	var out []*stateCount
	for _, v := range all {
		name, ok := pick(v)
		if !ok {
			continue
		}
		i := slices.IndexFunc(out, func(s *stateCount) bool { return s.state == name })
		if i < 0 {
			out = append(out, &stateCount{state: name})
			i = len(out) - 1
		}
		out[i].count++
	}
	return out
}
