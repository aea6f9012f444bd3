package graphql_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ghIssueByNumber is the query gh issue view sends (FindIssueOrPR in
// pkg/cmd/issue/shared/lookup.go) with its default fields, verbatim.
const ghIssueByNumber = `
	query IssueByNumber($owner: String!, $repo: String!, $number: Int!) {
		repository(owner: $owner, name: $repo) {
			hasIssuesEnabled
			issue: issueOrPullRequest(number: $number) {
				__typename
				...on Issue{number,url,state,createdAt,title,body,author{login,...on User{id,name}},milestone{number,title,description,dueOn},assignees(first:100){nodes{id,login,name},totalCount},labels(first:100){nodes{id,name,description,color},totalCount},reactionGroups{content,users{totalCount}},comments(last: 1) {nodes {author{login,...on User{id,name}},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}}},totalCount},stateReason,id}
				...on PullRequest{number,url,state,createdAt,title,body,author{login,...on User{id,name}},milestone{number,title,description,dueOn},assignees(first:100){nodes{id,login,name},totalCount},labels(first:100){nodes{id,name,description,color},totalCount},reactionGroups{content,users{totalCount}},comments(last: 1) {nodes {author{login,...on User{id,name}},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}}},totalCount},id}
			}
		}
	}`

// ghCommentsForIssue is gh issue view --comments' query for the comments
// (preloadIssueComments in pkg/cmd/issue/view/view.go), verbatim.
const ghCommentsForIssue = `query CommentsForIssue($endCursor:String$id:ID!){node(id: $id){...on Issue{comments(first: 100, after: $endCursor){nodes{id,author{login},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}},url,viewerDidAuthor},totalCount,pageInfo{hasNextPage,endCursor}}},...on PullRequest{comments(first: 100, after: $endCursor){nodes{id,author{login},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}},url,viewerDidAuthor},totalCount,pageInfo{hasNextPage,endCursor}}}}}`

// ghReactionGroup is one element of a reactionGroups list as gh reads it.
type ghReactionGroup struct {
	Content string
	Users   struct{ TotalCount int }
}

// ghViewComment is a comment as gh issue view reads it.
type ghViewComment struct {
	Author              struct{ Login string }
	Body                string
	IncludesCreatedEdit bool
	IsMinimized         bool
	MinimizedReason     *string
	ReactionGroups      []ghReactionGroup
	ViewerDidAuthor     bool
}

func testGraphQLGhIssueView(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	last := st.Repo("acme", "widgets").Issue(w.bug).Comments[24]
	st.EditComment(last, last.User, "comment 25, edited")
	st.Unlock()

	type viewed struct {
		Repository struct {
			HasIssuesEnabled bool
			Issue            struct {
				Typename       string `json:"__typename"`
				Number         int
				State          string
				ReactionGroups []ghReactionGroup
				Comments       struct {
					Nodes      []ghViewComment
					TotalCount int
				}
			}
		}
	}
	view := func(number int) viewed {
		t.Helper()
		var d viewed
		w.query("emu-carol", ghIssueByNumber, map[string]any{"number": number, "owner": "acme", "repo": "widgets"}).ok(t, &d)
		return d
	}
	// Every group is listed, each empty: the emulator keeps no reactions.
	var none []ghReactionGroup
	for _, c := range allReactionContents {
		none = append(none, ghReactionGroup{Content: c})
	}

	is := view(w.bug).Repository.Issue
	if is.Typename != "Issue" {
		t.Errorf("issue __typename = %s, want Issue", is.Typename)
	}
	if is.Number != w.bug {
		t.Errorf("issue number = %d, want %d", is.Number, w.bug)
	}
	if is.State != "OPEN" {
		t.Errorf("issue state = %s, want OPEN", is.State)
	}
	if diff := cmp.Diff(none, is.ReactionGroups); diff != "" {
		t.Errorf("issue reactionGroups mismatch (-want +got):\n%s", diff)
	}
	if is.Comments.TotalCount != 25 {
		t.Fatalf("comments totalCount = %d, want 25", is.Comments.TotalCount)
	}
	if len(is.Comments.Nodes) != 1 {
		t.Fatalf("comments(last: 1) = %d nodes, want 1", len(is.Comments.Nodes))
	}
	c := is.Comments.Nodes[0]
	if c.Body != "comment 25, edited" {
		t.Errorf("last comment body = %q, want %q", c.Body, "comment 25, edited")
	}
	if !c.IncludesCreatedEdit {
		t.Errorf("last comment includesCreatedEdit = false, want true")
	}
	if c.IsMinimized {
		t.Errorf("last comment isMinimized = true, want false")
	}
	if c.MinimizedReason != nil {
		t.Errorf("last comment minimizedReason = %q, want null", *c.MinimizedReason)
	}
	if diff := cmp.Diff(none, c.ReactionGroups); diff != "" {
		t.Errorf("last comment reactionGroups mismatch (-want +got):\n%s", diff)
	}
	pr := view(w.pull).Repository.Issue
	if pr.Typename != "PullRequest" {
		t.Errorf("pull request __typename = %s, want PullRequest", pr.Typename)
	}
	if pr.State != "OPEN" {
		t.Errorf("pull request state = %s, want OPEN", pr.State)
	}
	if diff := cmp.Diff(none, pr.ReactionGroups); diff != "" {
		t.Errorf("pull request reactionGroups mismatch (-want +got):\n%s", diff)
	}

	// --comments: every comment, each saying whether the viewer wrote it
	// and whether it was edited.
	var cd struct {
		Node struct {
			Comments struct {
				Nodes      []ghViewComment
				TotalCount int
				PageInfo   struct{ HasNextPage bool }
			}
		}
	}
	id := w.issueID("emu-alice", w.bug)
	w.query("emu-alice", ghCommentsForIssue, map[string]any{"endCursor": nil, "id": id}).ok(t, &cd)
	nodes := cd.Node.Comments.Nodes
	if len(nodes) != 25 {
		t.Fatalf("--comments: %d comments, want 25", len(nodes))
	}
	if cd.Node.Comments.TotalCount != 25 {
		t.Fatalf("--comments: totalCount = %d, want 25", cd.Node.Comments.TotalCount)
	}
	if cd.Node.Comments.PageInfo.HasNextPage {
		t.Fatalf("--comments: hasNextPage = true, want false")
	}
	for i, n := range nodes {
		if mine := n.Author.Login == "alice"; n.ViewerDidAuthor != mine {
			t.Errorf("comment %d by %s: viewerDidAuthor %v, want %v", i+1, n.Author.Login, n.ViewerDidAuthor, mine)
		}
		if edited := i == 24; n.IncludesCreatedEdit != edited {
			t.Errorf("comment %d: includesCreatedEdit %v, want %v", i+1, n.IncludesCreatedEdit, edited)
		}
	}

	// A connection asked for its count alone needs no page, as on GitHub;
	// asked for its nodes it still does.
	doc := `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { comments { totalCount } } } }`
	var count struct {
		Repository struct {
			Issue struct{ Comments struct{ TotalCount int } }
		}
	}
	w.query("emu-carol", doc, map[string]any{"n": w.bug}).ok(t, &count)
	if count.Repository.Issue.Comments.TotalCount != 25 {
		t.Errorf("comments { totalCount } = %d, want 25", count.Repository.Issue.Comments.TotalCount)
	}
	doc = `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { reactionGroups { users { nodes { login } } } } } }`
	res := w.query("emu-carol", doc, map[string]any{"n": w.bug})
	checkStatus(t, "users { nodes } without first", res, http.StatusOK)
	checkFirstError(t, "users { nodes } without first", res.Errors, "MISSING_PAGINATION_BOUNDARIES")
}
