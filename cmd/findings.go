package cmd

import (
	"fmt"

	"github.com/worldcook/worldcook/validate"
)

// printFindings writes a plan's findings to stderr in the validate text
// format (with the source line under each on a terminal), so that a
// refused cook says exactly what to fix. Warnings are left out with quiet.
func printFindings(io IO, plan *validate.Plan, quiet bool) {
	for _, f := range plan.Findings {
		if quiet && f.Severity != validate.SeverityError {
			continue
		}
		if io.ErrTerminal {
			fmt.Fprint(io.Err, f.Frame())
			continue
		}
		fmt.Fprintln(io.Err, f.String())
	}
}
