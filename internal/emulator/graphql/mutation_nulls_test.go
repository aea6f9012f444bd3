package graphql_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// nullRun is one valid input for a mutation, built afresh for each field
// the test sets to null: every field under test holds a value in it where
// one can be given, so that null is a change.
type nullRun struct {
	input map[string]any
	// target is the node read back; "" reads the object the payload's
	// created field names.
	target string
	// vars are substituted into the reads and the expectations ($NAME).
	vars map[string]string
}

// nullCase is how TestMutationNulls drives one mutation.
type nullCase struct {
	token   string
	created string // the payload field naming the object made or changed
	run     func(t *testing.T, w *nullWorld) nullRun
	fields  map[string]nullWant
}

// nullWant is what a mutation does with one of its input fields set to
// null: either it succeeds and read (a selection on node(id:)) gives want,
// or it is refused with GitHub's message.
type nullWant struct {
	read, want string
	refused    string
	// run, where the field needs an input of its own (one the case's
	// run cannot give with the others), replaces the case's.
	run func(t *testing.T, w *nullWorld) nullRun
}

// nullCases has a row for every nullable input field of every served
// mutation (clientMutationId aside: each case also sends it as null and
// expects it echoed as null). A served nullable field without a row fails
// TestMutationNulls.
var nullCases = map[string]nullCase{
	"createIssue": {token: seed.DemoTokenAlice, created: "issue",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"repositoryId": w.repo, "title": "Nulls", "body": "b",
				"assigneeIds": []string{w.alice}, "labelIds": []string{w.bug}, "milestoneId": w.milestone, "parentIssueId": w.parent}}
		},
		fields: map[string]nullWant{
			"assigneeIds":   {read: `... on Issue { assignees(first: 5) { nodes { login } } }`, want: `{"assignees":{"nodes":[]}}`},
			"body":          {read: `... on Issue { body }`, want: `{"body":""}`},
			"issueTemplate": {read: `... on Issue { title body }`, want: `{"title":"Nulls","body":"b"}`},
			"labelIds":      {read: `... on Issue { labels(first: 5) { nodes { name } } }`, want: `{"labels":{"nodes":[]}}`},
			"milestoneId":   {read: `... on Issue { milestone { title } }`, want: `{"milestone":null}`},
			"parentIssueId": {read: `... on Issue { parent { number } }`, want: `{"parent":null}`},
			// No classic project exists: nothing to read but the issue.
			"projectIds": {read: `... on Issue { title }`, want: `{"title":"Nulls"}`},
		}},
	"updateIssue": {token: seed.DemoTokenAlice, created: "issue",
		run: func(t *testing.T, w *nullWorld) nullRun {
			id := w.freshIssue(t)
			return nullRun{input: map[string]any{"id": id, "title": "Renamed", "body": "new body", "state": "OPEN",
				"assigneeIds": []string{w.alice}, "labelIds": []string{w.bug}, "milestoneId": w.milestone}}
		},
		fields: map[string]nullWant{
			"assigneeIds": {read: `... on Issue { assignees(first: 5) { nodes { login } } }`, want: `{"assignees":{"nodes":[]}}`},
			"body":        {read: `... on Issue { body }`, want: `{"body":""}`},
			"labelIds":    {read: `... on Issue { labels(first: 5) { nodes { name } } }`, want: `{"labels":{"nodes":[]}}`},
			"milestoneId": {read: `... on Issue { milestone { title } }`, want: `{"milestone":null}`},
			"projectIds":  {read: `... on Issue { title }`, want: `{"title":"Renamed"}`},
			"state":       {refused: "State can't be blank"},
			"title":       {refused: "Title can't be blank"},
		}},
	"closeIssue": {token: seed.DemoTokenAlice, created: "issue",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"issueId": w.freshIssue(t), "stateReason": "NOT_PLANNED"}}
		},
		fields: map[string]nullWant{
			"duplicateIssueId": {read: `... on Issue { state stateReason }`, want: `{"state":"CLOSED","stateReason":"NOT_PLANNED"}`},
			"stateReason":      {read: `... on Issue { state stateReason }`, want: `{"state":"CLOSED","stateReason":"COMPLETED"}`},
		}},
	"lockLockable": {token: seed.DemoTokenAlice,
		run: func(t *testing.T, w *nullWorld) nullRun {
			id := w.freshIssue(t)
			return nullRun{input: map[string]any{"lockableId": id, "lockReason": "SPAM"}, target: id}
		},
		fields: map[string]nullWant{
			"lockReason": {read: `... on Issue { locked activeLockReason }`, want: `{"locked":true,"activeLockReason":null}`},
		}},
	"createLabel": {token: seed.DemoTokenAlice, created: "label",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"repositoryId": w.repo, "name": w.unique("nulls"), "color": "ff0000", "description": "d"}}
		},
		fields: map[string]nullWant{
			"description": {read: `... on Label { description }`, want: `{"description":null}`},
		}},
	"updateLabel": {token: seed.DemoTokenAlice, created: "label",
		run: func(t *testing.T, w *nullWorld) nullRun {
			var d struct {
				CreateLabel struct{ Label struct{ ID string } }
			}
			w.query(seed.DemoTokenAlice, `mutation($input: CreateLabelInput!) { createLabel(input: $input) { label { id } } }`,
				map[string]any{"input": map[string]any{"repositoryId": w.repo, "name": w.unique("nulls"), "color": "ff0000", "description": "d"}}).ok(t, &d)
			name := w.unique("renamed")
			return nullRun{input: map[string]any{"id": d.CreateLabel.Label.ID, "name": name, "color": "00ff00", "description": "e"},
				vars: map[string]string{"NAME": name}}
		},
		fields: map[string]nullWant{
			"color":       {refused: "Color is invalid"},
			"description": {read: `... on Label { name description }`, want: `{"name":"$NAME","description":null}`},
			"name":        {refused: "Name can't be blank"},
		}},
	"createLinkedBranch": {token: seed.DemoTokenAlice, created: "linkedBranch",
		run: func(t *testing.T, w *nullWorld) nullRun {
			id := w.freshIssue(t)
			return nullRun{input: map[string]any{"issueId": id, "oid": w.mainOid, "name": w.unique("nulls"), "repositoryId": w.repo},
				vars: map[string]string{"NUMBER": w.number(t, id)}}
		},
		fields: map[string]nullWant{
			// GitHub names the branch after the issue: number and title.
			"name":         {read: `... on LinkedBranch { ref { name } }`, want: `{"ref":{"name":"$NUMBER-fresh"}}`},
			"repositoryId": {read: `... on LinkedBranch { ref { repository { name } } }`, want: `{"ref":{"repository":{"name":"widgets"}}}`},
		}},
	"addProjectV2DraftIssue": {token: seed.DemoTokenAlice, created: "projectItem",
		run: func(t *testing.T, w *nullWorld) nullRun {
			return nullRun{input: map[string]any{"projectId": w.project, "title": "Draft", "body": "b", "assigneeIds": []string{w.alice}}}
		},
		fields: map[string]nullWant{
			"assigneeIds": {read: `... on ProjectV2Item { content { ... on DraftIssue { assignees(first: 5) { nodes { login } } } } }`,
				want: `{"content":{"assignees":{"nodes":[]}}}`},
			"body": {read: `... on ProjectV2Item { content { ... on DraftIssue { body } } }`, want: `{"content":{"body":""}}`},
		}},
	"addPullRequestReview": {token: seed.DemoTokenBob,
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, head := w.freshPull(t)
			return nullRun{input: map[string]any{"pullRequestId": pr, "body": "b", "event": "APPROVE", "commitOID": head},
				target: pr, vars: map[string]string{"HEAD": head}}
		},
		fields: map[string]nullWant{
			"body":      {read: lastReview("body state"), want: `{"reviews":{"nodes":[{"body":"","state":"APPROVED"}]}}`},
			"comments":  {read: lastReview("comments(first: 5) { totalCount }"), want: `{"reviews":{"nodes":[{"comments":{"totalCount":0}}]}}`},
			"commitOID": {read: lastReview("commit { oid }"), want: `{"reviews":{"nodes":[{"commit":{"oid":"$HEAD"}}]}}`},
			"event":     {read: lastReview("body state"), want: `{"reviews":{"nodes":[{"body":"b","state":"PENDING"}]}}`},
			"threads":   {read: lastReview("comments(first: 5) { totalCount }"), want: `{"reviews":{"nodes":[{"comments":{"totalCount":0}}]}}`},
		}},
	"addPullRequestReviewThread": {token: seed.DemoTokenBob,
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, _, path := w.freshPullAt(t)
			return nullRun{input: map[string]any{"pullRequestId": pr, "pullRequestReviewId": w.pendingReview(t, pr), "path": path, "body": "t",
				"line": 2, "side": "RIGHT", "subjectType": "LINE"}, target: pr, vars: map[string]string{"PATH": path}}
		},
		// startLine and startSide are not sent: null there is as if not
		// sent, a single-line thread.
		fields: map[string]nullWant{
			"line":                {refused: "line is required"},
			"pullRequestId":       {read: lastReview(threadComment), want: threadOnLine2},
			"pullRequestReviewId": {read: lastReview(threadComment), want: threadOnLine2},
			"side":                {read: lastReview(threadComment), want: threadOnLine2},
			"startLine":           {read: lastReview(threadComment), want: threadOnLine2},
			"startSide":           {read: lastReview(threadComment), want: threadOnLine2},
			"subjectType":         {read: lastReview(threadComment), want: threadOnLine2},
		}},
	"addPullRequestReviewThreadReply": {token: seed.DemoTokenBob,
		run: func(t *testing.T, w *nullWorld) nullRun {
			thread, pr := w.freshThread(t)
			return nullRun{input: map[string]any{"pullRequestReviewThreadId": thread, "body": "r", "pullRequestReviewId": w.pendingReview(t, pr)},
				target: thread}
		},
		fields: map[string]nullWant{
			"pullRequestReviewId": {read: `... on PullRequestReviewThread { comments(last: 1) { nodes { body } } }`, want: `{"comments":{"nodes":[{"body":"r"}]}}`},
		}},
	"submitPullRequestReview": {token: seed.DemoTokenBob,
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, _ := w.freshPull(t)
			return nullRun{input: map[string]any{"pullRequestId": pr, "pullRequestReviewId": w.pendingReview(t, pr),
				"event": "COMMENT", "body": "s"}, target: pr}
		},
		fields: map[string]nullWant{
			"body":                {read: lastReview("body state"), want: `{"reviews":{"nodes":[{"body":"pending","state":"COMMENTED"}]}}`},
			"pullRequestId":       {read: lastReview("body state"), want: `{"reviews":{"nodes":[{"body":"s","state":"COMMENTED"}]}}`},
			"pullRequestReviewId": {read: lastReview("body state"), want: `{"reviews":{"nodes":[{"body":"s","state":"COMMENTED"}]}}`},
		}},
	"mergePullRequest": {token: seed.DemoTokenAlice, created: "pullRequest",
		run: func(t *testing.T, w *nullWorld) nullRun {
			pr, head := w.freshPull(t)
			return nullRun{input: map[string]any{"pullRequestId": pr, "mergeMethod": "SQUASH", "commitHeadline": "h", "commitBody": "cb",
				"expectedHeadOid": head}}
		},
		fields: map[string]nullWant{
			"authorEmail":     {read: `... on PullRequest { merged mergeCommit { messageHeadline } }`, want: `{"merged":true,"mergeCommit":{"messageHeadline":"h"}}`},
			"commitBody":      {read: `... on PullRequest { merged mergeCommit { messageHeadline } }`, want: `{"merged":true,"mergeCommit":{"messageHeadline":"h"}}`},
			"commitHeadline":  {read: `... on PullRequest { merged }`, want: `{"merged":true}`},
			"expectedHeadOid": {read: `... on PullRequest { merged mergeCommit { messageHeadline } }`, want: `{"merged":true,"mergeCommit":{"messageHeadline":"h"}}`},
			"mergeMethod":     {read: `... on PullRequest { merged }`, want: `{"merged":true}`},
		}},
	"updateProjectV2ItemPosition": {token: seed.DemoTokenAlice,
		run: func(t *testing.T, w *nullWorld) nullRun {
			items := w.projectItems(t)
			return nullRun{input: map[string]any{"projectId": w.project, "itemId": items[2], "afterId": items[0]},
				target: w.project, vars: map[string]string{"ITEM": items[2]}}
		},
		fields: map[string]nullWant{
			// No item to follow: the item moves to the top.
			"afterId": {read: `... on ProjectV2 { items(first: 1) { nodes { id } } }`, want: `{"items":{"nodes":[{"id":"$ITEM"}]}}`},
		}},
}

