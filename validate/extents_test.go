package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
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
		var list []override
		if d, err := scene.Parse("o", append(append([]byte(`{"entities": [{"id": 1, "prefab": "x", "overrides": `), ovs...), "}]}"...)); err == nil {
			list, _ = parseOverrides(d, 0)
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

func TestAssetPathsStayInTheProject(t *testing.T) {
	dir := t.TempDir()
	p := newPrefabs([]string{filepath.Join(dir, "project")})
	os.MkdirAll(filepath.Join(dir, "project"), 0o755)
	os.WriteFile(filepath.Join(dir, "outside.esmesh"), make([]byte, 64), 0o644)
	for _, ref := range []string{"../outside.esmesh", "a/../../outside.esmesh", "/../outside.esmesh"} {
		if file, why, _ := geometry.Resolve(p.res, ref, filepath.Join(dir, "project", "main.esscene")); why == "" {
			t.Errorf("%s resolved to %s", ref, file)
		}
	}
}

// TestAssetsThatAreNotFiles gives a project whose .meta, prefab and mesh
// are links to a named pipe, and one whose prefab is far too large: every
// one is reported, none is opened to block.
func TestAssetsThatAreNotFiles(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "project.esproject"), []byte(`{}`), 0o644))
	must(os.Symlink(fifo, filepath.Join(root, "Pipe.esprefab.meta")))
	must(os.Symlink(fifo, filepath.Join(root, "Pipe.esprefab")))
	must(os.Symlink(fifo, filepath.Join(root, "pipe.esmesh")))
	big, err := os.Create(filepath.Join(root, "Big.esprefab"))
	must(err)
	must(big.Truncate(maxPrefabBytes + 1))
	big.Close()
	must(os.WriteFile(filepath.Join(root, "Mesh.esprefab"), []byte(`{"rootEntityId": "r", "entities": [{"prefabEntityId": "r", "parent": null, "children": [],
		"components": [{"type": "Transform", "data": {}}, {"type": "Mesh2D", "data": {"mesh": "pipe.esmesh"}}]}]}`), 0o644))
	inst := func(id int64, ref string) E {
		return E{ID: id, Raw: `{"id": ` + itoa(id) + `, "name": "I", "parent": null, "prefab": "` + ref + `", "overrides": [{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 10}}], "added": [], "removed": []}`}
	}
	done := make(chan *Plan, 1)
	go func() {
		done <- checkAt(t, filepath.Join(root, "main.esscene"), Options{}, E{ID: 1, C: []string{sw("100")}},
			inst(2, "Pipe.esprefab"), inst(3, "Big.esprefab"), inst(4, "Mesh.esprefab"), inst(5, "@uuid:00000000-0000-4000-8000-000000000000"))
	}()
	select {
	case p := <-done:
		want := []string{"missing-asset@4:Mesh2D.mesh", "unresolved-prefab@2:prefab", "unresolved-prefab@3:prefab", "unresolved-prefab@5:prefab"}
		if got := codes(p); !slices.Equal(got, want) {
			t.Errorf("findings\n got %v\nwant %v", got, want)
		}
		for _, f := range p.Findings {
			t.Log(f.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("check blocked on a named pipe")
	}
}
