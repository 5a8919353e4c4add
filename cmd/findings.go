package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/validate"
)

// Every warning and error the commands print about a scene or a run is a
// diag.Diagnostic, written here: on stderr, as its one text line, or with
// the source line under it on a terminal; in machine output, as its JSON
// Lines object. One about a file starts with its location; one about the
// run is a line of worldcook's own ("worldcook: warning: …").

// printFindings writes a plan's findings to stderr in the validate text
// format (with the source line under each on a terminal), so that a
// refused cook says exactly what to fix. Warnings are left out with quiet.
func printFindings(io IO, plan *validate.Plan, quiet bool) {
	for _, f := range plan.Findings {
		if quiet && f.Severity != validate.SeverityError {
			continue
		}
		printDiagnostic(io, f.Diagnostic)
	}
}

// printDiagnostic writes d to stderr.
func printDiagnostic(io IO, d diag.Diagnostic) {
	if d.File == "" {
		fmt.Fprintf(io.Err, "worldcook: %s\n", d.String())
		return
	}
	if io.ErrTerminal {
		fmt.Fprint(io.Err, d.Frame(colorAllowed()))
		return
	}
	fmt.Fprintln(io.Err, d.String())
}

// writeFindingLines writes a plan's findings as JSON Lines `finding`
// objects (docs/json.md), warnings too: a tool filters on severity itself.
func writeFindingLines(w io.Writer, plan *validate.Plan) error {
	for _, f := range plan.Findings {
		if err := writeJSONLine(w, diag.JSONLine{MessageType: "finding", Diagnostic: f.Diagnostic}); err != nil {
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
