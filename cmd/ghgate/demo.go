package main

import (
	"github.com/ghgate/ghgate/internal/demo"
	"github.com/spf13/cobra"
)

func newDemoCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "A scripted tour of ghgate against the built-in demo world (no token needed)",
		Long: `Run a scripted tour through an in-memory MCP client against an in-process
GitHub emulator seeded with the demo world, printing each tool call and its
abridged result: search, read, a label swap, a stale-version conflict and its
repair, an idempotent create repeated, and a rate-limit error with its retry
hint.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return demo.Tour(cmd.Context(), cmd.OutOrStdout())
		},
	}
}
