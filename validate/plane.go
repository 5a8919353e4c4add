package validate

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/manifest"
)

// planeSample is how many top-level entities the plane check reads: enough
// to tell a flat world from a spread one, at a cost that does not grow
// with the world.
const planeSample = 4096

// checkPlane warns when the world is spread over the other plane than the
// one it is cut on: a 2D scene (every z equal, y spread out) cut on xz, or
// a 3D scene on the ground (every y equal, z spread out) cut on xy. Either
// way every entity lands in one row of cells, which streams as badly as no
// streaming at all, and nothing else would say so.
func (c *checker) checkPlane() {
	d, sw := c.d, c.w.Worlds()[0]
	// Every step-th top-level entity, counted first so that nothing is
	// allocated for a world of millions.
	roots := 0
	for _, p := range c.parent {
		if p < 0 {
			roots++
		}
	}
	if roots < 2 {
		return
	}
	step := max(1, roots/planeSample)
	// flat is the axis the cut uses but the world does not; spread the
	// one it does not use but the world does.
	flatName, spreadName := "z", "y"
	axis := func(p [3]float64) (flat, spread float64) { return p[2], p[1] }
	if c.xy {
		flatName, spreadName = "y", "z"
		axis = func(p [3]float64) (flat, spread float64) { return p[1], p[2] }
	}
	n := 0
	var flatLo, flatHi, spreadLo, spreadHi, xLo, xHi float64
	k := -1
	for i, p := range c.parent {
		if p >= 0 {
			continue
		}
		if k++; k%step != 0 {
			continue
		}
		t, ok, err := d.Transform(i)
		if !ok || err != nil {
			continue
		}
		p := t.Position
		f, s := axis([3]float64{p.X, p.Y, p.Z})
		if math.IsNaN(f) || math.IsInf(f, 0) || math.IsNaN(s) || math.IsInf(s, 0) {
			continue
		}
		if math.IsNaN(p.X) || math.IsInf(p.X, 0) {
			continue
		}
		if n == 0 {
			flatLo, flatHi, spreadLo, spreadHi, xLo, xHi = f, f, s, s, p.X, p.X
		}
		flatLo, flatHi = math.Min(flatLo, f), math.Max(flatHi, f)
		spreadLo, spreadHi = math.Min(spreadLo, s), math.Max(spreadHi, s)
		xLo, xHi = math.Min(xLo, p.X), math.Max(xHi, p.X)
		n++
	}
	// The unused axis must spread like a layout, not like layers: over
	// two cells at least, and a quarter as far as x does (UI scenes put
	// their layers a few units apart on z).
	spread := spreadHi - spreadLo
	if n < 8 || flatHi-flatLo > 1e-6*math.Max(1, c.cellSize) || spread < 2*c.cellSize || spread < (xHi-xLo)/4 {
		return
	}
	other := manifest.PlaneXY
	if c.xy {
		other = manifest.PlaneXZ
	}
	c.add(sw, Finding{Diagnostic: diag.Diagnostic{
		Code: CodePlaneMismatch,
		Message: fmt.Sprintf("the world is cut on %s, but its top-level entities all have %s = %s while %s spans %s to %s: every one lands in one row of cells",
			c.plan.Plane, flatName, fmtNum(flatLo), spreadName, fmtNum(spreadLo), fmtNum(spreadHi)),
		// The keys as worldcook.yaml accepts them: plane is a setting of
		// the cook and validate sections.
		Hint: fmt.Sprintf("cut the world on the plane it is laid out on: --plane %s, or in worldcook.yaml cook: {plane: %s} and validate: {plane: %s}", other, other, other),
		Subject: diag.Subject{
			Field: "StreamedWorld",
		},
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
		Full:  "Every top-level entity has the same coordinate on the cut's second axis (z on xz, y on xy) while the other axis spreads over two cells or more and a quarter of the x extent: a 2D scene cut on xz, or a ground-level 3D scene cut on xy. Every entity lands in one row of cells. worldcook reads up to 4096 top-level entities, evenly spaced, to tell.",
		Help:  "Cut the world on the plane it is laid out on: --plane xy for a 2D world, --plane xz for a 3D one."},
	phase: phaseWorld,
	check: (*checker).checkPlane,
}