// idOnlyCases drive the mutations whose one nullable input field is
// clientMutationId: each gives a token and a valid input (setting up what
// the mutation needs), which the test sends with clientMutationId null.
var idOnlyCases = map[string]func(t *testing.T, w *nullWorld) (token string, input map[string]any){
	"addComment": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"subjectId": w.freshIssue(t), "body": "c"}
	},
	"addLabelsToLabelable": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"labelableId": w.freshIssue(t), "labelIds": []string{w.bug}}
	},
	"removeLabelsFromLabelable": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"labelableId": w.freshIssue(t), "labelIds": []string{w.bug}}
	},
	"replaceActorsForAssignable": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"assignableId": w.freshIssue(t), "actorIds": []string{}}
	},
	"deleteIssue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"issueId": w.freshIssue(t)}
	},
	"pinIssue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"issueId": w.freshIssue(t)}
	},
	"unpinIssue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		id := w.freshIssue(t)
		w.mutate(t, seed.DemoTokenAlice, "pinIssue", map[string]any{"issueId": id})
		return seed.DemoTokenAlice, map[string]any{"issueId": id}
	},
	"reopenIssue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		id := w.freshIssue(t)
		w.mutate(t, seed.DemoTokenAlice, "closeIssue", map[string]any{"issueId": id})
		return seed.DemoTokenAlice, map[string]any{"issueId": id}
	},
	"unlockLockable": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		id := w.freshIssue(t)
		w.mutate(t, seed.DemoTokenAlice, "lockLockable", map[string]any{"lockableId": id})
		return seed.DemoTokenAlice, map[string]any{"lockableId": id}
	},
	"deleteLabel": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		d := w.mutate(t, seed.DemoTokenAlice, "createLabel", map[string]any{"repositoryId": w.repo, "name": w.unique("nulls"), "color": "ff0000"}, "label { id }")
		return seed.DemoTokenAlice, map[string]any{"id": dig(d, "label", "id")}
	},
	"deleteLinkedBranch": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		d := w.mutate(t, seed.DemoTokenAlice, "createLinkedBranch", map[string]any{"issueId": w.freshIssue(t), "oid": w.mainOid}, "linkedBranch { id }")
		return seed.DemoTokenAlice, map[string]any{"linkedBranchId": dig(d, "linkedBranch", "id")}
	},
	"closePullRequest": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		pr, _ := w.freshPull(t)
		return seed.DemoTokenAlice, map[string]any{"pullRequestId": pr}
	},
	"reopenPullRequest": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		pr, _ := w.freshPull(t)
		w.mutate(t, seed.DemoTokenAlice, "closePullRequest", map[string]any{"pullRequestId": pr})
		return seed.DemoTokenAlice, map[string]any{"pullRequestId": pr}
	},
	"convertPullRequestToDraft": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		pr, _ := w.freshPull(t)
		return seed.DemoTokenAlice, map[string]any{"pullRequestId": pr}
	},
	"markPullRequestReadyForReview": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		pr, _ := w.freshPull(t)
		w.mutate(t, seed.DemoTokenAlice, "convertPullRequestToDraft", map[string]any{"pullRequestId": pr})
		return seed.DemoTokenAlice, map[string]any{"pullRequestId": pr}
	},
	"deletePullRequestReview": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		pr, _ := w.freshPull(t)
		return seed.DemoTokenBob, map[string]any{"pullRequestReviewId": w.pendingReview(t, pr)}
	},
	"resolveReviewThread": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		thread, _ := w.freshThread(t)
		return seed.DemoTokenBob, map[string]any{"threadId": thread}
	},
	"unresolveReviewThread": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		thread, _ := w.freshThread(t)
		w.mutate(t, seed.DemoTokenBob, "resolveReviewThread", map[string]any{"threadId": thread})
		return seed.DemoTokenBob, map[string]any{"threadId": thread}
	},
	"addProjectV2ItemById": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "contentId": w.freshIssue(t)}
	},
	"archiveProjectV2Item": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "itemId": w.freshItem(t)}
	},
	"unarchiveProjectV2Item": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		item := w.freshItem(t)
		w.mutate(t, seed.DemoTokenAlice, "archiveProjectV2Item", map[string]any{"projectId": w.project, "itemId": item})
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "itemId": item}
	},
	"deleteProjectV2Item": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "itemId": w.freshItem(t)}
	},
	"updateProjectV2ItemFieldValue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "itemId": w.freshItem(t), "fieldId": w.textField(t),
			"value": map[string]any{"text": "t"}}
	},
	"clearProjectV2ItemFieldValue": func(t *testing.T, w *nullWorld) (string, map[string]any) {
		return seed.DemoTokenAlice, map[string]any{"projectId": w.project, "itemId": w.freshItem(t), "fieldId": w.textField(t)}
	},
}

