package tune

import (
	"math"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// What the player sees decides what a search requires and which load
// radii it tries (docs/tune.md, "The view"): with a view, a candidate must
// show no pop-in and its load radius must want every cell the view
// touches; without one, holes are all a search can count.

// viewReach is how far from its source the widest view of the runs
// reaches: the override's, else the enabled authored sources' views, else
// (a world without authored sources) the main camera's, which the sources
// a route makes get. 0: no view.
func viewReach(w *streaming.World, override *streaming.View) float64 {
	if override != nil {
		return override.Reach()
	}
	reach, authored := 0.0, false
	for _, s := range w.Sources {
		if s.Enabled {
			authored = true
			if s.View != nil {
				reach = max(reach, s.View.Reach())
			}
		}
	}
	if !authored && w.View != nil {
		reach = w.View.Reach()
	}
	return reach
}

// coverOf is the least load radius that wants every cell a view of the
// given reach touches: the reach rounded up to three significant digits
// (a radius to paste, never below the reach). Measured to the grid centre
// (--distance center, the budgeted policy) a cell is wanted by its centre,
// up to half a diagonal of the largest cell square from where the view
// touches it, which the cover adds.
func coverOf(reach float64, base simulate.Options, levels int) func(cellSize float64) float64 {
	if !(reach > 0) {
		return nil
	}
	return func(cs float64) float64 {
		r := reach
		if base.Policy != simulate.Estella && base.Settings.Distance == streaming.DistanceCenter {
			r += grid.LevelSize(cs, int32(levels)) * math.Sqrt2 / 2
		}
		return ceil3(r)
	}
}

// ceil3 rounds r > 0 up to three significant digits.
func ceil3(r float64) float64 {
	step := math.Pow(10, math.Floor(math.Log10(r))-2)
	c := round12(math.Ceil(round12(r/step)) * step)
	if c < r {
		c = round12(c + step)
	}
	return c
}

// defaultRequirement is what a search requires when --require is not
// given: no pop-in when a view is known, else no holes, with a warning
// that says what that means.
func defaultRequirement(reach float64) ([]string, []streaming.Warning) {
	if reach > 0 {
		return []string{streaming.FailPopIn}, nil
	}
	return []string{streaming.FailHoles}, []streaming.Warning{{Code: "no-view", Severity: diag.SeverityWarning,
		Message: "the view is unknown (the scene has no camera for the sources, and neither --view-size nor --view-distance is set): the search requires no holes, which count only cells within a load radius, so a smaller load radius always looks better; give the view to require what the player sees (--require pop-in)"}}
}

// estellaXY says the search runs Estella's runtime on a world cut on x
// and y, where no radius helps: the runtime samples the sources on x and
// z.
func estellaXY(base simulate.Options, w *streaming.World) bool {
	return base.Policy == simulate.Estella && w.Plane == manifest.PlaneXY
}
