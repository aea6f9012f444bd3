package graphql_test

import (
	"strings"
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
	if r.DefaultBranchRef.Name != "main" {
		t.Errorf("defaultBranchRef name = %q, want main", r.DefaultBranchRef.Name)
	}
	if r.DefaultBranchRef.Target.Typename != "Commit" {
		t.Errorf("defaultBranchRef target is a %s, want Commit", r.DefaultBranchRef.Target.Typename)
	}
	if r.DefaultBranchRef.Target.Oid != main {
		t.Errorf("defaultBranchRef target oid = %s, want main's %s", r.DefaultBranchRef.Target.Oid, main)
	}
	if r.Branch == nil {
		t.Errorf("ref(refs/heads/main) = null, want the branch")
	} else if r.Branch.Prefix != "refs/heads/" {
		t.Errorf("ref(refs/heads/main) prefix = %q, want refs/heads/", r.Branch.Prefix)
	}
	if r.Tag == nil {
		t.Errorf("ref(v1.4.0) = null, want the tag")
	} else {
		if r.Tag.Prefix != "refs/tags/" {
			t.Errorf("ref(v1.4.0) prefix = %q, want refs/tags/", r.Tag.Prefix)
		}
		if got := r.Tag.Target.AbbreviatedOid; len(got) != 7 {
			t.Errorf("ref(v1.4.0) abbreviatedOid = %q, want 7 characters", got)
		}
	}
	if r.Missing != nil {
		t.Errorf("ref(nope) = %+v, want null", r.Missing)
	}
	if r.Tags.TotalCount != 5 {
		t.Errorf("tags totalCount = %d, want 5", r.Tags.TotalCount)
	}
	if len(r.Tags.Nodes) != 2 {
		t.Errorf("tags(first: 2) = %+v, want 2", r.Tags.Nodes)
	} else if r.Tags.Nodes[0].Name != "v1.5.0-rc.1" {
		t.Errorf("newest tag = %q, want v1.5.0-rc.1", r.Tags.Nodes[0].Name)
	}
	if len(r.Fixes.Nodes) == 0 {
		t.Error(`refs(query: "fix/") = none, want the fix/ branches`)
	}
	for _, n := range r.Fixes.Nodes {
		if !strings.HasPrefix(n.Name, "fix/") {
			t.Errorf(`refs(query: "fix/") lists %q, want only names starting fix/`, n.Name)
		}
	}
}
