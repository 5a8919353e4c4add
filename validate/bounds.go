package validate

import (
	"math"
	"strings"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
)

// Defaults of the extent-bearing components (the engine's component
// metadata; Sprite and ShapeRenderer sizes are the editor's 100×100).
const (
	defaultPPU        = 100
	builtinMeshExtent = 50 // built-in meshes are 100 world units across
)

// cellAcc accumulates one cell while the world is partitioned.
type cellAcc struct {
	key    grid.Key
	grid   Rect
	bounds Rect
	by     float64 // farthest any point lies outside grid
	over   int32   // entity index of that point, -1 when nothing overhangs
	sub    int32   // 1 + the template entity of that point inside an instance, 0 for none
	roots  int
	count  int
	maxID  int64 // the highest id of the cell's entities
}

// isExtentType reports whether a component type has a spatial extent that
// grows a cell's bounds.
func isExtentType(typ string) bool {
	switch typ {
	case "Sprite", "ShapeRenderer", "BoxCollider", "CircleCollider", "CapsuleCollider",
		"SegmentCollider", "PolygonCollider", "ChainCollider",
		"BoxCollider3D", "SphereCollider3D", "CapsuleCollider3D", "CharacterController3D",
		"Mesh2D", "MeshRenderer", "MeshCollider3D", "ConvexCollider3D", "Light2D", "TilemapLayer", "Tilemap":
		return true
	}
	return false
}

// extents grows cell ci by the component extents of entity i under its
// world matrix m. comps are its components; in is set for an instance
// whose prefab could not be found, whose root property overrides win
// over the component data the overrides added.
func (w *placer) extents(ci, i int32, m *scene.Affine, comps []scene.Component, in *instance) {
	if in != nil && len(in.props) > 0 {
		eff := make([]scene.Component, len(comps))
		copy(eff, comps)
		for _, o := range in.props {
			if k := compIndex(eff, o.comp); k >= 0 && o.prop != "" {
				eff[k].Data = setMember(eff[k].Data, o.prop, o.value)
			}
		}
		comps = eff
	}
	w.sinkCI, w.sinkI, w.sinkM, w.sinkQuiet = ci, i, *m, false
	w.c.localExtents(comps, w.c.d.Path, w)
}

// box and miss make a placer the sink of the entity being bounded.
func (w *placer) box(lo, hi scene.Vec3, f frame) {
	if f == scaled {
		w.addBox(w.sinkCI, w.sinkI, &w.sinkM, lo, hi)
		return
	}
	m := frameMatrix(&w.sinkM, f)
	w.addBox(w.sinkCI, w.sinkI, &m, lo, hi)
}

func (w *placer) miss(comp, field, ref, why string) {
	if !w.sinkQuiet {
		w.misses = append(w.misses, assetMiss{ent: w.sinkI, comp: comp, field: field, ref: ref, why: why})
	}
}

// builtinMesh returns the local box of a "builtin:" mesh reference. Other
// meshes need their asset to be bounded and add nothing.
func builtinMesh(v []byte) (lo, hi scene.Vec3, ok bool) {
	if scene.KindOf(v) != scene.String {
		return lo, hi, false
	}
	// Read the string in place: built-in ids hold no escapes, and this runs
	// for every mesh of the world.
	id, found := strings.CutPrefix(string(v[1:len(v)-1]), "builtin:")
	if !found {
		return lo, hi, false
	}
	if q := strings.IndexByte(id, '?'); q >= 0 {
		id = id[:q]
	}
	const e = builtinMeshExtent
	switch id {
	case "cube", "sphere", "cylinder", "cone":
		return scene.Vec3{X: -e, Y: -e, Z: -e}, scene.Vec3{X: e, Y: e, Z: e}, true
	case "capsule":
		return scene.Vec3{X: -e / 2, Y: -e, Z: -e / 2}, scene.Vec3{X: e / 2, Y: e, Z: e / 2}, true
	case "plane":
		return scene.Vec3{X: -e, Z: -e}, scene.Vec3{X: e, Z: e}, true
	case "quad":
		return scene.Vec3{X: -e, Y: -e}, scene.Vec3{X: e, Y: e}, true
	}
	return lo, hi, false
}

// vec2 reads an {x, y} field; a field of the wrong shape takes the
// defaults, as the engine drops invalid fields.
func vec2(v []byte, dx, dy float64) [2]float64 {
	def := [2]float64{dx, dy}
	if v == nil {
		return def
	}
	if x, y := dx, dy; len(v) > 0 && v[0] == '{' {
		if _, ok := readVec(v, 0, &x, &y, nil, nil); ok {
			return [2]float64{x, y}
		}
	}
	out, err := scene.Vec2(v, def)
	if err != nil {
		return def
	}
	return out
}

// num reads a number field, def when absent or not a number.
func num(v []byte, def float64) float64 {
	if scene.KindOf(v) != scene.Number {
		return def
	}
	if f, _, ok := number(v, 0); ok {
		return f
	}
	f, err := scene.Float(v)
	if err != nil {
		return def
	}
	return f
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
