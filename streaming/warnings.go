package streaming

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// Warning is something about a run's setup that would lead a reader of
// its report to a wrong conclusion if left unsaid: a diagnostic about the
// run, without a location, whose Code names the kind
// ("cell-over-budget", "assumed-radii", "undriven-source", "xy-plane",
// "nothing-streams", "route-outside-world", "plane-mismatch")
// and whose Cells are the cells it concerns, if any (at most
// maxWarningCells; More counts the rest). Its JSON Lines form is
// diag.ShortJSONLine's (docs/json.md `warning`).
type Warning = diag.Diagnostic

// maxWarningCells bounds the cells a warning names: a budget of 0 puts
// every cell of a world over it.
const maxWarningCells = 20

// OversizeCells warns about cells larger than the per-frame budget: each
// goes alone in its frame and overruns the budget whenever it loads. A
// cell's size is what every request for it dispatches: its document and,
// when the run counts assets, the assets it alone loads (an asset another
// cell or the persistent world also lists may be resident already, and is
// not asked again). The largest come first, each with the frames of budget
// its one frame takes. A cell whose proxy fits is named too: near a source
// it loads in full.
func OversizeCells(w *World, set Settings) []Warning {
	if set.Budget == nil {
		return nil
	}
	budget := *set.Budget
	var users []int
	if !set.IgnoreAssets && len(w.Assets) > 0 {
		users = make([]int, len(w.Assets))
		for _, a := range w.PersistentAssets {
			users[a] += 2
		}
		for i := range w.Cells {
			for _, a := range w.Cells[i].Assets {
				users[a]++
			}
		}
	}
	size := func(c *Cell) int64 {
		n := c.Bytes
		for _, a := range c.Assets {
			if users != nil && users[a] == 1 {
				n += w.Assets[a].Bytes
			}
		}
		return n
	}
	var over []int
	for i := range w.Cells {
		if size(&w.Cells[i]) > budget {
			over = append(over, i)
		}
	}
	if len(over) == 0 {
		return nil
	}
	slices.SortStableFunc(over, func(a, b int) int { return cmp.Compare(size(&w.Cells[b]), size(&w.Cells[a])) })
	warn := Warning{Code: "cell-over-budget", Severity: diag.SeverityWarning}
	withAssets := false
	for _, i := range over[:min(len(over), maxWarningCells)] {
		c := &w.Cells[i]
		n := size(c)
		what := ByteSize(n)
		if n != c.Bytes {
			what = fmt.Sprintf("%s with its assets", ByteSize(n))
			withAssets = true
		}
		frames := "its load takes a frame over the budget"
		if budget > 0 {
			frames = fmt.Sprintf("%s frames of budget in one", strconv.FormatFloat(float64(n)/float64(budget), 'f', 1, 64))
		}
		warn.Cells = append(warn.Cells, fmt.Sprintf("%s (%s: %s)", c.Name, what, frames))
	}
	warn.More = len(over) - len(warn.Cells)
	whose := ""
	if withAssets {
		whose = " (a cell's document and the assets no other cell shares, which every request for it asks)"
	}
	warn.Message = fmt.Sprintf("%d of %d cells are larger than the per-frame budget of %s%s: each loads alone and overruns the budget (a hitch) whenever it is requested; split them or raise --budget",
		len(over), len(w.Cells), ByteSize(budget), whose)
	return []Warning{warn}
}

// NothingStreams warns about a world of no cell or of one: it loads whole
// or not at all (validate's nothing-streams, said of the world run).
func NothingStreams(w *World) []Warning {
	only := ""
	if len(w.Cells) > 0 {
		only = w.Cells[0].Name
	}
	msg, hint := manifest.NothingStreams(len(w.Cells), only, w.Layout, w.Plane, w.CellSize)
	if msg == "" {
		return nil
	}
	return []Warning{{Code: "nothing-streams", Severity: diag.SeverityWarning, Message: w.Scene + ": " + msg, Hint: hint}}
}

// AssumedRadii warns that a world without authored streaming sources is
// simulated with radii nobody chose: the defaults can cover the whole of
// a small world and make it load everything on the first frame. sources
// are the sources the route made, at their first positions; given says
// which radii the settings did give (load, unload, prefetch). The warning
// names the others, the values assumed for them and how many cells the
// load radius reaches from the start.
func AssumedRadii(w *World, sources []Source, given [3]bool) []Warning {
	if len(w.Sources) > 0 || len(sources) == 0 || given == [3]bool{true, true, true} {
		return nil
	}
	src := sources[0]
	var parts []string
	for i, r := range []struct {
		name string
		v    float64
	}{{"load", src.Load}, {"unload", src.Unload}, {"prefetch", src.Prefetch}} {
		if !given[i] {
			parts = append(parts, fmt.Sprintf("%s %g", r.name, r.v))
		}
	}
	reached := 0
	for i := range w.Cells {
		b := &w.Cells[i].Bounds
		g := geom{minX: b.MinX, minZ: b.MinZ, maxX: b.MaxX, maxZ: b.MaxZ}
		for _, s := range sources {
			if s.Enabled && g.dist2(s.X, s.Z, false) <= sq(s.Load) {
				reached++
				break
			}
		}
	}
	return []Warning{{Code: "assumed-radii", Severity: diag.SeverityWarning, Message: fmt.Sprintf(
		"the world has no authored streaming source and no radius was set: assumed %s (the WorldStreamingSource defaults), whose load radius reaches %d of %d cells from the start; set --load-radius, --unload-radius and --prefetch-radius, or author a source",
		JoinAnd(parts), reached, len(w.Cells))}}
}

// JoinAnd joins parts as a sentence does: "a, b and c".
func JoinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		s += ", " + p
	}
	return s + " and " + parts[len(parts)-1]
}

// PlaneXY warns that a world cut on x and y is not streamed as cut by
// Estella's runtime, which samples the sources on x and z: whatever policy
// a run shows, the shipped game streams other cells. from says where the
// plane was set (manifest.XYPlane); runtime that the run is the
// runtime's own.
func PlaneXY(w *World, from string, runtime bool) []Warning {
	if w.Plane != manifest.PlaneXY {
		return nil
	}
	return []Warning{{Code: "xy-plane", Severity: diag.SeverityWarning, Message: w.Scene + ": " + manifest.XYPlane(from, runtime)}}
}

// PlaneMismatch warns that a world is laid out on the other plane than
// it is cut on (validate's plane-mismatch, said of the world run), from
// the layout cook measured.
func PlaneMismatch(w *World) []Warning {
	other, says := w.Layout.Mismatch(w.Plane, w.CellSize)
	if other == "" {
		return nil
	}
	return []Warning{{Code: "plane-mismatch", Severity: diag.SeverityWarning,
		Message: w.Scene + " " + says,
		Hint:    fmt.Sprintf("set plane: %s at the top of worldcook.yaml (worldcook init --plane %s --write writes it there); a cooked world must be cooked again", other, other)}}
}
