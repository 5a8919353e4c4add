package route

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// ent is an entity record of a test scene.
type ent map[string]any

func entity(id int64, name string, parent any, comps ...any) ent {
	e := ent{"id": id, "name": name, "parent": parent, "children": []int64{}, "components": []any{}}
	for i := 0; i+1 < len(comps); i += 2 {
		e["components"] = append(e["components"].([]any), map[string]any{"type": comps[i], "data": comps[i+1]})
	}
	return e
}

func at(x, y, z float64) map[string]any {
	return map[string]any{"position": map[string]any{"x": x, "y": y, "z": z}}
}

// project writes an Estella project holding scene (entities, children
// lists filled in from the parents) and files (path → content) and
// returns the scene's path.
func project(t *testing.T, ents []ent, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	byID := map[int64]ent{}
	for _, e := range ents {
		byID[e["id"].(int64)] = e
	}
	for _, e := range ents {
		if p, ok := e["parent"].(int64); ok {
			byID[p]["children"] = append(byID[p]["children"].([]int64), e["id"].(int64))
		}
	}
	doc, err := json.MarshalIndent(map[string]any{"version": 1, "name": "Main", "entities": ents}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	files["assets/scenes/main.esscene"] = string(doc)
	files["project.esproject"] = `{"name": "test"}`
	for p, c := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "assets", "scenes", "main.esscene")
}

func options(plane string, from ...string) Options {
	return Options{From: from, Explicit: len(from) > 0, FPS: 60, Loops: 1, Hold: DefaultHold, Validate: validate.Options{Plane: plane}}
}

func streamed(cell float64) ent {
	return entity(900, "World", nil, "StreamedWorld", map[string]any{"cellSize": cell})
}

func source() []any {
	return []any{"WorldStreamingSource", map[string]any{"loadRadius": 100, "prefetchRadius": 150, "unloadRadius": 200}, "WorldPersistent", map[string]any{}}
}

var _ = manifest.PlaneXY
