package cmd

import (
	"fmt"
	"io"
	"os"

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
			fmt.Fprint(io.Err, f.Frame(colorAllowed()))
			continue
		}
		fmt.Fprintln(io.Err, f.String())
	}
}

// findingLine is a finding in machine output (docs/json.md).
type findingLine struct {
	MessageType string `json:"message_type"`
	validate.Finding
}

// writeFindingLines writes a plan's findings as JSON Lines, warnings too:
// a tool filters on severity itself.
func writeFindingLines(w io.Writer, plan *validate.Plan) error {
	for _, f := range plan.Findings {
		if err := writeJSONLine(w, findingLine{MessageType: "finding", Finding: f}); err != nil {
			return err
		}
	}
	return nil
}

// colorAllowed reports whether output to a terminal may be coloured: not
// when NO_COLOR is set to anything (no-color.org), nor for a dumb
// terminal.
func colorAllowed() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