// nullWorld is the demo world with the ids the runs need.
type nullWorld struct {
	*gqlWorld
	repo, alice, bug, milestone, parent, project, mainOid string
	n                                                     *atomic.Int64
	inputs                                                map[string]string // mutation -> input type
}

func (w *nullWorld) unique(prefix string) string { return fmt.Sprintf("%s-%d", prefix, w.n.Add(1)) }

// data runs a query that must succeed and decodes its data generically.
func (w *nullWorld) data(t *testing.T, token, doc string, vars map[string]any) map[string]any {
	t.Helper()
	var d map[string]any
	w.query(token, doc, vars).ok(t, &d)
	return d
}

// dig follows path (keys and indexes) into decoded JSON; nil where it
// leads nowhere.
func dig(v any, path ...any) any {
	for _, k := range path {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func newNullWorld(t *testing.T) *nullWorld {
	w := &nullWorld{gqlWorld: newDemoWorld(t), n: new(atomic.Int64)}
	d := w.data(t, seed.DemoTokenAlice, `{
  repository(owner: "acme", name: "widgets") {
    id
    labels(first: 1, query: "bug") { nodes { id } }
    milestones(first: 1) { nodes { id } }
    issue(number: 12) { id }
    defaultBranchRef { target { oid } }
  }
  user(login: "alice") { id }
  organization(login: "acme") { projectV2(number: 1) { id } }
}`, nil)
	w.repo = dig(d, "repository", "id").(string)
	w.bug = dig(d, "repository", "labels", "nodes", 0, "id").(string)
	w.milestone = dig(d, "repository", "milestones", "nodes", 0, "id").(string)
	w.parent = dig(d, "repository", "issue", "id").(string)
	w.mainOid = dig(d, "repository", "defaultBranchRef", "target", "oid").(string)
	w.alice = dig(d, "user", "id").(string)
	w.project = dig(d, "organization", "projectV2", "id").(string)
	return w
}

// freshIssue creates an issue with a body, an assignee, a label and a
// milestone, and returns its node id.
func (w *nullWorld) freshIssue(t *testing.T) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenAlice, `mutation($input: CreateIssueInput!) { createIssue(input: $input) { issue { id } } }`,
		map[string]any{"input": map[string]any{"repositoryId": w.repo, "title": "Fresh", "body": "old body",
			"assigneeIds": []string{w.alice}, "labelIds": []string{w.bug}, "milestoneId": w.milestone}})
	return dig(d, "createIssue", "issue", "id").(string)
}

