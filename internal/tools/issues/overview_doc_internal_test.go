package issues

import "testing"

// The overview's query is checked against GitHub's full published schema
// (with the overlay's documented additions: issue types), not only the
// emulator's pruned copy that answers it in the wire tests.
func TestOverviewDocumentIsValidOnGitHub(t *testing.T) {
	t.Parallel()
	s := githubSchema(t)
	if _, errs := loadOnGitHub(s, overviewDoc); len(errs) > 0 {
		t.Fatalf("overview query: GitHub's schema says %v, want no errors\n%s", errs, overviewDoc)
	}
	// The check can fail.
	if _, errs := loadOnGitHub(s, `{ repository(owner: "a", name: "b") { nope } }`); len(errs) == 0 {
		t.Fatalf("a broken document: no errors, want the schema to reject it")
	}
}
