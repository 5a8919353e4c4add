package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// expansionProject writes a project with a house prefab, its variants and
// prefabs that nest it, and returns the scene file to check scenes as.
func expansionProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"project.esproject": `{}`,
		// House: a root with a wing 1500 to its +x, the wing carrying a
		// 20-wide box collider.
		"assets/House.esprefab": `{"version": "2", "name": "House", "rootEntityId": "h", "entities": [
			{"prefabEntityId": "h", "name": "House", "parent": null, "children": ["wing"], "components": [{"type": "Transform", "data": {}}]},
			{"prefabEntityId": "wing", "name": "Wing", "parent": "h", "children": [], "components": [
				{"type": "Transform", "data": {"position": {"x": 1500, "y": 0, "z": 0}}},
				{"type": "BoxCollider3D", "data": {"halfExtents": {"x": 10, "y": 10, "z": 10}}}]}]}`,
		// Far: a variant that moves its root to x=5000.
		"assets/Far.esprefab": `{"version": "2", "name": "Far", "rootEntityId": "h", "basePrefab": "assets/House.esprefab", "entities": [],
			"overrides": [{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 5000, "y": 0, "z": 0}}]}`,
		// Kept: a variant that adds WorldPersistent to its root.
		"assets/Kept.esprefab": `{"version": "2", "name": "Kept", "rootEntityId": "h", "basePrefab": "assets/House.esprefab", "entities": [],
			"overrides": [{"prefabEntityId": "h", "type": "component_added", "componentData": {"type": "WorldPersistent", "data": {}}}]}`,
		// Tall: a variant of Far adding a tower 300 along z. The engine
		// merges the chain's entities but applies only the outermost
		// variant's overrides, so Far's move does not apply here.
		"assets/Tall.esprefab": `{"version": "2", "name": "Tall", "rootEntityId": "h", "basePrefab": "assets/Far.esprefab", "entities": [
			{"prefabEntityId": "tower", "name": "Tower", "parent": "h", "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 300}}}]}]}`,
		// Town: a root with a house mounted 100 to its +x.
		"assets/Town.esprefab": `{"version": "2", "name": "Town", "rootEntityId": "t", "entities": [
			{"prefabEntityId": "t", "name": "Town", "parent": null, "children": ["s"], "components": [{"type": "Transform", "data": {}}]},
			{"prefabEntityId": "s", "name": "", "parent": "t", "children": [], "components": [],
			 "nestedPrefab": {"prefabPath": "assets/House.esprefab", "overrides": [
				{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 100, "y": 0, "z": 0}}]}}]}`,
		// Bare: a root without a Transform (a group), its post at x=40.
		"assets/Bare.esprefab": `{"version": "2", "name": "Bare", "rootEntityId": "h", "entities": [
			{"prefabEntityId": "h", "name": "Bare", "parent": null, "children": ["post"], "components": []},
			{"prefabEntityId": "post", "name": "Post", "parent": "h", "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 40, "y": 0, "z": 0}}}]}]}`,
		// Porch: its root is a mounted house, moved to x=300.
		"assets/Porch.esprefab": `{"version": "2", "name": "Porch", "rootEntityId": "n", "entities": [
			{"prefabEntityId": "n", "name": "", "parent": null, "children": [], "components": [],
			 "nestedPrefab": {"prefabPath": "assets/House.esprefab", "overrides": [
				{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 300, "y": 0, "z": 0}}]}}]}`,
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
	return filepath.Join(root, "assets", "main.esscene")
}

// entry is a prefab-instance entry of id 2 at (x, 0, z) unless overrides
// say otherwise.
func entry(prefab, overrides, added, removed string) E {
	return E{ID: 2, Raw: `{"id": 2, "name": "Inst", "parent": null, "prefab": "` + prefab + `", "overrides": ` + overrides + `, "added": ` + added + `, "removed": ` + removed + `}`}
}

func rootAt(x, z string) string {
	return `{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": ` + x + `, "y": 0, "z": ` + z + `}}`
}

