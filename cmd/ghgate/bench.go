package main

import (
	"github.com/spf13/cobra"
)

func newBenchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure ghgate on this machine and print the figures",
		Args:  cobra.NoArgs,
	}
	return cmd
}