func (w *nullWorld) number(t *testing.T, id string) string {
	d := w.data(t, seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { ... on Issue { number } } }`, map[string]any{"id": id})
	return fmt.Sprint(dig(d, "node", "number"))
}

// freshPull opens a pull request by alice from a new branch that adds a
// file of three lines (a file of its own, since other runs merge theirs),
// and returns its node id and head commit.
func (w *nullWorld) freshPull(t *testing.T) (id, head string) {
	id, head, _ = w.freshPullAt(t)
	return id, head
}

// freshPullAt is freshPull, also returning the path of the file it adds.
func (w *nullWorld) freshPullAt(t *testing.T) (id, head, path string) {
	t.Helper()
	st := w.emu.State()
	st.Lock()
	repo := st.Repo("acme", "widgets")
	branch := w.unique("nulls")
	path = "nulls/" + branch + ".txt"
	st.Commit(repo, branch, st.Account("alice"), seed.DemoNow(), "Add "+path, map[string]*string{path: new("one\ntwo\nthree\n")})
	number := st.CreatePull(repo, st.Account("alice"), "Nulls", nil, repo, branch, state.RepoDefaultBranch, false).Number
	st.Unlock()
	d := w.data(t, seed.DemoTokenAlice, `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { id headRefOid } } }`,
		map[string]any{"n": number})
	return dig(d, "repository", "pullRequest", "id").(string), dig(d, "repository", "pullRequest", "headRefOid").(string), path
}

// threadComment reads the first comment of a review, threadOnLine2 is
// what it must give after addPullRequestReviewThread.
const (
	threadComment = "comments(first: 1) { nodes { path line body } }"
	threadOnLine2 = `{"reviews":{"nodes":[{"comments":{"nodes":[{"path":"$PATH","line":2,"body":"t"}]}}]}}`
)

// lastReview reads a pull request's newest review.
func lastReview(sel string) string {
	return "... on PullRequest { reviews(last: 1) { nodes { " + sel + " } } }"
}

// pendingReview starts a pending review by bob, with the body "pending",
// and returns its node id.
func (w *nullWorld) pendingReview(t *testing.T, pr string) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenBob, `mutation($input: AddPullRequestReviewInput!) { addPullRequestReview(input: $input) { pullRequestReview { id } } }`,
		map[string]any{"input": map[string]any{"pullRequestId": pr, "body": "pending"}})
	return dig(d, "addPullRequestReview", "pullRequestReview", "id").(string)
}

// freshThread opens a review thread by bob on a fresh pull request, in a
// review he submits, and returns the thread's and the pull request's node
// ids.
func (w *nullWorld) freshThread(t *testing.T) (thread, pr string) {
	t.Helper()
	pr, _, path := w.freshPullAt(t)
	review := w.pendingReview(t, pr)
	d := w.data(t, seed.DemoTokenBob, `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`,
		map[string]any{"input": map[string]any{"pullRequestReviewId": review, "path": path, "body": "t", "line": 1}})
	w.data(t, seed.DemoTokenBob, `mutation($input: SubmitPullRequestReviewInput!) { submitPullRequestReview(input: $input) { clientMutationId } }`,
		map[string]any{"input": map[string]any{"pullRequestReviewId": review, "event": "COMMENT"}})
	return dig(d, "addPullRequestReviewThread", "thread", "id").(string), pr
}

// mutate runs a mutation that must succeed, selecting sel (or only
// clientMutationId) of its payload, and returns the payload.
func (w *nullWorld) mutate(t *testing.T, token, name string, input map[string]any, sel ...string) any {
	t.Helper()
	doc := fmt.Sprintf("mutation($input: %s!) { %s(input: $input) { clientMutationId %s } }", w.inputs[name], name, strings.Join(sel, " "))
	return w.data(t, token, doc, map[string]any{"input": input})[name]
}

// freshItem adds a fresh issue to project 1 and returns the item's id.
func (w *nullWorld) freshItem(t *testing.T) string {
	t.Helper()
	d := w.mutate(t, seed.DemoTokenAlice, "addProjectV2ItemById", map[string]any{"projectId": w.project, "contentId": w.freshIssue(t)}, "item { id }")
	return dig(d, "item", "id").(string)
}

// textField is the id of one of project 1's text fields.
func (w *nullWorld) textField(t *testing.T) string {
	t.Helper()
	d := w.data(t, seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { ... on ProjectV2 { fields(first: 50) { nodes { ... on ProjectV2Field { id dataType } } } } } }`,
		map[string]any{"id": w.project})
	for _, f := range dig(d, "node", "fields", "nodes").([]any) {
		if f := f.(map[string]any); f["dataType"] == "TEXT" {
			return f["id"].(string)
		}
	}
	t.Fatal("project 1 has no text field")
	return ""
}

