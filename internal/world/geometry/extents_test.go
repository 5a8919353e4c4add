package geometry

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
)

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
	x0, y0, x1, y1, ok := paintedTiles(Str(blob))
	if !ok || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 {
		t.Fatalf("painted tiles %d..%d × %d..%d (%v)", x0, x1, y0, y1, ok)
	}
	project := filepath.Join(root, "examples", "tilemap-demo")
	x := &Extents{PPU: DefaultPPU, Boxes: NewBoxes(assets.NewResolver(project, assets.NewIndex([]string{project}), assets.Rules{}))}
	var lo, hi scene.Vec3
	x.Local([]scene.Component{{Type: "TilemapLayer", Data: data}}, d.Path, FuncSink{OnBox: func(l, h scene.Vec3, _ Frame) { lo, hi = l, h }})
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
	x.Local([]scene.Component{{Type: "Light2D", Data: []byte(`{"type":0,"radius":260}`)}, {Type: "Light2D", Data: []byte(`{"type":1}`)}, {Type: "Light2D", Data: []byte(`{}`)}},
		"", FuncSink{OnBox: func(l, h scene.Vec3, _ Frame) { got = append(got, h) }})
	if len(got) != 2 || got[0].X != 260 || got[1].X != DefaultLightRadius {
		t.Errorf("light extents %v", got)
	}
}
