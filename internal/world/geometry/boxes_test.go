package geometry

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
)

// projectsDir is the shared Estella projects, or a skip.
func projectsDir(t *testing.T) string {
	t.Helper()
	d := corpus.Projects()
	if d == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects")
	}
	return d
}

// readMeshBox reads the bounding box of the .esmesh file at path.
func readMeshBox(file string) Box {
	f, size, err := regular.Open(file, "mesh")
	if err != nil {
		return Box{Why: err.Error()}
	}
	defer f.Close()
	return meshBoxOf(f, size, file)
}

// readMapBox reads the local box a Tiled map's tile layers and objects
// cover (y up, the map's top-left corner at the entity's origin).
func readMapBox(file string) Box {
	f, size, err := regular.Open(file, "map")
	if err != nil {
		return Box{Why: err.Error()}
	}
	defer f.Close()
	return mapBoxOf(f, size, file)
}

func TestMeshHeaderOnRealAssets(t *testing.T) {
	models := filepath.Join(projectsDir(t), "examples", "lighting-3d", "assets", "models")
	cases := []struct {
		file   string
		lo, hi scene.Vec3
	}{
		{"waver_0_0.esmesh", scene.Vec3{X: -14, Y: 0, Z: -6}, scene.Vec3{X: 14, Y: 120, Z: 6}},
		{"waver_1_0.esmesh", scene.Vec3{X: -220, Y: -220}, scene.Vec3{X: 220, Y: 220}},
	}
	for _, tc := range cases {
		b := readMeshBox(filepath.Join(models, tc.file))
		if !b.OK || b.Lo != tc.lo || b.Hi != tc.hi {
			t.Errorf("%s: %+v, want %v..%v", tc.file, b, tc.lo, tc.hi)
		}
	}
}

func TestMeshHeaderRejects(t *testing.T) {
	good := make([]byte, meshHeaderV1)
	binary.LittleEndian.PutUint32(good, meshMagic)
	binary.LittleEndian.PutUint16(good[4:], 2)
	for k, v := range []float32{-1, -2, -3, 1, 2, 3} {
		binary.LittleEndian.PutUint32(good[20+4*k:], math.Float32bits(v))
	}
	if _, _, err := decodeMeshBox(good); err != nil {
		t.Fatalf("good header: %v", err)
	}
	mod := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	bad := map[string][]byte{
		"short":         good[:20],
		"magic":         mod(func(b []byte) { b[0] = 'X' }),
		"newer":         mod(func(b []byte) { binary.LittleEndian.PutUint16(b[4:], 3) }),
		"channels":      mod(func(b []byte) { binary.LittleEndian.PutUint16(b[6:], 8) }),
		"nan":           mod(func(b []byte) { binary.LittleEndian.PutUint32(b[20:], math.Float32bits(float32(math.NaN()))) }),
		"inf":           mod(func(b []byte) { binary.LittleEndian.PutUint32(b[40:], math.Float32bits(float32(math.Inf(1)))) }),
		"min above max": mod(func(b []byte) { binary.LittleEndian.PutUint32(b[20:], math.Float32bits(5)) }),
	}
	for name, b := range bad {
		if _, _, err := decodeMeshBox(b); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func FuzzMeshHeader(f *testing.F) {
	// The real meshes of the example projects, where they are.
	for _, file := range corpus.ProjectFiles(".esmesh") {
		if b, err := os.ReadFile(file); err == nil && len(b) >= meshHeaderV1 {
			f.Add(b[:meshHeaderV1])
		}
	}
	f.Add(make([]byte, meshHeaderV1))
	f.Add([]byte("ESMH\x02\x00\x06\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lo, hi, err := decodeMeshBox(b)
		if err != nil {
			return
		}
		if !(lo.X <= hi.X && lo.Y <= hi.Y && lo.Z <= hi.Z) || !lo.Finite() || !hi.Finite() {
			t.Fatalf("accepted box %v..%v", lo, hi)
		}
	})
}

func TestTiledMapOnRealAsset(t *testing.T) {
	file := filepath.Join(projectsDir(t), "examples", "tilemap-demo", "assets", "maps", "level.tmj")
	b := readMapBox(file)
	// 32 × 18 tiles of 18 units, its top-left corner at the origin, y up;
	// its objects lie on the map.
	if !b.OK || b.Lo.X != 0 || b.Hi.X != 32*18 || b.Lo.Y != -18*18 || b.Hi.Y != 0 {
		t.Errorf("level.tmj box %+v", b)
	}
}

func FuzzMapBox(f *testing.F) {
	f.Add([]byte(`{"width": 2, "height": 3, "tilewidth": 16, "tileheight": 16, "layers": [{"type": "tilelayer"}]}`))
	f.Add([]byte(`{"width": 2, "height": 3, "tilewidth": 16, "tileheight": 16, "orientation": "hexagonal", "layers": [{"type": "tilelayer", "chunks": [{"x": -16, "y": 0, "width": 16, "height": 16}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		box := decodeMapBox("fuzz.tmj", b)
		if strings.Contains(box.Why, "\n") {
			t.Fatalf("a message of two lines: %q", box.Why)
		}
		if box.OK && !(box.Lo.X <= box.Hi.X && box.Lo.Y <= box.Hi.Y) {
			t.Fatalf("accepted box %+v", box)
		}
	})
}

// TestFinite: finite numbers, the largest and the smallest included,
// against the infinities and NaN.
func TestFinite(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want bool
	}{
		{0, true}, {math.Copysign(0, -1), true}, {1, true}, {-1e-300, true},
		{math.MaxFloat64, true}, {-math.MaxFloat64, true}, {math.SmallestNonzeroFloat64, true},
		{math.Inf(1), false}, {math.Inf(-1), false}, {math.NaN(), false},
	} {
		if got := Finite(tc.f); got != tc.want {
			t.Errorf("Finite(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}
