package main

import (
	"context"
	"errors"
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
			// Before any secret is in memory: no other process of the
			// broker's user may read its memory or environment.
			switch err := broker.MakeNonDumpable(); {
			case errors.Is(err, errors.ErrUnsupported):
				log.Warn("cannot mark the broker non-dumpable on this system: processes of its user can read its memory")
			case err != nil:
				return err
			default:
				log.Info("broker marked non-dumpable: processes of its own user cannot read its memory or environment")
			}
			cfg, err := broker.LoadConfig(configPath)
			if err != nil {
				return err
			}
			warnUpstreamTrust(log, cfg)
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

// warnUpstreamTrust says, at start, what each upstream child is trusted
// with when it does not run as a user of its own.
func warnUpstreamTrust(log *slog.Logger, cfg *broker.Config) {
	for _, u := range cfg.Upstreams {
		if len(u.Command) == 0 {
			continue
		}
		if u.User == "" {
			log.Warn("upstream children run as the broker's own user: the upstream is trusted with every credential the broker holds; set user and write_user to isolate them",
				"upstream", u.Name)
			continue
		}
		modes := map[string]bool{}
		for _, a := range u.Allow {
			modes[a.Mode] = true
		}
		if modes["read"] && modes["write"] && (u.WriteUser == "" || u.WriteUser == u.User) {
			log.Warn("upstream read and write children share one user: a read child can read the write child's token; set a distinct write_user",
				"upstream", u.Name, "user", u.User)
		}
	}
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
