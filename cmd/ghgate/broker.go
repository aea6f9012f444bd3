package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/spf13/cobra"
)

func newBrokerCommand() *cobra.Command {
	var (
		configPath string
		verbose    bool
	)
	cmd := &cobra.Command{
		Use:   "broker --config FILE",
		Short: "Run the credential broker: serve agents over a Unix socket with credentials they never see",
		Long: `Run ghgate as a credential broker. The broker runs as its own OS user,
holds the GitHub credentials in memory, picks a read or write credential
per call by the target owner, and serves MCP over a Unix socket only the
configured group can open. Agents reach it with 'ghgate connect'.

Every tool call writes one JSON line to the audit log (never a secret).
SIGHUP reopens the audit log after a rotation; SIGTERM stops accepting,
lets the calls in flight finish, and removes the socket.

A config that is unsafe (a secrets file others can read, a socket mode
wider than 0660, a route naming a missing secret) refuses to start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
			cfg, err := broker.LoadConfig(configPath)
			if err != nil {
				return err
			}
			b, err := broker.New(cfg, broker.Options{Log: log, AuditFallback: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			defer func() {
				if err := b.Close(); err != nil {
					log.Error("closing the broker", "error", err)
				}
			}()
			return runBroker(cmd.Context(), b, log)
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "", "the broker's TOML config file (required)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "log at debug level")
	_ = cmd.MarkFlagRequired("config")
	return cmd
}

// runBroker serves until ctx ends (SIGTERM, SIGINT), reopening the audit
// log on every SIGHUP.
func runBroker(ctx context.Context, b *broker.Broker, log *slog.Logger) error {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	for {
		select {
		case err := <-done:
			return err
		case <-hup:
			if err := b.ReopenAudit(); err != nil {
				log.Error("reopening the audit log; still writing to the old file", "error", err)
			}
		}
	}
}
