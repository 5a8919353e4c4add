package place

import (
	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// cellAcc accumulates one cell while the world is partitioned.
type cellAcc struct {
	key    grid.Key
	grid   grid.Rect
	bounds grid.Rect
	by     float64 // farthest any point lies outside grid
	over   int32   // entity index of that point, -1 when nothing overhangs
	sub    int32   // 1 + the template entity of that point inside an instance, 0 for none
	roots  int
	count  int
	maxID  int64 // the highest id of the cell's entities
}

// extents grows cell ci by the component extents comps of entity i
// under its world matrix m.
func (w *placer) extents(ci, i int32, m *scene.Affine, comps []scene.Component) {
	w.sinkCI, w.sinkI, w.sinkM, w.sinkQuiet = ci, i, *m, false
	w.pl.w.Extents().Local(comps, w.pl.d.Path, w)
}

// Box and Miss make a placer the sink of the entity being bounded.
func (w *placer) Box(lo, hi scene.Vec3, f geometry.Frame) {
	if f == geometry.Scaled {
		w.addBox(w.sinkCI, w.sinkI, &w.sinkM, lo, hi)
		return
	}
	m := geometry.FrameMatrix(&w.sinkM, f)
	w.addBox(w.sinkCI, w.sinkI, &m, lo, hi)
}

func (w *placer) Miss(comp, field, ref, why string) {
	if !w.sinkQuiet {
		w.misses = append(w.misses, geometry.Miss{Ent: w.sinkI, Comp: comp, Field: field, Ref: ref, Why: why})
	}
}
