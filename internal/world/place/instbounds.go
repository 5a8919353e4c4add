package place

import (
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// instanceBounds grows cell ci over everything instance entry i spawns,
// its root at world matrix m. The template's box in the root's frame is
// tried first: an instance inside its grid square grows nothing, which is
// most of them. Only an instance that may overhang is walked entity by
// entity, for exact bounds and to name the entity that reaches farthest.
func (w *placer) instanceBounds(ci, i int32, m *scene.Affine, in *expand.Instance) {
	t := in.Tpl
	if t == nil {
		w.addPoint(ci, i, m.Origin())
		w.extents(ci, i, m, in.RootComps())
		return
	}
	if !t.Shape.AnyAbs && (!t.Shape.HasBox || w.insideGrid(ci, m, t.Shape.Lo, t.Shape.Hi)) &&
		(!t.Shape.HasFixed || w.insideGridBy(ci, m, t.Shape.FLo, t.Shape.FHi, t.Shape.FixedR)) {
		return
	}
	var wm scene.Affine
	for _, k := range t.Order {
		if !t.Shape.HasT[k] {
			continue
		}
		wm = t.Shape.Rel[k]
		if !t.Shape.Abs[k] {
			wm = m.Mul(wm)
		}
		w.sub = 0
		if k != t.Root {
			w.sub = k + 1
		}
		w.addPoint(ci, i, wm.Origin())
		bs := t.Shape.Boxes[k]
		for b := 0; b+1 < len(bs); b += 2 {
			w.addBox(ci, i, &wm, bs[b], bs[b+1])
		}
		for _, b := range t.Shape.Fixed[k] {
			fm := geometry.FrameMatrix(&wm, b.Frame)
			w.addBox(ci, i, &fm, b.Lo, b.Hi)
		}
	}
	w.sub = 0
}

// insideGrid reports whether the local box lo..hi under m lies within
// cell ci's grid square.
func (w *placer) insideGrid(ci int32, m *scene.Affine, lo, hi scene.Vec3) bool {
	u0, u1, v0, v1 := w.project(m, lo, hi)
	g := &w.cells[ci].grid
	return u0 >= g.MinX && u1 <= g.MaxX && v0 >= g.MinZ && v1 <= g.MaxZ
}

// insideGridBy reports whether the local box lo..hi under m, widened by
// r world units on every side, lies within cell ci's grid square.
func (w *placer) insideGridBy(ci int32, m *scene.Affine, lo, hi scene.Vec3, r float64) bool {
	u0, u1, v0, v1 := w.project(m, lo, hi)
	g := &w.cells[ci].grid
	return u0-r >= g.MinX && u1+r <= g.MaxX && v0-r >= g.MinZ && v1+r <= g.MaxZ
}
