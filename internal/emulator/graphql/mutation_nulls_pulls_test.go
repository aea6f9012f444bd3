package graphql_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The nullCases rows of the pull request mutations and transferIssue.
func init() { maps.Copy(nullCases, pullNullCases) }

// reviewRequested reads who a pull request's reviews are requested from.
const reviewRequested = `... on PullRequest { reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } ... on Team { slug } } } } }`

var pullNullCases = map[string]nullCase{
	// The pull request's head is behind main; either null is the default:
	// no head check, and a merge of main into the head.
	"updatePullRequestBranch": {token: seed.DemoTokenAlice, created: "pullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, head, branch := w.behindPull(t)
			return nullRun{input: map[string]any{"pullRequestId": pr, "expectedHeadOid": head, "updateMethod": "MERGE"},
				vars: map[string]string{"BRANCH": branch}}
		},
		fields: map[string]nullWant{
			"expectedHeadOid": {read: mergedIn, want: `{"headRef":{"target":{"messageHeadline":"Merge branch 'main' into $BRANCH"}}}`},
			"updateMethod":    {read: mergedIn, want: `{"headRef":{"target":{"messageHeadline":"Merge branch 'main' into $BRANCH"}}}`},
		}},
	// dave opens the pull request from his fork, where maintainerCanModify
	// takes effect.
	"createPullRequest": {token: seed.DemoTokenDave, created: "pullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			fork, branch := w.forkBranch(t)
			return nullRun{input: map[string]any{"repositoryId": w.repo, "baseRefName": state.RepoDefaultBranch,
				"headRefName": "dave:" + branch, "headRepositoryId": fork, "title": "Nulls", "body": "b", "draft": true,
				"maintainerCanModify": false}}
		},
		// A create-mutation's null optional field is its default.
		fields: map[string]nullWant{
			"body":                {read: `... on PullRequest { body }`, want: `{"body":""}`},
			"draft":               {read: `... on PullRequest { isDraft }`, want: `{"isDraft":false}`},
			"headRepositoryId":    {read: `... on PullRequest { headRepository { nameWithOwner } }`, want: `{"headRepository":{"nameWithOwner":"dave/widgets"}}`},
			"maintainerCanModify": {read: `... on PullRequest { maintainerCanModify }`, want: `{"maintainerCanModify":true}`},
		}},
	"updatePullRequest": {token: seed.DemoTokenAlice, created: "pullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr := w.forkPull(t)
			triage := map[string]any{"assigneeIds": []string{w.alice}, "labelIds": []string{w.bug}, "milestoneId": w.milestone}
			w.mutate(t, seed.DemoTokenAlice, "updatePullRequest", map[string]any{"pullRequestId": pr, "body": "old body",
				"assigneeIds": triage["assigneeIds"], "labelIds": triage["labelIds"], "milestoneId": w.milestone})
			return nullRun{input: map[string]any{"pullRequestId": pr, "title": "Renamed", "body": "new body",
				"baseRefName": state.RepoDefaultBranch, "state": "OPEN", "maintainerCanModify": false,
				"assigneeIds": triage["assigneeIds"], "labelIds": triage["labelIds"], "milestoneId": w.milestone}}
		},
		// As updateIssue's.
		fields: map[string]nullWant{
			"assigneeIds": {read: `... on PullRequest { assignees(first: 5) { nodes { login } } }`, want: `{"assignees":{"nodes":[]}}`},
			"baseRefName": {refused: "Base ref must be a branch"},
			"body":        {read: `... on PullRequest { body }`, want: `{"body":""}`},
			"labelIds":    {read: `... on PullRequest { labels(first: 5) { nodes { name } } }`, want: `{"labels":{"nodes":[]}}`},
			// A flag with nothing to clear: left as the fork gave it.
			"maintainerCanModify": {read: `... on PullRequest { maintainerCanModify }`, want: `{"maintainerCanModify":true}`},
			"milestoneId":         {read: `... on PullRequest { milestone { title } }`, want: `{"milestone":null}`},
			// No classic project exists: nothing to read but the title.
			"projectIds": {read: `... on PullRequest { title }`, want: `{"title":"Renamed"}`},
			"state":      {refused: "State can't be blank"},
			"title":      {refused: "Title can't be blank"},
		}},
	// bob is asked first; then carol and the maintainers, added to him.
	"requestReviews": {token: seed.DemoTokenAlice, created: "pullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, _ := w.freshPull(t)
			d := w.data(t, seed.DemoTokenAlice, `{ bob: user(login: "bob") { id } carol: user(login: "carol") { id }
				organization(login: "acme") { team(slug: "maintainers") { id } } }`, nil)
			w.mutate(t, seed.DemoTokenAlice, "requestReviews", map[string]any{"pullRequestId": pr, "userIds": []any{dig(d, "bob", "id")}})
			return nullRun{input: map[string]any{"pullRequestId": pr, "userIds": []any{dig(d, "carol", "id")},
				"teamIds": []any{dig(d, "organization", "team", "id")}, "union": true}}
		},
		fields: map[string]nullWant{
			"teamIds": {read: reviewRequested,
				want: `{"reviewRequests":{"nodes":[{"requestedReviewer":{"login":"bob"}},{"requestedReviewer":{"login":"carol"}}]}}`},
			// union's default, false: the requests replace bob's.
			"union": {read: reviewRequested,
				want: `{"reviewRequests":{"nodes":[{"requestedReviewer":{"login":"carol"}},{"requestedReviewer":{"slug":"maintainers"}}]}}`},
			"userIds": {read: reviewRequested,
				want: `{"reviewRequests":{"nodes":[{"requestedReviewer":{"login":"bob"}},{"requestedReviewer":{"slug":"maintainers"}}]}}`},
		}},
	// The issue carries a label acme/gadgets lacks.
	"transferIssue": {token: seed.DemoTokenAlice, created: "issue",
		run: func(t *testing.T, w *nullWorld) nullRun {
			label := dig(w.mutate(t, seed.DemoTokenAlice, "createLabel", map[string]any{"repositoryId": w.repo,
				"name": w.unique("moving"), "color": "ff0000"}, "label { id }"), "label", "id")
			issue := dig(w.mutate(t, seed.DemoTokenAlice, "createIssue", map[string]any{"repositoryId": w.repo, "title": "Moving",
				"labelIds": []any{label}}, "issue { id }"), "issue", "id")
			d := w.data(t, seed.DemoTokenAlice, `{ repository(owner: "acme", name: "gadgets") { id } }`, nil)
			return nullRun{input: map[string]any{"issueId": issue, "repositoryId": dig(d, "repository", "id"), "createLabelsIfMissing": true}}
		},
		fields: map[string]nullWant{
			// The default, false: the missing label is dropped.
			"createLabelsIfMissing": {read: `... on Issue { repository { name } labels(first: 5) { nodes { name } } }`,
				want: `{"repository":{"name":"gadgets"},"labels":{"nodes":[]}}`},
		}},
}

