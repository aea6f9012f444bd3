package issues

import "testing"

// The overview's query is checked against GitHub's full published schema
// (with the overlay's documented additions: issue types), not only the
// emulator's pruned copy that answers it in the wire tests.
func TestOverviewDocumentIsValidOnGitHub(t *testing.T) {
	t.Parallel()
	s := githubSchema(t)
	if _, errs := loadOnGitHub(s, overviewDoc); len(errs) > 0 {
		t.Fatalf("overview query rejected by GitHub's schema: %v\n%s", errs, overviewDoc)
	}
	// The check can fail.
	if _, errs := loadOnGitHub(s, `{ repository(owner: "a", name: "b") { nope } }`); len(errs) == 0 {
		t.Fatal("a broken document was accepted")
	}
}
