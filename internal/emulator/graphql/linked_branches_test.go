package graphql_test

import (
	"fmt"
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
		t.Fatalf(`__type(name: "LinkedBranch") has no fields, want some`)
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
	if !strings.HasPrefix(lb.LinkedBranch.Ref.Name, "150-") {
		t.Errorf("createLinkedBranch ref name = %q, want one starting 150- (title %q)", lb.LinkedBranch.Ref.Name, title)
	}
	if lb.LinkedBranch.Ref.Target.Oid != main {
		t.Errorf("createLinkedBranch ref target = %s, want main's %s", lb.LinkedBranch.Ref.Target.Oid, main)
	}
	if lb.Issue.Number != 150 {
		t.Errorf("createLinkedBranch issue = #%d, want #150", lb.Issue.Number)
	}
	var named created
	w.query(seed.DemoTokenAlice, create, map[string]any{"input": map[string]any{"issueId": issue, "oid": main, "name": "work/150"}}).ok(t, &named)
	// The branch is a real ref, readable over REST.
	status, body := restRef(t, w, "work/150")
	if status != http.StatusOK {
		t.Errorf("REST GET of ref work/150: status %d, want 200\n%s", status, body)
	}
	if !strings.Contains(body, main) {
		t.Errorf("REST GET of ref work/150: body %s, want one naming %s", body, main)
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
		checkFirstError(t, fmt.Sprint(tc.input), res.Errors, tc.want)
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
	if got := list(); len(got) != 2 {
		t.Errorf("linkedBranches = %v, want 2", got)
	} else if got[1] != "work/150" {
		t.Errorf("second linked branch = %q, want work/150", got[1])
	}
	// Unlinking leaves the branch.
	var del struct {
		DeleteLinkedBranch struct{ Issue struct{ Number int } }
	}
	w.query(seed.DemoTokenAlice, `mutation($id: ID!) { deleteLinkedBranch(input: {linkedBranchId: $id}) { issue { number } } }`,
		map[string]any{"id": named.CreateLinkedBranch.LinkedBranch.ID}).ok(t, &del)
	if got := list(); len(got) != 1 {
		t.Errorf("after deleteLinkedBranch: linkedBranches = %v, want 1", got)
	} else if got[0] == "work/150" {
		t.Errorf("after deleteLinkedBranch: work/150 is still linked, want the other")
	}
	if got := del.DeleteLinkedBranch.Issue.Number; got != 150 {
		t.Errorf("deleteLinkedBranch issue = #%d, want #150", got)
	}
	if status, _ := restRef(t, w, "work/150"); status != http.StatusOK {
		t.Errorf("REST GET of the unlinked branch: status %d, want 200", status)
	}
}
