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
	if r.File == nil || r.File.Typename != "Blob" {
		t.Fatalf("HEAD:README.md = %+v, want a Blob", r.File)
	}
	if got, want := r.File.Oid, state.BlobSHA(readme); got != want {
		t.Errorf("blob oid = %s, want %s", got, want)
	}
	if r.File.ByteSize != len(readme) || r.File.Text != readme {
		t.Errorf("blob byteSize %d text %q, want %d and the file", r.File.ByteSize, r.File.Text, len(readme))
	}
	if r.Dir == nil || r.Dir.Typename != "Tree" {
		t.Errorf("main:.github = %+v, want a Tree", r.Dir)
	}
	if r.Head == nil || r.Head.Typename != "Commit" || r.Head.Oid != main.SHA {
		t.Errorf("HEAD = %+v, want Commit %s", r.Head, main.SHA)
	}
	if r.Gone != nil {
		t.Errorf("a missing path = %+v, want null", r.Gone)
	}
	if r.BadRev != nil {
		t.Errorf("a missing revision = %+v, want null", r.BadRev)
	}
}
