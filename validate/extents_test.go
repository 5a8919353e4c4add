package validate

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/scene"
)

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
		if !b.ok || b.lo != tc.lo || b.hi != tc.hi {
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
	if !b.ok || b.lo.X != 0 || b.hi.X != 32*18 || b.lo.Y != -18*18 || b.hi.Y != 0 {
		t.Errorf("level.tmj box %+v", b)
	}
}

func FuzzMapBox(f *testing.F) {
	f.Add([]byte(`{"width": 2, "height": 3, "tilewidth": 16, "tileheight": 16, "layers": [{"type": "tilelayer"}]}`))
	f.Add([]byte(`{"width": 2, "height": 3, "tilewidth": 16, "tileheight": 16, "orientation": "hexagonal", "layers": [{"type": "tilelayer", "chunks": [{"x": -16, "y": 0, "width": 16, "height": 16}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		box := decodeMapBox("fuzz.tmj", b)
		if strings.Contains(box.why, "\n") {
			t.Fatalf("a message of two lines: %q", box.why)
		}
		if box.ok && !(box.lo.X <= box.hi.X && box.lo.Y <= box.hi.Y) {
			t.Fatalf("accepted box %+v", box)
		}
	})
}

func TestTilemapLayerAndLightExtents(t *testing.T) {
	root := projectsDir(t)
	// The iso demo's painted tiles, on a 64×32 isometric grid.
	src, err := os.ReadFile(filepath.Join(root, "examples", "tilemap-demo", "assets", "scenes", "iso-map.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse("iso-map.esscene", src)
	if err != nil {
		t.Fatal(err)
	}
	data, ok := d.Component(1, "TilemapLayer")
	if !ok {
		t.Fatal("no TilemapLayer on entity 1")
	}
	blob, _ := scene.Field(data, "chunks")
	x0, y0, x1, y1, ok := paintedTiles(strOf(blob))
	if !ok || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 {
		t.Fatalf("painted tiles %d..%d × %d..%d (%v)", x0, x1, y0, y1, ok)
	}
	c := &checker{ppu: defaultPPU, opts: Options{}, d: d}
	var lo, hi scene.Vec3
	c.localExtents([]scene.Component{{Type: "TilemapLayer", Data: data}}, d.Path, funcSink{onBox: func(l, h scene.Vec3, _ frame) { lo, hi = l, h }})
	g := tileGrid{orient: 1, tw: 64, th: 32}
	// Every painted tile's diamond lies in the box.
	for tx := x0; tx <= x1; tx++ {
		for ty := y0; ty <= y1; ty++ {
			cx, cy := g.center(tx, ty)
			if cx-32 < lo.X || cx+32 > hi.X || cy-16 < lo.Y || cy+16 > hi.Y {
				t.Fatalf("tile %d,%d at %g,%g outside %v..%v", tx, ty, cx, cy, lo, hi)
			}
		}
	}
	// A point light reaches its radius, a directional one nothing.
	var got []scene.Vec3
	c.localExtents([]scene.Component{{Type: "Light2D", Data: []byte(`{"type":0,"radius":260}`)}, {Type: "Light2D", Data: []byte(`{"type":1}`)}, {Type: "Light2D", Data: []byte(`{}`)}},
		"", funcSink{onBox: func(l, h scene.Vec3, _ frame) { got = append(got, h) }})
	if len(got) != 2 || got[0].X != 260 || got[1].X != defaultLightRadius {
		t.Errorf("light extents %v", got)
	}
}

// FuzzPrefabExpansion decodes a prefab document and expands it, with an
// instance's overrides, as a nested and a variant prefab of itself: any
// input gives an expansion or an error, never a panic or a loop.
func FuzzPrefabExpansion(f *testing.F) {
	f.Add([]byte(`{"rootEntityId": "h", "entities": [{"prefabEntityId": "h", "parent": null, "children": ["w"], "components": [{"type": "Transform", "data": {}}]},
		{"prefabEntityId": "w", "parent": "h", "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1}}}]}]}`),
		[]byte(`[{"prefabEntityId": "w", "type": "parent", "value": null}, {"prefabEntityId": "w", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 5}}]`))
	f.Add([]byte(`{"rootEntityId": "n", "basePrefab": "self", "entities": [{"prefabEntityId": "n", "parent": null, "children": [], "components": [], "nestedPrefab": {"prefabPath": "self", "overrides": []}}]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, doc, ovs []byte) {
		p, why := decodePrefabDoc("fuzz.esprefab", doc)
		if p == nil {
			if why == "" || strings.Contains(why, "\n") {
				t.Fatalf("no document, and the reason %q is not one line", why)
			}
			return
		}
		var list []override
		if d, err := scene.Parse("o", append(append([]byte(`{"entities": [{"id": 1, "prefab": "x", "overrides": `), ovs...), "}]}"...)); err == nil {
			list, _ = parseOverrides(d, 0)
		}
		load := func(ref, from string) (*pdoc, string) { return p, "" }
		ents, root, allocs, err := expandInstance(p, &delta{ovs: list, removed: []string{"w"}}, load)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		if int(allocs) < len(ents) || root <= 0 {
			t.Fatalf("%d entities from %d allocations, root %d", len(ents), allocs, root)
		}
	})
}

func TestAssetPathsStayInTheProject(t *testing.T) {
	dir := t.TempDir()
	p := newPrefabs([]string{filepath.Join(dir, "project")})
	os.MkdirAll(filepath.Join(dir, "project"), 0o755)
	os.WriteFile(filepath.Join(dir, "outside.esmesh"), make([]byte, 64), 0o644)
	for _, ref := range []string{"../outside.esmesh", "a/../../outside.esmesh", "/../outside.esmesh"} {
		if file, why, _ := p.resolve(ref, filepath.Join(dir, "project", "main.esscene")); why == "" {
			t.Errorf("%s resolved to %s", ref, file)
		}
	}
}

// TestAssetsThatAreNotFiles gives a project whose .meta, prefab and mesh
// are links to a named pipe, and one whose prefab is far too large: every
// one is reported, none is opened to block.
func TestAssetsThatAreNotFiles(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "project.esproject"), []byte(`{}`), 0o644))
	must(os.Symlink(fifo, filepath.Join(root, "Pipe.esprefab.meta")))
	must(os.Symlink(fifo, filepath.Join(root, "Pipe.esprefab")))
	must(os.Symlink(fifo, filepath.Join(root, "pipe.esmesh")))
	big, err := os.Create(filepath.Join(root, "Big.esprefab"))
	must(err)
	must(big.Truncate(maxPrefabBytes + 1))
	big.Close()
	must(os.WriteFile(filepath.Join(root, "Mesh.esprefab"), []byte(`{"rootEntityId": "r", "entities": [{"prefabEntityId": "r", "parent": null, "children": [],
		"components": [{"type": "Transform", "data": {}}, {"type": "Mesh2D", "data": {"mesh": "pipe.esmesh"}}]}]}`), 0o644))
	inst := func(id int64, ref string) E {
		return E{ID: id, Raw: `{"id": ` + itoa(id) + `, "name": "I", "parent": null, "prefab": "` + ref + `", "overrides": [{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 10}}], "added": [], "removed": []}`}
	}
	done := make(chan *Plan, 1)
	go func() {
		done <- checkAt(t, filepath.Join(root, "main.esscene"), Options{}, E{ID: 1, C: []string{sw("100")}},
			inst(2, "Pipe.esprefab"), inst(3, "Big.esprefab"), inst(4, "Mesh.esprefab"), inst(5, "@uuid:00000000-0000-4000-8000-000000000000"))
	}()
	select {
	case p := <-done:
		want := []string{"missing-asset@4:Mesh2D.mesh", "unresolved-prefab@2:prefab", "unresolved-prefab@3:prefab", "unresolved-prefab@5:prefab"}
		if got := codes(p); !slices.Equal(got, want) {
			t.Errorf("findings\n got %v\nwant %v", got, want)
		}
		for _, f := range p.Findings {
			t.Log(f.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("check blocked on a named pipe")
	}
}
