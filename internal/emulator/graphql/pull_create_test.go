package graphql_test

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

func TestGraphQLCreatePullRequest(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	var repo struct{ Repository struct{ ID string } }
	w.query(seed.DemoTokenBob, `{ repository(owner: "acme", name: "widgets") { id } }`, nil).ok(t, &repo)
	const create = `mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) {
		pullRequest { number isDraft headRefName baseRefName author { login } } } }`
	input := func(head string) map[string]any {
		return map[string]any{"input": map[string]any{"repositoryId": repo.Repository.ID, "baseRefName": "main", "headRefName": head, "title": "T", "draft": true}}
	}
	var d struct {
		CreatePullRequest struct {
			PullRequest struct {
				Number                   int
				IsDraft                  bool
				HeadRefName, BaseRefName string
				Author                   struct{ Login string }
			}
		}
	}
	const ahead = "fix/48-query-cache-writes-a-byte-order-mark-int"
	w.query(seed.DemoTokenBob, create, input(ahead)).ok(t, &d)
	p := d.CreatePullRequest.PullRequest
	type facts struct {
		Number                          int
		IsDraft                         bool
		HeadRefName, BaseRefName, Login string
	}
	if diff := cmp.Diff(facts{161, true, ahead, "main", "bob"}, facts{p.Number, p.IsDraft, p.HeadRefName, p.BaseRefName, p.Author.Login}); diff != "" {
		t.Errorf("created pull request mismatch (-want +got):\n%s", diff)
	}
	for head, want := range map[string]string{
		ahead: "A pull request already exists for acme:" + ahead + ".",
		"docs/backing-up-and-restoring-dashboards": "No commits between main and docs/backing-up-and-restoring-dashboards",
		"nope": "Head sha can't be blank, Base sha can't be blank, No commits between main and nope, Head ref must be a branch",
	} {
		res := w.query(seed.DemoTokenBob, create, input(head))
		checkOneError(t, head, res.Errors, wantErr{Type: "UNPROCESSABLE", Message: want})
	}

	// requestReviews replaces the requests unless union is set.
	var ids struct {
		Repository struct {
			PullRequest     struct{ ID string }
			AssignableUsers struct{ Nodes []struct{ ID, Login string } }
		}
	}
	w.query(seed.DemoTokenBob, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 161) { id } assignableUsers(first: 20) { nodes { id login } } } }`, nil).ok(t, &ids)
	user := map[string]string{}
	for _, u := range ids.Repository.AssignableUsers.Nodes {
		user[u.Login] = u.ID
	}
	const request = `mutation($input: RequestReviewsInput!) { requestReviews(input: $input) {
		pullRequest { reviewRequests(first: 10) { nodes { requestedReviewer { ... on User { login } } } } } } }`
	reviewers := func(logins []string, union bool) []string {
		var userIDs []string
		for _, l := range logins {
			userIDs = append(userIDs, user[l])
		}
		var r struct {
			RequestReviews struct {
				PullRequest struct {
					ReviewRequests struct {
						Nodes []struct{ RequestedReviewer struct{ Login string } }
					}
				}
			}
		}
		w.query(seed.DemoTokenBob, request, map[string]any{"input": map[string]any{
			"pullRequestId": ids.Repository.PullRequest.ID, "userIds": userIDs, "union": union}}).ok(t, &r)
		var out []string
		for _, n := range r.RequestReviews.PullRequest.ReviewRequests.Nodes {
			out = append(out, n.RequestedReviewer.Login)
		}
		return out
	}
	if got, want := reviewers([]string{"alice"}, false), []string{"alice"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first request: reviewers %v, want %v", got, want)
	}
	if got, want := reviewers([]string{"carol"}, true), []string{"alice", "carol"}; !reflect.DeepEqual(got, want) {
		t.Errorf("union: reviewers %v, want %v", got, want)
	}
	if got, want := reviewers([]string{"carol"}, false), []string{"carol"}; !reflect.DeepEqual(got, want) {
		t.Errorf("replace: reviewers %v, want %v", got, want)
	}
	res := w.query(seed.DemoTokenBob, request, map[string]any{"input": map[string]any{"pullRequestId": ids.Repository.PullRequest.ID, "userIds": []string{user["bob"]}}})
	checkOneError(t, "author as reviewer", res.Errors, wantErr{Message: "Review cannot be requested from pull request author."})
}

func TestGraphQLReleases(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	var d struct {
		Repository struct {
			Releases struct {
				TotalCount int
				Nodes      []struct {
					TagName  string
					IsLatest bool
				}
			}
			Release       *struct{ TagName string }
			Missing       *struct{ TagName string }
			LatestRelease struct{ TagName string }
		}
	}
	w.query(seed.DemoTokenAlice, `{ repository(owner: "acme", name: "widgets") {
		releases(first: 3, orderBy: {field: CREATED_AT, direction: DESC}) { totalCount nodes { tagName isLatest } }
		release(tagName: "v1.4.0") { tagName } missing: release(tagName: "v0") { tagName } latestRelease { tagName } } }`, nil).ok(t, &d)
	r := d.Repository
	type node = struct {
		TagName  string
		IsLatest bool
	}
	if r.Releases.TotalCount != 5 {
		t.Errorf("releases totalCount = %d, want 5", r.Releases.TotalCount)
	}
	if diff := cmp.Diff([]node{{"v1.5.0-rc.1", false}, {"v1.4.2", true}, {"v1.4.1", false}}, r.Releases.Nodes); diff != "" {
		t.Errorf("releases mismatch (-want +got):\n%s", diff)
	}
	if r.Release == nil {
		t.Errorf(`release(tagName: "v1.4.0") = null, want the release`)
	} else if r.Release.TagName != "v1.4.0" {
		t.Errorf(`release(tagName: "v1.4.0") tagName = %q, want v1.4.0`, r.Release.TagName)
	}
	if r.Missing != nil {
		t.Errorf(`release(tagName: "v0") = %+v, want null`, r.Missing)
	}
	if r.LatestRelease.TagName != "v1.4.2" {
		t.Errorf("latestRelease tagName = %q, want v1.4.2", r.LatestRelease.TagName)
	}
}
