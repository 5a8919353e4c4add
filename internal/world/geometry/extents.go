package geometry

import (
	"math"
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/tilemap"
)

// Extents: what each component of an entity covers around it, as the
// engine draws, builds or lights it, so that a cell's bounds cover what
// the engine spawns there.

// DefaultLightRadius is Light2D.radius when the field is absent.
const DefaultLightRadius = 200

// Sink receives the local boxes of an entity's components, each with the
// frame it follows the entity's world transform in, and the assets they
// name that cannot be found. It is an interface rather than two funcs so
// that the per-entity path allocates no closures.
type Sink interface {
	Box(lo, hi scene.Vec3, f Frame)
	Miss(comp, field, ref, why string)
}

// FuncSink adapts two funcs to a Sink; OnMiss may be nil.
type FuncSink struct {
	OnBox  func(lo, hi scene.Vec3, f Frame)
	OnMiss func(comp, field, ref, why string)
}

func (f FuncSink) Box(lo, hi scene.Vec3, fr Frame) { f.OnBox(lo, hi, fr) }
func (f FuncSink) Miss(comp, field, ref, why string) {
	if f.OnMiss != nil {
		f.OnMiss(comp, field, ref, why)
	}
}

// Extents reads what components cover. PPU is the pixels per unit 2D
// physics scales its metres by (the scene's Canvas.pixelsPerUnit);
// Boxes reads the meshes, maps and tilesets components name.
type Extents struct {
	PPU   float64
	Boxes *Boxes
}

