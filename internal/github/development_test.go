package github

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

// The development document is valid against GitHub's published schema
// (node_modules/@octokit/graphql-schema) as it stands, without the
// emulator's overlay, under the rules GitHub's endpoint applies; a broken
// copy of it is not, so the check can fail.
func TestDevelopmentDocumentIsValidForGitHub(t *testing.T) {
	s, src := publishedSchema(t)
	if _, errs := gqlparser.LoadQueryWithRules(s, developmentDoc, graphql.ValidationRules(s)); len(errs) > 0 {
		t.Fatalf("developmentDoc is not valid against %s: %v", src, errs)
	}
	broken := developmentDoc[:len(developmentDoc)-len("} } }")] + "mergedBranches } } }"
	if _, errs := gqlparser.LoadQueryWithRules(s, broken, graphql.ValidationRules(s)); len(errs) == 0 {
		t.Fatal("GitHub's schema accepted a document with an unknown field")
	}
}

// publishedSchema is GitHub's published GraphQL schema as it stands
// (node_modules/@octokit/graphql-schema), without the emulator's overlay,
// and where it was read from.
func publishedSchema(t *testing.T) (*ast.Schema, schema.Source) {
	t.Helper()
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	published, _, src, err := schema.ReadSources(root)
	if err != nil {
		t.Fatalf("GitHub's GraphQL schema is needed (node_modules/@octokit/graphql-schema): %v", err)
	}
	s, err := schema.Load(published, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, src
}