func TestExpansionRules(t *testing.T) {
	file := expansionProject(t)
	settings := E{ID: 1, C: []string{sw("1000")}}
	far := E{ID: 9, Name: "Far Post", C: []string{tr(5500, 0, 500)}}
	cases := []struct {
		name   string
		es     []E
		cell   string // cell of entity 2
		bounds Rect   // that cell's bounds
		over   string // the entity overhanging most
		spawn  int
		codes  []string
	}{
		{name: "children", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "variant's own root override places it", es: []E{settings, entry("assets/Far.esprefab", `[]`, `[]`, `[]`)},
			cell: "test.cell_5_0", bounds: Rect{MinX: 5000, MinZ: -10, MaxX: 6510, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "instance override wins over the variant's", es: []E{settings, entry("assets/Far.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "variant adding WorldPersistent", es: []E{settings, entry("assets/Kept.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`)},
			cell: "persistent"},
		{name: "variant chain applies the outermost overrides only", es: []E{settings, entry("assets/Tall.esprefab", `[]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -10, MaxX: 1510, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 3},
		{name: "nested slot", es: []E{settings, entry("assets/Town.esprefab", `[{"prefabEntityId": "t", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 0, "y": 0, "z": 2100}}]`, `[]`, `[]`)},
			cell: "test.cell_0_2", bounds: Rect{MinX: 0, MinZ: 2000, MaxX: 1610, MaxZ: 3000}, over: "Inst#2/House/Wing", spawn: 3},
		{name: "nested prefab as root", es: []E{settings, entry("assets/Porch.esprefab", `[]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -10, MaxX: 1810, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "nested root moved by an instance override on its address", es: []E{settings, entry("assets/Porch.esprefab",
			`[{"prefabEntityId": "n/h", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 2100, "y": 0, "z": 0}}]`, `[]`, `[]`)},
			cell: "test.cell_2_0", bounds: Rect{MinX: 2000, MinZ: -10, MaxX: 3610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "removed", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `["wing"]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1000}, spawn: 1},
		{name: "added under a prefab entity", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`,
			`[{"prefabEntityId": "x", "name": "Shed", "parentId": "wing", "visible": true, "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 1200}}}]}]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1300}, over: "Inst#2/Wing", spawn: 3},
		{name: "property override", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 200}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1000}, spawn: 2},
		{name: "component_added", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "component_added", "componentData": {"type": "Light2D", "data": {"radius": 50}}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1650, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "component_added keeps an existing component", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "component_added", "componentData": {"type": "BoxCollider3D", "data": {"halfExtents": {"x": 300, "y": 1, "z": 1}}}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "component_replaced", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "component_replaced", "componentData": {"type": "BoxCollider3D", "data": {"halfExtents": {"x": 300, "y": 1, "z": 1}}}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1900, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "visibility override: the entity is not spawned", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "visibility", "value": false}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 1},
		{name: "name override names the entity", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "name", "value": "East Wing"}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/East Wing", spawn: 2},
		{name: "parent override moves an entity", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "parent", "value": "x"}]`,
			`[{"prefabEntityId": "x", "name": "Annex", "parentId": null, "visible": true, "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 1200}}}]}]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1310}, over: "Inst#2/Annex/Wing", spawn: 3},
		{name: "component_removed", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "component_removed", "componentType": "BoxCollider3D"}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1600, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "added entity's joint into another cell", es: []E{settings, far, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`,
			`[{"prefabEntityId": "j", "name": "Chain", "parentId": null, "visible": true, "components": [{"type": "Transform", "data": {}}, {"type": "RevoluteJoint", "data": {"connectedEntity": 9}}]}]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 3,
			codes: []string{"cross-cell-ref@2:RevoluteJoint.connectedEntity"}},
		{name: "override data's joint into another cell", es: []E{settings, far, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "component_added", "componentData": {"type": "HingeJoint3D", "data": {"connectedEntity": 9}}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2,
			codes: []string{"cross-cell-ref@2:HingeJoint3D.connectedEntity"}},
		{name: "property override on a component the entity lacks binds nothing", es: []E{settings, far, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`,
			{"prefabEntityId": "wing", "type": "property", "componentType": "RevoluteJoint", "propertyName": "connectedEntity", "value": 9}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "reference to a generated id", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`),
			{ID: 3, C: []string{tr(50, 0, 50), joint("5")}}},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1610, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2,
			codes: []string{"ref-to-generated-id@3:RevoluteJoint.connectedEntity"}},
		// The instance scaled down moves its wing nearer, but the wing's
		// collider keeps its size: 985 + 0.01·1500 = 1000, ±10.
		{name: "a scaled instance's collider keeps its size", es: []E{settings, entry("assets/House.esprefab", `[`+rootAt("985", "100")+`,
			{"prefabEntityId": "h", "type": "property", "componentType": "Transform", "propertyName": "scale", "value": {"x": 0.01, "y": 0.01, "z": 0.01}}]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1010, MaxZ: 1000}, over: "Inst#2/Wing", spawn: 2},
		{name: "unresolved prefab", es: []E{settings, entry("assets/Gone.esprefab", `[`+rootAt("100", "100")+`]`, `[]`, `[]`)},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1000}, spawn: 0,
			codes: []string{"unresolved-prefab@2:prefab"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := checkAt(t, file, Options{}, tc.es...)
			want := tc.codes
			if want == nil {
				want = []string{}
			}
			if got := codes(p); !slices.Equal(got, want) {
				t.Errorf("findings\n got %v\nwant %v", got, want)
			}
			got := cellOf(t, p, 2)
			if got != tc.cell {
				t.Fatalf("instance in %s, want %s", got, tc.cell)
			}
			for _, c := range p.Cells {
				if c.Name != tc.cell {
					continue
				}
				if !nearRect(c.Bounds, tc.bounds) {
					t.Errorf("bounds %+v, want %+v", c.Bounds, tc.bounds)
				}
				if c.Overhang.Name != tc.over && !(tc.over == "" && c.Overhang.By == 0) {
					t.Errorf("overhang %+v, want %q", c.Overhang, tc.over)
				}
				if c.SpawnCount != tc.spawn+len(c.Entities)-1 {
					t.Errorf("spawn count %d for %d entities, want %d", c.SpawnCount, len(c.Entities), tc.spawn+len(c.Entities)-1)
				}
			}
		})
	}
}

// TestTransformlessPrefabRoot: an expanded root without a Transform has
// no place, as any Transform-less root: the instance is persistent, and
// its position override, which the engine ignores for such a root, is
// never the advice.
func TestTransformlessPrefabRoot(t *testing.T) {
	file := expansionProject(t)
	settings := E{ID: 1, C: []string{sw("1000")}}
	for _, ovs := range []string{`[]`, `[` + rootAt("2500", "2500") + `]`} {
		p := checkAt(t, file, Options{}, settings, entry("assets/Bare.esprefab", ovs, `[]`, `[]`))
		if got := codes(p); len(got) != 0 {
			t.Errorf("overrides %s: findings %v", ovs, got)
		}
		if got := cellOf(t, p, 2); got != "persistent" {
			t.Errorf("overrides %s: instance in %s, want persistent", ovs, got)
		}
		if p.PersistentSpawnCount != 3 {
			t.Errorf("persistent world spawns %d, want the settings, the root and its post", p.PersistentSpawnCount)
		}
	}
	// A missing prefab without a position override is still unplaceable,
	// and the advice is one the engine follows.
	p := checkAt(t, file, Options{}, settings, entry("assets/Gone.esprefab", `[]`, `[]`, `[]`))
	for _, f := range p.Findings {
		if f.Code == CodeUnplaceablePrefab && !strings.Contains(f.Hint, "--assets") {
			t.Errorf("hint %q", f.Hint)
		}
	}
	if got := codes(p); !slices.Equal(got, []string{"unplaceable-prefab@2:prefab", "unresolved-prefab@2:prefab"}) {
		t.Errorf("missing prefab: %v", got)
	}
}
