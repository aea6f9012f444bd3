package issues

import (
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

// The overview's query is checked against GitHub's full published schema
// (with the overlay's documented additions: issue types), not only the
// emulator's pruned copy that answers it in the wire tests.
func TestOverviewDocumentIsValidOnGitHub(t *testing.T) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	published, overlay, _, err := schema.ReadSources(root)
	if err != nil {
		t.Fatalf("GitHub's GraphQL schema is needed (node_modules/@octokit/graphql-schema): %v", err)
	}
	s, err := schema.Load(published, overlay)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := gqlparser.LoadQueryWithRules(s, overviewDoc, graphql.ValidationRules(s)); len(errs) > 0 {
		t.Fatalf("overview query rejected by GitHub's schema: %v\n%s", errs, overviewDoc)
	}
	// The check can fail.
	if _, errs := gqlparser.LoadQueryWithRules(s, `{ repository(owner: "a", name: "b") { nope } }`, graphql.ValidationRules(s)); len(errs) == 0 {
		t.Fatal("a broken document was accepted")
	}
}