// Local gives sink each local box the components comps of an entity cover,
// and each mesh, tileset or map they name that cannot be found. from is
// the file that holds the components (relative asset paths resolve
// against it).
//
// What is drawn (sprites, shapes, meshes, tiles) is Scaled as the renderer
// scales it. A collider covers the shape the physics code builds: at the
// world position and rotation, of the collider's own size (Scaled never).
// One the engine never builds covers nothing: a disabled collider, a 3D
// one another takes the entity's one body from. A collider on an entity
// without an enabled RigidBody / RigidBody3D counts as the shape it
// becomes when a script adds or enables the body. A light reaches its
// radius around its world position (the renderer does not scale it).
func (x *Extents) Local(comps []scene.Component, from string, sink Sink) {
	ppu := x.PPU
	shape3D := -1
	for k := range comps {
		if isCollider3DType(comps[k].Type) {
			shape3D = bodyShape3D(comps)
			break
		}
	}
	for k := range comps {
		typ := comps[k].Type
		data := comps[k].Data
		switch typ {
		case "Sprite":
			sv, pv, _ := Members3(data, "size", "pivot", "")
			size, pivot := Vec2(sv, 100, 100), Vec2(pv, 0.5, 0.5)
			sink.Box(scene.Vec3{X: -pivot[0] * size[0], Y: -pivot[1] * size[1]},
				scene.Vec3{X: (1 - pivot[0]) * size[0], Y: (1 - pivot[1]) * size[1]}, Scaled)
		case "ShapeRenderer":
			sv, _, _ := Members3(data, "size", "", "")
			size := Vec2(sv, 100, 100)
			sink.Box(scene.Vec3{X: -size[0] / 2, Y: -size[1] / 2}, scene.Vec3{X: size[0] / 2, Y: size[1] / 2}, Scaled)
		case "BoxCollider", "CircleCollider", "CapsuleCollider", "SegmentCollider", "PolygonCollider", "ChainCollider":
			// 2D collider fields are physics metres: pixelsPerUnit world
			// units each.
			if Enabled(data) {
				if lo, hi, ok := collider2D(typ, data); ok {
					sink.Box(scene.Vec3{X: lo[0] * ppu, Y: lo[1] * ppu}, scene.Vec3{X: hi[0] * ppu, Y: hi[1] * ppu}, Planar)
				}
			}
		case "BoxCollider3D":
			// 3D collider fields are world units.
			if shape3D == k {
				hv, _, _ := Members3(data, "halfExtents", "", "")
				he, _ := Vec3(hv, scene.Vec3{X: 0.5, Y: 0.5, Z: 0.5})
				sink.Box(scene.Vec3{X: -he.X, Y: -he.Y, Z: -he.Z}, he, Rigid)
			}
		case "SphereCollider3D":
			if shape3D == k {
				rv, _, _ := Members3(data, "radius", "", "")
				r := Num(rv, 0.5)
				sink.Box(scene.Vec3{X: -r, Y: -r, Z: -r}, scene.Vec3{X: r, Y: r, Z: r}, Rigid)
			}
		case "CapsuleCollider3D":
			if shape3D == k {
				rv, hv, _ := Members3(data, "radius", "halfHeight", "")
				r := Num(rv, 0.3)
				h := Num(hv, 0.5) + r
				sink.Box(scene.Vec3{X: -r, Y: -h, Z: -r}, scene.Vec3{X: r, Y: h, Z: r}, Rigid)
			}
		case "CharacterController3D":
			// A character is swept on its own, upright at its world
			// position, beside whatever body the entity has.
			if Enabled(data) {
				rv, hv, _ := Members3(data, "radius", "halfHeight", "")
				r := Num(rv, 0.3)
				h := Num(hv, 0.5) + r
				sink.Box(scene.Vec3{X: -r, Y: -h, Z: -r}, scene.Vec3{X: r, Y: h, Z: r}, AtPoint)
			}
		case "Mesh2D", "MeshRenderer", "MeshCollider3D", "ConvexCollider3D":
			f := Scaled
			if typ == "MeshCollider3D" || typ == "ConvexCollider3D" {
				if shape3D != k {
					continue
				}
				// The body takes the mesh's positions as they are.
				f = Rigid
			}
			mv, _, _ := Members3(data, "mesh", "", "")
			if lo, hi, ok := builtinMesh(mv); ok {
				sink.Box(lo, hi, f)
				continue
			}
			if ref := AssetRef(mv); ref != "" {
				if b := x.Boxes.Mesh(ref, from); b.OK {
					sink.Box(b.Lo, b.Hi, f)
				} else if b.Why != "" {
					sink.Miss(typ, "mesh", ref, b.Why)
				}
			}
		case "Light2D":
			// Point (0) and spot (3) lights reach radius; directional and
			// ambient lights light everything and have no extent.
			tv, rv, _ := Members3(data, "type", "radius", "")
			if lt := Num(tv, 0); lt == 0 || lt == 3 {
				r := Num(rv, DefaultLightRadius)
				if r > 0 {
					sink.Box(scene.Vec3{X: -r, Y: -r, Z: -r}, scene.Vec3{X: r, Y: r, Z: r}, AtPoint)
				}
			}
		case "TilemapLayer":
			x.layerExtents(data, from, sink)
		case "Tilemap":
			sv, _, _ := Members3(data, "source", "", "")
			if ref := AssetRef(sv); ref != "" {
				if b := x.Boxes.Map(ref, from); b.OK {
					sink.Box(b.Lo, b.Hi, Scaled)
				} else if b.Why != "" {
					sink.Miss(typ, "source", ref, b.Why)
				}
			}
		}
	}
}

// isCollider3DType reports whether typ is a 3D physics shape, one of
// which an entity's body is built from.
func isCollider3DType(typ string) bool {
	switch typ {
	case "BoxCollider3D", "SphereCollider3D", "CapsuleCollider3D", "MeshCollider3D", "ConvexCollider3D":
		return true
	}
	return false
}

// Most vertices of a 2D polygon shape: the engine passes the first eight.
const maxPolygonVertices = 8

