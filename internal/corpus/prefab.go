package corpus

import (
	"encoding/json"
	"os"
	"testing"
)

// WithPersistentChild is a prefab document (an .esprefab of the example
// projects, its root first) given a child "Halo" carrying WorldPersistent,
// which no instance may place (validate's persistent-not-root): a prefab
// that breaks every scene instantiating it, for the tests of what reports
// a broken prefab.
func WithPersistentChild(t testing.TB, prefab []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(prefab, &doc); err != nil {
		t.Fatal(err)
	}
	ents := doc["entities"].([]any)
	ents[0].(map[string]any)["children"] = []any{"1"}
	doc["entities"] = append(ents, map[string]any{"prefabEntityId": "1", "name": "Halo", "parent": "0", "children": []any{}, "visible": true,
		"components": []any{map[string]any{"type": "Transform", "data": map[string]any{}}, map[string]any{"type": "WorldPersistent", "data": map[string]any{}}}})
	out, err := json.MarshalIndent(doc, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BreakPrefab rewrites the prefab file as WithPersistentChild makes it.
func BreakPrefab(t testing.TB, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, WithPersistentChild(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
}
