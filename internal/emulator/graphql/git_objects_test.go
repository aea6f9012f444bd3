package graphql_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Repository.object resolves git's "<rev>:<path>": a file is a Blob with
// git's blob id, a directory a Tree, a revision alone its Commit, and a
// path or revision that names nothing is null, not an error.
func TestGraphQLRepositoryObject(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	type obj struct {
		Typename string `json:"__typename"`
		Oid      string
		ByteSize int
		Text     string
	}
	var d struct {
		Repository struct {
			File, Dir, Head, Gone, BadRev *obj
		}
	}
	w.query(seed.DemoTokenDave, `{ repository(owner: "acme", name: "widgets") {
		file: object(expression: "HEAD:README.md") { __typename oid ... on Blob { byteSize text } }
		dir: object(expression: "main:.github") { __typename oid }
		head: object(expression: "HEAD") { __typename oid }
		gone: object(expression: "HEAD:no/such/file.yml") { __typename }
		badRev: object(expression: "no-such-branch:README.md") { __typename }
	} }`, nil).ok(t, &d)
	st := w.emu.State()
	st.Lock()
	main := st.Repo("acme", "widgets").Git.Branches[state.RepoDefaultBranch]
	readme := main.Files["README.md"]
	st.Unlock()
	r := d.Repository
	if r.File == nil {
		t.Fatalf("HEAD:README.md = null, want a Blob")
	}
	if r.File.Typename != "Blob" {
		t.Fatalf("HEAD:README.md is a %s, want a Blob", r.File.Typename)
	}
	if got, want := r.File.Oid, state.BlobSHA(readme); got != want {
		t.Errorf("blob oid = %s, want %s", got, want)
	}
	if r.File.ByteSize != len(readme) {
		t.Errorf("blob byteSize = %d, want %d", r.File.ByteSize, len(readme))
	}
	if r.File.Text != readme {
		t.Errorf("blob text = %q, want %q", r.File.Text, readme)
	}
	if r.Dir == nil {
		t.Errorf("main:.github = null, want a Tree")
	} else if r.Dir.Typename != "Tree" {
		t.Errorf("main:.github is a %s, want a Tree", r.Dir.Typename)
	}
	if r.Head == nil {
		t.Errorf("HEAD = null, want Commit %s", main.SHA)
	} else {
		if r.Head.Typename != "Commit" {
			t.Errorf("HEAD is a %s, want a Commit", r.Head.Typename)
		}
		if r.Head.Oid != main.SHA {
			t.Errorf("HEAD oid = %s, want %s", r.Head.Oid, main.SHA)
		}
	}
	if r.Gone != nil {
		t.Errorf("a missing path = %+v, want null", r.Gone)
	}
	if r.BadRev != nil {
		t.Errorf("a missing revision = %+v, want null", r.BadRev)
	}
}
