package expand

import (
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// FuzzPrefabExpansion decodes a prefab document and expands it, with an
// instance's overrides, as a nested and a variant prefab of itself: any
// input gives an expansion or an error, never a panic or a loop.
func FuzzPrefabExpansion(f *testing.F) {
	f.Add([]byte(`{"rootEntityId": "h", "entities": [{"prefabEntityId": "h", "parent": null, "children": ["w"], "components": [{"type": "Transform", "data": {}}]},
		{"prefabEntityId": "w", "parent": "h", "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1}}}]}]}`),
		[]byte(`[{"prefabEntityId": "w", "type": "parent", "value": null}, {"prefabEntityId": "w", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 5}}]`))
	f.Add([]byte(`{"rootEntityId": "n", "basePrefab": "self", "entities": [{"prefabEntityId": "n", "parent": null, "children": [], "components": [], "nestedPrefab": {"prefabPath": "self", "overrides": []}}]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, doc, ovs []byte) {
		p, why := decodePrefabDoc("fuzz.esprefab", doc)
		if p == nil {
			if why == "" || strings.Contains(why, "\n") {
				t.Fatalf("no document, and the reason %q is not one line", why)
			}
			return
		}
		var list []Override
		if d, err := scene.Parse("o", append(append([]byte(`{"entities": [{"id": 1, "prefab": "x", "overrides": `), ovs...), "}]}"...)); err == nil {
			list, _ = ParseOverrides(d, 0)
		}
		load := func(ref, from string) (*pdoc, string) { return p, "" }
		ents, root, allocs, err := expandInstance(p, &delta{ovs: list, removed: []string{"w"}}, load)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a message of two lines: %q", err)
			}
			return
		}
		if int(allocs) < len(ents) || root <= 0 {
			t.Fatalf("%d entities from %d allocations, root %d", len(ents), allocs, root)
		}
	})
}
