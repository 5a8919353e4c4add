package validate

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"

	"github.com/worldcook/worldcook/internal/jsondoc"

	"github.com/worldcook/worldcook/internal/scene"
)

// Asset extents: what a mesh, a tile map or a light covers, read cheaply
// from the asset (a mesh's 48-byte header, a map's grid) so that a cell's
// bounds cover what the engine draws.

// maxMapBytes bounds a Tiled map read for its size.
const maxMapBytes = 64 << 20

// defaultLightRadius is Light2D.radius when the field is absent.
const defaultLightRadius = 200

// assetMiss is an asset reference whose box the extents could not read:
// its file is absent or holds no box. ent is the entity holding it: a
// scene entity, or a template entity for the misses a template keeps.
type assetMiss struct {
	ent         int32
	comp, field string
	ref, why    string
}

// assetBox is a cached local box of an asset, or why there is none.
type assetBox struct {
	lo, hi scene.Vec3
	ok     bool
	why    string
	// absent is set when why is that no usable file was found, rather
	// than that the file found holds no box.
	absent bool
}

// unknownExtent ends the reason of an absent mesh or map.
const unknownExtent = "; its extent is unknown and left out of the bounds"

// extentSink receives the local boxes of an entity's components, each
// with the frame it follows the entity's world transform in, and the
// assets they name that cannot be found. It is an interface rather than
// two funcs so that the per-entity path allocates no closures.
type extentSink interface {
	box(lo, hi scene.Vec3, f frame)
	miss(comp, field, ref, why string)
}

// funcSink adapts two funcs to an extentSink.
type funcSink struct {
	onBox  func(lo, hi scene.Vec3, f frame)
	onMiss func(comp, field, ref, why string)
}

func (f funcSink) box(lo, hi scene.Vec3, fr frame) { f.onBox(lo, hi, fr) }
func (f funcSink) miss(comp, field, ref, why string) {
	if f.onMiss != nil {
		f.onMiss(comp, field, ref, why)
	}
}

