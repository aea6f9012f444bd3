package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ghgate/ghgate/internal/doctor"
	"github.com/spf13/cobra"
)

func newDoctorCommand() *cobra.Command {
	var opts doctor.Options
	cmd := &cobra.Command{
		Use:   "doctor --config FILE [--agent-user NAME]",
		Short: "Check a broker deployment's gates: file modes, the socket, an agent user's reach",
		Long: `Checks the broker's gates and prints a verdict per gate (PASS, WARN or FAIL)
with its reason: the config and secrets files' owners and modes, the socket's
mode, group, owner and directory, the state database's size, and with --agent-user, that the agent is in the bridge group
but not in the service user's group, cannot read the secrets, has no
passwordless sudo and no root-equivalent group (docker). Run it as root to
see everything. Exits non-zero when any gate fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			gates := doctor.Run(doctor.OSEnv(), opts)
			if err := printGates(cmd.OutOrStdout(), gates); err != nil {
				return err
			}
			if n := doctor.Failed(gates); n > 0 {
				return fmt.Errorf("doctor: %d of %d gates failed", n, len(gates))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.ConfigPath, "config", "", "the broker's config file (required)")
	f.StringVar(&opts.AgentUser, "agent-user", "", "also check this agent user's reach")
	f.StringVar(&opts.ServiceUser, "service-user", "ghgate", "the user the broker runs as")
	_ = cmd.MarkFlagRequired("config")
	return cmd
}

// printGates writes one aligned line per gate: verdict, name, reason.
func printGates(w io.Writer, gates []doctor.Gate) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, g := range gates {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", g.Verdict, g.Name, g.Reason)
	}
	return tw.Flush()
}
