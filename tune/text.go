package tune

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/streaming"
)

// bytesText renders a byte count exactly, as simulate's summary does.
func bytesText(n int64) string { return strconv.FormatInt(n, 10) + " B" }

func sizeText(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// requireText says what a feasible candidate meets.
func (r *Result) requireText() string {
	if len(r.Require.FailOn) == 0 {
		return "nothing"
	}
	w := "warm-up until the first frame without holes"
	if len(r.Require.FailOn) == 1 && r.Require.FailOn[0] == streaming.FailPopIn {
		w = "warm-up until the first frame without pop-in"
	}
	if r.Require.Warmup != nil {
		w = fmt.Sprintf("%d-frame warm-up", *r.Require.Warmup)
	}
	return fmt.Sprintf("no %s on any route (%s)", strings.Join(r.Require.FailOn, ", no "), w)
}

// WriteText writes the result for a person: the counts, the top
// candidates with their figures per route, the Pareto front, the
// recommendation as a worldcook.yaml snippet, and the authored settings
// on the same routes beside it.
func WriteText(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	for i := range r.Warnings {
		bw.WriteString(r.Warnings[i].Frame(false))
	}
	fmt.Fprintf(bw, "tune on %d %s (%s): minimize %s, require %s\n", len(r.Routes), english.Plural(len(r.Routes), "route"),
		strings.Join(r.Routes, ", "), r.Objective, r.requireText())
	dims := make([]string, len(r.Dimensions))
	for i, d := range r.Dimensions {
		dims[i] = fmt.Sprintf("%d %s", d.Values, strings.TrimPrefix(d.Flag, "--"))
	}
	fmt.Fprintf(bw, "space: %s = %d combinations\n", strings.Join(dims, " × "), r.Total)
	fmt.Fprintf(bw, "  evaluated %d, skipped %d (radii rule: unload ≤ load or prefetch < load)", r.Evaluated, r.Skipped)
	if r.ViewReach > 0 {
		fmt.Fprintf(bw, " and %d (load radius below %s, the least that wants every cell the camera shows)", r.Uncovered, num(r.Cover))
	}
	fmt.Fprintf(bw, ", feasible %d", r.Feasible)
	if r.Pruned > 0 {
		fmt.Fprintf(bw, ", pruned %d (stopped once they could no longer win: %d route %s and %d %s saved)", r.Pruned, r.PrunedRuns, english.Plural(r.PrunedRuns, "run"), r.PrunedFrames, english.Plural(r.PrunedFrames, "frame"))
	}
	fmt.Fprintln(bw)
	if r.Partial {
		fmt.Fprintf(bw, "  cancelled: the best of the %d candidates run, of %d\n", r.Evaluated, r.Candidates)
	}

	if r.Best == nil {
		fmt.Fprintf(bw, "\n%s\n", r.Infeasible())
		if r.Authored != nil {
			r.writeAuthored(bw, nil)
		}
		return bw.Flush()
	}

	fmt.Fprintf(bw, "\ntop %d feasible (over routes: the largest peak and mean, the sum of loads)\n", len(r.Top))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	popIn := func(int) string { return "" }
	header := "rank\tcell size\tload\tunload\tprefetch\tbudget\tcap\troute\tpeak B\tmean B\tloads\tmax frame B\thole frames\t"
	if r.ViewReach > 0 {
		popIn = func(n int) string { return strconv.Itoa(n) + "\t" }
		header += "pop-in frames\t"
	}
	fmt.Fprintln(tw, header)
	for rank, out := range r.Top {
		c := &out.Candidate
		settings := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s\t", rank+1, num(c.CellSize), num(c.Load), num(c.Unload), num(c.Prefetch),
			sizeText(c.Budget), sizeText(c.MaxResidentBytes))
		if len(r.Routes) > 1 {
			fmt.Fprintf(tw, "%sall\t%d\t%.0f\t%d\t%d\t%d\t%s\n", settings, out.PeakResidentBytes(), out.MeanResidentBytes(),
				out.Loads(), out.MaxRequestedBytes(), out.HoleFrames(), popIn(out.PopInFrames()))
			settings = "\t\t\t\t\t\t\t"
		}
		for k, f := range out.Routes {
			fmt.Fprintf(tw, "%s%s\t%d\t%.0f\t%d\t%d\t%d\t%s\n", settings, r.Routes[k], f.PeakResidentBytes, f.MeanResidentBytes,
				f.Loads, f.MaxRequestedBytes, f.HoleFrames, popIn(f.PopInFrames))
			settings = "\t\t\t\t\t\t\t"
		}
	}
	tw.Flush()

	fmt.Fprintf(bw, "\nPareto front of peak resident against loads (%d, by increasing peak)\n", len(r.Pareto))
	tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "peak B\tloads\t settings")
	for _, out := range r.Pareto {
		fmt.Fprintf(tw, "%d\t%d\t %s\n", out.PeakResidentBytes(), out.Loads(), out.Candidate.Describe())
	}
	tw.Flush()

	best := r.Best
	fmt.Fprintf(bw, "\nrecommended (%s): in worldcook.yaml, for worldcook's simulation\n\n", best.Candidate.Describe())
	r.writeYAML(bw, &best.Candidate)
	fmt.Fprintf(bw, "\nThese lines change only what worldcook simulates: the game's runtime reads the radii of the\nscene's WorldStreamingSources. tune --diff prints the edit that puts them there (--write makes it).\n")
	if r.Authored != nil && best.Candidate.CellSize != r.Authored.Candidate.CellSize {
		fmt.Fprintf(bw, "\nand on the scene's StreamedWorld, author cellSize: %s (now %s)\n", num(best.Candidate.CellSize), num(r.Authored.Candidate.CellSize))
	}
	if r.Authored != nil {
		r.writeAuthored(bw, best)
	}
	return bw.Flush()
}

