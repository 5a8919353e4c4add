// Package diag is worldcook's one shape of a diagnostic: a problem or a
// warning a command reports, with a code, a severity, a message, where it
// is and how to fix it. Every producer reports in it — a validation
// finding (validate.Finding adds the arrow it draws), a scene that does
// not read (scene.Error), a warning about a simulation's setup
// (streaming.Warning), a note about the game configuration
// (cook.PackageNotes) — and every output kind renders it here, in one
// place each:
//
//   - text: String, one line "file:line:col: severity[code]: message
//     (hint)"; Frame, for a person at a terminal, adds the source line
//     with a caret at the column, the hint on a line of its own and the
//     cells it concerns;
//   - JSON Lines: a Diagnostic encodes as the fields of docs/json.md's
//     `finding` object (JSONLine puts message_type first); ShortJSONLine
//     is simulate's `warning` object (code, message, cells);
//   - SARIF 2.1.0: WriteSARIF;
//   - GitHub Actions workflow commands: WriteGitHub.
//
// A new diagnostic is a Diagnostic built where the fact is found, with a
// code documented beside its rule (docs/validate.md for findings,
// docs/simulate.md for simulate's warnings); the command hands it to one
// of these renderers and never formats it itself.
//
// The package imports nothing of worldcook, so that every layer can
// report in it.
package diag

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Diagnostic is one problem or warning. Its fields are declared in the
// order of its JSON form, which never changes (docs/json.md).
type Diagnostic struct {
	// Code names the kind ("cross-cell-ref", "cell-over-budget"); it is
	// stable, as CI configurations and baselines refer to it. Empty for
	// a one-off message of a command, which has no entry in the docs.
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location
	Subject
	// Hint says how to fix it; empty when the message says it already.
	Hint string `json:"hint,omitempty"`
}

// Location is where a diagnostic is. File empty means it is about the
// run, not a file: the text forms then start at the severity.
type Location struct {
	File string `json:"file"`
	// Line and Column are 1-based, 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// LineText is the text of line Line, for the frame; empty when the
	// file's text was not at hand.
	LineText string `json:"-"`
}

// Subject names what in a world a diagnostic is about: the entity and
// its field, the entity a reference targets and the cells either side,
// or the cells it concerns. Every field is left out of JSON when empty.
type Subject struct {
	Entity     *int64 `json:"entity,omitempty"`
	EntityName string `json:"entityName,omitempty"`
	Field      string `json:"field,omitempty"`
	Target     *int64 `json:"target,omitempty"`
	TargetName string `json:"targetName,omitempty"`
	FromCell   string `json:"fromCell,omitempty"`
	ToCell     string `json:"toCell,omitempty"`
	// Cells are the cells it concerns, at most a few (More counts the
	// rest): the text frame lists them under the message.
	Cells []string `json:"cells,omitempty"`
	More  int      `json:"more,omitempty"`
}

// String renders d as one text line: "file:line:col: severity[code]:
// message (hint)", without the parts d has not.
func (d Diagnostic) String() string {
	var b strings.Builder
	d.head(&b, false)
	if d.Hint != "" {
		b.WriteString(" (")
		b.WriteString(d.Hint)
		b.WriteByte(')')
	}
	return b.String()
}

// MessageWithHint is the message and, in parentheses, the hint: the text
// of the forms that have one field for both (SARIF, GitHub).
func (d Diagnostic) MessageWithHint() string {
	if d.Hint == "" {
		return d.Message
	}
	return d.Message + " (" + d.Hint + ")"
}

// paint is the ANSI colour of each severity in a frame.
var paint = map[string]string{SeverityError: "\x1b[1;31m", SeverityWarning: "\x1b[1;33m"}

// head writes "file:line:col: severity[code]: message"; with color the
// severity alone is painted, so the rest reads and copies the same.
func (d Diagnostic) head(b *strings.Builder, color bool) {
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(d.Line))
			if d.Column > 0 {
				b.WriteByte(':')
				b.WriteString(strconv.Itoa(d.Column))
			}
		}
		b.WriteString(": ")
	}
	if p := paint[d.Severity]; color && p != "" {
		b.WriteString(p)
		b.WriteString(d.Severity)
		b.WriteString("\x1b[0m")
	} else {
		b.WriteString(d.Severity)
	}
	if d.Code != "" {
		b.WriteByte('[')
		b.WriteString(d.Code)
		b.WriteByte(']')
	}
	b.WriteString(": ")
	b.WriteString(d.Message)
}

// Frame renders d for a person at a terminal (with colour if color is
// set): the one-line head, then the source line with its number and a
// caret under the column, then the hint on a line of its own, then the
// cells it concerns, one a line. Without the source line it is the head,
// the hint and the cells.
//
//	main.esscene:50:13: error[persistent-to-cell-ref]: "Player" (2) FollowTarget.target ...
//	   50 |             "target": 31
//	      |             ^
//	  fix: mark "Gate" (30) WorldPersistent, or ...
func (d Diagnostic) Frame(color bool) string {
	var b strings.Builder
	d.head(&b, color)
	b.WriteByte('\n')
	if d.LineText != "" && d.Line > 0 && d.Column > 0 {
		num := strconv.Itoa(d.Line)
		gutter := strings.Repeat(" ", max(4, len(num)))
		fmt.Fprintf(&b, "%*s | %s\n", len(gutter), num, tabsToSpaces(d.LineText))
		fmt.Fprintf(&b, "%s | %s^\n", gutter, strings.Repeat(" ", caretOffset(d.LineText, d.Column)))
	}
	if d.Hint != "" {
		b.WriteString("  fix: ")
		b.WriteString(d.Hint)
		b.WriteByte('\n')
	}
	for _, c := range d.Cells {
		b.WriteString("  ")
		b.WriteString(c)
		b.WriteByte('\n')
	}
	if d.More > 0 {
		fmt.Fprintf(&b, "  and %d more\n", d.More)
	}
	return b.String()
}

// tabsToSpaces shows a tab as one space, so that the caret, which counts
// characters, stays under the column.
func tabsToSpaces(s string) string { return strings.ReplaceAll(s, "\t", " ") }

// caretOffset is the number of characters before column col (1-based) of
// line, bounded by the line's length.
func caretOffset(line string, col int) int {
	return min(col-1, utf8.RuneCountInString(line))
}
