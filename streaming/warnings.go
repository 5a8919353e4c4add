package streaming

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// Warning is something about a run's setup that would lead a reader of
// its report to a wrong conclusion if left unsaid: a diagnostic about the
// run, without a location, whose Code names the kind
// ("cell-over-budget", "assumed-radii", "undriven-source", "xy-plane")
// and whose Cells are the cells it concerns, if any (at most
// maxWarningCells; More counts the rest). Its JSON Lines form is
// diag.ShortJSONLine's (docs/json.md `warning`).
type Warning = diag.Diagnostic

// maxWarningCells bounds the cells a warning names: a budget of 0 puts
// every cell of a world over it.
const maxWarningCells = 20

// OversizeCells warns about cells larger than the per-frame budget: each
// goes alone in its frame and overruns the budget whenever it loads. The
// largest come first. A cell whose proxy fits is named too: near a source
// it loads in full.
func OversizeCells(w *World, set Settings) []Warning {
	if set.Budget == nil {
		return nil
	}
	budget := *set.Budget
	var over []int
	for i := range w.Cells {
		if w.Cells[i].Bytes > budget {
			over = append(over, i)
		}
	}
	if len(over) == 0 {
		return nil
	}
	slices.SortStableFunc(over, func(a, b int) int { return cmp.Compare(w.Cells[b].Bytes, w.Cells[a].Bytes) })
	warn := Warning{Code: "cell-over-budget", Severity: diag.SeverityWarning}
	for _, i := range over[:min(len(over), maxWarningCells)] {
		warn.Cells = append(warn.Cells, fmt.Sprintf("%s (%s)", w.Cells[i].Name, ByteSize(w.Cells[i].Bytes)))
	}
	warn.More = len(over) - len(warn.Cells)
	warn.Message = fmt.Sprintf("%d of %d cells are larger than the per-frame budget of %s: each loads alone and overruns the budget (a hitch) whenever it is requested; split them or raise --budget",
		len(over), len(w.Cells), ByteSize(budget))
	return []Warning{warn}
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
// a run shows, the shipped game streams other cells.
func PlaneXY(w *World) []Warning {
	if w.Plane != manifest.PlaneXY {
		return nil
	}
	return []Warning{{Code: "xy-plane", Severity: diag.SeverityWarning, Message: fmt.Sprintf(
		"%s is cut on x and y: %s; under --policy estella the run shows the cells the runtime would stream, and counts holes where the sources really stand",
		w.Scene, manifest.XYRuntimeNote)}}
}
