package testworld

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The demo project's assets: the materials and textures the demo scene
// names by uuid, the textures the materials use, and the mesh of the
// wells' buckets. They are small — 32×32 textures, a 64-vertex mesh — so
// that the repository stays small, and shared between the villages' cells
// so that simulate shows what sharing saves.

// demoBucketMesh is the project path of the buckets' mesh.
const demoBucketMesh = "assets/models/bucket.esmesh"

// DemoFile is one file of the demo project, with its path relative to the
// demo folder.
type DemoFile struct {
	Name string
	Data []byte
}

type demoTexture struct {
	file    string
	uuid    string // "" for a texture referenced by path only
	r, g, b byte
	// pattern: 0 solid with a border, 1 stripes, 2 checks
	pattern int
}

var demoTextures = []demoTexture{
	{"grass.png", "", 92, 158, 63, 2},
	{"wood.png", "", 140, 94, 52, 1},
	{"stone.png", "", 150, 150, 156, 2},
	{"water.png", "", 58, 126, 200, 1},
	{"straw.png", "", 214, 188, 110, 1},
	{"villager.png", uuidOf(texVillag), 200, 150, 120, 0},
	{"sheep.png", uuidOf(texSheep), 240, 240, 235, 0},
	{"sign.png", uuidOf(texSign), 170, 120, 70, 0},
}

var demoMaterials = []struct {
	file, uuid, texture string
}{
	{"grass.esmaterial", uuidOf(matGrass), "grass.png"},
	{"plank.esmaterial", uuidOf(matPlank), "wood.png"},
	{"stone.esmaterial", uuidOf(matStone), "stone.png"},
	{"water.esmaterial", uuidOf(matWater), "water.png"},
	{"thatch.esmaterial", uuidOf(matThatch), "straw.png"},
}

// demoMeshUUID is the bucket mesh's uuid (its .meta; the scene names it by
// path).
const demoMeshUUID = "4d1c9e27-6b30-4f85-a2d4-07e8b5c39f61"

func uuidOf(ref string) string { return strings.TrimPrefix(ref, "@uuid:") }

// DemoAssets returns the demo project's files besides the scene, route
// and worldcook.yaml, sorted by name.
func DemoAssets() []DemoFile {
	var out []DemoFile
	add := func(name string, data []byte) { out = append(out, DemoFile{name, data}) }
	meta := func(name, uuid, typ string) {
		add(name+".meta", []byte("{\n  \"uuid\": \""+uuid+"\",\n  \"version\": \"2.0\",\n  \"type\": \""+typ+"\",\n  \"importer\": {}\n}\n"))
	}
	add("project.esproject", []byte("{\n  \"formatVersion\": \"1\",\n  \"name\": \"worldcook demo\",\n  \"defaultScene\": \"main.esscene\"\n}\n"))
	for i, t := range demoTextures {
		name := "assets/textures/" + t.file
		add(name, demoPNG(t, i))
		id := t.uuid
		if id == "" {
			id = "0de30000-0000-4000-8000-" + leftPad(strconv.Itoa(i+1), 12)
		}
		meta(name, id, "texture")
	}
	for _, m := range demoMaterials {
		name := "assets/materials/" + m.file
		add(name, []byte("{\n  \"version\": \"1.0\",\n  \"type\": \"material\",\n  \"shader\": \"builtin:model\",\n  \"properties\": {\n    \"texture\": \"assets/textures/"+m.texture+"\"\n  }\n}\n"))
		meta(name, m.uuid, "material")
	}
	add(demoBucketMesh, demoMesh())
	meta(demoBucketMesh, demoMeshUUID, "mesh")
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

func leftPad(s string, n int) string { return strings.Repeat("0", max(0, n-len(s))) + s }

// demoPNG draws a 32×32 RGB texture and encodes it with stored (not
// compressed) deflate blocks, so that its bytes do not depend on a
// compressor's version.
func demoPNG(t demoTexture, seed int) []byte {
	const n = 32
	raw := make([]byte, 0, n*(1+3*n))
	for y := 0; y < n; y++ {
		raw = append(raw, 0) // filter: none
		for x := 0; x < n; x++ {
			shade := 0
			switch t.pattern {
			case 0:
				if x < 2 || y < 2 || x >= n-2 || y >= n-2 {
					shade = -40
				}
			case 1:
				if (y/2+seed)%3 == 0 {
					shade = -25
				}
			case 2:
				if (x/4+y/4)%2 == 0 {
					shade = 20
				}
			}
			raw = append(raw, clampByte(int(t.r)+shade), clampByte(int(t.g)+shade), clampByte(int(t.b)+shade))
		}
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.NoCompression)
	zw.Write(raw)
	zw.Close()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], n)
	binary.BigEndian.PutUint32(ihdr[4:], n)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk("IHDR", ihdr)
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

func clampByte(v int) byte { return byte(min(255, max(0, v))) }

// demoMesh is the bucket: an open 32-sided tube 40 units wide and 30
// high, in the .esmesh layout (the ESMH header with its bounding box,
// one position channel, vertices, triangle indices).
func demoMesh() []byte {
	const sides = 32
	var verts []float32
	for k := 0; k < sides; k++ {
		a := 2 * math.Pi * float64(k) / sides
		x, z := float32(math.Round(20*math.Cos(a)*1000)/1000), float32(math.Round(20*math.Sin(a)*1000)/1000)
		verts = append(verts, x, 0, z, x, 30, z)
	}
	var idx []uint32
	for k := 0; k < sides; k++ {
		a, b := uint32(2*k), uint32(2*((k+1)%sides))
		idx = append(idx, a, b, a+1, b, b+1, a+1)
	}
	var out bytes.Buffer
	le := binary.LittleEndian
	put := func(v any) { binary.Write(&out, le, v) }
	put(uint32(0x484d5345)) // "ESMH"
	put(uint16(2))          // version
	put(uint16(1))          // channels
	put(uint32(12))         // vertex stride
	put(uint32(len(verts) / 3))
	put(uint32(len(idx)))
	put([3]float32{-20, 0, -20})
	put([3]float32{20, 30, 20})
	put(uint32(0)) // joints
	// Channel: position, 3 float32 components at offset 0.
	out.Write([]byte{0, 3, 0, 0})
	put(uint32(0))
	put(verts)
	put(idx)
	return out.Bytes()
}
