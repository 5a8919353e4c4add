package cmd

import "github.com/spf13/cobra"

// newSimulateCmd is replaced by the real command.
func newSimulateCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "simulate", Hidden: true}
}