// localExtents gives sink each local box entity components comps cover,
// and each mesh, tileset or map they name that cannot be found. from is
// the file that holds the components (relative asset paths resolve
// against it).
//
// What is drawn (sprites, shapes, meshes, tiles) is scaled as the renderer
// scales it. A collider covers the shape the physics code builds: at the
// world position and rotation, of the collider's own size (scaled never).
// One the engine never builds covers nothing: a disabled collider, a 3D
// one another takes the entity's one body from. A collider on an entity
// without an enabled RigidBody / RigidBody3D counts as the shape it
// becomes when a script adds or enables the body. A light reaches its
// radius around its world position (the renderer does not scale it).
func (c *checker) localExtents(comps []scene.Component, from string, sink extentSink) {
	ppu := c.ppu
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
			sv, pv, _ := members3(data, "size", "pivot", "")
			size, pivot := vec2(sv, 100, 100), vec2(pv, 0.5, 0.5)
			sink.box(scene.Vec3{X: -pivot[0] * size[0], Y: -pivot[1] * size[1]},
				scene.Vec3{X: (1 - pivot[0]) * size[0], Y: (1 - pivot[1]) * size[1]}, scaled)
		case "ShapeRenderer":
			sv, _, _ := members3(data, "size", "", "")
			size := vec2(sv, 100, 100)
			sink.box(scene.Vec3{X: -size[0] / 2, Y: -size[1] / 2}, scene.Vec3{X: size[0] / 2, Y: size[1] / 2}, scaled)
		case "BoxCollider", "CircleCollider", "CapsuleCollider", "SegmentCollider", "PolygonCollider", "ChainCollider":
			// 2D collider fields are physics metres: pixelsPerUnit world
			// units each.
			if enabled(data) {
				if lo, hi, ok := collider2D(typ, data); ok {
					sink.box(scene.Vec3{X: lo[0] * ppu, Y: lo[1] * ppu}, scene.Vec3{X: hi[0] * ppu, Y: hi[1] * ppu}, planar)
				}
			}
		case "BoxCollider3D":
			// 3D collider fields are world units.
			if shape3D == k {
				hv, _, _ := members3(data, "halfExtents", "", "")
				he, _ := vec3(hv, scene.Vec3{X: 0.5, Y: 0.5, Z: 0.5})
				sink.box(scene.Vec3{X: -he.X, Y: -he.Y, Z: -he.Z}, he, rigid)
			}
		case "SphereCollider3D":
			if shape3D == k {
				rv, _, _ := members3(data, "radius", "", "")
				r := num(rv, 0.5)
				sink.box(scene.Vec3{X: -r, Y: -r, Z: -r}, scene.Vec3{X: r, Y: r, Z: r}, rigid)
			}
		case "CapsuleCollider3D":
			if shape3D == k {
				rv, hv, _ := members3(data, "radius", "halfHeight", "")
				r := num(rv, 0.3)
				h := num(hv, 0.5) + r
				sink.box(scene.Vec3{X: -r, Y: -h, Z: -r}, scene.Vec3{X: r, Y: h, Z: r}, rigid)
			}
		case "CharacterController3D":
			// A character is swept on its own, upright at its world
			// position, beside whatever body the entity has.
			if enabled(data) {
				rv, hv, _ := members3(data, "radius", "halfHeight", "")
				r := num(rv, 0.3)
				h := num(hv, 0.5) + r
				sink.box(scene.Vec3{X: -r, Y: -h, Z: -r}, scene.Vec3{X: r, Y: h, Z: r}, atPoint)
			}
		case "Mesh2D", "MeshRenderer", "MeshCollider3D", "ConvexCollider3D":
			f := scaled
			if typ == "MeshCollider3D" || typ == "ConvexCollider3D" {
				if shape3D != k {
					continue
				}
				// The body takes the mesh's positions as they are.
				f = rigid
			}
			mv, _, _ := members3(data, "mesh", "", "")
			if lo, hi, ok := builtinMesh(mv); ok {
				sink.box(lo, hi, f)
				continue
			}
			if ref := assetRef(mv); ref != "" {
				if b := c.meshBox(ref, from); b.ok {
					sink.box(b.lo, b.hi, f)
				} else if b.why != "" {
					sink.miss(typ, "mesh", ref, b.why)
				}
			}
		case "Light2D":
			// Point (0) and spot (3) lights reach radius; directional and
			// ambient lights light everything and have no extent.
			tv, rv, _ := members3(data, "type", "radius", "")
			if lt := num(tv, 0); lt == 0 || lt == 3 {
				r := num(rv, defaultLightRadius)
				if r > 0 {
					sink.box(scene.Vec3{X: -r, Y: -r, Z: -r}, scene.Vec3{X: r, Y: r, Z: r}, atPoint)
				}
			}
		case "TilemapLayer":
			c.layerExtents(data, from, sink)
		case "Tilemap":
			sv, _, _ := members3(data, "source", "", "")
			if ref := assetRef(sv); ref != "" {
				if b := c.mapBox(ref, from); b.ok {
					sink.box(b.lo, b.hi, scaled)
				} else if b.why != "" {
					sink.miss(typ, "source", ref, b.why)
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
		hv, ov, _ := members3(data, "halfExtents", "offset", "")
		he, off := vec2(hv, 0.5, 0.5), vec2(ov, 0, 0)
		return [2]float64{off[0] - he[0], off[1] - he[1]}, [2]float64{off[0] + he[0], off[1] + he[1]}, true
	case "CircleCollider":
		rv, ov, _ := members3(data, "radius", "offset", "")
		r, off := num(rv, 0.5), vec2(ov, 0, 0)
		return [2]float64{off[0] - r, off[1] - r}, [2]float64{off[0] + r, off[1] + r}, true
	case "CapsuleCollider":
		rv, hv, ov := members3(data, "radius", "halfHeight", "offset")
		r, off := num(rv, 0.25), vec2(ov, 0, 0)
		h := num(hv, 0.5) + r
		return [2]float64{off[0] - r, off[1] - h}, [2]float64{off[0] + r, off[1] + h}, true
	case "SegmentCollider":
		p1v, p2v, _ := members3(data, "point1", "point2", "")
		p1, p2 := vec2(p1v, -0.5, 0), vec2(p2v, 0.5, 0)
		return [2]float64{math.Min(p1[0], p2[0]), math.Min(p1[1], p2[1])}, [2]float64{math.Max(p1[0], p2[0]), math.Max(p1[1], p2[1])}, true
	case "PolygonCollider":
		vv, _, _ := members3(data, "vertices", "", "")
		if vv == nil {
			return [2]float64{-0.5, -0.5}, [2]float64{0.5, 0.5}, true
		}
		return pointsBox(vv, maxPolygonVertices, 1)
	case "ChainCollider":
		pv, _, _ := members3(data, "points", "", "")
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
		p := vec2(el, 0, 0)
		lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
		hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
		n++
		return true
	})
	return lo, hi, n >= least && n > 0
}