// collider2D returns the box, in physics metres on the body's plane,
// that 2D collider typ covers: box, circle and capsule around their
// offset; a segment, polygon or chain around its points (a chain of
// fewer than four points builds no shape). ok is false for no shape.
func collider2D(typ string, data []byte) (lo, hi [2]float64, ok bool) {
	switch typ {
	case "BoxCollider":
		hv, ov, _ := Members3(data, "halfExtents", "offset", "")
		he, off := Vec2(hv, 0.5, 0.5), Vec2(ov, 0, 0)
		return [2]float64{off[0] - he[0], off[1] - he[1]}, [2]float64{off[0] + he[0], off[1] + he[1]}, true
	case "CircleCollider":
		rv, ov, _ := Members3(data, "radius", "offset", "")
		r, off := Num(rv, 0.5), Vec2(ov, 0, 0)
		return [2]float64{off[0] - r, off[1] - r}, [2]float64{off[0] + r, off[1] + r}, true
	case "CapsuleCollider":
		rv, hv, ov := Members3(data, "radius", "halfHeight", "offset")
		r, off := Num(rv, 0.25), Vec2(ov, 0, 0)
		h := Num(hv, 0.5) + r
		return [2]float64{off[0] - r, off[1] - h}, [2]float64{off[0] + r, off[1] + h}, true
	case "SegmentCollider":
		p1v, p2v, _ := Members3(data, "point1", "point2", "")
		p1, p2 := Vec2(p1v, -0.5, 0), Vec2(p2v, 0.5, 0)
		return [2]float64{math.Min(p1[0], p2[0]), math.Min(p1[1], p2[1])}, [2]float64{math.Max(p1[0], p2[0]), math.Max(p1[1], p2[1])}, true
	case "PolygonCollider":
		vv, _, _ := Members3(data, "vertices", "", "")
		if vv == nil {
			return [2]float64{-0.5, -0.5}, [2]float64{0.5, 0.5}, true
		}
		return pointsBox(vv, maxPolygonVertices, 1)
	case "ChainCollider":
		pv, _, _ := Members3(data, "points", "", "")
		if pv == nil {
			return [2]float64{-1, -0.5}, [2]float64{1, 0.5}, true
		}
		return pointsBox(pv, -1, 4)
	}
	return lo, hi, false
}

// pointsBox returns the box of the first limit (all when negative) {x, y}
// points of a JSON list, ok only when it holds at least least of them.
func pointsBox(v []byte, limit, least int) (lo, hi [2]float64, ok bool) {
	if scene.KindOf(v) != scene.Array {
		return lo, hi, false
	}
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	n := 0
	scene.Each(v, func(el []byte) bool {
		if limit >= 0 && n >= limit {
			return false
		}
		p := Vec2(el, 0, 0)
		lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
		hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		n++
		return true
	})
	return lo, hi, n >= least && n > 0
}

// assetRef reads an asset reference field: a non-empty string. Numbers
// (runtime handles, 0 for none) name no file.
func AssetRef(v []byte) string {
	if scene.KindOf(v) != scene.String {
		return ""
	}
	return Str(v)
}

// tileGrid is the layout of a tile layer.
type tileGrid struct {
	orient   int // 0 orthogonal, 1 isometric, 2 staggered, 3 hexagonal
	tw, th   float64
	side     float64 // hex side length
	staggerX bool
	even     bool
}

// center is the engine's tile cell centre (layer-local, y up).
func (g *tileGrid) center(tx, ty int64) (x, y float64) {
	hw, hh := g.tw/2, g.th/2
	fx, fy := float64(tx), float64(ty)
	switch g.orient {
	case 1:
		return (fx - fy) * hw, -(fx + fy) * hh
	case 2, 3:
		side := 0.0
		if g.orient == 3 {
			side = g.side
			if side <= 0 {
				side = g.th / 2
			}
		}
		if g.staggerX {
			shifted := (tx&1 != 0) != g.even
			s := 0.0
			if shifted {
				s = hh
			}
			return fx*(g.tw+side)/2 + hw, -(fy*g.th + s + hh)
		}
		shifted := (ty&1 != 0) != g.even
		s := 0.0
		if shifted {
			s = hw
		}
		return fx*g.tw + s + hw, -(fy*(g.th+side)/2 + hh)
	}
	return fx*g.tw + hw, -(fy*g.th + hh)
}

