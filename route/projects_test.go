package route

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/manifest"
)

// The engine's example projects, as they are (not made streamed): what
// each yields, and why not where it yields nothing.
func TestExampleProjects(t *testing.T) {
	root := filepath.Join(corpus.Estella(t), "examples")
	// celestial-heights: a 2D action game whose terrain tilemap blocks
	// tiles 4, 5 and 6; its gameplay points are the player, the drops
	// and the gate (no Marker entities).
	o := options(manifest.PlaneXY)
	o.Points = []string{"Player", "Item", "Gate"}
	res, err := Make(filepath.Join(root, "celestial-heights", "assets", "scenes", "main.esscene"), o)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range res.Routes {
		kinds = append(kinds, r.Kind)
		if r.Kind == FromMarkers && (!strings.Contains(r.Follows, "grid path") || len(r.Frames) < 1000) {
			t.Errorf("celestial-heights markers: %d frames, %s", len(r.Frames), r.Follows)
		}
	}
	if strings.Join(kinds, ",") != FromMarkers {
		t.Errorf("celestial-heights yields %v (%v)", kinds, res.Notes)
	}
	// cutscene: the intro clip moves the hero, which is no source (the
	// scene has none until init gives the camera one).
	res, err = Make(filepath.Join(root, "cutscene", "assets", "scenes", "main.esscene"), options(manifest.PlaneXY))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Routes) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), `intro.estimeline (on "Director" (entity 1)) moves "Hero" (entity 2), which is no streaming source`) {
		t.Errorf("cutscene: %d routes, notes %v", len(res.Routes), res.Notes)
	}
	// model-import: its timeline is inside the robot prefab, and moves an
	// entity of the instance's expansion.
	res, err = Make(filepath.Join(root, "model-import", "assets", "scenes", "main.esscene"), options(manifest.PlaneXY))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Routes) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), `robot_Raise.estimeline (on "Robot" (entity 2)) moves "Banner" (Robot#2/Banner), which is no streaming source`) {
		t.Errorf("model-import: %d routes, notes %v", len(res.Routes), res.Notes)
	}
}
