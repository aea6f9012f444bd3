package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ghgate/ghgate/internal/bench"
	"github.com/spf13/cobra"
)

func newBenchCommand() *cobra.Command {
	var requests, workers int
	var peer string
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
			if peer != "" {
				return runPeerBench(ctx, out, peer)
			}
			fmt.Fprintln(out, "ghgate bench: figures for this machine and this build")
			figs, err := bench.All(ctx, bench.Config{Requests: requests, Workers: workers})
			for _, f := range figs {
				fmt.Fprintln(out, f)
			}
			return err
		},
	}
	cmd.Flags().IntVar(&requests, "requests", 20000, "requests for the emulator throughput measurement")
	cmd.Flags().StringVar(&peer, "peer", "", "instead, run the scripted tasks through ghgate and through GitHub's MCP server (this github-mcp-server binary) side by side")
	cmd.Flags().IntVar(&workers, "workers", 4, "concurrent connections for the throughput measurement")
	return cmd
}

// runPeerBench prints the side-by-side comparison with GitHub's MCP server;
// a task that failed on either server fails the command after the table.
func runPeerBench(ctx context.Context, out io.Writer, peer string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "ghgate bench --peer: the same scripted tasks through ghgate and GitHub's MCP server, one emulator, one counting proxy")
	rep, err := bench.Peer(ctx, bench.PeerConfig{Ghgate: self, Peer: peer})
	if err != nil {
		return err
	}
	if err := rep.Print(out); err != nil {
		return err
	}
	return rep.Failed()
}