// writeYAML writes the simulate: section that selects c.
func (r *Result) writeYAML(bw *bufio.Writer, c *Candidate) {
	fmt.Fprintf(bw, "  simulate:\n    loadRadius: %s\n    unloadRadius: %s\n    prefetchRadius: %s\n", num(c.Load), num(c.Unload), num(c.Prefetch))
	for _, s := range []struct {
		key       string
		v, before *int64
	}{{"budget", c.Budget, r.authoredSize(func(a *Candidate) *int64 { return a.Budget })},
		{"maxResidentBytes", c.MaxResidentBytes, r.authoredSize(func(a *Candidate) *int64 { return a.MaxResidentBytes })}} {
		switch {
		case s.v != nil:
			fmt.Fprintf(bw, "    %s: %d\n", s.key, *s.v)
		case s.before != nil:
			fmt.Fprintf(bw, "    # %s: remove it (the recommendation has none)\n", s.key)
		}
	}
}

func (r *Result) authoredSize(get func(*Candidate) *int64) *int64 {
	if r.Authored == nil {
		return nil
	}
	return get(&r.Authored.Candidate)
}

// writeAuthored writes the authored settings' figures on the routes,
// beside the recommendation's (best, when there is one).
func (r *Result) writeAuthored(bw *bufio.Writer, best *Outcome) {
	a := r.Authored
	fmt.Fprintf(bw, "\nas authored (%s)", a.Candidate.Describe())
	if best != nil {
		fmt.Fprint(bw, ", against the recommendation")
	}
	fmt.Fprintln(bw, ":")
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	popIn := ""
	if r.ViewReach > 0 {
		popIn = "\tpop-in frames"
	}
	header := "  route\tauthored hole frames" + popIn + "\tpeak B\tfails"
	if best != nil {
		header += "\trecommended hole frames" + popIn + "\tpeak B"
	}
	fmt.Fprintln(tw, header)
	for k, f := range a.Routes {
		fails := "-"
		if len(f.Held) > 0 {
			names := make([]string, len(f.Held))
			for i, h := range f.Held {
				names[i] = h.Condition
			}
			fails = strings.Join(names, ", ")
		}
		row := fmt.Sprintf("  %s\t%d\t%d\t%s", r.Routes[k], f.HoleFrames, f.PeakResidentBytes, fails)
		if r.ViewReach > 0 {
			row = fmt.Sprintf("  %s\t%d\t%d\t%d\t%s", r.Routes[k], f.HoleFrames, f.PopInFrames, f.PeakResidentBytes, fails)
		}
		if best != nil {
			b := best.Routes[k]
			if r.ViewReach > 0 {
				row += fmt.Sprintf("\t%d\t%d\t%d", b.HoleFrames, b.PopInFrames, b.PeakResidentBytes)
			} else {
				row += fmt.Sprintf("\t%d\t%d", b.HoleFrames, b.PeakResidentBytes)
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}
