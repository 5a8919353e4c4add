package place

import (
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
)

// TestSpawns: a root's cost is what the engine spawns for its subtree: a
// hidden entity counts none, an instance whose prefab is missing none.
func TestSpawns(t *testing.T) {
	d, err := scene.Parse("s.esscene", []byte(`{"entities": [
		{"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 100}}]},
		{"id": 2, "name": "House", "parent": null, "children": [3, 4], "components": [{"type": "Transform", "data": {"position": {"x": 10, "y": 0, "z": 10}}}]},
		{"id": 3, "name": "Door", "parent": 2, "children": [], "components": [{"type": "Transform", "data": {}}]},
		{"id": 4, "name": "Ghost", "parent": 2, "children": [], "visible": false, "components": [{"type": "Transform", "data": {}}]},
		{"id": 5, "name": "Coin", "parent": null, "prefab": "prefabs/missing.esprefab", "overrides": [], "added": [], "removed": []}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w, err := world.Build(d, world.Options{Resolver: func() *assets.Resolver {
		return assets.NewResolver(root, assets.NewIndex([]string{root}), assets.Rules{})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Expand(); err != nil {
		t.Fatal(err)
	}
	pl, err := Place(w, Options{SceneName: "s", CellSize: 100, CellsOK: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root int32
		want int
	}{{0, 1}, {1, 2}, {4, 0}, {2, 0}} {
		if got := pl.Spawns(tc.root); got != tc.want {
			t.Errorf("Spawns(%d) = %d, want %d", tc.root, got, tc.want)
		}
	}
}
