package validate

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// The plane a world is laid out on (plane-mismatch), and the layout it is
// told from: the cameras (package camera read them, collectViews kept
// them) and the extent of the top-level entities. The rule itself is the
// manifest's (Layout.LaidOut), so that simulate and tune judge a cooked
// world as validate judges the scene.

// layout measures the world's layout once: the cameras and the extent of
// up to manifest.LayoutSample top-level entities, evenly spaced, leaving
// out the cameras and UI roots (a camera stands back from a 2D scene on
// z, a canvas sits wherever the UI does). The entities are counted first
// so that nothing is allocated for a world of millions.
func (c *checker) layout() *manifest.Layout {
	if c.plan.Layout != nil {
		return c.plan.Layout
	}
	l := &manifest.Layout{Cameras: len(c.cams)}
	for _, cam := range c.cams {
		if cam.Orthographic {
			l.Orthographic++
		}
	}
	const skip = fCamera | fCanvas
	roots := 0
	for i, p := range c.parent {
		if p < 0 && c.flags[i]&skip == 0 {
			roots++
		}
	}
	step := max(1, roots/manifest.LayoutSample)
	k := -1
	for i, p := range c.parent {
		if p >= 0 || c.flags[i]&skip != 0 {
			continue
		}
		if k++; k%step != 0 {
			continue
		}
		t, ok, err := c.d.Transform(i)
		if !ok || err != nil {
			continue
		}
		v := [3]float64{t.Position.X, t.Position.Y, t.Position.Z}
		if math.IsNaN(v[0]+v[1]+v[2]) || math.IsInf(v[0]+v[1]+v[2], 0) {
			continue
		}
		if l.Roots == 0 {
			l.Min, l.Max = v, v
		}
		for a := range 3 {
			l.Min[a], l.Max[a] = math.Min(l.Min[a], v[a]), math.Max(l.Max[a], v[a])
		}
		l.Roots++
	}
	c.plan.Layout = l
	return l
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
	c.add(c.worlds[0], Finding{Diagnostic: diag.Diagnostic{
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
		Full:  "A 2D scene cut on xz (its cameras all orthographic, its top-level entities spread on y eight times as far as on z), or a 3D scene cut on xy (a perspective camera, the spread on z): the cells follow the wrong axis. Without a camera, the spread must also cover two cells and a quarter of the x extent. Up to 4096 top-level entities, evenly spaced, are measured, cameras and UI roots left out.",
		Help:  "Cut the world on the plane it is laid out on: plane: xy at the top of worldcook.yaml for a 2D world (worldcook init --plane xy --write writes it), plane: xz for a 3D one."},
	phase: phaseWorld,
	check: (*checker).checkPlane,
}
