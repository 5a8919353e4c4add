package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/drawing"
	"github.com/worldcook/worldcook/streaming"
)

// Chart draws a run over time: resident bytes against the cap, bytes
// requested per frame against the budget, in-flight depth, evictions and
// unloads, holes, and pop-in when a source has a view.
func Chart(title, subtitle string, frames []streaming.FrameReport, sum *streaming.Summary, set streaming.Settings) *drawing.Chart {
	n := len(frames)
	col := func(f func(r *streaming.FrameReport) float64) []float64 {
		out := make([]float64, n)
		for i := range frames {
			out[i] = f(&frames[i])
		}
		return out
	}
	resident := drawing.Panel{
		Title: "Resident bytes", Bytes: true,
		Series: []drawing.Series{{Name: "resident", Kind: drawing.Area, Color: "#1f5fa8",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(r.ResidentBytes) })}},
		Note: "peak " + peakText(sum.PeakResidentBytes, "at", sum.PeakResidentFrame, "0 B: nothing was ever resident"),
	}
	if a := sum.Assets; a != nil {
		// The asset share: drawn over the total, so the gap above it is
		// the cell documents.
		resident.Series = append(resident.Series, drawing.Series{Name: "of which assets", Kind: drawing.Area, Color: "#e69f00",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(r.ResidentAssetBytes) })})
		resident.Note += fmt.Sprintf("; assets peak %s", streaming.ByteSize(a.PeakResidentAssetBytes))
	}
	if sum.PeakPreparedBytes > 0 {
		resident.Series = append(resident.Series, drawing.Series{Name: "prepared (not in the world)", Kind: drawing.Line, Color: "#1b7837",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(r.PreparedBytes) })})
	}
	if c := set.MaxResidentBytes; c != nil {
		resident.Levels = append(resident.Levels, drawing.Level{Name: "cap " + streaming.ByteSize(*c), Value: float64(*c)})
	}
	requested := drawing.Panel{
		Title: "Bytes requested per frame", Bytes: true,
		Series: []drawing.Series{{Name: "requested", Kind: drawing.Bars, Color: "#5e3c99",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(r.RequestedBytes) })}},
		Note: fmt.Sprintf("%d %s, max %s", sum.Loads, english.Plural(sum.Loads, "request"), peakText(sum.MaxRequestedBytes, "in", sum.MaxRequestedFrame, "0 B: nothing was requested")),
	}
	if b := set.Budget; b != nil {
		requested.Levels = append(requested.Levels, drawing.Level{Name: "budget " + streaming.ByteSize(*b), Value: float64(*b)})
	}
	inflight := drawing.Panel{
		Title: "In flight", Counts: true,
		Series: []drawing.Series{{Name: "requests in flight", Kind: drawing.Steps, Color: "#7b3fa0",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(r.InFlight) })}},
		Note: fmt.Sprintf("peak %d", sum.PeakInFlight),
	}
	if m := set.MaxInFlight; m != nil {
		inflight.Levels = append(inflight.Levels, drawing.Level{Name: fmt.Sprintf("max %d", *m), Value: float64(*m)})
	}
	churn := drawing.Panel{
		Title: "Evictions and unloads", Counts: true,
		Series: []drawing.Series{
			{Name: "evicted", Kind: drawing.Bars, Color: "#d62728",
				Values: col(func(r *streaming.FrameReport) float64 { return float64(len(r.Evicted)) })},
			{Name: "unloaded", Kind: drawing.Bars, Color: "#9e9e9e",
				Values: col(func(r *streaming.FrameReport) float64 { return float64(len(r.Unloaded)) })},
		},
		Note: fmt.Sprintf("%d evictions, %d unloads, %d cancellations", sum.Evictions, sum.Unloads, sum.Cancellations),
	}
	if sum.Failures > 0 {
		churn.Series = append(churn.Series, drawing.Series{Name: "failed", Kind: drawing.Bars, Color: "#444444",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(len(r.Failed)) })})
	}
	holes := drawing.Panel{
		Title: "Holes (cells within a load radius, not resident)", Counts: true,
		Series: []drawing.Series{{Name: "holes", Kind: drawing.Bars, Color: "#c2185b",
			Values: col(func(r *streaming.FrameReport) float64 { return float64(len(r.Holes)) })}},
		Note: fmt.Sprintf("%d of %d frames with holes", sum.HoleFrames, sum.Frames),
	}
	panels := []drawing.Panel{resident, requested, inflight, churn, holes}
	if sum.View {
		note := fmt.Sprintf("%d of %d frames with pop-in", sum.PopInFrames, sum.Frames)
		if sum.PopInFrames > 0 {
			note += fmt.Sprintf(", the first at frame %d, at most %d %s", sum.FirstPopInFrame, sum.MaxPopIn, english.Plural(sum.MaxPopIn, "cell"))
		}
		panels = append(panels, drawing.Panel{
			Title: "Pop-in (cells the camera shows, not resident)", Counts: true,
			Series: []drawing.Series{{Name: "pop-in", Kind: drawing.Bars, Color: "#e65100",
				Values: col(func(r *streaming.FrameReport) float64 { return float64(r.PopIn) })}},
			Note: note,
		})
	} else {
		holes.Note += "; pop-in not counted: no source has a view (no camera, no --view-size or --view-distance)"
		panels[4] = holes
	}
	return &drawing.Chart{Title: title, Subtitle: subtitle, Panels: panels, FrameOffset: sum.FirstFrame - 1}
}

