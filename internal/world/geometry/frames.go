package geometry

import (
	"math"

	"github.com/worldcook/worldcook/internal/scene"
)

// Frame is how a component's local box follows its entity's world transform. The
// renderer draws meshes and sprites through the whole world matrix; the
// physics code builds a body from the world position and rotation alone
// (physics3d/Physics3DSystem.ts createBody, physics/PhysicsSystem.ts), so
// a collider keeps its authored size under any scale, the entity's own
// or an ancestor's (which still moves it: the world position composes
// through scaled parents).
type Frame uint8

const (
	Scaled  Frame = iota // the world matrix, scale and shear included
	Rigid                // world position and rotation: a 3D body
	Planar               // world position and the angle about Z: a 2D body
	AtPoint              // world position only: a character, a light's reach
)

// FrameMatrix is the matrix a box in Frame f is placed by, for an entity
// whose world matrix is m.
func FrameMatrix(m *scene.Affine, f Frame) scene.Affine {
	if f == Scaled {
		return *m
	}
	out := scene.Affine{{1, 0, 0, m[0][3]}, {0, 1, 0, m[1][3]}, {0, 0, 1, m[2][3]}}
	if f == AtPoint {
		return out
	}
	r, ok := rotationOf(m)
	if !ok {
		return out
	}
	if f == Planar {
		// The 2D body's angle is the world rotation's about Z
		// (quatToAngleZ), its shape on the XY plane.
		a := math.Atan2(r[1][0], r[0][0])
		c, s := math.Cos(a), math.Sin(a)
		out[0][0], out[0][1], out[1][0], out[1][1] = c, -s, s, c
		return out
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			out[i][j] = r[i][j]
		}
	}
	return out
}

// RotationOf is rotationOf, for a reader of a camera's facing.
func RotationOf(m *scene.Affine) ([3][3]float64, bool) { return rotationOf(m) }

// rotationOf returns the rotation of world matrix m as the engine's
// Transform decomposes it (worldRotation): its columns' scale taken out,
// any shear removed by orthogonalising, a mirroring scale folded into the
// scale rather than the rotation. ok is false for a matrix whose scale
// is zero or not finite on an axis: its rotation is taken as none.
func rotationOf(m *scene.Affine) (r [3][3]float64, ok bool) {
	col := func(j int) [3]float64 { return [3]float64{m[0][j], m[1][j], m[2][j]} }
	c0, c1, c2 := col(0), col(1), col(2)
	if dot(c0, cross(c1, c2)) < 0 {
		for k := range c0 {
			c0[k], c1[k] = -c0[k], -c1[k]
		}
	}
	x, ok0 := unit(c0)
	d := dot(x, c1)
	y, ok1 := unit([3]float64{c1[0] - d*x[0], c1[1] - d*x[1], c1[2] - d*x[2]})
	if !ok0 || !ok1 {
		return r, false
	}
	z := cross(x, y)
	for i := 0; i < 3; i++ {
		r[i] = [3]float64{x[i], y[i], z[i]}
	}
	return r, true
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func unit(v [3]float64) ([3]float64, bool) {
	n := math.Sqrt(dot(v, v))
	if !(n > 0) || math.IsInf(n, 0) {
		return v, false
	}
	return [3]float64{v[0] / n, v[1] / n, v[2] / n}, true
}

// Reach is how far from its entity's origin a box in a Frame other than
// Scaled can reach under any rotation: the distance to its centre plus
// its half diagonal.
func Reach(lo, hi scene.Vec3) float64 {
	c := [3]float64{(lo.X + hi.X) / 2, (lo.Y + hi.Y) / 2, (lo.Z + hi.Z) / 2}
	e := [3]float64{(hi.X - lo.X) / 2, (hi.Y - lo.Y) / 2, (hi.Z - lo.Z) / 2}
	return math.Sqrt(dot(c, c)) + math.Sqrt(dot(e, e))
}

// bodyShape3D returns the index in comps of the 3D collider the engine
// builds an entity's body from, -1 for none: the first enabled of box,
// sphere, mesh (naming a mesh), convex hull (naming a mesh) and capsule,
// in that order whatever the order of the components (createBody). The
// others on the entity are never built. Whether an enabled RigidBody3D
// is there to build it is not asked: a collider counts as the body it
// makes once a script adds or enables one.
func bodyShape3D(comps []scene.Component) int {
	chosen, rank := -1, 99
	for k := range comps {
		r := 99
		switch comps[k].Type {
		case "BoxCollider3D":
			r = 0
		case "SphereCollider3D":
			r = 1
		case "MeshCollider3D", "ConvexCollider3D":
			mv, _, _ := Members3(comps[k].Data, "mesh", "", "")
			if AssetRef(mv) == "" {
				continue // names no mesh: it claims no body
			}
			r = 2
			if comps[k].Type == "ConvexCollider3D" {
				r = 3
			}
		case "CapsuleCollider3D":
			r = 4
		default:
			continue
		}
		if r < rank && Enabled(comps[k].Data) {
			rank, chosen = r, k
		}
	}
	return chosen
}
