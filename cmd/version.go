package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X .../cmd.version=v1.2.3".
var version = "dev"

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print worldcook's version",
		Example: "  worldcook version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version
			if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
				v = info.Main.Version
			}
			_, err := fmt.Fprintf(a.io.Out, "worldcook %s %s/%s %s\n", v, runtime.GOOS, runtime.GOARCH, runtime.Version())
			return err
		},
	}
}