// projectItems lists the node ids of project 1's first items, in order.
func (w *nullWorld) projectItems(t *testing.T) []string {
	d := w.data(t, seed.DemoTokenAlice, `query($id: ID!) { node(id: $id) { ... on ProjectV2 { items(first: 3) { nodes { id } } } } }`,
		map[string]any{"id": w.project})
	var out []string
	for _, n := range dig(d, "node", "items", "nodes").([]any) {
		out = append(out, n.(map[string]any)["id"].(string))
	}
	return out
}

// servedNullables lists, from the pruned schema, every served mutation's
// input type and its nullable fields.
func servedNullables(t *testing.T) (inputs map[string]string, nullable map[string][]string) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "github.graphql", Input: schema.Pruned})
	if err != nil {
		t.Fatal(err)
	}
	inputs, nullable = map[string]string{}, map[string][]string{}
	for _, m := range s.Mutation.Fields {
		if strings.HasPrefix(m.Name, "__") {
			continue
		}
		in := m.Arguments.ForName("input")
		if in == nil {
			t.Fatalf("mutation %s takes no input", m.Name)
		}
		inputs[m.Name] = in.Type.Name()
		for _, f := range s.Types[in.Type.Name()].Fields {
			if !f.Type.NonNull {
				nullable[m.Name] = append(nullable[m.Name], f.Name)
			}
		}
	}
	return inputs, nullable
}