// forkBranch commits a file on a new branch of dave's fork of acme/widgets
// and returns the fork's node id and the branch.
func (w *nullWorld) forkBranch(t *testing.T) (fork, branch string) {
	t.Helper()
	st := w.emu.State()
	st.Lock()
	repo := st.Repo("dave", "widgets")
	branch = w.unique("fork")
	path := "nulls/" + branch + ".txt"
	st.Commit(repo, branch, st.Account("dave"), seed.DemoNow(), "Add "+path, map[string]*string{path: new("fork\n")})
	st.Unlock()
	d := w.data(t, seed.DemoTokenDave, `{ repository(owner: "dave", name: "widgets") { id } }`, nil)
	return dig(d, "repository", "id").(string), branch
}

// forkPull opens a pull request by dave from a branch of his fork, which
// maintainers may modify, and returns its node id.
func (w *nullWorld) forkPull(t *testing.T) string {
	t.Helper()
	fork, branch := w.forkBranch(t)
	d := w.mutate(t, seed.DemoTokenDave, "createPullRequest", map[string]any{"repositoryId": w.repo, "baseRefName": state.RepoDefaultBranch,
		"headRefName": branch, "headRepositoryId": fork, "title": "From the fork"}, "pullRequest { id }")
	return dig(d, "pullRequest", "id").(string)
}

// mergedIn reads the headline of a pull request's head commit.
const mergedIn = `... on PullRequest { headRef { target { ... on Commit { messageHeadline } } } }`

// behindPull is a fresh pull request whose head branch main has since
// moved past: its id, head sha and head branch.
func (w *nullWorld) behindPull(t *testing.T) (id, head, branch string) {
	t.Helper()
	id, head, path := w.freshPullAt(t)
	branch = strings.TrimSuffix(strings.TrimPrefix(path, "nulls/"), ".txt")
	st := w.emu.State()
	st.Lock()
	defer st.Unlock()
	main := "main/" + branch + ".txt"
	st.Commit(st.Repo("acme", "widgets"), state.RepoDefaultBranch, st.Account("alice"), seed.DemoNow(), "Add "+main, map[string]*string{main: new("main\n")})
	return id, head, branch
}
