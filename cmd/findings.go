package cmd

import (
	"fmt"

	"github.com/worldcook/worldcook/validate"
)

// printFindings writes a plan's findings to stderr, one a line, so that a
// refused cook says exactly what to fix. Warnings are left out with quiet.
func printFindings(io IO, plan *validate.Plan, quiet bool) {
	for _, f := range plan.Findings {
		if quiet && f.Severity != validate.SeverityError {
			continue
		}
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		msg := f.Message
		if f.Hint != "" {
			msg += " (" + f.Hint + ")"
		}
		fmt.Fprintf(io.Err, "%s: %s[%s]: %s\n", loc, f.Severity, f.Code, msg)
	}
}