// assetRef reads an asset reference field: a non-empty string. Numbers
// (runtime handles, 0 for none) name no file.
func assetRef(v []byte) string {
	if scene.KindOf(v) != scene.String {
		return ""
	}
	return strOf(v)
}

// meshBox returns the bounding box in a .esmesh file's header.
func (c *checker) meshBox(ref, from string) assetBox {
	return withExtentNote(c.prefabsFor().assetBox("mesh", ref, from, meshBoxOf))
}

// mapBox returns the local box a Tiled map's layers cover.
func (c *checker) mapBox(ref, from string) assetBox {
	return withExtentNote(c.prefabsFor().assetBox("map", ref, from, mapBoxOf))
}

// withExtentNote says of an absent mesh or map that the bounds miss it.
func withExtentNote(b assetBox) assetBox {
	if b.absent {
		b.why += unknownExtent
	}
	return b
}

// assetBox resolves ref and reads its box with read, once per file, opened
// through the resolver (inside the project, regular files only).
func (p *Prefabs) assetBox(kind, ref, from string, read func(f *os.File, size int64, file string) assetBox) assetBox {
	at, why, isFile := p.resolve(ref, from)
	switch {
	case !isFile:
		return assetBox{} // a builtin: name or a URL: no box, nothing missing
	case why != "":
		return assetBox{why: "the " + kind + " " + why, absent: true}
	}
	p.mu.Lock()
	b, ok := p.boxes[at]
	p.mu.Unlock()
	if ok {
		return b
	}
	file := p.res.Name(at)
	if f, st, err := p.res.Open(at); err != nil {
		b = assetBox{why: "the " + kind + " " + file + " " + assets.Why(err), absent: true}
	} else {
		b = read(f, st.Size(), file)
		f.Close()
	}
	p.mu.Lock()
	if p.boxes == nil {
		p.boxes = make(map[string]assetBox)
	}
	p.boxes[at] = b
	p.mu.Unlock()
	return b
}

// usable says why the file ref names cannot be used ("" when it can): a
// tileset, whose extent is its layer's, only has to be there.
func (p *Prefabs) usable(kind, ref, from string) string {
	return p.assetBox(kind, ref, from, func(*os.File, int64, string) assetBox { return assetBox{ok: true} }).why
}

// Layout of the .esmesh header: magic "ESMH", u16 version, u16 channel
// count, u32 stride, vertex and index counts, then the bounding box as six
// little-endian float32 (min xyz, max xyz) at byte 20.
const (
	meshMagic       = 0x484d5345
	meshVersion     = 2
	meshHeaderV1    = 44
	meshMaxChannels = 7
)

// meshBoxOf reads the bounding box in the header of the open .esmesh file.
func meshBoxOf(f *os.File, _ int64, file string) assetBox {
	var hdr [meshHeaderV1]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return assetBox{why: "mesh " + file + " is shorter than an .esmesh header"}
	}
	lo, hi, err := decodeMeshBox(hdr[:])
	if err != nil {
		return assetBox{why: "mesh " + file + ": " + err.Error()}
	}
	return assetBox{lo: lo, hi: hi, ok: true}
}

