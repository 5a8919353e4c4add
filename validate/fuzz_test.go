package validate

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// FuzzCheck feeds arbitrary bytes through Parse and Check: Check must never
// panic, and whatever it accepts must partition every entity exactly once
// and render in every report format.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(sceneJSON(baseWorld(map[int64][]string{4: {joint("7"), comp("MeshSkin", `{"joints": [5, 7, 0, -1, 99]}`)}})...)))
	f.Add([]byte(sceneJSON(
		E{ID: 1, C: []string{sw("1")}},
		E{ID: 2, Parent: at(3), C: []string{comp("Transform", `{"position": {"x": 1e300}, "scale": {"x": 1e300}, "rotation": {"w": 0}}`)}},
		E{ID: 3, Parent: at(2), C: []string{comp("Sprite", `{"size": "big", "pivot": {"x": -3}}`), comp("BoxCollider3D", `{"halfExtents": 7}`)}},
		E{ID: 3, Raw: `{"id": 3, "parent": null, "prefab": "@uuid:x", "overrides": [{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 2147483648}}, 5], "added": [], "removed": []}`},
	)))
	f.Add([]byte(`{"version": 1, "name": "x", "entities": [{"id": 0, "parent": 0, "children": [0, 0], "components": [{"type": "StreamedWorld", "data": {"cellSize": 1e-320}}]}]}`))
	f.Add([]byte(`{"entities": []}`))
	if src, err := os.ReadFile(filepath.Join("..", "testdata", "validate", "errors.esscene")); err == nil {
		f.Add(src)
	}
	f.Add([]byte(sceneJSON(
		E{ID: 1, C: []string{sw("500")}},
		E{ID: 2, Raw: `{"id": 2, "parent": null, "prefab": "@uuid:0c0c0c0c-0000-4000-8000-000000000000", "overrides": [{"prefabEntityId": "w", "type": "parent", "value": "x"}, {"prefabEntityId": "w", "type": "component_added", "componentData": {"type": "HingeJoint3D", "data": {"connectedEntity": 5}}}], "added": [{"prefabEntityId": "x", "parentId": "w", "components": [{"type": "Transform", "data": {}}]}], "removed": ["q"]}`},
		E{ID: 3, C: []string{tr(700, 0, 700), joint("5")}},
	)))
	// The golden scene's prefab library, so that instances are expanded.
	prefabs := newPrefabs([]string{filepath.Join("..", "testdata", "validate")})
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := scene.Parse("fuzz.esscene", src)
		if err != nil {
			return
		}
		for _, plane := range []string{"xz", "xy"} {
			p, err := Check(d, Options{Plane: plane, Strict: plane == "xy", Prefabs: prefabs,
				Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}})
			if err != nil {
				continue
			}
			checkPartition(t, p)
			for _, format := range Formats {
				if err := Write(io.Discard, format, []*Plan{p}, ReportOptions{}); err != nil {
					t.Fatalf("%s report: %v", format, err)
				}
			}
			if err := WriteMap(io.Discard, p); err != nil {
				t.Fatal(err)
			}
		}
	})
}
