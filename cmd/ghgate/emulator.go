package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/coverage"
	"github.com/spf13/cobra"
)

func newEmulatorCommand() *cobra.Command {
	var (
		listen  string
		latency time.Duration
		lag     time.Duration
		ghes    string
		seed    string
		fleet   int
		faults  []string
		verbose bool
		cover   bool
	)
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Serve a stateful GitHub API emulator (REST and GraphQL) on loopback",
		Long: `Serve a stateful GitHub API emulator with the demo seed: org acme (repos
acme/widgets, acme/gadgets), user repo alice/notes, users alice (admin),
bob (write), carol (read) and dave (no grants: public repos only) with
tokens emu-alice, emu-bob, emu-carol and emu-dave; and org fleet (--fleet-repos
repositories, some archived, some with issues, code or secret scanning off,
with workflow runs, security alerts and release pull requests) owned by alice,
carol its security manager, bob a member with write access.

The same API answers under the GitHub Enterprise Server prefixes /api/v3 and
/api/graphql; --ghes-version makes /api/v3 answer as that GHES version does
(REST API version 2022-11-28 only, so no related issues). Faults are injected with --fault or at runtime through
POST /_emulator/faults, e.g.

  --fault 'status:502@POST /repos/acme/widgets/issues'
  --fault 'drop_after@POST /repos/*x1'
  --fault 'latency:200@*'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cover {
				return printCoverage(cmd.OutOrStdout())
			}
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
			emu, err := emulator.New(emulator.Options{Seed: seed, FleetRepos: fleet, Latency: latency, SearchLag: lag, GHESVersion: ghes, Logger: log})
			if err != nil {
				return err
			}
			for _, spec := range faults {
				f, err := emulator.ParseFault(spec)
				if err != nil {
					return err
				}
				if err := emu.Faults().Add(f); err != nil {
					return err
				}
			}
			return serveUntilDone(cmd.Context(), listen, emu, log)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8765", "loopback address to listen on")
	cmd.Flags().DurationVar(&latency, "latency", 0, "time every request takes, e.g. 50ms: a read's answer is held until then, a write waits before it is applied")
	cmd.Flags().DurationVar(&lag, "search-lag", 0, "how long a write takes to reach search results, as GitHub's index trails writes, e.g. 5s")
	cmd.Flags().StringVar(&ghes, "ghes-version", "", "answer /api/v3 as this GitHub Enterprise Server version (e.g. 3.20); default: as GitHub.com")
	cmd.Flags().StringVar(&seed, "seed", "demo", "initial world: demo or empty")
	cmd.Flags().IntVar(&fleet, "fleet-repos", emulator.DemoFleetRepos, "repositories of the demo seed's fleet organization (0 for none)")
	cmd.Flags().StringArrayVar(&faults, "fault", nil, "inject a fault: kind[:n]@[METHOD ]path[xCOUNT] (repeatable)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "log every request")
	cmd.Flags().BoolVar(&cover, "coverage", false, "print the REST routes and GraphQL fields served against GitHub's published API, per area, and exit")
	return cmd
}

// printCoverage writes the emulator's coverage of GitHub's published API
// (docs/emulator-coverage.md is this output).
func printCoverage(w io.Writer) error {
	r, err := coverage.Current()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, r.Markdown())
	return err
}

// serveUntilDone serves h on addr until ctx ends, then shuts down gracefully.
// Only loopback addresses are accepted: the emulator has no business on a
// network.
func serveUntilDone(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--listen %q: only loopback addresses are allowed", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Info("emulator listening", "url", "http://"+ln.Addr().String(), "ghes_url", "http://"+ln.Addr().String()+"/api/v3")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
