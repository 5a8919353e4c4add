// Package reparent computes the local transform that moves a top-level
// entity under another without moving anything in the world: the
// recomputed local transform, composed with the new parent's, gives the
// entity (and so each of its descendants) the world position, rotation and
// scale it had.
//
// The engine composes transforms twice over, and the moved entity must
// keep its place in both: its transform system multiplies full matrices
// (parent world × local T·R·S), and its cook places entities by composing
// position, rotation and scale one by one (position = parent position +
// parent rotation applied to the local position scaled by the parent's
// scale; rotations multiplied; scales multiplied). The two agree when the
// parent's scale is uniform; under a parent of non-uniform scale a rotated
// child would be sheared by the matrices, which no Transform can undo, so
// such a move is refused rather than made approximately.
package reparent

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/internal/scene"
)

// Tolerance bounds the difference allowed between an entity's world
// transform before and after the move, relative to the size of the
// numbers involved: the recomputation is exact up to float64 rounding, a
// few units of the last place, far below this.
const Tolerance = 1e-9

// Under returns the local transform that keeps an entity whose world
// transform is child (a top-level entity's own Transform) where it is once
// it is a child of a top-level entity whose Transform is parent. It
// refuses, with the reason, a parent of zero or non-uniform scale under
// which the child cannot keep its shape, and a parent rotation that is not
// a unit quaternion (the engine would scale by it).
func Under(parent, child scene.TRS) (scene.TRS, error) {
	ps := parent.Scale
	if ps.X == 0 || ps.Y == 0 || ps.Z == 0 || !finite(ps.X, ps.Y, ps.Z) {
		return scene.TRS{}, fmt.Errorf("its scale (%g, %g, %g) has a zero or non-finite axis, which no child transform can undo", ps.X, ps.Y, ps.Z)
	}
	q := parent.Rotation
	n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if math.Abs(n-1) > 1e-6 {
		return scene.TRS{}, fmt.Errorf("its rotation (%g, %g, %g, %g) is not a unit quaternion (length %g), so the engine would scale its children by it", q.X, q.Y, q.Z, q.W, n)
	}
	inv := scene.Quat{X: -q.X, Y: -q.Y, Z: -q.Z, W: q.W}
	d := scene.Vec3{X: child.Position.X - parent.Position.X, Y: child.Position.Y - parent.Position.Y, Z: child.Position.Z - parent.Position.Z}
	r := Rotate(inv, d)
	local := scene.TRS{
		Position: scene.Vec3{X: r.X / ps.X, Y: r.Y / ps.Y, Z: r.Z / ps.Z},
		Rotation: Mul(inv, child.Rotation),
		Scale:    scene.Vec3{X: child.Scale.X / ps.X, Y: child.Scale.Y / ps.Y, Z: child.Scale.Z / ps.Z},
	}
	if err := Check(parent, local, child); err != nil {
		return scene.TRS{}, err
	}
	return local, nil
}

// Check reports whether local under parent gives exactly (within
// Tolerance) the world transform want, both as the engine's transform
// system multiplies matrices and as its cook composes position, rotation
// and scale.
func Check(parent, local, want scene.TRS) error {
	ps := parent.Scale
	why := "the composed transform"
	if ps.X != ps.Y || ps.Y != ps.Z {
		why = fmt.Sprintf("its scale (%g, %g, %g) is not uniform, so", ps.X, ps.Y, ps.Z)
	}
	if dev := Deviation(parent.Matrix().Mul(local.Matrix()), want.Matrix()); dev > Tolerance {
		return fmt.Errorf("%s the child would be sheared at run time (off by %.3g)", why, dev)
	}
	if dev := trsDeviation(Compose(parent, local), want); dev > Tolerance {
		return fmt.Errorf("%s the engine's cook would place the child elsewhere (off by %.3g)", why, dev)
	}
	return nil
}

// Compose is the world transform of a child with transform local under a
// parent whose world transform is parent, as the engine's cook composes
// them: position, rotation and scale one by one.
func Compose(parent, local scene.TRS) scene.TRS {
	s := scene.Vec3{X: local.Position.X * parent.Scale.X, Y: local.Position.Y * parent.Scale.Y, Z: local.Position.Z * parent.Scale.Z}
	t := Rotate(parent.Rotation, s)
	return scene.TRS{
		Position: scene.Vec3{X: parent.Position.X + t.X, Y: parent.Position.Y + t.Y, Z: parent.Position.Z + t.Z},
		Rotation: Mul(parent.Rotation, local.Rotation),
		Scale:    scene.Vec3{X: parent.Scale.X * local.Scale.X, Y: parent.Scale.Y * local.Scale.Y, Z: parent.Scale.Z * local.Scale.Z},
	}
}

// Rotate applies the rotation q to v.
func Rotate(q scene.Quat, v scene.Vec3) scene.Vec3 {
	tx := 2 * (q.Y*v.Z - q.Z*v.Y)
	ty := 2 * (q.Z*v.X - q.X*v.Z)
	tz := 2 * (q.X*v.Y - q.Y*v.X)
	return scene.Vec3{
		X: v.X + q.W*tx + (q.Y*tz - q.Z*ty),
		Y: v.Y + q.W*ty + (q.Z*tx - q.X*tz),
		Z: v.Z + q.W*tz + (q.X*ty - q.Y*tx),
	}
}

// Mul is the rotation b followed by a.
func Mul(a, b scene.Quat) scene.Quat {
	return scene.Quat{
		X: a.W*b.X + a.X*b.W + a.Y*b.Z - a.Z*b.Y,
		Y: a.W*b.Y - a.X*b.Z + a.Y*b.W + a.Z*b.X,
		Z: a.W*b.Z + a.X*b.Y - a.Y*b.X + a.Z*b.W,
		W: a.W*b.W - a.X*b.X - a.Y*b.Y - a.Z*b.Z,
	}
}

// Deviation is the largest difference between a and b, relative to
// their largest entry (at least 1): what Tolerance bounds.
func Deviation(a, b scene.Affine) float64 {
	dev, size := 0.0, 1.0
	for i := range a {
		for j := range a[i] {
			dev = math.Max(dev, math.Abs(a[i][j]-b[i][j]))
			size = math.Max(size, math.Max(math.Abs(a[i][j]), math.Abs(b[i][j])))
		}
	}
	return dev / size
}

// trsDeviation is deviation for transforms composed one by one; a
// quaternion and its negation are the same rotation.
func trsDeviation(a, b scene.TRS) float64 {
	dev, size := 0.0, 1.0
	pair := func(x, y float64) {
		dev = math.Max(dev, math.Abs(x-y))
		size = math.Max(size, math.Max(math.Abs(x), math.Abs(y)))
	}
	pair(a.Position.X, b.Position.X)
	pair(a.Position.Y, b.Position.Y)
	pair(a.Position.Z, b.Position.Z)
	pair(a.Scale.X, b.Scale.X)
	pair(a.Scale.Y, b.Scale.Y)
	pair(a.Scale.Z, b.Scale.Z)
	ra, rb := a.Rotation, b.Rotation
	if ra.X*rb.X+ra.Y*rb.Y+ra.Z*rb.Z+ra.W*rb.W < 0 {
		rb = scene.Quat{X: -rb.X, Y: -rb.Y, Z: -rb.Z, W: -rb.W}
	}
	pair(ra.X, rb.X)
	pair(ra.Y, rb.Y)
	pair(ra.Z, rb.Z)
	pair(ra.W, rb.W)
	return dev / size
}

func finite(v ...float64) bool {
	for _, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
