// Command pruneopenapi writes the pruned copy of GitHub's OpenAPI
// description that the emulator's fidelity tests embed: only the operations
// the emulator serves (emulator.Routes) and the components they reference,
// prose and examples removed, with the npm package and version it came from
// recorded in info.x-source, and the per-area totals of the whole
// description that `ghgate emulator --coverage` embeds
// (internal/emulator/coverage/openapi.json). Run it from anywhere in the module, after
// `npm ci`:
//
//	go run ./scripts/pruneopenapi
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/coverage"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

func main() {
	out := flag.String("out", "", "where to write the pruned description (default: "+openapiprune.PrunedPath+" under the module root)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "pruneopenapi:", err)
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
	full, src, err := openapiprune.ReadSource(root)
	if err != nil {
		return fmt.Errorf("%w (run `npm ci` or `make deps` first)", err)
	}
	emu, err := emulator.New(emulator.Options{Seed: "empty"})
	if err != nil {
		return err
	}
	routes := emu.DescribedRoutes()
	pruned, err := openapiprune.Prune(full, routes, src)
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, openapiprune.PrunedPath)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, pruned, 0o644); err != nil {
		return err
	}
	fmt.Printf("pruneopenapi: %d operations from %s (%d bytes) -> %s (%d bytes)\n",
		len(routes), src, len(full), out, len(pruned))
	// The published totals `ghgate emulator --coverage` reads offline.
	totals, err := coverage.OpenAPITotals(full, src.String())
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, coverage.OpenAPIPath), totals, 0o644)
}
