// Command prunegraphql writes the pruned copy of GitHub's GraphQL schema
// that the emulator embeds: the object types and fields the emulator's
// resolvers serve (graphql.Fields), with the arguments they accept
// and the interfaces, unions, enums, scalars and input types those need,
// descriptions removed, the additions in internal/emulator/schema/overlay.graphql
// applied, and the npm package version it came from in a header comment;
// and the per-type field totals of the whole published schema that
// `ghgate emulator --coverage` embeds (internal/emulator/coverage/graphql.json).
// Run it from anywhere in the module, after `npm ci`:
//
//	go run ./scripts/prunegraphql
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/internal/emulator/coverage"
	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

func main() {
	out := flag.String("out", "", "where to write the pruned schema (default: "+schema.PrunedPath+" under the module root)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "prunegraphql:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := openapiprune.ModuleRoot(wd)
	if err != nil {
		return err
	}
	published, overlay, src, err := schema.ReadSources(root)
	if err != nil {
		return fmt.Errorf("%w (run `npm ci` or `make deps` first)", err)
	}
	served, err := graphql.Fields()
	if err != nil {
		return err
	}
	pruned, err := schema.Prune(published, overlay, src, served)
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, schema.PrunedPath)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, pruned, 0o644); err != nil {
		return err
	}
	fmt.Printf("prunegraphql: %d fields from %s@%s (%d bytes) -> %s (%d bytes)\n",
		len(served), src.Package, src.Version, len(published), out, len(pruned))
	// The published totals `ghgate emulator --coverage` reads offline.
	totals, err := coverage.GraphQLTotals(published, overlay, src.Package+"@"+src.Version)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, coverage.GraphQLPath), totals, 0o644)
}
