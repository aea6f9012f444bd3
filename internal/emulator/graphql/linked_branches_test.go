package graphql_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// restRef reads a branch's ref over REST: its status and body.
func restRef(t *testing.T, w *gqlWorld, branch string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, w.srv.URL+"/repos/acme/widgets/git/ref/heads/"+branch, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+seed.DemoTokenAlice)
	resp, err := w.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestGraphQLLinkedBranches(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	st := w.emu.State()
	st.Lock()
	widgets := st.Repo("acme", "widgets")
	main := widgets.Git.Branches["main"].SHA
	title := widgets.Issue(150).Title
	st.Unlock()
	issue := w.issueID(seed.DemoTokenAlice, 150)

	// gh issue develop's feature check: LinkedBranch has fields.
	var feature struct {
		LinkedBranch struct{ Fields []struct{ Name string } }
	}
	w.query(seed.DemoTokenAlice, `{ LinkedBranch: __type(name: "LinkedBranch") { fields { name } } }`, nil).ok(t, &feature)
	if len(feature.LinkedBranch.Fields) == 0 {
		t.Fatalf("LinkedBranch = %+v", feature)
	}

	const create = `mutation($input: CreateLinkedBranchInput!) { createLinkedBranch(input: $input) { linkedBranch { id ref { name target { oid } } } issue { number } } }`
	type created struct {
		CreateLinkedBranch struct {
			LinkedBranch struct {
				ID  string
				Ref struct {
					Name   string
					Target struct{ Oid string }
				}
			}
			Issue struct{ Number int }
		}
	}
	// Without a name, GitHub names the branch after the issue.
	var d created
	w.query(seed.DemoTokenAlice, create, map[string]any{"input": map[string]any{"issueId": issue, "oid": main}}).ok(t, &d)
	lb := d.CreateLinkedBranch
	if !strings.HasPrefix(lb.LinkedBranch.Ref.Name, "150-") || lb.LinkedBranch.Ref.Target.Oid != main || lb.Issue.Number != 150 {
		t.Errorf("createLinkedBranch = %+v (title %q)", lb, title)
	}
	var named created
	w.query(seed.DemoTokenAlice, create, map[string]any{"input": map[string]any{"issueId": issue, "oid": main, "name": "work/150"}}).ok(t, &named)
	// The branch is a real ref, readable over REST.
	if status, body := restRef(t, w, "work/150"); status != http.StatusOK || !strings.Contains(body, main) {
		t.Errorf("REST ref: %d %s", status, body)
	}
	// A taken name and a commit the repository lacks are refused; a reader
	// may not create one.
	for _, tc := range []struct {
		token string
		input map[string]any
		want  string
	}{
		{seed.DemoTokenAlice, map[string]any{"issueId": issue, "oid": main, "name": "work/150"}, "UNPROCESSABLE"},
		{seed.DemoTokenAlice, map[string]any{"issueId": issue, "oid": strings.Repeat("0", 40)}, "UNPROCESSABLE"},
		{seed.DemoTokenDave, map[string]any{"issueId": issue, "oid": main, "name": "dave"}, "FORBIDDEN"},
	} {
		res := w.query(tc.token, create, map[string]any{"input": tc.input})
		if len(res.Errors) == 0 || res.Errors[0].Type != tc.want {
			t.Errorf("%v: errors %+v, want %s", tc.input, res.Errors, tc.want)
		}
	}

	list := func() []string {
		var l struct {
			Repository struct {
				Issue struct {
					LinkedBranches struct {
						Nodes []struct{ Ref struct{ Name string } }
					}
				}
			}
		}
		w.query(seed.DemoTokenAlice, `{ repository(owner: "acme", name: "widgets") { issue(number: 150) { linkedBranches(first: 30) { nodes { ref { name } } } } } }`, nil).ok(t, &l)
		var names []string
		for _, n := range l.Repository.Issue.LinkedBranches.Nodes {
			names = append(names, n.Ref.Name)
		}
		return names
	}
	if got := list(); len(got) != 2 || got[1] != "work/150" {
		t.Errorf("linkedBranches = %v", got)
	}
	// Unlinking leaves the branch.
	var del struct {
		DeleteLinkedBranch struct{ Issue struct{ Number int } }
	}
	w.query(seed.DemoTokenAlice, `mutation($id: ID!) { deleteLinkedBranch(input: {linkedBranchId: $id}) { issue { number } } }`,
		map[string]any{"id": named.CreateLinkedBranch.LinkedBranch.ID}).ok(t, &del)
	if got := list(); len(got) != 1 || got[0] == "work/150" || del.DeleteLinkedBranch.Issue.Number != 150 {
		t.Errorf("after deleteLinkedBranch: %v", got)
	}
	if status, _ := restRef(t, w, "work/150"); status != http.StatusOK {
		t.Errorf("the unlinked branch is gone: %d", status)
	}
}
