package geometry

import (
	"math"

	"github.com/worldcook/worldcook/internal/scene"
)

// Shape is the geometry of entities placed together under one of them, a
// prefab instance's root: each entity's matrix in the root's frame and
// the local boxes of its components, and the box they all cover there.
// Worked out once for every instance of the same expansion, it is only
// transformed by each instance's root world matrix: an instance inside
// its grid square grows nothing, which is most of them.
type Shape struct {
	// Rel is each placed entity's matrix in the root's frame, or, for an
	// entity not under the root's transform (Abs), in the world. HasT is
	// false for an entity without a (well-formed) Transform: it has no
	// place.
	Rel  []scene.Affine
	HasT []bool
	Abs  []bool
	// Boxes holds the local boxes of each entity's scaled extents (lo, hi
	// pairs), so that an instance walked entity by entity reads no
	// component data.
	Boxes [][]scene.Vec3
	// Fixed holds each entity's boxes that follow a frame other than
	// scaled (colliders, lights): placed from the entity's world matrix,
	// they cannot be put in the root's frame. FLo..FHi covers their
	// entities' origins in the root's frame, and FixedR is the farthest
	// any of them reaches from its origin; HasFixed is false for none.
	Fixed    [][]FixedBox
	FLo, FHi scene.Vec3
	FixedR   float64
	HasFixed bool
	// Lo..Hi covers, in the root's frame, every origin and extent of the
	// entities under the root's transform; HasBox is false when there is
	// none. AnyAbs says some entity must be placed on its own.
	Lo, Hi scene.Vec3
	HasBox bool
	AnyAbs bool
	// Misses are the assets the entities' components name whose box
	// could not be read.
	Misses []Miss
}

// FixedBox is a local box placed in a frame other than scaled.
type FixedBox struct {
	Lo, Hi scene.Vec3
	Frame  Frame
}

// Miss is an asset reference whose box the extents could not read: its
// file is absent or holds no box. Ent is the entity holding it (an index
// of the entities the caller counts: a scene's, or a Shape's).
type Miss struct {
	Ent         int32
	Comp, Field string
	Ref, Why    string
}

// NewShape returns the shape of n entities, none added yet.
func NewShape(n int) Shape {
	inf, ninf := math.Inf(1), math.Inf(-1)
	return Shape{
		Rel:   make([]scene.Affine, n),
		HasT:  make([]bool, n),
		Abs:   make([]bool, n),
		Boxes: make([][]scene.Vec3, n),
		Fixed: make([][]FixedBox, n),
		Lo:    scene.Vec3{X: inf, Y: inf, Z: inf}, Hi: scene.Vec3{X: ninf, Y: ninf, Z: ninf},
		FLo: scene.Vec3{X: inf, Y: inf, Z: inf}, FHi: scene.Vec3{X: ninf, Y: ninf, Z: ninf},
	}
}

// Extend returns a copy of s with room for n entities in all, the ones
// beyond s's not added yet.
func (s *Shape) Extend(n int) Shape {
	t := *s
	t.Rel = append(make([]scene.Affine, 0, n), s.Rel...)[:n]
	t.HasT = append(make([]bool, 0, n), s.HasT...)[:n]
	t.Abs = append(make([]bool, 0, n), s.Abs...)[:n]
	t.Boxes = append(make([][]scene.Vec3, 0, n), s.Boxes...)[:n]
	t.Fixed = append(make([][]FixedBox, 0, n), s.Fixed...)[:n]
	t.Misses = append([]Miss(nil), s.Misses...)
	return t
}

