package emulator

import "testing"

// A document that asks for a field the schema lacks, with a fragment on a
// type it lacks further down: GitHub lists the problems in document order,
// so the field comes first, and a client that reads the first error (as
// GitHub's MCP server does) learns which field is missing.
func testGraphQLErrorsInDocumentOrder(t *testing.T, w *gqlWorld) {
	const doc = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Issue {
      id
      fieldValuesOfSomeKind(first: 25) { nodes { ... on SomeFieldValue { value } } }
    }
  }
  viewer { nickname }
}`
	res := w.send("/graphql", "emu-alice", map[string]any{"query": doc, "variables": map[string]any{"ids": []string{}}})
	var got []string
	for _, e := range res.Errors {
		got = append(got, e.Message)
	}
	if len(got) < 2 || got[0] != "Field 'fieldValuesOfSomeKind' doesn't exist on type 'Issue'" ||
		got[len(got)-1] != "Field 'nickname' doesn't exist on type 'User'" {
		t.Errorf("errors out of document order: %q", got)
	}
}
