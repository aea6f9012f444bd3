package graphql_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// gh pr revert: a merged pull request's revert opens from a new branch
// whose one commit takes the merged change back out; an open pull request
// and a reader are refused.
func TestRevertPullRequest(t *testing.T) {
	w := newGQLWorld(t, &fidelityCount{})
	st := w.emu.State()
	st.Lock()
	repo, alice := st.Repo("acme", "widgets"), st.Account("alice")
	content := "gears\n"
	st.Commit(repo, "gears", alice, gqlEpoch, "Add gears", map[string]*string{"gears.txt": &content})
	merged := st.CreatePull(repo, alice, "Add gears", nil, repo, "gears", state.RepoDefaultBranch, false)
	st.MergePull(merged, alice)
	st.Commit(repo, "open", alice, gqlEpoch, "Open", nil)
	open := st.CreatePull(repo, alice, "Still open", nil, repo, "open", state.RepoDefaultBranch, false)
	mergedID, openID := merged.NodeID, open.NodeID
	st.Unlock()

	const doc = `mutation PullRequestRevert($input: RevertPullRequestInput!) {
  revertPullRequest(input: $input) { revertPullRequest { id number url title body headRefName baseRefName } } }`
	for _, c := range []struct{ name, token, id, want string }{
		{"reader", "emu-carol", mergedID, "FORBIDDEN: carol does not have the correct permissions to execute `RevertPullRequest`"},
		{"not merged", "emu-bob", openID, "UNPROCESSABLE: Pull request is not merged"},
	} {
		res := w.query(c.token, doc, map[string]any{"input": map[string]any{"pullRequestId": c.id}})
		checkOneErrorText(t, c.name, res.Errors, c.want)
	}
	var d struct {
		RevertPullRequest struct {
			RevertPullRequest struct {
				Number                   int
				URL, Title, Body         string
				HeadRefName, BaseRefName string
			}
		}
	}
	w.query("emu-bob", doc, map[string]any{"input": map[string]any{"pullRequestId": mergedID}}).ok(t, &d)
	rev := d.RevertPullRequest.RevertPullRequest
	if want := `Revert "Add gears"`; rev.Title != want {
		t.Errorf("revert title = %q, want %q", rev.Title, want)
	}
	if want := "Reverts acme/widgets#"; !strings.HasPrefix(rev.Body, want) {
		t.Errorf("revert body = %q, want one starting %q", rev.Body, want)
	}
	if rev.BaseRefName != "main" {
		t.Errorf("revert baseRefName = %q, want main", rev.BaseRefName)
	}
	if !strings.HasPrefix(rev.HeadRefName, "revert-") {
		t.Errorf("revert headRefName = %q, want one starting revert-", rev.HeadRefName)
	}
	if want := "/acme/widgets/pull/" + strconv.Itoa(rev.Number); !strings.HasSuffix(rev.URL, want) {
		t.Errorf("revert url = %q, want one ending %q", rev.URL, want)
	}
	st.RLock()
	defer st.RUnlock()
	tip := repo.Git.Branches[rev.HeadRefName]
	if tip == nil {
		t.Fatalf("no branch %s", rev.HeadRefName)
	}
	if _, ok := tip.Files["gears.txt"]; ok {
		t.Errorf("the revert branch still has gears.txt")
	}
	if _, ok := repo.Git.Branches["main"].Files["gears.txt"]; !ok {
		t.Errorf("main lost gears.txt before the revert was merged")
	}
}
