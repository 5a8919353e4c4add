package cmd

import "github.com/spf13/cobra"

// newValidateCmd is replaced by the real command.
func newValidateCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "validate", Hidden: true}
}
