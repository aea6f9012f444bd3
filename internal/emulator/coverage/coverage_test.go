package coverage_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/coverage"
	"github.com/ghgate/ghgate/internal/emulator/rest"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

const docPath = "docs/emulator-coverage.md"

// The committed document is exactly what `ghgate emulator --coverage`
// prints for the code as it is.
func TestCoverageDocIsCurrent(t *testing.T) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	r, err := coverage.Current()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, docPath))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != r.Markdown() {
		t.Fatalf("%s is stale: run `go run ./cmd/ghgate emulator --coverage > %s`", docPath, docPath)
	}
}

// The embedded totals are exactly what the prune scripts make from the
// pinned packages. Without node_modules they cannot be checked: a skip on
// a developer's machine and a failure in CI, as for the pruned copies.
func TestPublishedTotalsAreCurrent(t *testing.T) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	missing := func(err error) {
		if os.Getenv("CI") == "" {
			t.Skipf("the published descriptions are not installed (%v); run `make test`, which runs npm ci", err)
		}
		t.Fatalf("the published descriptions are not installed (%v); run `make test`, which runs npm ci", err)
	}
	full, src, err := openapiprune.ReadSource(root)
	if errors.Is(err, fs.ErrNotExist) {
		missing(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	published, overlay, gsrc, err := schema.ReadSources(root)
	if errors.Is(err, fs.ErrNotExist) {
		missing(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	restWant, err := coverage.OpenAPITotals(full, src.String())
	if err != nil {
		t.Fatal(err)
	}
	gqlWant, err := coverage.GraphQLTotals(published, overlay, gsrc.Package+"@"+gsrc.Version)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]byte{coverage.OpenAPIPath: restWant, coverage.GraphQLPath: gqlWant} {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go run ./scripts/pruneopenapi` and `go run ./scripts/prunegraphql`", path)
		}
	}
}

// Every served route is counted once, in its OpenAPI tag's area or as
// beyond the description; no area serves more than it publishes; a route,
// type or overlay field GitHub does not publish is never counted as
// published ground.
func TestCoverageCounts(t *testing.T) {
	r, err := coverage.Compute(append(rest.Routes(), "GET /repos/{owner}/{repo}/no-such-route"),
		[]schema.Field{{Type: "Query", Field: "viewer"}, {Type: "Mutation", Field: "addComment"}, {Type: "NoSuchType", Field: "id"},
			{Type: "Issue", Field: "issueType"}})
	if err != nil {
		t.Fatal(err)
	}
	served := 0
	var seen []string
	for _, a := range r.REST.Areas {
		if len(a.Served) > a.Published {
			t.Errorf("REST area %s serves %d of %d", a.Name, len(a.Served), a.Published)
		}
		served += len(a.Served)
		seen = append(seen, a.Served...)
	}
	if served != r.REST.Served {
		t.Errorf("REST: %d served summed over areas, want the total %d", served, r.REST.Served)
	}
	if got, want := len(seen)+len(r.REST.Beyond), len(rest.Routes())+1; got != want {
		t.Errorf("REST: %d served in areas + %d beyond = %d, want the %d routes (with the unknown one)", len(seen), len(r.REST.Beyond), got, want)
	}
	if !slices.Contains(r.REST.Beyond, "GET /repos/{owner}/{repo}/no-such-route") {
		t.Errorf("beyond the description: %v, want the unpublished GET /repos/{owner}/{repo}/no-such-route among them", r.REST.Beyond)
	}
	for _, u := range rest.Undescribed() {
		if !slices.Contains(r.REST.Beyond, u) {
			t.Errorf("undescribed route %s is not beyond the description", u)
		}
	}
	issues := r.REST.Areas[slices.IndexFunc(r.REST.Areas, func(a coverage.Area) bool { return a.Name == "issues" })]
	if !slices.Contains(issues.Served, "GET /repos/{owner}/{repo}/issues") {
		t.Errorf("issues area serves %v, want GET /repos/{owner}/{repo}/issues among them", issues.Served)
	}
	// A field on a published type is published unless the overlay adds it
	// (scripts/prunegraphql refuses a served field that is neither).
	if r.GraphQL.Served != 2 {
		t.Errorf("GraphQL served %d, want 2", r.GraphQL.Served)
	}
	if want := []string{"Issue.issueType", "NoSuchType.id"}; !slices.Equal(r.GraphQL.Beyond, want) {
		t.Errorf("GraphQL beyond %v, want %v", r.GraphQL.Beyond, want)
	}
	md := r.Markdown()
	for _, want := range []string{"| issues | ", "## GraphQL: 2 of "} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
