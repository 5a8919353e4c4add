package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
)

// prefabDoc is a one-entity prefab document; extra is appended to the
// root's members (a nestedPrefab) and top (to the document's: a
// basePrefab), comps to its components.
func prefabDoc(extra, top, comps string) string {
	c := `{"type": "Transform", "data": {}}`
	if comps != "" {
		c += ", " + comps
	}
	return `{"version": "2", "name": "P", "rootEntityId": "0"` + top + `, "entities": [
  {"prefabEntityId": "0", "name": "P", "parent": null, "children": [], "visible": true, "components": [` + c + `]` + extra + `}]}`
}

// TestPlaces: a scene uses a prefab through its instances, nested prefabs,
// variant bases and asset references (a spawner's), at any depth, by path
// or uuid; nothing else, and a loop of prefabs ends.
func TestPlaces(t *testing.T) {
	root, _ := project(t)
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const targetUUID = "0b1f0b6e-6f3c-4d0e-9a55-3c1f1e2d4a77"
	write("assets/prefabs/Target.esprefab", prefabDoc("", "", ""))
	write("assets/prefabs/Target.esprefab.meta", `{"uuid": "`+targetUUID+`", "version": "2.0", "type": "prefab"}`)
	write("assets/prefabs/Nests.esprefab", prefabDoc(`, "nestedPrefab": {"prefabPath": "assets/prefabs/Target.esprefab", "overrides": []}`, "", ""))
	write("assets/prefabs/Deep.esprefab", prefabDoc(`, "nestedPrefab": {"prefabPath": "assets/prefabs/Nests.esprefab", "overrides": []}`, "", ""))
	write("assets/prefabs/Variant.esprefab", prefabDoc("", `, "basePrefab": "@uuid:`+targetUUID+`", "overrides": []`, ""))
	write("assets/prefabs/Spawns.esprefab", prefabDoc("", "", `{"type": "Spawner", "data": {"prefab": "assets/prefabs/Target.esprefab"}}`))
	write("assets/prefabs/LoopA.esprefab", prefabDoc(`, "nestedPrefab": {"prefabPath": "assets/prefabs/LoopB.esprefab", "overrides": []}`, "", ""))
	write("assets/prefabs/LoopB.esprefab", prefabDoc(`, "nestedPrefab": {"prefabPath": "assets/prefabs/LoopA.esprefab", "overrides": []}`, "", ""))
	target := filepath.Join(root, "assets", "prefabs", "Target.esprefab")
	spawner := func(ref string) E {
		return E{ID: 1, C: []string{tr(0, 0, 0), comp("Spawner", `{"prefab": "`+ref+`", "count": 2}`)}}
	}
	for _, tc := range []struct {
		name string
		es   []E
		want bool
	}{
		{"an instance by path", []E{inst(1, "null", "assets/prefabs/Target.esprefab", "[]")}, true},
		{"an instance by uuid", []E{inst(1, "null", "@uuid:"+targetUUID, "[]")}, true},
		{"a nested prefab", []E{inst(1, "null", "assets/prefabs/Nests.esprefab", "[]")}, true},
		{"nested two deep", []E{inst(1, "null", "assets/prefabs/Deep.esprefab", "[]")}, true},
		{"a variant's base", []E{inst(1, "null", "assets/prefabs/Variant.esprefab", "[]")}, true},
		{"a spawner's prefab", []E{spawner("assets/prefabs/Target.esprefab")}, true},
		{"a spawned prefab's spawner", []E{spawner("assets/prefabs/Spawns.esprefab")}, true},
		{"another prefab", []E{inst(1, "null", "assets/prefabs/Coin.esprefab", "[]")}, false},
		{"a loop of prefabs", []E{inst(1, "null", "assets/prefabs/LoopA.esprefab", "[]")}, false},
		{"a missing prefab", []E{inst(1, "null", "assets/prefabs/Gone.esprefab", "[]")}, false},
		{"no prefab", []E{{ID: 1, C: []string{tr(0, 0, 0)}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := scene.Parse(filepath.Join(root, "assets", "scenes", "main.esscene"), []byte(sceneJSON(tc.es...)))
			if err != nil {
				t.Fatal(err)
			}
			p := NewPrefabsFor(assets.NewResolver(root, assets.NewIndex([]string{root}), assets.Rules{}))
			if got := p.Places(d, target); got != tc.want {
				t.Errorf("Places = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReadPrefab: a prefab an instance could be expanded from reads; one
// that is not JSON, has no root, contradicts its hierarchy or lies outside
// the project is refused in one line naming it.
func TestReadPrefab(t *testing.T) {
	root, _ := project(t)
	p := NewPrefabsFor(assets.NewResolver(root, assets.NewIndex([]string{root}), assets.Rules{}))
	if err := p.Read(filepath.Join(root, "assets", "prefabs", "Coin.esprefab")); err != nil {
		t.Errorf("Coin: %v", err)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"not JSON", `{"version": "2",`, "is not valid JSON"},
		{"no root", `{"version": "2", "entities": []}`, "has no rootEntityId"},
		{"a child elsewhere", `{"version": "2", "rootEntityId": "0", "entities": [
			{"prefabEntityId": "0", "parent": null, "children": ["1"], "components": []},
			{"prefabEntityId": "1", "parent": null, "children": [], "components": []}]}`, `lists child "1", whose parent is elsewhere`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(root, "assets", "prefabs", strings.ReplaceAll(tc.name, " ", "")+".esprefab")
			if err := os.WriteFile(f, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			err := p.Read(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), filepath.Base(f)) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Read: %v, want one line naming the file and %q", err, tc.want)
			}
		})
	}
	outside := filepath.Join(t.TempDir(), "Lone.esprefab")
	os.WriteFile(outside, []byte(prefabDoc("", "", "")), 0o644)
	if err := p.Read(outside); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("outside the project: %v", err)
	}
}