// TestMutationNulls sends each served mutation with each of its nullable
// input fields set to null and reads the object back: null clears the value
// (or, where the field only chooses how to create or change something,
// acts as if it were not sent), or the mutation is refused as GitHub
// refuses it. A nullable field without an expectation fails the test.
func TestMutationNulls(t *testing.T) {
	w := newNullWorld(t)
	inputs, nullable := servedNullables(t)
	w.inputs = inputs
	for m := range idOnlyCases {
		if _, ok := inputs[m]; !ok {
			t.Errorf("idOnlyCases has a row for %s, which the emulator does not serve", m)
		}
	}
	for m, c := range nullCases {
		if _, ok := inputs[m]; !ok {
			t.Errorf("nullCases has a row for %s, which the emulator does not serve", m)
		}
		for f := range c.fields {
			if !slices.Contains(nullable[m], f) {
				t.Errorf("nullCases has a row for %s.%s, which is no nullable field of its input", m, f)
			}
		}
	}
	for m, fields := range nullable {
		c, ok := nullCases[m]
		for _, f := range fields {
			if f == "clientMutationId" {
				continue
			}
			if _, has := c.fields[f]; !ok || !has {
				t.Errorf("%s's input field %s is nullable and has no row in nullCases: say what null does there", m, f)
			}
		}
		idOnly, isIDOnly := idOnlyCases[m]
		if !ok {
			if !isIDOnly {
				t.Errorf("mutation %s has no case in nullCases or idOnlyCases", m)
				continue
			}
			if !slices.Equal(fields, []string{"clientMutationId"}) {
				t.Errorf("%s has nullable input fields %v: move it to nullCases and say what null does there", m, fields)
				continue
			}
			c = nullCase{run: func(t *testing.T, w *nullWorld) nullRun {
				token, input := idOnly(t, w)
				c.token = token
				return nullRun{input: input}
			}}
		}
		t.Run(m, func(t *testing.T) {
			w := &nullWorld{gqlWorld: &gqlWorld{t: t, emu: w.emu, srv: w.srv, count: w.count},
				repo: w.repo, alice: w.alice, bug: w.bug, milestone: w.milestone, parent: w.parent, project: w.project, mainOid: w.mainOid, n: w.n,
				inputs: inputs}
			sel := "clientMutationId"
			if c.created != "" {
				sel += " " + c.created + " { ... on Node { id } }" // a union (ProjectV2FieldConfiguration) too
			}
			doc := fmt.Sprintf("mutation($input: %s!) { %s(input: $input) { %s } }", inputs[m], m, sel)
			for _, f := range fields {
				t.Run(f, func(t *testing.T) {
					w.t = t
					want := c.fields[f]
					newRun := c.run
					if want.run != nil {
						newRun = want.run
					}
					run := newRun(t, w)
					run.input[f] = nil
					res := w.query(c.token, doc, map[string]any{"input": run.input})
					if want.refused != "" {
						what := fmt.Sprintf("%s with %s: null", m, f)
						if !checkOneError(t, what, res.Errors, wantErr{Message: want.refused}) || res.Errors[0].Message != want.refused {
							t.FailNow()
						}
						return
					}
					var d map[string]any
					res.ok(t, &d)
					if d[m] == nil {
						t.Fatalf("%s with %s: null: payload = null without an error, want a payload\n%s", m, f, res.raw)
					}
					if cm := dig(d, m, "clientMutationId"); cm != nil {
						t.Errorf("clientMutationId = %v, want null", cm)
					}
					id := run.target
					if id == "" {
						id, _ = dig(d, m, c.created, "id").(string)
					}
					if f == "clientMutationId" {
						return
					}
					read, expect := want.read, want.want
					for k, v := range run.vars {
						read, expect = strings.ReplaceAll(read, "$"+k, v), strings.ReplaceAll(expect, "$"+k, v)
					}
					got := w.data(t, c.token, "query($id: ID!) { node(id: $id) { "+read+" } }", map[string]any{"id": id})
					b, _ := json.Marshal(got["node"])
					var canon any
					if err := json.Unmarshal([]byte(expect), &canon); err != nil {
						t.Fatalf("want %s: %v", expect, err)
					}
					if c, _ := json.Marshal(canon); string(b) != string(c) {
						t.Errorf("%s with %s: null, read back %s, want %s", m, f, b, expect)
					}
				})
			}
		})
	}
}
