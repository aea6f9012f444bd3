package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newGenDocsCommand writes the shell completions and man pages that the
// release archives ship, generated from the commands themselves so they
// cannot drift from the flags. Hidden: it is a build step, not something a
// user runs. The man pages' date is SOURCE_DATE_EPOCH when set (the release
// build sets the commit's), so two builds of one commit write the same bytes.
//
// With --pages DIR it writes instead the documentation pages generated
// from the code (docs/configuration.md, docs/tools.md,
// docs/troubleshooting.md; see docpages.go).
func newGenDocsCommand() *cobra.Command {
	var pages bool
	cmd := &cobra.Command{
		Use:    "gen-docs DIR",
		Short:  "Write shell completions (DIR/completions) and man pages (DIR/man) for the release archives",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pages {
				return writeDocPages(cmd.Context(), args[0])
			}
			return genDocs(cmd.Root(), args[0])
		},
	}
	cmd.Flags().BoolVar(&pages, "pages", false, "write the generated documentation pages into DIR (docs) instead")
	return cmd
}

// genDocs writes DIR/completions/ghgate.{bash,zsh,fish} and DIR/man/*.1.
func genDocs(root *cobra.Command, dir string) error {
	compDir, manDir := filepath.Join(dir, "completions"), filepath.Join(dir, "man")
	for _, d := range []string{compDir, manDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// Cobra adds its `completion` command only when the root executes; the
	// generators below read the tree as it is, so add it now to have it in
	// the man pages and completions as users will see it.
	root.InitDefaultCompletionCmd()
	gens := []struct {
		name string
		gen  func(path string) error
	}{
		{"ghgate.bash", func(p string) error { return root.GenBashCompletionFileV2(p, true) }},
		{"ghgate.zsh", root.GenZshCompletionFile},
		{"ghgate.fish", func(p string) error { return root.GenFishCompletionFile(p, true) }},
	}
	for _, g := range gens {
		if err := g.gen(filepath.Join(compDir, g.name)); err != nil {
			return fmt.Errorf("completion %s: %w", g.name, err)
		}
	}
	header := &doc.GenManHeader{Title: "GHGATE", Section: "1", Source: "ghgate", Manual: "ghgate manual"}
	root.DisableAutoGenTag = true
	if err := doc.GenManTree(root, header, manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return nil
}