// jumps finds the steps of a path that are teleports rather than motion:
// longer than two cells and than eight times the median step.
func jumps(pts []drawing.Point, cell float64) []int {
	if len(pts) < 3 {
		return nil
	}
	steps := make([]float64, len(pts)-1)
	for i := 1; i < len(pts); i++ {
		steps[i-1] = math.Hypot(pts[i].X-pts[i-1].X, pts[i].Z-pts[i-1].Z)
	}
	sorted := slices.Clone(steps)
	slices.Sort(sorted)
	limit := math.Max(2*cell, 8*sorted[len(sorted)/2])
	var out []int
	for i, d := range steps {
		if d > limit {
			out = append(out, i+1)
		}
	}
	return out
}

// tickStep is the number of frames between ticks along a route: a round
// number (1, 2 or 5 times a power of ten) giving at most about 12 ticks.
func tickStep(frames int) int {
	if frames < 2 {
		return 0
	}
	for mag := 1; ; mag *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step := m * mag; frames/step <= 12 {
				return step
			}
		}
	}
}

// maxMarkLabels bounds the labelled hole episodes on a map; the rest are
// drawn unlabelled (every one is in the summary).
const maxMarkLabels = 24

// MarkHoles marks a run's hole episodes on its map: each as a band over
// the stretch of every enabled source's route it lasted, labelled with
// its frames and likely cause, and the cells that were missing outlined.
// frames and sources are those the map was drawn from.
// first is the number of frames[0].
func MarkHoles(m *drawing.Map, eps []streaming.HoleEpisode, frames [][]streaming.Point, first int, sources []streaming.Source) {
	if len(eps) == 0 {
		return
	}
	m.MarkName = "hole episode (frames: cause)"
	if len(eps) > maxMarkLabels {
		m.MarkNote = fmt.Sprintf("%d more, unnumbered", len(eps)-maxMarkLabels)
	}
	notes := map[string][]string{}
	for k, e := range eps {
		label := fmt.Sprintf("%s: %s", streaming.FrameRange{First: e.First, Last: e.Last}, e.Cause)
		title := fmt.Sprintf("frames %s: %d %s missing, likely %s", streaming.FrameRange{First: e.First, Last: e.Last}, len(e.Cells), english.Plural(len(e.Cells), "cell"), e.Cause)
		badge := ""
		if k < maxMarkLabels {
			badge = fmt.Sprint(k + 1)
		}
		for i, s := range sources {
			if !s.Enabled {
				continue
			}
			mk := drawing.Mark{Title: s.Name + ", " + title, Badge: badge, Label: label}
			for f := max(e.First-first, 0); f <= e.Last-first && f < len(frames); f++ {
				if pos := frames[f]; i < len(pos) {
					p := drawing.Point{X: pos[i].X, Z: pos[i].Z}
					if n := len(mk.Points); n == 0 || mk.Points[n-1] != p {
						mk.Points = append(mk.Points, p)
					}
				}
			}
			m.Marks = append(m.Marks, mk)
			badge = "" // one badge an episode
		}
		for _, c := range e.Cells {
			notes[c.Cell] = append(notes[c.Cell], fmt.Sprintf("%s (%s)", streaming.FrameRange{First: e.First, Last: e.Last}, c.Cause))
		}
	}
	alertCells(m, notes, "missing in frames ")
}

