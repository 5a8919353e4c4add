package grid

import "math"

// Rect is an axis-aligned rectangle on the partition plane. For plane "xy"
// the Z fields hold Y. The JSON names are the ones validate's report
// writes.
type Rect struct {
	MinX float64 `json:"minX"`
	MinZ float64 `json:"minZ"`
	MaxX float64 `json:"maxX"`
	MaxZ float64 `json:"maxZ"`
}

// Union is the smallest rectangle holding r and o (math.Min and math.Max
// per side, so a NaN side stays NaN).
func (r Rect) Union(o Rect) Rect {
	return Rect{MinX: math.Min(r.MinX, o.MinX), MinZ: math.Min(r.MinZ, o.MinZ), MaxX: math.Max(r.MaxX, o.MaxX), MaxZ: math.Max(r.MaxZ, o.MaxZ)}
}

// Intersects reports whether r and o overlap (touching counts).
func (r Rect) Intersects(o Rect) bool {
	return r.MinX <= o.MaxX && o.MinX <= r.MaxX && r.MinZ <= o.MaxZ && o.MinZ <= r.MaxZ
}

// Point is a position on the partition plane (Z holds Y for plane "xy").
type Point struct {
	X float64 `json:"x"`
	Z float64 `json:"z"`
}

// Vec3 is a point or direction in world space.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// Finite reports whether every coordinate of v is a finite number.
func (v Vec3) Finite() bool {
	return finite(v.X) && finite(v.Y) && finite(v.Z)
}
