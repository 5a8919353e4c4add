package cook

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/validate"
)

// TestPersistentKeepsAuthoredName: the persistent world is the package's
// entry scene and keeps the name it was authored with, byte for byte (or
// none, if it had none), as the engine's own cook leaves it; cells are
// named after themselves.
func TestPersistentKeepsAuthoredName(t *testing.T) {
	const body = `"entities": [
 {"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 100}}]},
 {"id": 2, "name": "Hut", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 150, "y": 0, "z": 50}}}]}]`
	for _, tc := range []struct {
		name, doc string
		want      any // the persistent document's name; nil: none
	}{
		{"authored", `{"version": 1, "name": "Boss Arena \u00e9", ` + body + `}`, "Boss Arena é"},
		{"after entities", `{"version": 1, ` + body + `, "name": "Late"}`, "Late"},
		{"no name", `{"version": 1, ` + body + `}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			levels := filepath.Join(dir, "levels")
			os.MkdirAll(levels, 0o755)
			scene := filepath.Join(levels, "boss.esscene")
			os.WriteFile(scene, []byte(tc.doc), 0o644)
			out := filepath.Join(dir, "out")
			rep := cookTo(t, scene, out, validate.Options{}, 0)
			if rep.Scene != "boss" {
				t.Fatalf("scene registered as %q", rep.Scene)
			}
			var persistent, cell map[string]any
			b, _ := os.ReadFile(filepath.Join(out, "boss.esscene"))
			if err := json.Unmarshal(b, &persistent); err != nil {
				t.Fatal(err)
			}
			if got, ok := persistent["name"]; tc.want == nil && ok || tc.want != nil && got != tc.want {
				t.Errorf("persistent name = %v (present %v), want %v", got, ok, tc.want)
			}
			if tc.name == "authored" && !bytes.Contains(b, []byte(`"name":"Boss Arena \u00e9"`)) {
				t.Errorf("the authored name's text was not kept: %.80s", b)
			}
			b, _ = os.ReadFile(filepath.Join(out, "world", "boss.cell_1_0.json"))
			if err := json.Unmarshal(b, &cell); err != nil {
				t.Fatal(err)
			}
			if cell["name"] != "boss.cell_1_0" {
				t.Errorf("cell name = %v, want boss.cell_1_0", cell["name"])
			}
		})
	}
}
