package graphql_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

// The GraphQL tests check every document they send against GitHub's full
// published schema, not only against the emulator's pruned copy: a document
// the emulator accepts but GitHub would reject is a fidelity bug.

// githubSchemas is the published schema, loaded once per test binary, and
// the published schema with the overlay applied.
type githubSchemas struct {
	published *ast.Schema
	overlaid  *ast.Schema
	src       schema.Source
	pub, ovl  []byte
}

var loadGitHubSchemas = sync.OnceValues(func() (*githubSchemas, error) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		return nil, err
	}
	published, overlay, src, err := schema.ReadSources(root)
	if err != nil {
		return nil, err
	}
	s := &githubSchemas{src: src, pub: published, ovl: overlay}
	if s.published, err = schema.Load(published, nil); err != nil {
		return nil, err
	}
	if s.overlaid, err = schema.Load(published, overlay); err != nil {
		return nil, err
	}
	return s, nil
})

// schemasOrFail loads GitHub's schema or fails the test with how to get it.
func schemasOrFail(t testing.TB) *githubSchemas {
	t.Helper()
	s, err := loadGitHubSchemas()
	if err != nil {
		t.Fatalf("GitHub's GraphQL schema is needed (node_modules/@octokit/graphql-schema): %v; run `make test`, which runs npm ci", err)
	}
	return s
}

// fidelityCount counts the documents validated against GitHub's schema and
// how many of them needed the overlay.
type fidelityCount struct {
	validated atomic.Int64
	overlay   atomic.Int64
}

// checkDocument validates a document against GitHub's schema. It reports
// whether the published schema accepts it and, if not, whether the overlay
// makes up the difference.
func checkDocument(t testing.TB, doc string) (published, overlaid bool, msg string) {
	t.Helper()
	s := schemasOrFail(t)
	// The rules are GitHub's, as the endpoint applies them (rules.go).
	if _, errs := gqlparser.LoadQueryWithRules(s.published, doc, graphql.ValidationRules(s.published)); len(errs) == 0 {
		return true, true, ""
	}
	_, errs := gqlparser.LoadQueryWithRules(s.overlaid, doc, graphql.ValidationRules(s.overlaid))
	if len(errs) == 0 {
		return false, true, ""
	}
	return false, false, errs.Error()
}

// requireGitHubValid fails the test unless GitHub's schema (with the
// overlay's documented additions at most) accepts doc, and counts it.
func requireGitHubValid(t testing.TB, count *fidelityCount, doc string) {
	t.Helper()
	published, overlaid, msg := checkDocument(t, doc)
	if !overlaid {
		t.Fatalf("document is not valid against GitHub's schema: %s\n%s", msg, doc)
	}
	count.validated.Add(1)
	if !published {
		count.overlay.Add(1)
	}
}

func TestGitHubSchemaRejectsBrokenDocument(t *testing.T) {
	// The check the other tests rely on must be able to fail.
	for _, doc := range []string{
		`{ repository(owner: "a", name: "b") { issue(number: 1) { nope } } }`,
		`{ repository(owner: "a") { id } }`,
		`{ repository(owner: "a", name: "b") { issue(number: "x") { id } } }`,
		`query($n: Int!) { viewer { login } }`,
	} {
		if _, overlaid, _ := checkDocument(t, doc); overlaid {
			t.Errorf("GitHub's schema accepted a broken document: %s", doc)
		}
	}
}

func TestDuplicateFieldsAreDropped(t *testing.T) {
	// GitHub's schema.graphql defines
	// EnterpriseOwnerInfo.repositoryDeployKeySetting twice, which gqlparser
	// refuses; the loader keeps the first definition.
	const sdl = "type Query { a: Int\n a: Int\n b: String }"
	if _, err := gqlparser.LoadSchema(&ast.Source{Input: sdl}); err == nil {
		t.Fatal("gqlparser accepted a duplicate field; the dedupe may no longer be needed")
	}
	s, err := schema.Load([]byte(sdl), nil)
	if err != nil {
		t.Fatalf("deduplicated schema does not load: %v", err)
	}
	if n := len(s.Query.Fields); n != 2+2 { // a, b and the introspection fields
		t.Errorf("Query has %d fields, want a, b, __schema and __type", n)
	}
	if !bytes.Contains(schemasOrFail(t).pub, []byte("repositoryDeployKeySetting")) {
		t.Log("the published schema no longer has repositoryDeployKeySetting")
	}
}

func TestPrunedSchemaIsCurrent(t *testing.T) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, schema.PackagePath, "schema.graphql")); err != nil && os.Getenv("CI") == "" {
		t.Skipf("%s is not installed and CI is unset: cannot regenerate the pruned schema to compare (run `make test`)", schema.PackagePath)
	}
	s := schemasOrFail(t)
	served, err := graphql.Fields()
	if err != nil {
		t.Fatal(err)
	}
	want, err := schema.Prune(s.pub, s.ovl, s.src, served)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, []byte(schema.Pruned)) {
		t.Fatalf("%s is stale for %s@%s and the registered resolvers: run `go run ./scripts/prunegraphql`",
			schema.PrunedPath, s.src.Package, s.src.Version)
	}
	if !strings.Contains(schema.Pruned, s.src.Package+" "+s.src.Version) {
		t.Errorf("the pruned schema's header does not name %s %s", s.src.Package, s.src.Version)
	}
	t.Logf("pruned schema: %d bytes (published schema.graphql: %d bytes)", len(schema.Pruned), len(s.pub))
	if len(schema.Pruned) > 300<<10 {
		t.Errorf("pruned schema is %d bytes; keep it under 300 KB", len(schema.Pruned))
	}
}

// TestPrunedSchemaIsSubsetOfGitHubs checks the embedded schema against the
// published one (with the overlay) independently of the pruner: every type,
// field, argument and enum value must exist there with the same type.
func TestPrunedSchemaIsSubsetOfGitHubs(t *testing.T) {
	full := schemasOrFail(t).overlaid
	pruned, err := graphql.LoadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for name, def := range pruned.Types {
		if def.BuiltIn {
			continue
		}
		fd := full.Types[name]
		if fd == nil {
			t.Errorf("%s %s is not in GitHub's schema", def.Kind, name)
			continue
		}
		if fd.Kind != def.Kind {
			t.Errorf("%s is a %s, GitHub's is a %s", name, def.Kind, fd.Kind)
			continue
		}
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			ff := fd.Fields.ForName(f.Name)
			if ff == nil {
				t.Errorf("%s.%s is not in GitHub's schema", name, f.Name)
				continue
			}
			if ff.Type.String() != f.Type.String() {
				t.Errorf("%s.%s: type %s, GitHub's is %s", name, f.Name, f.Type, ff.Type)
				continue
			}
			for _, a := range f.Arguments {
				fa := ff.Arguments.ForName(a.Name)
				if fa == nil {
					t.Errorf("%s.%s(%s:) is not in GitHub's schema", name, f.Name, a.Name)
				} else if fa.Type.String() != a.Type.String() {
					t.Errorf("%s.%s(%s:): type %s, GitHub's is %s", name, f.Name, a.Name, a.Type, fa.Type)
				}
			}
		}
		for _, v := range def.EnumValues {
			if fd.EnumValues.ForName(v.Name) == nil {
				t.Errorf("%s.%s is not GitHub's", name, v.Name)
			}
		}
		for _, i := range def.Interfaces {
			if !strings.Contains(" "+strings.Join(fd.Interfaces, " ")+" ", " "+i+" ") {
				t.Errorf("%s does not implement %s in GitHub's schema", name, i)
			}
		}
	}
}