// Add works out entity k, whose components comps were written in the
// file from, its parent p (-1 for none) already added; root says k is
// the root. It returns k's local Transform and whether it has one; err
// is set when the Transform is malformed (the entity then has no place).
func (s *Shape) Add(x *Extents, k, p int32, root bool, comps []scene.Component, from string) (local scene.TRS, hasT bool, err error) {
	data, ok := componentOf(comps, "Transform")
	if !ok {
		return scene.Identity, false, nil
	}
	local, ok = ReadTRS(data)
	if !ok {
		if local, err = scene.ParseTRS(data); err != nil {
			return local, false, err
		}
	}
	s.HasT[k] = true
	switch {
	case root:
		s.Rel[k] = scene.Identity.Matrix()
	case p >= 0 && s.HasT[p]:
		s.Rel[k] = s.Rel[p].Mul(local.Matrix())
		s.Abs[k] = s.Abs[p]
	default:
		s.Rel[k] = local.Matrix()
		s.Abs[k] = true
	}
	x.Local(comps, from, FuncSink{
		OnBox: func(lo, hi scene.Vec3, f Frame) {
			if f == Scaled {
				s.Boxes[k] = append(s.Boxes[k], lo, hi)
			} else {
				s.Fixed[k] = append(s.Fixed[k], FixedBox{Lo: lo, Hi: hi, Frame: f})
			}
		},
		OnMiss: func(comp, field, ref, why string) {
			s.Misses = append(s.Misses, Miss{Ent: k, Comp: comp, Field: field, Ref: ref, Why: why})
		},
	})
	if s.Abs[k] {
		s.AnyAbs = true
		return local, true, nil
	}
	m := &s.Rel[k]
	s.grow(m, m.Origin(), m.Origin())
	for b := 0; b+1 < len(s.Boxes[k]); b += 2 {
		s.grow(m, s.Boxes[k][b], s.Boxes[k][b+1])
	}
	if len(s.Fixed[k]) > 0 {
		o := m.Origin()
		s.HasFixed = true
		s.FLo = scene.Vec3{X: math.Min(s.FLo.X, o.X), Y: math.Min(s.FLo.Y, o.Y), Z: math.Min(s.FLo.Z, o.Z)}
		s.FHi = scene.Vec3{X: math.Max(s.FHi.X, o.X), Y: math.Max(s.FHi.Y, o.Y), Z: math.Max(s.FHi.Z, o.Z)}
		for _, b := range s.Fixed[k] {
			s.FixedR = math.Max(s.FixedR, Reach(b.Lo, b.Hi))
		}
	}
	return local, true, nil
}

// grow widens the shape's box over the box lo..hi under matrix m.
func (s *Shape) grow(m *scene.Affine, lo, hi scene.Vec3) {
	var c, e [3]float64
	c[0], c[1], c[2] = (lo.X+hi.X)/2, (lo.Y+hi.Y)/2, (lo.Z+hi.Z)/2
	e[0], e[1], e[2] = (hi.X-lo.X)/2, (hi.Y-lo.Y)/2, (hi.Z-lo.Z)/2
	var out [2][3]float64
	for r := 0; r < 3; r++ {
		row := &m[r]
		mid := row[0]*c[0] + row[1]*c[1] + row[2]*c[2] + row[3]
		d := math.Abs(row[0])*e[0] + math.Abs(row[1])*e[1] + math.Abs(row[2])*e[2]
		out[0][r], out[1][r] = mid-d, mid+d
	}
	if !Finite(out[0][0]) || !Finite(out[0][1]) || !Finite(out[0][2]) || !Finite(out[1][0]) || !Finite(out[1][1]) || !Finite(out[1][2]) {
		// Left to the exact path, which reports it.
		s.AnyAbs = true
		return
	}
	s.HasBox = true
	s.Lo = scene.Vec3{X: math.Min(s.Lo.X, out[0][0]), Y: math.Min(s.Lo.Y, out[0][1]), Z: math.Min(s.Lo.Z, out[0][2])}
	s.Hi = scene.Vec3{X: math.Max(s.Hi.X, out[1][0]), Y: math.Max(s.Hi.Y, out[1][1]), Z: math.Max(s.Hi.Z, out[1][2])}
}

func componentOf(comps []scene.Component, typ string) ([]byte, bool) {
	for _, c := range comps {
		if c.Type == typ {
			return c.Data, true
		}
	}
	return nil, false
}
