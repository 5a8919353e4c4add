package streaming

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// View is what a source's camera shows on the world's plane, centred on
// the source (docs/simulate.md, "The view"): a rectangle HalfWidth on
// either side along x and HalfHeight along the plane's second axis (an
// orthographic camera), turned about its centre by Angle radians
// counter-clockwise (the camera's rotation), or, with Disc, every point
// within Radius (a perspective camera, which may turn every way).
type View struct {
	HalfWidth, HalfHeight float64
	Angle                 float64
	Disc                  bool
	Radius                float64
}

// ViewOf is the view a manifest records (nil for none, or one that shows
// nothing).
func ViewOf(v *manifest.View) *View {
	if v == nil {
		return nil
	}
	switch v.Projection {
	case manifest.Orthographic:
		if v.Width > 0 && v.Height > 0 {
			return &View{HalfWidth: v.Width / 2, HalfHeight: v.Height / 2, Angle: v.Rotation * math.Pi / 180}
		}
	case manifest.Perspective:
		if v.Distance > 0 {
			return &View{Disc: true, Radius: v.Distance}
		}
	}
	return nil
}

// Reach is how far from the source the view reaches: the half-diagonal
// of the rectangle, the radius of the disc. A load radius of at least
// Reach wants every cell the view touches.
func (v View) Reach() float64 {
	if v.Disc {
		return v.Radius
	}
	return math.Hypot(v.HalfWidth, v.HalfHeight)
}

// box is the half-extent of the square the view fits in, for the index.
func (v View) box() float64 {
	if v.Disc {
		return v.Radius
	}
	ex, ez := v.extent()
	return math.Max(ex, ez)
}

// extent is the half-extent on x and on the plane's second axis of the
// box the (turned) rectangle fits in.
func (v View) extent() (ex, ez float64) {
	if v.Angle == 0 {
		return v.HalfWidth, v.HalfHeight
	}
	c, s := math.Abs(math.Cos(v.Angle)), math.Abs(math.Sin(v.Angle))
	return v.HalfWidth*c + v.HalfHeight*s, v.HalfWidth*s + v.HalfHeight*c
}

// shows reports whether the view, centred on (x, z), shares area with
// the cell's grown bounds: a rectangle that overlaps them, a disc whose
// open interior reaches them. A cell that only touches the view's edge
// shows nothing. A turned rectangle and the bounds share area when they
// overlap along each of the four axes their sides lie on (separating
// axes).
func (v View) shows(g *geom, x, z float64) bool {
	if v.Disc {
		return g.dist2(x, z, false) < v.Radius*v.Radius
	}
	ex, ez := v.extent()
	if !(g.minX < x+ex && g.maxX > x-ex && g.minZ < z+ez && g.maxZ > z-ez) {
		return false
	}
	if v.Angle == 0 {
		return true
	}
	// The bounds' centre from the view's, and their half-sides, seen
	// along the rectangle's own axes.
	dx, dz := (g.minX+g.maxX)/2-x, (g.minZ+g.maxZ)/2-z
	hx, hz := (g.maxX-g.minX)/2, (g.maxZ-g.minZ)/2
	c, s := math.Cos(v.Angle), math.Sin(v.Angle)
	ac, as := math.Abs(c), math.Abs(s)
	return math.Abs(dx*c+dz*s) < v.HalfWidth+hx*ac+hz*as &&
		math.Abs(-dx*s+dz*c) < v.HalfHeight+hx*as+hz*ac
}

// viewer is an enabled source with a view, where it stands this frame.
type viewer struct {
	x, z float64
	v    View
}

// viewers are the enabled sources with a view, standing at at[k] (the
// sources' own positions when at is nil).
func viewers(sources []Source, at []Point, out []viewer) []viewer {
	out = out[:0]
	for k, s := range sources {
		if !s.Enabled || s.View == nil {
			continue
		}
		x, z := s.X, s.Z
		if at != nil {
			x, z = at[k].X, at[k].Z
		}
		out = append(out, viewer{x, z, *s.View})
	}
	return out
}

// popIn lists the cells some viewer's view shows that resident says are
// not resident, nearest a viewer first, then by name, into rep's PopIn
// fields, with each cell's cause. scratch is reused between frames.
func popIn(rep *FrameReport, vs []viewer, index *gridIndex, geo []geom, cells []Cell,
	scratch *[]int32, resident func(int32) bool, cause func(int32) HoleCause) {
	if len(vs) == 0 {
		return
	}
	seen := (*scratch)[:0]
	for _, w := range vs {
		index.query(w.x, w.z, w.v.box(), func(i int32) {
			if w.v.shows(&geo[i], w.x, w.z) && !resident(i) {
				seen = append(seen, i)
			}
		})
	}
	slices.Sort(seen)
	seen = slices.Compact(seen)
	*scratch = seen
	if len(seen) == 0 {
		return
	}
	near := func(i int32) float64 {
		best := math.Inf(1)
		for _, w := range vs {
			best = min(best, geo[i].dist2(w.x, w.z, false))
		}
		return best
	}
	d := make(map[int32]float64, len(seen))
	for _, i := range seen {
		d[i] = near(i)
	}
	slices.SortFunc(seen, func(a, b int32) int {
		if c := cmp.Compare(d[a], d[b]); c != 0 {
			return c
		}
		return cmp.Compare(cells[a].Name, cells[b].Name)
	})
	rep.PopIn = len(seen)
	rep.PopInCells = make([]string, len(seen))
	rep.PopInCauses = make([]HoleCause, len(seen))
	for k, i := range seen {
		rep.PopInCells[k] = cells[i].Name
		rep.PopInCauses[k] = cause(i)
	}
}

// HasView reports whether some enabled source has a view: a run counts
// pop-in only then.
func HasView(sources []Source) bool {
	for _, s := range sources {
		if s.Enabled && s.View != nil {
			return true
		}
	}
	return false
}

// ErrNoView is the error of a gate or search that asks for pop-in in a
// run where no source has a view.
var ErrNoView = errors.New("pop-in needs a view, and no streaming source has one: the scene has no camera for them; set --view-size WxH (an orthographic camera's) or --view-distance D (a perspective one's), or in worldcook.yaml (simulate: {view: {width: 1280, height: 720}})")

// NoView warns, once, that no source has a view, so that a result of no
// pop-in is not read as a clean one (a simulation's summary says so on a
// line of its own; tune, which then requires holes, warns).
func NoView(sources []Source) []Warning {
	if HasView(sources) {
		return nil
	}
	return []Warning{{Code: "no-view", Severity: diag.SeverityWarning, Message: "no streaming source has a view (the scene has no camera for them, and neither --view-size nor --view-distance is set): pop-in, the cells the camera shows that are not resident, is not counted, and holes count only cells within a load radius, which a smaller radius always has fewer of"}}
}
