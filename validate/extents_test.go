package validate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

func TestAssetPathsStayInTheProject(t *testing.T) {
	dir := t.TempDir()
	p := newPrefabs([]string{filepath.Join(dir, "project")})
	os.MkdirAll(filepath.Join(dir, "project"), 0o755)
	os.WriteFile(filepath.Join(dir, "outside.esmesh"), make([]byte, 64), 0o644)
	for _, ref := range []string{"../outside.esmesh", "a/../../outside.esmesh", "/../outside.esmesh"} {
		if file, why, _ := geometry.Resolve(p.Resolver(), ref, filepath.Join(dir, "project", "main.esscene")); why == "" {
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
	must(big.Truncate(expand.MaxPrefabBytes + 1))
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
