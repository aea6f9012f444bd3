package main

import (
	"context"
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/bench"
	"github.com/spf13/cobra"
)

func newBenchCommand() *cobra.Command {
	var requests, workers int
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure ghgate on this machine and print the figures",
		Long: `Measure ghgate on this machine and print the figures. Every measurement
runs against an in-process emulator on loopback, is bounded in count and
time, and stops by itself. The figures are for reading, not pass/fail.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Minute)
			defer cancel()
			out := cmd.OutOrStdout()
			fmt.Fprintln(out, "ghgate bench: figures for this machine and this build")
			figs, err := bench.All(ctx, bench.Config{Requests: requests, Workers: workers})
			for _, f := range figs {
				fmt.Fprintln(out, f)
			}
			return err
		},
	}
	cmd.Flags().IntVar(&requests, "requests", 20000, "requests for the emulator throughput measurement")
	cmd.Flags().IntVar(&workers, "workers", 4, "concurrent connections for the throughput measurement")
	return cmd
}
