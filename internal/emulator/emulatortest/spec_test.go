package emulatortest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Tally(Summary())
	os.Exit(code)
}

func routes(t *testing.T) []string {
	t.Helper()
	e, err := emulator.New(emulator.Options{Seed: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	r := e.DescribedRoutes()
	if len(r) == 0 {
		t.Fatal("the emulator lists no routes")
	}
	return r
}

// Every route the emulator serves is an operation of the pruned
// description, and the description holds nothing else.
func TestPrunedSpecCoversEveryRoute(t *testing.T) {
	ops, err := openapiprune.Operations(prunedSpec)
	if err != nil {
		t.Fatal(err)
	}
	served := routes(t)
	for _, r := range served {
		if !slices.Contains(ops, r) {
			t.Errorf("the emulator serves %q but the pruned OpenAPI description has no such operation; run `go run ./scripts/pruneopenapi`", r)
		}
	}
	for _, op := range ops {
		if !slices.Contains(served, op) {
			t.Errorf("the pruned OpenAPI description holds %q, which the emulator does not serve; run `go run ./scripts/pruneopenapi`", op)
		}
	}
	// The router over the description must find each of them too.
	s, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.doc.Paths.Map()); got == 0 {
		t.Fatal("the pruned description has no paths")
	}
}

// The committed copy is exactly what the script makes from the pinned
// package. Without node_modules it cannot be checked: that is a skip on a
// developer's machine and a failure in CI, where `make test` installs it.
func TestPrunedSpecIsCurrent(t *testing.T) {
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	full, src, err := openapiprune.ReadSource(root)
	if errors.Is(err, fs.ErrNotExist) {
		if os.Getenv("CI") == "" {
			t.Skipf("@octokit/openapi is not installed (%v); run `make test`, which runs npm ci", err)
		}
		t.Fatalf("@octokit/openapi is not installed (%v); run `make test`, which runs npm ci", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := openapiprune.Prune(full, routes(t), src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, prunedSpec) {
		t.Fatalf("%s is stale for %s (%d bytes committed, %d regenerated); run `go run ./scripts/pruneopenapi`",
			openapiprune.PrunedPath, src, len(prunedSpec), len(want))
	}
	if got := Source(); got != src.String() {
		t.Fatalf("Source() = %q, want %q", got, src)
	}
}
