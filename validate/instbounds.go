package validate

import (
	"math"
	"strconv"

	"github.com/worldcook/worldcook/scene"
)

// instanceBounds grows cell ci over everything instance entry i spawns,
// its root at world matrix m. The template's box in the root's frame is
// tried first: an instance inside its grid square grows nothing, which is
// most of them. Only an instance that may overhang is walked entity by
// entity, for exact bounds and to name the entity that reaches farthest.
func (w *placer) instanceBounds(ci, i int32, m *scene.Affine, in *instance) {
	t := in.tpl
	if t == nil {
		w.addPoint(ci, i, m.Origin())
		w.extents(ci, i, m, in.comps, in)
		return
	}
	if !t.anyAbs && (!t.hasBox || w.insideGrid(ci, m, t.lo, t.hi)) {
		return
	}
	var wm scene.Affine
	for _, k := range t.order {
		if !t.hasT[k] {
			continue
		}
		wm = t.rel[k]
		if !t.abs[k] {
			wm = m.Mul(wm)
		}
		w.sub = 0
		if k != t.root {
			w.sub = k + 1
		}
		w.addPoint(ci, i, wm.Origin())
		bs := t.boxes[k]
		for b := 0; b+1 < len(bs); b += 2 {
			w.addBox(ci, i, &wm, bs[b], bs[b+1])
		}
	}
	w.sub = 0
}

// insideGrid reports whether the local box lo..hi under m lies within
// cell ci's grid square.
func (w *placer) insideGrid(ci int32, m *scene.Affine, lo, hi scene.Vec3) bool {
	cx, cy, cz := (lo.X+hi.X)/2, (lo.Y+hi.Y)/2, (lo.Z+hi.Z)/2
	ex, ey, ez := (hi.X-lo.X)/2, (hi.Y-lo.Y)/2, (hi.Z-lo.Z)/2
	ru, rv := &m[0], &m[2]
	if w.c.xy {
		rv = &m[1]
	}
	u := ru[0]*cx + ru[1]*cy + ru[2]*cz + ru[3]
	v := rv[0]*cx + rv[1]*cy + rv[2]*cz + rv[3]
	du := math.Abs(ru[0])*ex + math.Abs(ru[1])*ey + math.Abs(ru[2])*ez
	dv := math.Abs(rv[0])*ex + math.Abs(rv[1])*ey + math.Abs(rv[2])*ez
	g := &w.cells[ci].grid
	return u-du >= g.MinX && u+du <= g.MaxX && v-dv >= g.MinZ && v+dv <= g.MaxZ
}

// instancePath names instance entry i in paths of its entities:
// "House#12".
func (c *checker) instancePath(i int32) string {
	e := &c.d.Entities[i]
	name := e.Name
	if name == "" {
		if k := c.instAt[i]; k > 0 {
			if t := c.inst[k-1].tpl; t != nil && t.err == "" {
				name = entName(&t.ents[t.root])
			}
		}
	}
	return name + "#" + strconv.FormatInt(e.ID, 10)
}