// decodeMeshBox decodes the bounding box of an .esmesh header.
func decodeMeshBox(b []byte) (lo, hi scene.Vec3, err error) {
	if len(b) < meshHeaderV1 || binary.LittleEndian.Uint32(b) != meshMagic {
		return lo, hi, fmt.Errorf("not an .esmesh file (no ESMH header)")
	}
	if v := binary.LittleEndian.Uint16(b[4:]); v > meshVersion {
		return lo, hi, fmt.Errorf(".esmesh version %d is newer than this cook understands (%d)", v, meshVersion)
	}
	if n := binary.LittleEndian.Uint16(b[6:]); n > meshMaxChannels {
		return lo, hi, fmt.Errorf(".esmesh declares %d channels; the format has %d", n, meshMaxChannels)
	}
	var v [6]float64
	for k := range v {
		v[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[20+4*k:])))
		if !finite(v[k]) {
			return lo, hi, fmt.Errorf(".esmesh bounding box holds a value that is not a finite number")
		}
	}
	lo, hi = scene.Vec3{X: v[0], Y: v[1], Z: v[2]}, scene.Vec3{X: v[3], Y: v[4], Z: v[5]}
	if lo.X > hi.X || lo.Y > hi.Y || lo.Z > hi.Z {
		return lo, hi, fmt.Errorf(".esmesh bounding box has its minimum above its maximum")
	}
	return lo, hi, nil
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

// chunkSide is the side of a native tile chunk, in tiles.
const chunkSide = 16

// layerExtents adds the painted tiles of a native TilemapLayer.
func (c *checker) layerExtents(data []byte, from string, sink extentSink) {
	g := tileGrid{tw: 32, th: 32}
	scene.Members(data, func(k, v []byte) bool {
		switch string(k) {
		case "cellSize":
			s := vec2(v, 32, 32)
			g.tw, g.th = s[0], s[1]
		case "orientation":
			g.orient = int(num(v, 0))
		case "hexSideLength":
			g.side = num(v, 0)
		case "staggerAxis":
			g.staggerX = num(v, 0) == 1
		case "staggerIndex":
			g.even = num(v, 0) == 1
		case "tilesetAsset":
			if ref := assetRef(v); ref != "" {
				if why := c.prefabsFor().usable("tileset", ref, from); why != "" {
					sink.miss("TilemapLayer", "tilesetAsset", ref, why)
				}
			}
		}
		return true
	})
	blob, _ := scene.Field(data, "chunks")
	x0, y0, x1, y1, ok := paintedTiles(strOf(blob))
	if !ok || !finite(g.tw) || !finite(g.th) {
		return
	}
	lo, hi := g.box(x0, y0, x1, y1)
	sink.box(lo, hi, scaled)
}

// paintedTiles returns the range of non-empty tiles in a native chunk
// blob (base64 of "ESTM", a chunk count, then per chunk its i32 x, y and
// 256 u16 tiles). A blob that does not decode paints nothing, as in the
// engine.
func paintedTiles(blob string) (x0, y0, x1, y1 int64, ok bool) {
	b := decodeBase64Loose(blob)
	if len(b) < 8 || binary.LittleEndian.Uint32(b) != 0x4d545345 {
		return 0, 0, 0, 0, false
	}
	count := binary.LittleEndian.Uint32(b[4:])
	const per = 8 + chunkSide*chunkSide*2
	off := 8
	x0, y0, x1, y1 = math.MaxInt64, math.MaxInt64, math.MinInt64, math.MinInt64
	for i := uint32(0); i < count && off+per <= len(b); i++ {
		cx := int64(int32(binary.LittleEndian.Uint32(b[off:])))
		cy := int64(int32(binary.LittleEndian.Uint32(b[off+4:])))
		tiles := b[off+8 : off+per]
		off += per
		for t := 0; t < chunkSide*chunkSide; t++ {
			if tiles[2*t] == 0 && tiles[2*t+1] == 0 {
				continue
			}
			tx, ty := cx*chunkSide+int64(t%chunkSide), cy*chunkSide+int64(t/chunkSide)
			x0, y0, x1, y1 = min(x0, tx), min(y0, ty), max(x1, tx), max(y1, ty)
			ok = true
		}
	}
	return x0, y0, x1, y1, ok
}

// decodeBase64Loose decodes base64 in either alphabet, skipping any other
// byte, as the engine's chunk decoder does.
func decodeBase64Loose(s string) []byte {
	out := make([]byte, 0, len(s)*3/4)
	var acc uint32
	bits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var v uint32
		switch {
		case c >= 'A' && c <= 'Z':
			v = uint32(c - 'A')
		case c >= 'a' && c <= 'z':
			v = uint32(c-'a') + 26
		case c >= '0' && c <= '9':
			v = uint32(c-'0') + 52
		case c == '+' || c == '-':
			v = 62
		case c == '/' || c == '_':
			v = 63
		default:
			continue
		}
		acc = acc<<6 | v
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out
}

