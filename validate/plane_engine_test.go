package validate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
)

// TestFewSpritesAreLaidOutOnXY: the engine's particle demo is a
// background sprite and a texture holder at y 0 (z 0 and -5) under an
// orthographic camera; the background's rectangle spreads it on y.
func TestFewSpritesAreLaidOutOnXY(t *testing.T) {
	engine := corpus.Estella(t)
	proj := filepath.Join(t.TempDir(), "particle-demo")
	corpus.CopyTree(t, filepath.Join(engine, "examples", "particle-demo"), proj)
	file := filepath.Join(proj, "assets", "scenes", "main.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(file, withStreamedWorld(t, src, "200"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{SceneName: "main"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Findings {
		if f.Code == CodePlaneMismatch {
			return
		}
	}
	t.Errorf("no plane-mismatch on x and z (layout %+v)", p.Layout)
}

// TestOneTilemapIsLaidOutOnXY: the engine's tilemap demo draws each of
// its maps (orthogonal, isometric, staggered, hexagonal, a wang-tiled
// one, a Tiled import) as one top-level tilemap under an orthographic
// camera. Its tiles spread on x and y and not at all on z, so a world of
// it cut on xz is plane-mismatch, and one cut on xy is not; the layout
// spans the tiles as the engine lays each orientation out.
func TestOneTilemapIsLaidOutOnXY(t *testing.T) {
	engine := corpus.Estella(t)
	proj := filepath.Join(t.TempDir(), "tilemap-demo")
	corpus.CopyTree(t, filepath.Join(engine, "examples", "tilemap-demo"), proj)
	for _, name := range []string{"hex-map", "iso-map", "staggered-map", "wang-map", "native-map", "tiled-map"} {
		file := filepath.Join(proj, "assets", "scenes", name+".esscene")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, plane := range []string{manifest.PlaneXZ, manifest.PlaneXY} {
			t.Run(name+"/"+plane, func(t *testing.T) {
				d, err := scene.Parse(file, withStreamedWorld(t, src, "200"))
				if err != nil {
					t.Fatal(err)
				}
				p, err := Check(d, Options{Plane: plane, SceneName: name})
				if err != nil {
					t.Fatal(err)
				}
				mismatch := false
				for _, f := range p.Findings {
					mismatch = mismatch || f.Code == CodePlaneMismatch
				}
				if want := plane == manifest.PlaneXZ; mismatch != want {
					t.Errorf("plane-mismatch %v, want %v (layout %+v)", mismatch, want, p.Layout)
				}
				if l := p.Layout; l == nil || !(l.Span(1) >= 160) || l.Span(2) > 1 {
					t.Errorf("layout %+v: want the tiles' spread on y (160 units or more) and none on z", l)
				}
			})
		}
	}
}
