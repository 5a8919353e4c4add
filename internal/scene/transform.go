package scene

import (
	"fmt"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/grid"
)

// Vec3 is a point or direction.
type Vec3 = grid.Vec3

// Quat is a rotation quaternion as Estella stores it.
type Quat struct{ X, Y, Z, W float64 }

// TRS is a local transform: translation, rotation, scale.
type TRS struct {
	Position Vec3
	Rotation Quat
	Scale    Vec3
}

// Identity is the transform of an entity without position, rotation or scale.
var Identity = TRS{Rotation: Quat{W: 1}, Scale: Vec3{X: 1, Y: 1, Z: 1}}

// Affine is a 3×4 matrix: a linear part (row-major M[r][c], c < 3) and a
// translation column M[r][3]. It composes transforms the way Estella's
// TransformSystem does with full 4×4 matrices (the last row is always
// 0 0 0 1), so shear from non-uniform scale under rotation is kept.
type Affine [3][4]float64

// IdentityAffine leaves points where they are.
var IdentityAffine = Affine{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}

// Matrix returns T·R·S.
func (t TRS) Matrix() Affine {
	q := t.Rotation
	x, y, z, w := q.X, q.Y, q.Z, q.W
	// Products are converted explicitly so the compiler cannot fuse them
	// into multiply-adds, which would change the last bit on some CPUs.
	xx, yy, zz := float64(x*x), float64(y*y), float64(z*z)
	xy, xz, yz := float64(x*y), float64(x*z), float64(y*z)
	xw, yw, zw := float64(x*w), float64(y*w), float64(z*w)
	r := [3][3]float64{
		{1 - 2*(yy+zz), 2 * (xy - zw), 2 * (xz + yw)},
		{2 * (xy + zw), 1 - 2*(xx+zz), 2 * (yz - xw)},
		{2 * (xz - yw), 2 * (yz + xw), 1 - 2*(xx+yy)},
	}
	s := [3]float64{t.Scale.X, t.Scale.Y, t.Scale.Z}
	p := [3]float64{t.Position.X, t.Position.Y, t.Position.Z}
	var m Affine
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = float64(r[i][j] * s[j])
		}
		m[i][3] = p[i]
	}
	return m
}

// Mul returns a·b (apply b, then a).
func (a Affine) Mul(b Affine) Affine {
	var m Affine
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			// Each product is rounded on its own (the float64 conversions
			// forbid fused multiply-add), so bounds are bit-identical on
			// every architecture, not just on those without FMA.
			v := float64(a[i][0]*b[0][j]) + float64(a[i][1]*b[1][j]) + float64(a[i][2]*b[2][j])
			if j == 3 {
				v += a[i][3]
			}
			m[i][j] = v
		}
	}
	return m
}

// Apply transforms the point v.
func (a Affine) Apply(v Vec3) Vec3 {
	return Vec3{
		X: float64(a[0][0]*v.X) + float64(a[0][1]*v.Y) + float64(a[0][2]*v.Z) + a[0][3],
		Y: float64(a[1][0]*v.X) + float64(a[1][1]*v.Y) + float64(a[1][2]*v.Z) + a[1][3],
		Z: float64(a[2][0]*v.X) + float64(a[2][1]*v.Y) + float64(a[2][2]*v.Z) + a[2][3],
	}
}

// Origin is where the transform puts the local origin.
func (a Affine) Origin() Vec3 { return Vec3{X: a[0][3], Y: a[1][3], Z: a[2][3]} }

// Transform reads entity i's Transform component. ok is false when the
// entity has none. A field of the wrong shape is an *Error naming the
// entity and the field.
func (d *Document) Transform(i int) (t TRS, ok bool, err error) {
	data, ok := d.Component(i, "Transform")
	if !ok {
		return Identity, false, nil
	}
	t, err = ParseTRS(data)
	if err != nil {
		return Identity, true, d.EntityError(i, "Transform."+err.(*shapeErr).field, err.(*shapeErr).msg, "write position and scale as {x, y, z} numbers and rotation as a quaternion {x, y, z, w}")
	}
	return t, true, nil
}

type shapeErr struct{ field, msg string }

func (e *shapeErr) Error() string { return e.field + ": " + e.msg }

// ParseTRS reads Transform data. Missing fields take Estella's defaults
// (position 0, rotation identity, scale 1) and a partial object keeps the
// default for each missing key, as the engine's one-level merge does.
func ParseTRS(data []byte) (TRS, error) {
	t := Identity
	if data == nil || KindOf(data) == Null {
		return t, nil
	}
	if KindOf(data) != Object {
		return t, &shapeErr{"data", "is " + article(KindOf(data)) + ", not an object"}
	}
	var err error
	Members(data, func(k, v []byte) bool {
		switch string(k) {
		case "position":
			err = readVec(v, "position", &t.Position.X, &t.Position.Y, &t.Position.Z, nil)
		case "scale":
			err = readVec(v, "scale", &t.Scale.X, &t.Scale.Y, &t.Scale.Z, nil)
		case "rotation":
			err = readVec(v, "rotation", &t.Rotation.X, &t.Rotation.Y, &t.Rotation.Z, &t.Rotation.W)
		}
		return err == nil
	})
	return t, err
}

// readVec reads {x,y,z[,w]} into the given fields, leaving missing keys
// at their defaults.
func readVec(v []byte, name string, x, y, z, w *float64) error {
	if KindOf(v) == Null {
		return nil
	}
	if KindOf(v) != Object {
		return &shapeErr{name, "is " + article(KindOf(v)) + ", not an object {x, y, z}"}
	}
	var err error
	Members(v, func(k, val []byte) bool {
		var dst *float64
		switch string(k) {
		case "x":
			dst = x
		case "y":
			dst = y
		case "z":
			dst = z
		case "w":
			dst = w
		}
		if dst == nil {
			return true
		}
		f, e := Float(val)
		if e != nil {
			err = &shapeErr{name + "." + string(k), e.Error()}
			return false
		}
		*dst = f
		return true
	})
	return err
}

// Vec2 reads an optional {x, y} object such as Sprite.size; missing keys
// keep the values in def.
func Vec2(v []byte, def [2]float64) ([2]float64, error) {
	out := def
	if v == nil || KindOf(v) == Null {
		return out, nil
	}
	if KindOf(v) != Object {
		return out, fmt.Errorf("is %s, not an object {x, y}", article(KindOf(v)))
	}
	var err error
	Members(v, func(k, val []byte) bool {
		idx := -1
		switch string(k) {
		case "x":
			idx = 0
		case "y":
			idx = 1
		}
		if idx < 0 {
			return true
		}
		f, e := Float(val)
		if e != nil {
			err = fmt.Errorf("%s %v", k, e)
			return false
		}
		out[idx] = f
		return true
	})
	return out, err
}

// EntityError builds an *Error about field of entity i.
func (d *Document) EntityError(i int, field, msg, fix string) *Error {
	e := &d.Entities[i]
	id := e.ID
	line, col := d.RecordPosition(i)
	return &Error{Diagnostic: diag.Diagnostic{Severity: diag.SeverityError, Message: msg,
		Location: diag.Location{File: d.Path, Line: line, Column: col},
		Subject:  diag.Subject{Entity: &id, EntityName: e.Name, Field: field}, Hint: fix}, Index: i}
}
