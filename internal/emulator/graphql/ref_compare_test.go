package graphql_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// gh pr update-branch: the base ref compared with the head says how far
// behind the head is; updatePullRequestBranch merges the base in, after
// which the head is only ahead; a second update, a moved head, a rebase
// and a reader are refused.
func TestRefCompareAndUpdatePullRequestBranch(t *testing.T) {
	w := newGQLWorld(t, &fidelityCount{})
	st := w.emu.State()
	st.Lock()
	repo, alice := st.Repo("acme", "widgets"), st.Account("alice")
	topic, mainline := "topic\n", "mainline\n"
	st.Commit(repo, "behind", alice, gqlEpoch, "Add topic", map[string]*string{"topic.txt": &topic})
	pr := st.CreatePull(repo, alice, "Behind", nil, repo, "behind", state.RepoDefaultBranch, false)
	st.Commit(repo, state.RepoDefaultBranch, alice, gqlEpoch, "Add mainline", map[string]*string{"mainline.txt": &mainline})
	st.Commit(repo, state.RepoDefaultBranch, alice, gqlEpoch, "Touch mainline", map[string]*string{"mainline.txt": &topic})
	id, number, oldHead := pr.NodeID, pr.Number, pr.Pull.Head.SHA
	st.Unlock()

	const compare = `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) {
  baseRef { compare(headRef: "behind") { aheadBy behindBy status } } } } }`
	type cmp struct {
		AheadBy, BehindBy int
		Status            string
	}
	read := func() cmp {
		var d struct {
			Repository struct {
				PullRequest struct{ BaseRef struct{ Compare cmp } }
			}
		}
		w.query("emu-carol", compare, map[string]any{"n": number}).ok(t, &d)
		return d.Repository.PullRequest.BaseRef.Compare
	}
	if got := read(); got != (cmp{1, 2, "DIVERGED"}) {
		t.Fatalf("before the update: %+v, want 1 ahead, 2 behind, DIVERGED", got)
	}

	const update = `mutation($input: UpdatePullRequestBranchInput!) { updatePullRequestBranch(input: $input) {
  pullRequest { headRef { target { ... on Commit { messageHeadline } } } } } }`
	for _, c := range []struct{ name, token, method, expected, want string }{
		{"reader", "emu-carol", "MERGE", "", "FORBIDDEN: carol does not have the correct permissions to execute `UpdatePullRequestBranch`"},
		{"moved head", "emu-bob", "MERGE", "0123456789012345678901234567890123456789", "UNPROCESSABLE: expected head sha didn’t match current head ref."},
		{"rebase", "emu-bob", "REBASE", "", "UNPROCESSABLE: The emulator updates a branch by merging only; REBASE is not served"},
	} {
		in := map[string]any{"pullRequestId": id, "updateMethod": c.method}
		if c.expected != "" {
			in["expectedHeadOid"] = c.expected
		}
		res := w.query(c.token, update, map[string]any{"input": in})
		checkOneErrorText(t, c.name, res.Errors, c.want)
	}
	var d struct {
		UpdatePullRequestBranch struct {
			PullRequest struct {
				HeadRef struct {
					Target struct{ MessageHeadline string }
				}
			}
		}
	}
	in := map[string]any{"pullRequestId": id, "expectedHeadOid": oldHead}
	w.query("emu-bob", update, map[string]any{"input": in}).ok(t, &d)
	if got := d.UpdatePullRequestBranch.PullRequest.HeadRef.Target.MessageHeadline; got != "Merge branch 'main' into behind" {
		t.Errorf("head after the update: %q, want %q", got, "Merge branch 'main' into behind")
	}
	if got := read(); got != (cmp{2, 0, "AHEAD"}) {
		t.Errorf("after the update: %+v, want 2 ahead (the topic and the merge), 0 behind, AHEAD", got)
	}
	res := w.query("emu-bob", update, map[string]any{"input": map[string]any{"pullRequestId": id}})
	checkOneErrorText(t, "a second update", res.Errors, "UNPROCESSABLE: There are no new commits on the base branch.")
}
