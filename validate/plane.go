package validate

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/geometry"
	"github.com/worldcook/worldcook/manifest"
)

// The plane a world is laid out on (plane-mismatch), and the layout it is
// told from: the cameras (package camera read them, collectViews kept
// them) and the extent of the top-level entities of the expanded world
// (Plan.World()), what they draw flat on x and y included. The rule itself is the
// manifest's (Layout.LaidOut), so that simulate and tune judge a cooked
// world as validate judges the scene.

// layout measures the world's layout once: the cameras and the extent of
// up to manifest.LayoutSample top-level entities, evenly spaced, leaving
// out the cameras and UI roots (a camera stands back from a 2D scene on
// z, a canvas sits wherever the UI does). A top-level entity counts by
// its world position and by what it draws flat on its x-y plane, through
// its world transform: a tilemap's painted tiles as the engine lays them
// out (orthogonal, isometric, staggered or hexagonal), a sprite's or a
// shape's rectangle. A 2D scene of one tilemap, or of a background sprite
// at the origin, spreads on x and y by them alone; none of them has depth
// to spread a 2D scene on z (a light's reach would). The entities are
// counted first so that nothing is allocated for a world of millions.
func (c *checker) layout() *manifest.Layout {
	if c.plan.Layout != nil {
		return c.plan.Layout
	}
	if c.model != nil && c.model.layout != nil {
		// The layout does not depend on the cut: one per model.
		c.plan.Layout = c.model.layout
		return c.plan.Layout
	}
	w := c.w
	l := &manifest.Layout{Cameras: len(c.cams)}
	for _, cam := range c.cams {
		if cam.Orthographic {
			l.Orthographic++
		}
	}
	const skip = fCamera | fCanvas
	roots := 0
	for i := range int32(w.Len()) {
		if w.Parent(i) < 0 && w.Flags(i)&skip == 0 {
			roots++
		}
	}
	have := false
	add := func(v scene.Vec3) {
		p := [3]float64{v.X, v.Y, v.Z}
		if math.IsNaN(p[0]+p[1]+p[2]) || math.IsInf(p[0]+p[1]+p[2], 0) {
			return
		}
		if !have {
			l.Min, l.Max, have = p, p, true
		}
		for a := range 3 {
			l.Min[a], l.Max[a] = math.Min(l.Min[a], p[a]), math.Max(l.Max[a], p[a])
		}
	}
	step := max(1, roots/manifest.LayoutSample)
	k := -1
	for i := range int32(w.Len()) {
		if w.Parent(i) >= 0 || w.Flags(i)&skip != 0 {
			continue
		}
		if k++; k%step != 0 {
			continue
		}
		m, ok, err := w.WorldMatrix(i)
		if !ok || err != nil {
			continue
		}
		o := m.Origin()
		if math.IsNaN(o.X+o.Y+o.Z) || math.IsInf(o.X+o.Y+o.Z, 0) {
			continue
		}
		l.Roots++
		add(o)
		if w.Flags(i)&fExtent != 0 {
			c.flatExtent(i, &m, add)
		}
	}
	c.plan.Layout = l
	if c.model != nil {
		c.model.layout = l
	}
	return l
}

// flatExtent sends the corners of what top-level entity i draws flat on
// its x-y plane (the painted tiles of a TilemapLayer or a Tiled map's
// Tilemap, a Sprite's or ShapeRenderer's rectangle), placed by its world
// matrix m as the renderer draws them, to add.
func (c *checker) flatExtent(i int32, m *scene.Affine, add func(scene.Vec3)) {
	var flat []scene.Component
	for _, comp := range c.w.Components(world.Ent{I: i}) {
		switch comp.Type {
		case "TilemapLayer", "Tilemap", "Sprite", "ShapeRenderer":
			flat = append(flat, comp)
		}
	}
	if len(flat) == 0 {
		return
	}
	c.w.Extents().Local(flat, c.d.Path, geometry.FuncSink{OnBox: func(lo, hi scene.Vec3, fr geometry.Frame) {
		f := geometry.FrameMatrix(m, fr)
		for corner := range 8 {
			p := lo
			if corner&1 != 0 {
				p.X = hi.X
			}
			if corner&2 != 0 {
				p.Y = hi.Y
			}
			if corner&4 != 0 {
				p.Z = hi.Z
			}
			add(f.Apply(p))
		}
	}})
}

// checkPlane warns when the world is laid out on the other plane than it
// is cut on: a 2D scene cut on xz lands in the cells of x and its layers'
// depth, not of its height; a 3D scene cut on xy in those of its height.
func (c *checker) checkPlane() {
	other, says := c.layout().Mismatch(c.plan.Plane, c.cellSize)
	if other == "" {
		return
	}
	set := fmt.Sprintf("set plane: %s at the top of worldcook.yaml (worldcook init --plane %s --write writes it there), or pass --plane %s to every command", other, other, other)
	if from := c.opts.PlaneFrom; from != "" {
		set = fmt.Sprintf("%s sets plane %s: make it %s", from, c.plan.Plane, other)
	}
	sw, ok := c.worldEntity()
	if !ok {
		return // a model checked without its StreamedWorld (Model)
	}
	c.add(sw, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodePlaneMismatch,
		Message: "the world " + says,
		Hint:    set,
		Subject: diag.Subject{Field: "StreamedWorld"},
	}})
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodePlaneMismatch = "plane-mismatch"
)

var rulePlaneMismatch = rule{
	Rule: Rule{ID: CodePlaneMismatch, Level: SeverityWarning,
		Short: "The world is laid out on the other plane than it is cut on",
		Full:  "A 2D scene cut on xz (its cameras all orthographic, its top-level entities, by their positions and what they draw flat (tiles, sprites, shapes), spread on y eight times as far as on z), or a 3D scene cut on xy (a perspective camera, the spread on z): the cells follow the wrong axis. Without a camera, the spread must also cover two cells and a quarter of the x extent. Up to 4096 top-level entities, evenly spaced, are measured, cameras and UI roots left out.",
		Help:  "Cut the world on the plane it is laid out on: plane: xy at the top of worldcook.yaml for a 2D world (worldcook init --plane xy --write writes it), plane: xz for a 3D one."},
	phase: phaseWorld,
	check: (*checker).checkPlane,
}