// tiledMap is what a Tiled .tmj map says about its size.
type tiledMap struct {
	Width        float64 `json:"width"`
	Height       float64 `json:"height"`
	TileWidth    float64 `json:"tilewidth"`
	TileHeight   float64 `json:"tileheight"`
	Orientation  string  `json:"orientation"`
	StaggerAxis  string  `json:"staggeraxis"`
	StaggerIndex string  `json:"staggerindex"`
	HexSide      float64 `json:"hexsidelength"`
	Layers       []struct {
		Type    string  `json:"type"`
		Width   float64 `json:"width"`
		Height  float64 `json:"height"`
		OffsetX float64 `json:"offsetx"`
		OffsetY float64 `json:"offsety"`
		Chunks  []struct {
			X, Y, Width, Height float64
		} `json:"chunks"`
		Objects []struct {
			X, Y, Width, Height float64
		} `json:"objects"`
	} `json:"layers"`
}

// mapBoxOf reads the local box of the open Tiled map.
func mapBoxOf(f *os.File, size int64, file string) assetBox {
	if size > maxMapBytes {
		return assetBox{why: fmt.Sprintf("map %s is larger than %d bytes; its extent is left out of the bounds", file, maxMapBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMapBytes))
	if err != nil {
		return assetBox{why: "cannot read map " + file + ": " + errText(err)}
	}
	return decodeMapBox(file, data)
}

func decodeMapBox(file string, data []byte) assetBox {
	if strings.HasPrefix(strings.TrimSpace(string(data[:min(len(data), 64)])), "<") {
		return assetBox{why: "map " + file + " is a Tiled XML map; the engine reads only .tmj (JSON)"}
	}
	var m tiledMap
	if err := jsondoc.Unmarshal(data, &m); err != nil {
		return assetBox{why: "map " + file + " is not valid JSON: " + err.Error()}
	}
	if !(m.Width > 0 && m.Height > 0 && m.TileWidth > 0 && m.TileHeight > 0) {
		return assetBox{why: "map " + file + " has no width, height or tile size; the engine refuses it"}
	}
	g := tileGrid{tw: m.TileWidth, th: m.TileHeight, side: m.HexSide, staggerX: m.StaggerAxis == "x", even: m.StaggerIndex == "even"}
	switch m.Orientation {
	case "isometric":
		g.orient = 1
	case "staggered":
		g.orient = 2
	case "hexagonal":
		g.orient = 3
	}
	lo := scene.Vec3{X: math.Inf(1), Y: math.Inf(1)}
	hi := scene.Vec3{X: math.Inf(-1), Y: math.Inf(-1)}
	add := func(l, h scene.Vec3) {
		lo.X, lo.Y = math.Min(lo.X, l.X), math.Min(lo.Y, l.Y)
		hi.X, hi.Y = math.Max(hi.X, h.X), math.Max(hi.Y, h.Y)
	}
	clampTiles := func(f float64) int64 { return int64(math.Max(-1<<40, math.Min(1<<40, f))) }
	for _, l := range m.Layers {
		switch l.Type {
		case "tilelayer":
			if len(l.Chunks) > 0 {
				for _, ch := range l.Chunks {
					if ch.Width > 0 && ch.Height > 0 {
						add(g.box(clampTiles(ch.X), clampTiles(ch.Y), clampTiles(ch.X+ch.Width-1), clampTiles(ch.Y+ch.Height-1)))
					}
				}
				continue
			}
			w, h := l.Width, l.Height
			if w <= 0 {
				w = m.Width
			}
			if h <= 0 {
				h = m.Height
			}
			add(g.box(0, 0, clampTiles(w-1), clampTiles(h-1)))
		case "objectgroup":
			for _, o := range l.Objects {
				add(scene.Vec3{X: o.X, Y: -(o.Y + o.Height)}, scene.Vec3{X: o.X + o.Width, Y: -o.Y})
			}
		}
	}
	if !finite(lo.X) || !finite(hi.X) || !finite(lo.Y) || !finite(hi.Y) {
		return assetBox{why: "map " + file + " has no tile layer"}
	}
	return assetBox{lo: lo, hi: hi, ok: true}
}
