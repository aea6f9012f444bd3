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
	var peerSamples, peerSessions int
	var replicas []int
	var scaleCalls, scaleClients int
	var scaleLatency time.Duration
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure ghgate on this machine and print the figures",
		Long: `Measure ghgate on this machine and print the figures. Every measurement
runs against an in-process emulator on loopback, is bounded in count and
time, and stops by itself. The figures are for reading, not pass/fail.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if peer != "" {
				// The comparison runs every operation many times on two
				// servers, then a burst of HTTP sessions on each.
				ctx, cancel := context.WithTimeout(cmd.Context(), 4*time.Minute)
				defer cancel()
				return runPeerBench(ctx, out, bench.PeerConfig{Peer: peer, Samples: peerSamples, Sessions: peerSessions})
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Minute)
			defer cancel()
			if len(replicas) > 0 {
				return runScaleBench(ctx, out, bench.ScaleConfig{Replicas: replicas, Calls: scaleCalls, Clients: scaleClients, Latency: scaleLatency})
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
	cmd.Flags().IntVar(&peerSamples, "peer-samples", bench.DefaultPeerSamples, fmt.Sprintf("--peer: samples of each operation on each server for the overhead table (at most %d)", bench.MaxPeerSamples))
	cmd.Flags().IntVar(&peerSessions, "peer-sessions", bench.DefaultPeerSessions, fmt.Sprintf("--peer: HTTP sessions open at once in the memory burst (at most %d)", bench.MaxPeerSessions))
	cmd.Flags().IntVar(&workers, "workers", 4, "concurrent connections for the throughput measurement")
	cmd.Flags().IntSliceVar(&replicas, "replicas", nil, "instead, run a read-heavy mix through HAProxy in front of this many serve --http replicas each (e.g. 1,3), with SQLite and with Redis state (needs redis-server and haproxy)")
	cmd.Flags().IntVar(&scaleCalls, "scale-calls", 400, "tool calls per --replicas configuration")
	cmd.Flags().IntVar(&scaleClients, "scale-clients", 8, "concurrent MCP clients for --replicas")
	cmd.Flags().DurationVar(&scaleLatency, "scale-latency", 20*time.Millisecond, "emulator latency per request for --replicas")
	return cmd
}

// runScaleBench prints the replica comparison; a configuration whose calls
// failed fails the command after the table.
func runScaleBench(ctx context.Context, out io.Writer, cfg bench.ScaleConfig) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg.Ghgate = self
	rows, err := bench.Scale(ctx, cfg)
	if perr := bench.PrintScale(out, cfg, rows); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.Errors > 0 {
			return fmt.Errorf("%d of the calls with %d %s replicas failed", r.Errors, r.Replicas, r.State)
		}
	}
	return nil
}

// runPeerBench prints the side-by-side comparison with GitHub's MCP server;
// a task that failed on either server fails the command after the table.
func runPeerBench(ctx context.Context, out io.Writer, cfg bench.PeerConfig) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg.Ghgate = self
	fmt.Fprintln(out, "ghgate bench --peer: the same scripted tasks through ghgate and GitHub's MCP server, one emulator, one counting proxy")
	start := time.Now()
	rep, err := bench.Peer(ctx, cfg)
	if err != nil {
		return err
	}
	if err := rep.Print(out); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nthe comparison took %s\n", time.Since(start).Round(time.Second))
	return rep.Failed()
}
