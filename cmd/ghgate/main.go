// Command ghgate is an MCP server through which AI agents work on GitHub
// issues, and the tools around it: a GitHub API emulator, a credential
// broker, diagnostics and benchmarks.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	// The container image has an empty base, with no CA certificates: these
	// roots are used only when the system has none, so HTTPS to GitHub
	// verifies there too, while a host's own store (and its private CAs for
	// GitHub Enterprise Server) is used everywhere else.
	_ "golang.org/x/crypto/x509roots/fallback"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCommand().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "ghgate:", err)
		os.Exit(1)
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "ghgate",
		Short:         "An MCP server for working on GitHub issues, built for agents",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newDemoCommand(), newVersionCommand(), newServeCommand(), newEmulatorCommand(), newBenchCommand(), newBrokerCommand(), newConnectCommand(), newDoctorCommand(),
		newHealthcheckCommand(), newGenDocsCommand(), newSetupCommand(), newAuthCommand())
	return root
}
