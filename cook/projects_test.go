package cook

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// TestRealProjectsCook cooks every scene of the shared Estella projects,
// made streamed at a cell size that puts their prefab instances in
// different cells, twice: the outputs are byte-identical, lossless, and
// the manifest counts what the engine spawns beside the authored records.
func TestRealProjectsCook(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..", "shared", "estella-projects")
	scenes, _ := filepath.Glob(filepath.Join(root, "*", "*", "assets", "scenes", "*.esscene"))
	if len(scenes) == 0 {
		t.Skip("Estella projects not found at ../shared/estella-projects")
	}
	for _, file := range scenes {
		rel, _ := filepath.Rel(root, file)
		project := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			at := bytes.Index(src, []byte(`"entities"`))
			open := bytes.IndexByte(src[at:], '[') + at + 1
			streamed := append(append(append([]byte(nil), src[:open]...), `{"id": 100000, "name": "Streamed World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 160}}]},`...), src[open:]...)
			dir := t.TempDir()
			scene := filepath.Join(dir, "main.esscene")
			if err := os.WriteFile(scene, streamed, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := validate.Options{Plane: manifest.PlaneXY, Assets: []string{project}}
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			rep := cookTo(t, scene, a, opts, 0)
			cookTo(t, scene, b, opts, 1)
			sameTree(t, readTree(t, b), readTree(t, a))
			assertLossless(t, rep.Plan.Doc, a, rep.World.Manifest)
			m := rep.World.Manifest
			spawned := 0
			for _, c := range m.Cells {
				if c.SpawnCount != nil {
					spawned += *c.SpawnCount
				}
			}
			if p := m.Persistent.SpawnCount; p != nil {
				spawned += *p
			}
			if rep.Plan.Instances && spawned <= len(rep.Plan.Doc.Entities)-countInstances(rep) {
				t.Errorf("spawn counts %d for %d records", spawned, len(rep.Plan.Doc.Entities))
			}
			t.Logf("%d cells, %d records, %d spawned", len(m.Cells), len(rep.Plan.Doc.Entities), spawned)
		})
	}
}

func countInstances(rep *Report) int {
	n := 0
	for i := range rep.Plan.Doc.Entities {
		if rep.Plan.Doc.Entities[i].IsPrefab() {
			n++
		}
	}
	return n
}
