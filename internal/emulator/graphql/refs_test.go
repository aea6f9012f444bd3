package graphql_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

func TestGraphQLRefs(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	var d struct {
		Repository struct {
			DefaultBranchRef struct {
				Name   string
				Target struct {
					Typename string `json:"__typename"`
					Oid      string
				}
			}
			Branch *struct{ Prefix string }
			Tag    *struct {
				Prefix string
				Target struct{ AbbreviatedOid string }
			}
			Missing *struct{ Name string }
			Tags    struct {
				TotalCount int
				Nodes      []struct{ Name string }
			}
			Fixes struct{ Nodes []struct{ Name string } }
		}
	}
	w.query(seed.DemoTokenDave, `{ repository(owner: "acme", name: "widgets") {
		defaultBranchRef { name target { __typename oid } }
		branch: ref(qualifiedName: "refs/heads/main") { prefix }
		tag: ref(qualifiedName: "v1.4.0") { prefix target { abbreviatedOid } }
		missing: ref(qualifiedName: "nope") { name }
		tags: refs(refPrefix: "refs/tags/", first: 2, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) { totalCount nodes { name } }
		fixes: refs(refPrefix: "refs/heads/", query: "fix/", first: 10) { nodes { name } }
	} }`, nil).ok(t, &d)
	r := d.Repository
	st := w.emu.State()
	st.Lock()
	main := st.Repo("acme", "widgets").Git.Branches["main"].SHA
	st.Unlock()
	if r.DefaultBranchRef.Name != "main" || r.DefaultBranchRef.Target.Typename != "Commit" || r.DefaultBranchRef.Target.Oid != main {
		t.Errorf("defaultBranchRef = %+v, main is %s", r.DefaultBranchRef, main)
	}
	if r.Branch == nil || r.Branch.Prefix != "refs/heads/" || r.Tag == nil || r.Tag.Prefix != "refs/tags/" || len(r.Tag.Target.AbbreviatedOid) != 7 || r.Missing != nil {
		t.Errorf("refs = %+v %+v %+v", r.Branch, r.Tag, r.Missing)
	}
	if r.Tags.TotalCount != 5 || len(r.Tags.Nodes) != 2 || r.Tags.Nodes[0].Name != "v1.5.0-rc.1" {
		t.Errorf("tags = %+v", r.Tags)
	}
	if len(r.Fixes.Nodes) == 0 {
		t.Error("no fix/ branches")
	}
	for _, n := range r.Fixes.Nodes {
		if len(n.Name) < 4 || n.Name[:4] != "fix/" {
			t.Errorf("branch %q does not match fix/", n.Name)
		}
	}
}
