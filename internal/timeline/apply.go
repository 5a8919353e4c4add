package timeline

import (
	"math"
	"strings"
)

// Pose is the part of a Transform a timeline animates: position, rotation
// (a quaternion x, y, z, w) and scale.
type Pose struct {
	Position [3]float64
	Rotation [4]float64
	Scale    [3]float64
}

// Moves reports whether a track changes where its entity is: a Transform
// track with a keyed position, rotation or scale channel. (Rotation and
// scale move the entity's children, and so a carried source.)
func (t *Track) Moves() bool {
	if t.Component != "Transform" {
		return false
	}
	for i := range t.Channels {
		if len(t.Channels[i].Keyframes) > 0 && field(t.Channels[i].Property) != "" {
			return true
		}
	}
	return false
}

// MovesPosition reports whether the track keys position.x, .y or .z.
func (t *Track) MovesPosition() bool {
	if t.Component != "Transform" {
		return false
	}
	for i := range t.Channels {
		if len(t.Channels[i].Keyframes) > 0 && strings.HasPrefix(t.Channels[i].Property, "position.") && field(t.Channels[i].Property) != "" {
			return true
		}
	}
	return false
}

// field is the Transform member a channel writes, "" for a channel that
// moves nothing a route follows.
func field(property string) string {
	switch property {
	case "position.x", "position.y", "position.z":
		return "position"
	case "scale.x", "scale.y", "scale.z":
		return "scale"
	case "rotation.x", "rotation.y", "rotation.z", "rotation.w", "rotation.angle":
		return "rotation"
	}
	return ""
}

// Apply writes the track's Transform channels at time into p, as the
// engine's sampler writes them into the entity's component: channel by
// channel in authored order, rotation.angle setting the Z Euler turn and
// keeping the other two, and a rotation written in any way renormalized
// at the end. Channels without keyframes leave their field as it was.
func (t *Track) Apply(time float64, p *Pose) {
	if t.Component != "Transform" {
		return
	}
	rotated := false
	for i := range t.Channels {
		c := &t.Channels[i]
		if len(c.Keyframes) == 0 {
			continue
		}
		v := c.At(time)
		switch c.Property {
		case "position.x":
			p.Position[0] = v
		case "position.y":
			p.Position[1] = v
		case "position.z":
			p.Position[2] = v
		case "scale.x":
			p.Scale[0] = v
		case "scale.y":
			p.Scale[1] = v
		case "scale.z":
			p.Scale[2] = v
		case "rotation.x":
			p.Rotation[0], rotated = v, true
		case "rotation.y":
			p.Rotation[1], rotated = v, true
		case "rotation.z":
			p.Rotation[2], rotated = v, true
		case "rotation.w":
			p.Rotation[3], rotated = v, true
		case "rotation.angle":
			e := toEuler(p.Rotation)
			p.Rotation, rotated = fromEuler(e[0], e[1], v*rad2deg), true
		}
	}
	if rotated {
		p.Rotation = normalize(p.Rotation)
	}
}

const (
	rad2deg = 180 / math.Pi
	deg2rad = math.Pi / 180
)

// normalize is the engine's quaternion normalization; a zero quaternion
// becomes the identity.
func normalize(q [4]float64) [4]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	n := hypot4(w, x, y, z)
	if n == 0 {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{x / n, y / n, z / n, w / n}
}

// hypot4 is JavaScript's Math.hypot of four numbers as V8 computes it:
// scaled by the largest magnitude and summed with Kahan compensation, so
// that a renormalized rotation is the engine's to the last bit.
func hypot4(a, b, c, d float64) float64 {
	vs := [4]float64{math.Abs(a), math.Abs(b), math.Abs(c), math.Abs(d)}
	m := 0.0
	for _, v := range vs {
		if math.IsInf(v, 0) {
			return math.Inf(1)
		}
		if math.IsNaN(v) {
			return math.NaN()
		}
		m = max(m, v)
	}
	if m == 0 {
		return 0
	}
	sum, comp := 0.0, 0.0
	for _, v := range vs {
		n := v / m
		summand := float64(n*n) - comp
		pre := sum + summand
		comp = (pre - sum) - summand
		sum = pre
	}
	return float64(math.Sqrt(sum) * m)
}

// toEuler is a rotation as three degrees applied X, then Y, then Z about
// fixed axes, the engine's reading (a pole charges the whole turn to Z).
func toEuler(q [4]float64) [3]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	r00 := 1 - 2*(float64(y*y)+float64(z*z))
	r10 := 2 * (float64(x*y) + float64(w*z))
	r20 := 2 * (float64(x*z) - float64(w*y))
	r21 := 2 * (float64(y*z) + float64(w*x))
	r22 := 1 - 2*(float64(x*x)+float64(y*y))
	pitch := math.Asin(math.Max(-1, math.Min(1, -r20)))
	if math.Abs(r20) > 0.999999 {
		r01 := 2 * (float64(x*y) - float64(w*z))
		r11 := 1 - 2*(float64(x*x)+float64(z*z))
		return [3]float64{0, pitch * rad2deg, math.Atan2(-r01, r11) * rad2deg}
	}
	return [3]float64{math.Atan2(r21, r22) * rad2deg, pitch * rad2deg, math.Atan2(r10, r00) * rad2deg}
}

// fromEuler is the inverse of toEuler.
func fromEuler(dx, dy, dz float64) [4]float64 {
	hx, hy, hz := dx*deg2rad/2, dy*deg2rad/2, dz*deg2rad/2
	cx, cy, cz := math.Cos(hx), math.Cos(hy), math.Cos(hz)
	sx, sy, sz := math.Sin(hx), math.Sin(hy), math.Sin(hz)
	return [4]float64{
		float64(float64(sx*cy)*cz) - float64(float64(cx*sy)*sz),
		float64(float64(cx*sy)*cz) + float64(float64(sx*cy)*sz),
		float64(float64(cx*cy)*sz) - float64(float64(sx*sy)*cz),
		float64(float64(cx*cy)*cz) + float64(float64(sx*sy)*sz),
	}
}
