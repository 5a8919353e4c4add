package validate

import (
	"math"
	"strings"

	"github.com/worldcook/worldcook/scene"
)

// Defaults of the extent-bearing components (the engine's component
// metadata; Sprite and ShapeRenderer sizes are the editor's 100×100).
const (
	defaultPPU        = 100
	builtinMeshExtent = 50 // built-in meshes are 100 world units across
)

// cellAcc accumulates one cell while the world is partitioned.
type cellAcc struct {
	x, z   int32
	grid   Rect
	bounds Rect
	by     float64 // farthest any point lies outside grid
	over   int32   // entity index of that point, -1 when nothing overhangs
	roots  int
	count  int
}

// isExtentType reports whether a component type has a spatial extent that
// grows a cell's bounds.
func isExtentType(typ string) bool {
	switch typ {
	case "Sprite", "ShapeRenderer", "BoxCollider", "CircleCollider", "CapsuleCollider",
		"BoxCollider3D", "SphereCollider3D", "CapsuleCollider3D", "CharacterController3D",
		"Mesh2D", "MeshRenderer":
		return true
	}
	return false
}

// extents grows cell ci by the component extents of entity i under its
// world matrix m. comps are its components; in is set for a prefab
// instance, whose property overrides win over component data.
func (w *placer) extents(ci, i int32, m *scene.Affine, comps []scene.Component, in *instance) {
	ppu := w.c.ppu
	for k := range comps {
		typ := comps[k].Type
		if !isExtentType(typ) {
			continue
		}
		// Read every field a component needs in one pass over its data.
		get := func(k1, k2, k3 string) (v1, v2, v3 []byte) {
			if in != nil {
				v1, _ = in.field(typ, k1)
				v2, _ = in.field(typ, k2)
				v3, _ = in.field(typ, k3)
				return
			}
			return members3(comps[k].Data, k1, k2, k3)
		}
		switch typ {
		case "Sprite":
			sv, pv, _ := get("size", "pivot", "")
			size, pivot := vec2(sv, 100, 100), vec2(pv, 0.5, 0.5)
			w.addBox(ci, i, m,
				scene.Vec3{X: -pivot[0] * size[0], Y: -pivot[1] * size[1]},
				scene.Vec3{X: (1 - pivot[0]) * size[0], Y: (1 - pivot[1]) * size[1]})
		case "ShapeRenderer":
			sv, _, _ := get("size", "", "")
			size := vec2(sv, 100, 100)
			w.addBox(ci, i, m, scene.Vec3{X: -size[0] / 2, Y: -size[1] / 2}, scene.Vec3{X: size[0] / 2, Y: size[1] / 2})
		case "BoxCollider":
			// 2D collider fields are physics metres: pixelsPerUnit world
			// units each.
			hv, ov, _ := get("halfExtents", "offset", "")
			he, off := vec2(hv, 0.5, 0.5), vec2(ov, 0, 0)
			w.addBox(ci, i, m,
				scene.Vec3{X: (off[0] - he[0]) * ppu, Y: (off[1] - he[1]) * ppu},
				scene.Vec3{X: (off[0] + he[0]) * ppu, Y: (off[1] + he[1]) * ppu})
		case "CircleCollider":
			rv, ov, _ := get("radius", "offset", "")
			r, off := num(rv, 0.5), vec2(ov, 0, 0)
			w.addBox(ci, i, m,
				scene.Vec3{X: (off[0] - r) * ppu, Y: (off[1] - r) * ppu},
				scene.Vec3{X: (off[0] + r) * ppu, Y: (off[1] + r) * ppu})
		case "CapsuleCollider":
			rv, hv, ov := get("radius", "halfHeight", "offset")
			r, off := num(rv, 0.25), vec2(ov, 0, 0)
			h := num(hv, 0.5) + r
			w.addBox(ci, i, m,
				scene.Vec3{X: (off[0] - r) * ppu, Y: (off[1] - h) * ppu},
				scene.Vec3{X: (off[0] + r) * ppu, Y: (off[1] + h) * ppu})
		case "BoxCollider3D":
			// 3D collider fields are world units.
			hv, _, _ := get("halfExtents", "", "")
			he, _ := vec3(hv, scene.Vec3{X: 0.5, Y: 0.5, Z: 0.5})
			w.addBox(ci, i, m, scene.Vec3{X: -he.X, Y: -he.Y, Z: -he.Z}, he)
		case "SphereCollider3D":
			rv, _, _ := get("radius", "", "")
			r := num(rv, 0.5)
			w.addBox(ci, i, m, scene.Vec3{X: -r, Y: -r, Z: -r}, scene.Vec3{X: r, Y: r, Z: r})
		case "CapsuleCollider3D", "CharacterController3D":
			rv, hv, _ := get("radius", "halfHeight", "")
			r := num(rv, 0.3)
			h := num(hv, 0.5) + r
			w.addBox(ci, i, m, scene.Vec3{X: -r, Y: -h, Z: -r}, scene.Vec3{X: r, Y: h, Z: r})
		case "Mesh2D", "MeshRenderer":
			mv, _, _ := get("mesh", "", "")
			if lo, hi, ok := builtinMesh(mv); ok {
				w.addBox(ci, i, m, lo, hi)
			}
		}
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
