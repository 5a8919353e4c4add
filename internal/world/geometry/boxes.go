package geometry

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/jsondoc"
	"github.com/worldcook/worldcook/internal/scene"
)

// Box is the local box of an asset (a mesh's, a map's), or why there is
// none.
type Box struct {
	Lo, Hi scene.Vec3
	OK     bool
	Why    string
	// Absent is set when Why is that no usable file was found, rather
	// than that the file found holds no box.
	Absent bool
}

// Boxes reads the local boxes of the assets components name (a mesh's
// header, a Tiled map's grid) through a project's assets.Resolver, once
// per file: one Boxes can serve the scenes of a run. It is safe for
// concurrent use.
type Boxes struct {
	res *assets.Resolver

	mu    sync.Mutex
	boxes map[string]Box // project path → its local box
}

// NewBoxes returns a Boxes over the project r resolves in.
func NewBoxes(r *assets.Resolver) *Boxes { return &Boxes{res: r} }

// Resolve finds the project path an asset reference made in the file from
// names (r.Resolve, from taken relative to the project); why says, naming
// the reference, why it names none, and isFile is false when the text is
// not a file reference at all (a builtin: name, a URL).
func Resolve(r *assets.Resolver, ref, from string) (at, why string, isFile bool) {
	rel, _ := r.Rel(from)
	res := r.Resolve(ref, rel)
	if res.Reason != "" {
		return "", ref + " " + res.Reason, true
	}
	return res.Path, "", res.Ref
}

// unknownExtent ends the reason of an absent mesh or map.
const unknownExtent = "; its extent is unknown and left out of the bounds"

// Mesh returns the bounding box in the header of the .esmesh file ref
// names, made in the file from.
func (b *Boxes) Mesh(ref, from string) Box {
	return withExtentNote(b.box("mesh", ref, from, meshBoxOf))
}

// Map returns the local box the layers of the Tiled map ref names cover.
func (b *Boxes) Map(ref, from string) Box {
	return withExtentNote(b.box("map", ref, from, mapBoxOf))
}

// withExtentNote says of an absent mesh or map that the bounds miss it.
func withExtentNote(b Box) Box {
	if b.Absent {
		b.Why += unknownExtent
	}
	return b
}

// box resolves ref and reads its box with read, once per file, opened
// through the resolver (inside the project, regular files only).
func (b *Boxes) box(kind, ref, from string, read func(f *os.File, size int64, file string) Box) Box {
	at, why, isFile := Resolve(b.res, ref, from)
	switch {
	case !isFile:
		return Box{} // a builtin: name or a URL: no box, nothing missing
	case why != "":
		return Box{Why: "the " + kind + " " + why, Absent: true}
	}
	b.mu.Lock()
	got, ok := b.boxes[at]
	b.mu.Unlock()
	if ok {
		return got
	}
	file := b.res.Name(at)
	if f, st, err := b.res.Open(at); err != nil {
		got = Box{Why: "the " + kind + " " + file + " " + assets.Why(err), Absent: true}
	} else {
		got = read(f, st.Size(), file)
		f.Close()
	}
	b.mu.Lock()
	if b.boxes == nil {
		b.boxes = make(map[string]Box)
	}
	b.boxes[at] = got
	b.mu.Unlock()
	return got
}

// Usable says why the file ref names cannot be used ("" when it can): a
// tileset, whose extent is its layer's, only has to be there.
func (b *Boxes) Usable(kind, ref, from string) string {
	return b.box(kind, ref, from, func(*os.File, int64, string) Box { return Box{OK: true} }).Why
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
func meshBoxOf(f *os.File, _ int64, file string) Box {
	var hdr [meshHeaderV1]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return Box{Why: "mesh " + file + " is shorter than an .esmesh header"}
	}
	lo, hi, err := decodeMeshBox(hdr[:])
	if err != nil {
		return Box{Why: "mesh " + file + ": " + err.Error()}
	}
	return Box{Lo: lo, Hi: hi, OK: true}
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
		if !Finite(v[k]) {
			return lo, hi, fmt.Errorf(".esmesh bounding box holds a value that is not a finite number")
		}
	}
	lo, hi = scene.Vec3{X: v[0], Y: v[1], Z: v[2]}, scene.Vec3{X: v[3], Y: v[4], Z: v[5]}
	if lo.X > hi.X || lo.Y > hi.Y || lo.Z > hi.Z {
		return lo, hi, fmt.Errorf(".esmesh bounding box has its minimum above its maximum")
	}
	return lo, hi, nil
}

// maxMapBytes bounds a Tiled map read for its size.
const maxMapBytes = 64 << 20

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
func mapBoxOf(f *os.File, size int64, file string) Box {
	if size > maxMapBytes {
		return Box{Why: fmt.Sprintf("map %s is larger than %d bytes; its extent is left out of the bounds", file, maxMapBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMapBytes))
	if err != nil {
		return Box{Why: "cannot read map " + file + ": " + assets.ErrText(err)}
	}
	return decodeMapBox(file, data)
}

func decodeMapBox(file string, data []byte) Box {
	if strings.HasPrefix(strings.TrimSpace(string(data[:min(len(data), 64)])), "<") {
		return Box{Why: "map " + file + " is a Tiled XML map; the engine reads only .tmj (JSON)"}
	}
	var m tiledMap
	if err := jsondoc.Unmarshal(data, &m); err != nil {
		return Box{Why: "map " + file + " is not valid JSON: " + err.Error()}
	}
	if !(m.Width > 0 && m.Height > 0 && m.TileWidth > 0 && m.TileHeight > 0) {
		return Box{Why: "map " + file + " has no width, height or tile size; the engine refuses it"}
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
	if !Finite(lo.X) || !Finite(hi.X) || !Finite(lo.Y) || !Finite(hi.Y) {
		return Box{Why: "map " + file + " has no tile layer"}
	}
	return Box{Lo: lo, Hi: hi, OK: true}
}
