package graphql_test

import (
	"slices"
	"testing"
)

// A document that asks for a field the schema lacks, with a fragment on a
// type it lacks inside it, and another missing field after: GitHub lists
// the problems in document order and does not look inside the missing
// field, so a client that reads the first error (as GitHub's MCP server
// does) learns which field is missing. A fragment on an unknown type is
// reported, but nothing inside it.
func testGraphQLErrorsInDocumentOrder(t *testing.T, w *gqlWorld) {
	const doc = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Issue {
      id
      fieldValuesOfSomeKind(first: 25) { nodes { ... on SomeFieldValue { value } } }
    }
  }
  viewer { nickname ... on Nobody { x(y: 1) } }
}`
	res := w.send("/graphql", "emu-alice", map[string]any{"query": doc, "variables": map[string]any{"ids": []string{}}})
	var got []string
	for _, e := range res.Errors {
		got = append(got, e.Message)
	}
	want := []string{
		"Field 'fieldValuesOfSomeKind' doesn't exist on type 'Issue'",
		"Field 'nickname' doesn't exist on type 'User'",
		"No such type Nobody, so it can't be a fragment condition",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
}