// alertCells marks each cell of m that notes names and adds to its note
// what (the frame ranges and causes, three at most, after what) it was.
func alertCells(m *drawing.Map, notes map[string][]string, what string) {
	for i := range m.Cells {
		if n, ok := notes[m.Cells[i].Name]; ok {
			m.Cells[i].Alert = true
			note := what + streaming.NameList(n, 3)
			if m.Cells[i].Note != "" {
				note = m.Cells[i].Note + "; " + note
			}
			m.Cells[i].Note = note
		}
	}
}

// MarkPopIn outlines on a run's map the cells of its pop-in episodes
// (cells the camera showed that were not resident), each noted with the
// frames it was shown missing and the likely cause; the hole episodes'
// bands along the routes (MarkHoles) stay the only marks on the routes.
func MarkPopIn(m *drawing.Map, eps []streaming.HoleEpisode) {
	notes := map[string][]string{}
	for _, e := range eps {
		for _, c := range e.Cells {
			notes[c.Cell] = append(notes[c.Cell], fmt.Sprintf("%s (%s)", streaming.FrameRange{First: e.First, Last: e.Last}, c.Cause))
		}
	}
	alertCells(m, notes, "shown by the camera, not resident, in frames ")
}

// mapCellLimit is the world size above which the map shows only the region
// the run touched.
const mapCellLimit = 20000

// Map draws a run on the world: the cell grid shaded by how often each
// cell was requested, grown bounds, each enabled source's path (from
// frames, each frame's source positions) and its load radius at the start.
// first is the number of frames[0], for the ticks' labels.
func Map(title, subtitle string, w *streaming.World, loads []int, sources []streaming.Source, frames [][]streaming.Point, first int) *drawing.Map {
	m := &drawing.Map{Title: title, Subtitle: subtitle, CellSize: w.CellSize, ValueName: "requests", ZeroLabel: "never requested",
		// As on the validate map: at hundreds of cells, only the largest
		// growths are outlined.
		MaxGrown: 40}
	if w.Plane == "xy" {
		m.AxisZ = "y"
	}
	reach := 0.0
	for i, s := range sources {
		if !s.Enabled {
			continue
		}
		reach = math.Max(reach, math.Max(s.Prefetch, s.Unload))
		rt := drawing.Route{Name: s.Name}
		for _, pos := range frames {
			if i >= len(pos) {
				continue
			}
			p := drawing.Point{X: pos[i].X, Z: pos[i].Z}
			if k := len(rt.Points); k == 0 || rt.Points[k-1] != p {
				rt.Points = append(rt.Points, p)
			}
		}
		if len(rt.Points) == 0 {
			rt.Points = []drawing.Point{{X: s.X, Z: s.Z}}
		}
		rt.Jumps = jumps(rt.Points, w.CellSize)
		if step := tickStep(len(frames)); step > 0 && len(rt.Points) > 1 {
			for f := step; f <= len(frames); f += step {
				if pos := frames[f-1]; i < len(pos) {
					rt.Ticks = append(rt.Ticks, drawing.Tick{At: drawing.Point{X: pos[i].X, Z: pos[i].Z}, Label: fmt.Sprint(first + f - 1)})
				}
			}
			rt.TickName = fmt.Sprintf("frame every %d", step)
		}
		m.Routes = append(m.Routes, rt)
		m.Rings = append(m.Rings, drawing.Ring{Center: rt.Points[0], Radius: s.Load, Label: "load radius at start"})
	}
	var view *drawing.Rect
	if len(w.Cells) > mapCellLimit {
		// A huge world: frame what the sources reached and what loaded.
		var r drawing.Rect
		first := true
		add := func(o drawing.Rect) {
			if first {
				r, first = o, false
				return
			}
			r = r.Union(o)
		}
		for _, rt := range m.Routes {
			for _, p := range rt.Points {
				add(drawing.Rect{MinX: p.X - reach, MinZ: p.Z - reach, MaxX: p.X + reach, MaxZ: p.Z + reach})
			}
		}
		// The squares of the cells that loaded, not their grown bounds:
		// one outlier's bounds would frame the whole world again.
		for i, c := range w.Cells {
			if i < len(loads) && loads[i] > 0 {
				add(grid.Square(grid.Key{Level: c.Level, X: c.X, Z: c.Z}, w.CellSize))
			}
		}
		if !first {
			view = &r
			m.View = view
		}
	}
	for i, c := range w.Cells {
		b := c.Bounds
		if view != nil && !view.Intersects(b) {
			continue
		}
		cell := drawing.Cell{Name: c.Name, X: c.X, Z: c.Z, Level: c.Level, Bounds: b}
		if i < len(loads) {
			cell.Value = float64(loads[i])
		}
		m.Cells = append(m.Cells, cell)
	}
	return m
}
