package fidelity

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// TestFineGrainedTokenPermissions: a fine-grained token granted issues and
// metadata alone reads and writes issues, and is refused the contents of
// the same repositories (and, over GraphQL, pull request writes) with GitHub's 403 "Resource not
// accessible by personal access token" and the X-Accepted-GitHub-Permissions
// that would have served; a fine-grained token without grants is not
// narrowed. Every answer is checked against GitHub's description.
func TestFineGrainedTokenPermissions(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{Seed: "demo", Now: seed.DemoNow})
	const repo = "/repos/acme/widgets"
	for _, c := range []struct {
		method, path, token string
		body                any
		want                int
		accepted            string
	}{
		{"GET", repo + "/issues", seed.DemoTokenAliceIssues, nil, 200, ""},
		{"GET", repo + "/labels", seed.DemoTokenAliceIssues, nil, 200, ""},
		{"POST", repo + "/issues", seed.DemoTokenAliceIssues, map[string]any{"title": "through a narrow token"}, 201, ""},
		{"GET", repo, seed.DemoTokenAliceIssues, nil, 200, ""}, // metadata
		{"GET", repo + "/contents/.github/ISSUE_TEMPLATE", seed.DemoTokenAliceIssues, nil, 403, "contents=read"},
		{"GET", repo + "/contents/.github/ISSUE_TEMPLATE", seed.DemoTokenAliceFineGrained, nil, 200, ""},
		{"GET", "/user", seed.DemoTokenAliceIssues, nil, 200, ""}, // acts for its user, as installation tokens cannot
	} {
		res := srv.Do(t, c.method, c.path, c.token, c.body)
		if res.Status != c.want {
			t.Errorf("%s %s as %s: %d, want %d: %s", c.method, c.path, c.token, res.Status, c.want, res.Body)
			continue
		}
		if got := res.Header.Get("X-Accepted-GitHub-Permissions"); got != c.accepted {
			t.Errorf("%s %s as %s: X-Accepted-GitHub-Permissions %q, want %q", c.method, c.path, c.token, got, c.accepted)
		}
		if c.want != http.StatusForbidden {
			continue
		}
		var body struct {
			Message string `json:"message"`
		}
		res.JSON(t, &body)
		if body.Message != "Resource not accessible by personal access token" {
			t.Errorf("%s %s: message %q", c.method, c.path, body.Message)
		}
	}

	// GraphQL holds its mutations to the grants as well.
	var pull struct {
		NodeID string `json:"node_id"`
	}
	srv.Do(t, "GET", fmt.Sprintf("%s/pulls/%d", repo, seed.DemoFirstPull), seed.DemoTokenAliceFineGrained, nil).JSON(t, &pull)
	id := pull.NodeID
	if id == "" {
		t.Fatal("no node id for the pull request")
	}
	mutation := map[string]any{"query": `mutation($id: ID!) { updatePullRequest(input: {pullRequestId: $id, title: "Renamed"}) { pullRequest { title } } }`,
		"variables": map[string]any{"id": id}}
	var refused struct {
		Data   map[string]any `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	srv.Do(t, "POST", "/graphql", seed.DemoTokenAliceIssues, mutation).JSON(t, &refused)
	if len(refused.Errors) != 1 {
		t.Errorf("updatePullRequest without pull_requests: %d errors %+v, want one FORBIDDEN", len(refused.Errors), refused.Errors)
	} else if e := refused.Errors[0]; e.Type != "FORBIDDEN" {
		t.Errorf("updatePullRequest without pull_requests: error type %q, want %q", e.Type, "FORBIDDEN")
	} else if want := "Resource not accessible by personal access token"; e.Message != want {
		t.Errorf("updatePullRequest without pull_requests: error message %q, want %q", e.Message, want)
	} else if refused.Data["updatePullRequest"] != nil {
		t.Errorf("updatePullRequest without pull_requests answered %v, want data.updatePullRequest null", refused.Data)
	}
	var done struct {
		Errors []any `json:"errors"`
	}
	srv.Do(t, "POST", "/graphql", seed.DemoTokenAliceFineGrained, mutation).JSON(t, &done)
	if len(done.Errors) != 0 {
		t.Errorf("updatePullRequest with an unnarrowed fine-grained token: errors %v, want none", done.Errors)
	}
}
