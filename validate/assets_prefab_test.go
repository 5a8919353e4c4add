package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInstanceAssetsAsTheEngineLoadsThem: an instance costs the prefab
// documents its expansion reads and the assets of the expanded entities
// the engine spawns and preloads: not a hidden one, not one its instance
// hides by override, not a removed one. A missing reference inside the
// prefab names the prefab entity that holds it.
func TestInstanceAssetsAsTheEngineLoadsThem(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"project.esproject": `{}`,
		"assets/prefabs/House.esprefab": `{"version": "2", "name": "House", "rootEntityId": "r", "entities": [
			{"prefabEntityId": "r", "name": "House", "parent": null, "children": ["w", "d", "g", "h", "n"], "components": [{"type": "Transform", "data": {}}, {"type": "Sprite", "data": {"texture": "assets/t/house.png"}}]},
			{"prefabEntityId": "w", "name": "Wing", "parent": "r", "children": [], "components": [{"type": "Transform", "data": {}}, {"type": "Sprite", "data": {"texture": "assets/t/wing.png", "normalMap": "assets/t/none.png"}}]},
			{"prefabEntityId": "d", "name": "Door", "parent": "r", "children": [], "visible": false, "components": [{"type": "Sprite", "data": {"texture": "assets/t/door.png"}}]},
			{"prefabEntityId": "g", "name": "Gone", "parent": "r", "children": [], "components": [{"type": "Sprite", "data": {"texture": "assets/t/gone.png"}}]},
			{"prefabEntityId": "h", "name": "Hat", "parent": "r", "children": [], "components": [{"type": "Sprite", "data": {"texture": "assets/t/hat.png"}}]},
			{"prefabEntityId": "n", "name": "", "parent": "r", "children": [], "components": [], "nestedPrefab": {"prefabPath": "assets/prefabs/Lamp.esprefab", "overrides": []}}]}`,
		"assets/prefabs/Lamp.esprefab": `{"version": "2", "name": "Lamp", "rootEntityId": "l", "entities": [
			{"prefabEntityId": "l", "name": "Lamp", "parent": null, "children": [], "components": [{"type": "Sprite", "data": {"texture": "assets/t/lamp.png"}}]}]}`,
	}
	for _, tex := range []string{"house", "wing", "door", "gone", "hat", "lamp", "added"} {
		files["assets/t/"+tex+".png"] = "PNG-" + tex
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	house := func(id int64, x, edits string) E {
		return E{ID: id, Raw: `{"id": ` + itoa(id) + `, "name": "House", "parent": null, "prefab": "assets/prefabs/House.esprefab", ` + edits + `, "overrides": [
			{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": ` + x + `, "y": 0, "z": 10}}]}`}
	}
	noEdits := `"added": [], "removed": []`
	p := checkAt(t, filepath.Join(root, "assets", "scenes", "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		// As authored: the hidden door costs nothing.
		house(2, "10", noEdits),
		// Removed, hidden by override, and an added entity.
		E{ID: 3, Raw: `{"id": 3, "name": "House", "parent": null, "prefab": "assets/prefabs/House.esprefab", "removed": ["g"],
			"added": [{"prefabEntityId": "a", "name": "Flag", "parent": "r", "components": [{"type": "Sprite", "data": {"texture": "assets/t/added.png"}}]}],
			"overrides": [{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 110, "y": 0, "z": 10}},
				{"prefabEntityId": "h", "type": "visibility", "value": false},
				{"prefabEntityId": "d", "type": "visibility", "value": true}]}`},
	)
	prefabs := []string{"assets/prefabs/House.esprefab", "assets/prefabs/Lamp.esprefab"}
	got := assetSets(p)
	want := map[string][]string{
		"persistent":    {},
		"test.cell_0_0": append([]string{"assets/t/gone.png", "assets/t/hat.png", "assets/t/house.png", "assets/t/lamp.png", "assets/t/wing.png"}, prefabs...),
		"test.cell_1_0": append([]string{"assets/t/added.png", "assets/t/door.png", "assets/t/house.png", "assets/t/lamp.png", "assets/t/wing.png"}, prefabs...),
	}
	for name, w := range want {
		slices.Sort(w)
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sets %q", got)
	}
	var missing []string
	for _, f := range p.Findings {
		if f.Code == CodeMissingAsset {
			missing = append(missing, f.Message)
		}
	}
	// One warning per scene for the prefab's own reference, naming the
	// prefab entity.
	if len(missing) != 1 || !strings.Contains(missing[0], `"House" (2) (prefab entity House#2/Wing) Sprite.normalMap: "assets/t/none.png", referenced by assets/prefabs/House.esprefab, does not exist`) {
		t.Errorf("missing-asset findings %q", missing)
	}
}
