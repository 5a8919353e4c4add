package validate

import (
	"io"
	"math"
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

// FuzzReadTRS: the fast Transform reader agrees bit for bit with
// scene.ParseTRS wherever it answers, and the fast member lookup with
// scene.Members.
func FuzzReadTRS(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"position": {"x": 1, "y": -2.5, "z": 3e2}}`, `{"position": {"x": 0.1, "y": 1e22, "z": -0}, "rotation": {"w": 0.7071067811865476, "y": 0.7071067811865476}}`,
		`{"scale": {"x": 123456789012345678}, "position": {"x": 9007199254740993}}`, `{"worldPosition": {"x": [1, {"a": "}"}]}, "position": {"q": "x", "x": 1.5}}`,
		`{"position": {"x": 1e-400, "y": 4.9e-324, "z": 2.2250738585072014e-308}}`, `{"position": null}`, `{"position": {"x": "1"}}`,
		`{ "position" : { "x" : 1 , "y" : 2 } , "position": {"z": 7} }`, `{"position": {"x": 0.30000000000000004, "y": 1.7976931348623157e308}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, ok := componentData(data)
		if !ok {
			return
		}
		a1, a2, a3 := members3(raw, "position", "scale", "worldPosition")
		b1, b2, b3 := slowMembers3(raw, "position", "scale", "worldPosition")
		if string(a1) != string(b1) || string(a2) != string(b2) || string(a3) != string(b3) {
			t.Fatalf("members3(%s) = %s %s %s, Members gives %s %s %s", raw, a1, a2, a3, b1, b2, b3)
		}
		fast, ok := readTRS(raw)
		if !ok {
			return
		}
		want, err := scene.ParseTRS(raw)
		if err != nil {
			t.Fatalf("readTRS accepted %s, ParseTRS says %v", raw, err)
		}
		a := []float64{fast.Position.X, fast.Position.Y, fast.Position.Z, fast.Rotation.X, fast.Rotation.Y, fast.Rotation.Z, fast.Rotation.W, fast.Scale.X, fast.Scale.Y, fast.Scale.Z}
		b := []float64{want.Position.X, want.Position.Y, want.Position.Z, want.Rotation.X, want.Rotation.Y, want.Rotation.Z, want.Rotation.W, want.Scale.X, want.Scale.Y, want.Scale.Z}
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatalf("readTRS(%s) = %+v, ParseTRS = %+v", raw, fast, want)
			}
		}
	})
}