// box returns the local box of the tiles x0..x1 × y0..y1 (inclusive).
// Centres are linear in the tile indices but for a shift on every other
// line, so the extreme tiles are among the two first and two last of
// each axis; every cell lies within half a tile of its centre.
func (g *tileGrid) box(x0, y0, x1, y1 int64) (lo, hi scene.Vec3) {
	lo = scene.Vec3{X: math.Inf(1), Y: math.Inf(1)}
	hi = scene.Vec3{X: math.Inf(-1), Y: math.Inf(-1)}
	xs := [4]int64{x0, min(x0+1, x1), max(x1-1, x0), x1}
	ys := [4]int64{y0, min(y0+1, y1), max(y1-1, y0), y1}
	for _, tx := range xs {
		for _, ty := range ys {
			cx, cy := g.center(tx, ty)
			lo.X, hi.X = math.Min(lo.X, cx-g.tw/2), math.Max(hi.X, cx+g.tw/2)
			lo.Y, hi.Y = math.Min(lo.Y, cy-g.th/2), math.Max(hi.Y, cy+g.th/2)
		}
	}
	return lo, hi
}

// layerExtents adds the painted tiles of a native TilemapLayer.
func (x *Extents) layerExtents(data []byte, from string, sink Sink) {
	g := tileGrid{tw: 32, th: 32}
	scene.Members(data, func(k, v []byte) bool {
		switch string(k) {
		case "cellSize":
			s := Vec2(v, 32, 32)
			g.tw, g.th = s[0], s[1]
		case "orientation":
			g.orient = int(Num(v, 0))
		case "hexSideLength":
			g.side = Num(v, 0)
		case "staggerAxis":
			g.staggerX = Num(v, 0) == 1
		case "staggerIndex":
			g.even = Num(v, 0) == 1
		case "tilesetAsset":
			if ref := AssetRef(v); ref != "" {
				if why := x.Boxes.Usable("tileset", ref, from); why != "" {
					sink.Miss("TilemapLayer", "tilesetAsset", ref, why)
				}
			}
		}
		return true
	})
	blob, _ := scene.Field(data, "chunks")
	x0, y0, x1, y1, ok := paintedTiles(Str(blob))
	if !ok || !Finite(g.tw) || !Finite(g.th) {
		return
	}
	lo, hi := g.box(x0, y0, x1, y1)
	sink.Box(lo, hi, Scaled)
}

// paintedTiles returns the range of non-empty tiles in a native chunk
// blob, decoded as the engine's chunk codec does (internal/tilemap). A
// blob that does not decode paints nothing, as in the engine.
func paintedTiles(blob string) (x0, y0, x1, y1 int64, ok bool) {
	chunks, _ := tilemap.Decode(blob)
	x0, y0, x1, y1 = math.MaxInt64, math.MaxInt64, math.MinInt64, math.MinInt64
	for k := range chunks {
		c := &chunks[k]
		for t, tile := range c.Tiles {
			if tile == 0 {
				continue
			}
			tx := int64(c.X)*tilemap.ChunkSize + int64(t%tilemap.ChunkSize)
			ty := int64(c.Y)*tilemap.ChunkSize + int64(t/tilemap.ChunkSize)
			x0, y0, x1, y1 = min(x0, tx), min(y0, ty), max(x1, tx), max(y1, ty)
			ok = true
		}
	}
	return x0, y0, x1, y1, ok
}

// Defaults of the extent-bearing components (the engine's component
// metadata; Sprite and ShapeRenderer sizes are the editor's 100×100).
const (
	// DefaultPPU is Canvas.pixelsPerUnit when the scene sets none.
	DefaultPPU        = 100
	builtinMeshExtent = 50 // built-in meshes are 100 world units across
)

// IsExtentType reports whether a component type has a spatial extent that
// grows a cell's bounds.
func IsExtentType(typ string) bool {
	switch typ {
	case "Sprite", "ShapeRenderer", "BoxCollider", "CircleCollider", "CapsuleCollider",
		"SegmentCollider", "PolygonCollider", "ChainCollider",
		"BoxCollider3D", "SphereCollider3D", "CapsuleCollider3D", "CharacterController3D",
		"Mesh2D", "MeshRenderer", "MeshCollider3D", "ConvexCollider3D", "Light2D", "TilemapLayer", "Tilemap":
		return true
	}
	return false
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
