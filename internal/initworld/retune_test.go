package initworld

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/scene"
)

// TestRetune: the radii tune recommends replace a source's own values in
// place and are added where it leaves them out (an empty data object
// included), the cell size replaces StreamedWorld's; the diff applies,
// and every other byte stays.
func TestRetune(t *testing.T) {
	file := filepath.Join("testdata", "retune.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    Retune
	}{
		{"retune", Retune{Sources: []int64{2, 3, 4}, Load: 735, Unload: 935, Prefetch: 835, CellSize: 400}},
		{"retune-same", Retune{Sources: []int64{2}, Load: 200, Unload: 300, Prefetch: 300, CellSize: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := MakeRetune(file, src, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", tc.name+".golden"), r.Diff)
			if len(r.Diff) == 0 {
				return
			}
			checkApplies(t, map[string]bool{"patch": has("patch"), "git": has("git")}, file, r)
			if _, err := scene.Parse(file, r.After()); err != nil {
				t.Fatal(err)
			}
		})
	}
	// One line of compact JSON keeps its form.
	compact := []byte(`{"version":1,"entities":[{"id":1,"components":[{"type":"StreamedWorld","data":{"cellSize":10}}]},{"id":2,"components":[{"type":"WorldStreamingSource","data":{"loadRadius":5}}]}]}` + "\n")
	r, err := MakeRetune("c.esscene", compact, Retune{Sources: []int64{2}, Load: 7, Unload: 9, Prefetch: 8, CellSize: 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":1,"entities":[{"id":1,"components":[{"type":"StreamedWorld","data":{"cellSize":20}}]},{"id":2,"components":[{"type":"WorldStreamingSource","data":{"loadRadius":7,"prefetchRadius":8,"unloadRadius":9}}]}]}` + "\n"; string(r.After()) != want {
		t.Errorf("compact:\n got %s\nwant %s", r.After(), want)
	}
	if _, err := MakeRetune(file, src, Retune{Sources: []int64{99}, Load: 1, Unload: 2, Prefetch: 1}); err == nil || !strings.Contains(err.Error(), "no entity 99") {
		t.Errorf("a source that is not there: %v", err)
	}
}

// TestRetuneWriteRefusesReadOnly: --write never replaces a read-only
// scene.
func TestRetuneWriteRefusesReadOnly(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "retune.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "scene.esscene")
	if err := os.WriteFile(file, src, 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := RetuneFile(file, Retune{Sources: []int64{2}, Load: 1, Unload: 2, Prefetch: 1}, true); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only scene: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != string(src) {
		t.Error("the read-only scene changed")
	}
	os.Chmod(file, 0o644)
	if _, err := RetuneFile(file, Retune{Sources: []int64{2}, Load: 1, Unload: 2, Prefetch: 1}, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); !strings.Contains(string(got), `"loadRadius": 1,`) {
		t.Errorf("--write did not write the radii:\n%s", got)
	}
}

// TestInitFromTheView: a camera's view decides init's cell size (the view
// spans about 2×2 cells) and the radii of the source it adds (the load
// radius the view's reach and a cell, prefetch and unload a cell beyond),
// unless --cell-size is given.
func TestInitFromTheView(t *testing.T) {
	scene := func(camera string) []byte {
		return []byte(`{"version": 1, "name": "V", "entities": [
 {"id": 1, "name": "Cam", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 10}}}, {"type": "Camera", "data": ` + camera + `}]},
 {"id": 2, "name": "A", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": -600, "y": 0, "z": -300}}}]},
 {"id": 3, "name": "B", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 600, "y": 0, "z": 300}}}]}
]}`)
	}
	for _, tc := range []struct {
		name, camera string
		opts         Options
		cell         float64
		radii        [3]float64
	}{
		{"orthographic 1280 × 720", `{"projectionType": 1, "orthoSize": 360, "aspectRatio": 1.7777777777777777}`, Options{}, 500, [3]float64{1240, 1740, 1740}},
		{"perspective, farPlane 2000", `{"projectionType": 0, "farPlane": 2000}`, Options{}, 2000, [3]float64{4000, 6000, 6000}},
		{"--cell-size wins, the radii still cover the view", `{"projectionType": 1, "orthoSize": 360, "aspectRatio": 1.7777777777777777}`, Options{CellSize: 100}, 100, [3]float64{835, 935, 935}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Make("v.esscene", scene(tc.camera), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.CellSize != tc.cell || r.Radii != tc.radii || r.View == nil {
				t.Errorf("cell size %v, radii %v, view %+v; want %v, %v", r.CellSize, r.Radii, r.View, tc.cell, tc.radii)
			}
			if !strings.Contains(string(r.After()), `"loadRadius": `+formatNum(tc.radii[0])) {
				t.Errorf("the source added has not the radii:\n%s", r.After())
			}
			if s := strings.Join(r.Summary(), "\n"); !strings.Contains(s, "assumes the view of entity 1 \"Cam\"") {
				t.Errorf("the summary does not say what it assumed:\n%s", s)
			}
		})
	}
	// Without a camera, the extent decides, and init says no view.
	r, err := Make("v.esscene", []byte(`{"version": 1, "name": "V", "entities": [
 {"id": 2, "name": "A", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": -600, "y": 0, "z": -300}}}]},
 {"id": 3, "name": "B", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 600, "y": 0, "z": 300}}}]}
]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.View != nil || !strings.Contains(strings.Join(r.Summary(), "\n"), "assumes no view") {
		t.Errorf("no camera: view %+v, summary %v", r.View, r.Summary())
	}
}
