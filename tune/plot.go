package tune

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/internal/drawing"
)

const (
	plotWidth, plotHeight = 760.0, 520.0
	plotLeft, plotRight   = 84.0, 180.0
	plotTop, plotBottom   = 64.0, 56.0
)

// WritePlot draws the candidates on peak resident × loads: infeasible ones
// hollow, feasible ones filled, the Pareto front joined, the
// recommendation ringed and the authored settings marked. Pruned
// candidates, whose figures are partial, are left out. Of more than
// plotSample candidates run to the end, a fixed sample is drawn, with
// every one on the front and among the top.
func WritePlot(w io.Writer, r *Result) error {
	c := drawing.NewCanvas(plotWidth, plotHeight)
	c.Text(plotLeft, 26, "worldcook tune: peak resident against loads", drawing.Font{Size: 16, Weight: "bold"})
	sub := fmt.Sprintf("%d candidates on %d %s, %d feasible; minimize %s", r.Evaluated, len(r.Routes), english.Plural(len(r.Routes), "route"), r.Feasible, r.Objective)
	if r.Pruned > 0 {
		sub += fmt.Sprintf(" (%d stopped early, not shown)", r.Pruned)
	}
	outs := r.plotted()
	c.Text(plotLeft, 46, sub, drawing.Font{Size: 12, Fill: "#555"})

	shown := outs
	if a := r.Authored; a != nil {
		shown = append(shown[:len(shown):len(shown)], plotPoint{c: a.Candidate, peak: a.PeakResidentBytes(), loads: a.Loads(), feasible: a.Feasible})
	}
	var xHi, yHi float64
	for _, out := range shown {
		xHi = math.Max(xHi, float64(out.peak))
		yHi = math.Max(yHi, float64(out.loads))
	}
	xTicks, yTicks := drawing.Ticks(0, math.Max(xHi, 1)*1.05, 6, true), drawing.Ticks(0, math.Max(yHi, 1)*1.05, 6, false)
	xHi, yHi = math.Max(xHi*1.05, xTicks[len(xTicks)-1]), math.Max(yHi*1.05, yTicks[len(yTicks)-1])
	x0, x1 := plotLeft, plotWidth-plotRight
	y0, y1 := plotHeight-plotBottom, plotTop
	x := func(v float64) float64 { return x0 + (x1-x0)*v/xHi }
	y := func(v float64) float64 { return y0 - (y0-y1)*v/yHi }

	grid := drawing.Style{Stroke: "#e4e4e4", Width: 1}
	for _, t := range xTicks {
		c.Line(x(t), y0, x(t), y1, grid)
		c.Text(x(t), y0+16, drawing.Label(t, true), drawing.Font{Size: 11, Fill: "#555", Anchor: "middle"})
	}
	for _, t := range yTicks {
		c.Line(x0, y(t), x1, y(t), grid)
		c.Text(x0-6, y(t)+4, drawing.Label(t, false), drawing.Font{Size: 11, Fill: "#555", Anchor: "end"})
	}
	c.Rect(x0, y1, x1-x0, y0-y1, drawing.Style{Stroke: "#888", Width: 1})
	c.Text((x0+x1)/2, plotHeight-14, "peak resident bytes (largest over the routes)", drawing.Font{Size: 12, Anchor: "middle"})
	c.Text(22, (y0+y1)/2, "loads (sum over the routes)", drawing.Font{Size: 12, Anchor: "middle", Rotate: -90})

	const feasible, infeasible, front, best, authored = "#1f77b4", "#b0b0b0", "#2ca02c", "#d62728", "#ff7f0e"
	for _, out := range outs {
		px, py := x(float64(out.peak)), y(float64(out.loads))
		title := fmt.Sprintf("%s: peak %d B, %d %s", out.c.Describe(), out.peak, out.loads, english.Plural(out.loads, "load"))
		if out.feasible {
			c.Circle(px, py, 3.5, drawing.Style{Fill: feasible, FillOpacity: 0.8, Title: title})
		} else {
			c.Circle(px, py, 3, drawing.Style{Stroke: infeasible, Width: 1, Title: title + " (infeasible)"})
		}
	}
	if len(r.Pareto) > 0 {
		var p drawing.PathBuilder
		for k, out := range r.Pareto {
			px, py := x(float64(out.PeakResidentBytes())), y(float64(out.Loads()))
			if k == 0 {
				p.M(px, py)
			} else {
				p.L(px, py)
			}
		}
		c.Path(&p, drawing.Style{Stroke: front, Width: 2})
		for _, out := range r.Pareto {
			c.Circle(x(float64(out.PeakResidentBytes())), y(float64(out.Loads())), 4.5, drawing.Style{Stroke: front, Width: 2})
		}
	}
	if out := r.Best; out != nil {
		px, py := x(float64(out.PeakResidentBytes())), y(float64(out.Loads()))
		c.Circle(px, py, 9, drawing.Style{Stroke: best, Width: 2.5, Title: "recommended: " + out.Candidate.Describe()})
		c.Text(px+12, py-10, "recommended", drawing.Font{Size: 12, Fill: best, Weight: "bold", Halo: true})
	}
	if a := r.Authored; a != nil {
		px, py := x(float64(a.PeakResidentBytes())), y(float64(a.Loads()))
		var d drawing.PathBuilder
		d.M(px, py-7).L(px+7, py).L(px, py+7).L(px-7, py).L(px, py-7)
		c.Path(&d, drawing.Style{Fill: authored, Stroke: "#7a3c00", Width: 1, Title: "authored: " + a.Candidate.Describe()})
		c.Text(px+10, py+16, "authored", drawing.Font{Size: 12, Fill: "#a34f00", Weight: "bold", Halo: true})
	}

	// The legend, right of the plot.
	lx, ly := x1+20, y1+10
	for _, item := range []struct {
		label string
		draw  func(cx, cy float64)
	}{
		{"feasible", func(cx, cy float64) { c.Circle(cx, cy, 3.5, drawing.Style{Fill: feasible, FillOpacity: 0.8}) }},
		{"infeasible", func(cx, cy float64) { c.Circle(cx, cy, 3, drawing.Style{Stroke: infeasible, Width: 1}) }},
		{"Pareto front", func(cx, cy float64) {
			c.Line(cx-8, cy, cx+8, cy, drawing.Style{Stroke: front, Width: 2})
			c.Circle(cx, cy, 4.5, drawing.Style{Stroke: front, Width: 2})
		}},
		{"recommended", func(cx, cy float64) { c.Circle(cx, cy, 8, drawing.Style{Stroke: best, Width: 2.5}) }},
		{"authored", func(cx, cy float64) {
			var d drawing.PathBuilder
			d.M(cx, cy-7).L(cx+7, cy).L(cx, cy+7).L(cx-7, cy).L(cx, cy-7)
			c.Path(&d, drawing.Style{Fill: authored, Stroke: "#7a3c00", Width: 1})
		}},
	} {
		item.draw(lx+8, ly)
		c.Text(lx+24, ly+4, item.label, drawing.Font{Size: 12})
		ly += 24
	}
	if r.sampled > len(r.sample) {
		// Said at the foot of the legend: the subtitle has no room left.
		c.Text(lx, y0-18, fmt.Sprintf("a sample: %d of the", len(outs)), drawing.Font{Size: 11, Fill: "#555"})
		c.Text(lx, y0-4, fmt.Sprintf("%d run to the end", r.sampled), drawing.Font{Size: 11, Fill: "#555"})
	}
	_, err := c.WriteTo(w)
	return err
}

// plotted are the candidates the plot draws, in the plan's order: the
// sample of those run to the end, and every one on the front and among
// the top, which the sample may have missed.
func (r *Result) plotted() []plotPoint {
	pts := slices.Clone(r.sample)
	in := map[int]bool{}
	for _, p := range pts {
		in[p.c.Index] = true
	}
	added := false
	for _, out := range slices.Concat(r.Pareto, r.Top) {
		if !in[out.Candidate.Index] {
			in[out.Candidate.Index], added = true, true
			pts = append(pts, plotPoint{c: out.Candidate, peak: out.PeakResidentBytes(), loads: out.Loads(), feasible: out.Feasible})
		}
	}
	if added {
		slices.SortFunc(pts, func(a, b plotPoint) int { return cmp.Compare(a.c.Index, b.c.Index) })
	}
	return pts
}
