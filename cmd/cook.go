package cmd

import "github.com/spf13/cobra"

// newCookCmd is replaced by the real command.
func newCookCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "cook", Hidden: true}
}
