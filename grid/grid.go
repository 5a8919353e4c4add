// Package grid is worldcook's one statement of the streaming grid: which
// cell a point falls in, the square a cell covers, what a cell is named
// and what its document's file is called, and the plane geometry (Rect,
// Point, Vec3) that validate, cook, the manifest, the schedulers and the
// maps share.
//
// A cell is a square of one cell size on the partition plane (X and Z, or
// X and Y for a plane "xy" world, whose Y is then kept in the Z fields).
// Cell (x, z) covers [x·size, (x+1)·size) × [z·size, (z+1)·size).
//
// It imports nothing of worldcook's, so every package can build on it.
package grid

import (
	"fmt"
	"math"
)

// Key names one cell: its level and its indices on the partition plane.
// A level-L cell is a square of size·2^L aligned at the origin, so cell
// (x, z) of level L covers [x·s, (x+1)·s) × [z·s, (z+1)·s) for
// s = size·2^L. Level 0 is the ordinary grid; coarser levels hold content
// too large for it (docs/format.md, "Levels"). Levels run from 0 to
// MaxLevel; its fields are 32-bit each, so that a Key is 12 bytes of plain
// memory, cheap as a map key.
type Key struct {
	Level int32
	X, Z  int32
}

// Compare orders keys by level, then X, then Z: the order of the cells in
// a plan and a manifest.
func (k Key) Compare(o Key) int {
	switch {
	case k.Level != o.Level:
		return cmp32(k.Level, o.Level)
	case k.X != o.X:
		return cmp32(k.X, o.X)
	}
	return cmp32(k.Z, o.Z)
}

func cmp32(a, b int32) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// MaxLevel is the coarsest level a cell may have: a level-L cell is 2^L
// level-0 cells wide, and 2^30 keeps that an exact int32 multiple.
const MaxLevel = 30

// mustLevel refuses a key of a level outside 0..MaxLevel: a programming
// error, since placement never makes one.
func mustLevel(k Key) {
	if k.Level < 0 || k.Level > MaxLevel {
		panic(fmt.Sprintf("grid: cell key of level %d; levels run from 0 to %d", k.Level, MaxLevel))
	}
}

// LevelSize is the side of a level-L cell for level-0 cells of the given
// size: size·2^L, exact in float64.
func LevelSize(size float64, level int32) float64 { return math.Ldexp(size, int(level)) }

// Index is the grid index of coordinate v for cells of the given size,
// floor(v/size), as a float: the caller decides what range it accepts
// (Locate an int32, the spatial index a clamped int64). v/size is one
// IEEE division, so a point exactly on a border belongs to the cell above
// it, -0 stays -0, and NaN or an infinity comes back as NaN or infinite.
func Index(v, size float64) float64 { return math.Floor(v / size) }

// Locate returns the level-0 cell of point (u, v) on the partition plane
// for the given cell size, and its square. ok is false when either index
// is not a number or lies outside the int32 range, or when the square is
// not finite: such a point is in no cell.
//
// The square is computed from the floored coordinates themselves, so a
// point at u = -0 has a square whose MinX is -0 (Square(k) has +0): the
// first root placed in a cell fixes its square, and a plan keeps that
// zero's sign in its grid and bounds.
func Locate(u, v, size float64) (k Key, square Rect, ok bool) {
	fx, fz := Index(u, size), Index(v, size)
	g := Rect{MinX: fx * size, MinZ: fz * size, MaxX: (fx + 1) * size, MaxZ: (fz + 1) * size}
	if !(fx >= math.MinInt32 && fx <= math.MaxInt32 && fz >= math.MinInt32 && fz <= math.MaxInt32) ||
		!finite(g.MinX) || !finite(g.MaxX) || !finite(g.MinZ) || !finite(g.MaxZ) {
		return Key{}, Rect{}, false
	}
	return Key{X: int32(fx), Z: int32(fz)}, g, true
}

// LocateLevel is Locate on level L's grid: the level-L cell holding point
// (u, v), whose squares are LevelSize(size, level) wide.
func LocateLevel(u, v, size float64, level int32) (k Key, square Rect, ok bool) {
	k, square, ok = Locate(u, v, LevelSize(size, level))
	k.Level = level
	if !ok {
		k = Key{}
	}
	return k, square, ok
}

// Square is the square cell k covers for the given level-0 cell size. It is
// computed in float64 throughout, so the cell at the int32 limit has its
// upper side at 2^31·size.
func Square(k Key, size float64) Rect {
	mustLevel(k)
	size = LevelSize(size, k.Level)
	x, z := float64(k.X), float64(k.Z)
	return Rect{MinX: x * size, MinZ: z * size, MaxX: (x + 1) * size, MaxZ: (z + 1) * size}
}

// Center is the centre of cell k's square for the given cell size, the
// point a scheduler measures centre distances from.
func Center(k Key, size float64) Point {
	mustLevel(k)
	size = LevelSize(size, k.Level)
	return Point{X: (float64(k.X) + 0.5) * size, Z: (float64(k.Z) + 0.5) * size}
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
