package repair

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/worldcook/worldcook/internal/english"
)

// WriteText writes the table of r for people: each group's broken
// references, its candidates with their costs, which was chosen and why,
// and the repairs not offered with why.
func WriteText(w io.Writer, r *Result) error {
	if len(r.Fixes) == 0 {
		_, err := fmt.Fprintf(w, "%s: no reference the cut breaks; nothing to repair\n", r.File)
		return err
	}
	n := 0
	for _, fx := range r.Fixes {
		n += len(fx.Findings)
	}
	fmt.Fprintf(w, "%s: %s the cut breaks, in %s\n", r.File, english.Count(n, "reference"), english.Count(len(r.Fixes), "group"))
	routes := false
	for _, fx := range r.Fixes {
		for _, c := range fx.Candidates {
			routes = routes || len(c.Simulated) > 0
		}
	}
	for _, fx := range r.Fixes {
		fmt.Fprintln(w)
		for _, f := range fx.Findings {
			fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", f.File, f.Line, f.Column, f.Code, f.Message)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := "  \trepair\talways-resident\tbounds growth"
		if routes {
			head += "\tpeak resident\tpop-in frames"
		}
		fmt.Fprintln(tw, head)
		for k, c := range fx.Candidates {
			mark := " "
			if k == fx.Chosen {
				mark = "*"
			}
			line := fmt.Sprintf("  %s\t%s\t%s\t%s", mark, c.Repair, signedBytes(c.ResidentBytes), growthText(c.Growth))
			if routes {
				line += "\t" + peaks(c) + "\t" + popIns(c)
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
		if fx.Chosen >= 0 {
			fmt.Fprintf(w, "  chosen: %s (%s)\n", fx.Candidates[fx.Chosen].Repair, fx.Why)
			for _, note := range fx.Candidates[fx.Chosen].Warnings {
				fmt.Fprintf(w, "  then: %s\n", note)
			}
		} else {
			fmt.Fprintf(w, "  no repair: %s\n", fx.Why)
		}
		for _, c := range fx.Excluded {
			fmt.Fprintf(w, "  not offered: %s: %s\n", c.Repair, c.Excluded)
		}
	}
	if len(r.Left) > 0 {
		fmt.Fprintf(w, "\n%s left as %s: %s\n", english.Count(len(r.Left), "reference"), plural(len(r.Left)), "no repair keeps the rest of the scene; mark the roots WorldPersistent by hand, or declare the fields soft")
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return "it is"
	}
	return "they are"
}

// signedBytes writes a byte count with its sign, in bytes.
func signedBytes(n int64) string {
	switch {
	case n > 0:
		return "+" + strconv.FormatInt(n, 10) + " B"
	case n < 0:
		return strconv.FormatInt(n, 10) + " B"
	}
	return "0 B"
}

func growthText(g *Growth) string {
	if g == nil {
		return "-"
	}
	if g.Area == 0 && g.Reach == 0 {
		return "none (" + g.Cell + ")"
	}
	return fmt.Sprintf("%s: +%s area, %s out", g.Cell, num(g.Area), num(g.Reach))
}

// num writes a measure to 4 significant digits, without an exponent
// below a trillion.
func num(f float64) string {
	if a := math.Abs(f); a >= 1e4 && a < 1e12 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}

func peaks(c *Candidate) string {
	var parts []string
	for _, r := range c.Simulated {
		parts = append(parts, strconv.FormatInt(r.PeakResidentBytes, 10)+" B"+label(c, r))
	}
	return strings.Join(parts, ", ")
}

func popIns(c *Candidate) string {
	var parts []string
	for _, r := range c.Simulated {
		parts = append(parts, strconv.Itoa(r.PopInFrames)+label(c, r))
	}
	return strings.Join(parts, ", ")
}

// label names a run when a candidate has several (routes, policies).
func label(c *Candidate, r Run) string {
	if len(c.Simulated) < 2 {
		return ""
	}
	return " (" + r.Route + ", " + r.Policy + ")"
}
