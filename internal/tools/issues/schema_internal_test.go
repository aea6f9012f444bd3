package issues

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

// githubSchema is GitHub's full published GraphQL schema, with the
// overlay's documented additions (issue types): the documents ghgate sends
// are checked against it, not only against the emulator's pruned copy that
// answers them in the wire tests.
func githubSchema(t *testing.T) *ast.Schema {
	t.Helper()
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatalf("module root: %v", err)
	}
	published, overlay, _, err := schema.ReadSources(root)
	if err != nil {
		t.Fatalf("GitHub's GraphQL schema is needed (node_modules/@octokit/graphql-schema): %v", err)
	}
	s, err := schema.Load(published, overlay)
	if err != nil {
		t.Fatalf("load GitHub's GraphQL schema: %v", err)
	}
	return s
}

// loadOnGitHub parses and validates doc as GitHub does; the errors are
// GitHub's refusals.
func loadOnGitHub(s *ast.Schema, doc string) (*ast.QueryDocument, gqlerror.List) {
	return gqlparser.LoadQueryWithRules(s, doc, graphql.ValidationRules(s))
}
