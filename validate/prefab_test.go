package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

const coinUUID = "57ad3eb0-4a0c-49b5-bfba-c98418989915"

// coinPrefab is a two-entity prefab whose root sits at (500, 0, 500).
const coinPrefab = `{
  "version": "2", "name": "Coin", "rootEntityId": "0",
  "entities": [
    {"prefabEntityId": "0", "name": "Coin", "parent": null, "children": ["1"], "visible": true,
     "components": [{"type": "Transform", "data": {"position": {"x": 500, "y": 0, "z": 500}}}, {"type": "Sprite", "data": {"size": {"x": 24, "y": 24}}}]},
    {"prefabEntityId": "1", "name": "Glow", "parent": "0", "children": [], "visible": true,
     "components": [{"type": "Transform", "data": {}}]}
  ]
}`

// project writes an Estella project: project.esproject, the Coin prefab
// and its .meta under assets/prefabs, and returns the scenes folder.
func project(t *testing.T) (root, scenes string) {
	t.Helper()
	root = t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", `{}`)
	write("assets/prefabs/Coin.esprefab", coinPrefab)
	write("assets/prefabs/Coin.esprefab.meta", `{"uuid": "`+coinUUID+`", "version": "2.0", "type": "prefab"}`)
	write("node_modules/x/Bad.esprefab.meta", `{"uuid": "`+coinUUID+`"}`)
	return root, filepath.Join(root, "assets", "scenes")
}

func inst(id int64, parent, prefab, overrides string) E {
	return E{ID: id, Raw: `{"id": ` + itoa(id) + `, "name": "Coin` + itoa(id) + `", "parent": ` + parent + `, "prefab": "` + prefab + `", "overrides": ` + overrides + `, "added": [], "removed": []}`}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// checkAt parses the scene as if it were the file at path and checks it.
func checkAt(t *testing.T, path string, opts Options, es ...E) *Plan {
	t.Helper()
	d, err := scene.Parse(path, []byte(sceneJSON(es...)))
	if err != nil {
		t.Fatal(err)
	}
	if opts.SceneName == "" {
		opts.SceneName = "test"
	}
	p, err := Check(d, opts)
	if err != nil {
		t.Fatal(err)
	}
	return withoutSetup(p)
}

func TestPrefabPlacement(t *testing.T) {
	root, scenes := project(t)
	sceneFile := filepath.Join(scenes, "main.esscene")
	posOverride := func(v string) string {
		return `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": ` + v + `}]`
	}
	settings := E{ID: 1, C: []string{sw("100")}}
	cases := []struct {
		name  string
		opts  Options
		file  string
		es    []E
		id    int64
		want  string
		codes []string
	}{
		{name: "position override without the asset", file: "/nowhere/main.esscene",
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, posOverride(`{"x": 250, "y": 0, "z": 130}`))}, id: 2, want: "test.cell_2_1", codes: []string{"unresolved-prefab@2:prefab"}},
		{name: "override axis missing is 0, not the asset's", file: sceneFile,
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, posOverride(`{"x": 250}`))}, id: 2, want: "test.cell_2_0"},
		{name: "asset by uuid from the project", file: sceneFile,
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[]`)}, id: 2, want: "test.cell_5_5"},
		{name: "bare uuid", file: sceneFile,
			es: []E{settings, inst(2, "null", coinUUID, `[]`)}, id: 2, want: "test.cell_5_5"},
		{name: "asset by project path", file: sceneFile,
			es: []E{settings, inst(2, "null", "assets/prefabs/Coin.esprefab", `[]`)}, id: 2, want: "test.cell_5_5"},
		{name: "asset by uuid from --assets", file: "/elsewhere/main.esscene", opts: Options{Assets: []string{root}},
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[]`)}, id: 2, want: "test.cell_5_5"},
		{name: "shared index", file: "/elsewhere/main.esscene", opts: Options{Prefabs: newPrefabs([]string{filepath.Join(root, "assets")})},
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[]`)}, id: 2, want: "test.cell_5_5"},
		{name: "asset not found", file: "/elsewhere/main.esscene",
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[]`)}, id: 2, want: "persistent", codes: []string{"unplaceable-prefab@2:prefab", "unresolved-prefab@2:prefab"}},
		{name: "ambiguous root without the asset", file: "/elsewhere/main.esscene",
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[
				{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 1}},
				{"prefabEntityId": "1", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 1}}]`)},
			id: 2, want: "persistent", codes: []string{"unplaceable-prefab@2:prefab", "unresolved-prefab@2:prefab"}},
		{name: "WorldPersistent added by override", file: "/elsewhere/main.esscene",
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[{"prefabEntityId": "0", "type": "component_added", "componentData": {"type": "WorldPersistent", "data": {}}}]`)},
			id: 2, want: "persistent", codes: []string{"unresolved-prefab@2:prefab"}},
		{name: "WorldPersistent removed by override", file: sceneFile,
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[{"prefabEntityId": "0", "type": "component_added", "componentData": {"type": "WorldPersistent", "data": {}}},
				{"prefabEntityId": "0", "type": "component_removed", "componentType": "WorldPersistent"}]`)},
			id: 2, want: "test.cell_5_5"},
		{name: "WorldPersistent on a prefab child", file: sceneFile,
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, `[{"prefabEntityId": "1", "type": "component_added", "componentData": {"type": "WorldPersistent", "data": {}}}]`)},
			id: 2, want: "test.cell_5_5", codes: []string{"persistent-not-root@2:overrides"}},
		{name: "instance below the top level goes with its root", file: "/elsewhere/main.esscene",
			es: []E{settings, {ID: 3, C: []string{tr(10, 0, 10)}, Kids: []int64{2}}, inst(2, "3", "@uuid:"+coinUUID, `[]`)},
			id: 2, want: "test.cell_0_0", codes: []string{"unresolved-prefab@2:prefab"}},
		{name: "scene child of an instance uses the instance transform", file: sceneFile,
			es: []E{settings, inst(2, "null", "@uuid:"+coinUUID, posOverride(`{"x": 10, "z": 10}`)),
				{ID: 3, Parent: at(2), C: []string{tr(300, 0, 0)}}},
			id: 3, want: "test.cell_0_0", codes: []string{"inconsistent-topology@3:parent"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := checkAt(t, tc.file, tc.opts, tc.es...)
			want := tc.codes
			if want == nil {
				want = []string{}
			}
			if got := codes(p); !slices.Equal(got, want) {
				t.Errorf("findings\n got %v\nwant %v", got, want)
			}
			if got := cellOf(t, p, tc.id); got != tc.want {
				t.Errorf("entity %d in %s, want %s", tc.id, got, tc.want)
			}
		})
	}
}

func TestPrefabChildBounds(t *testing.T) {
	_, scenes := project(t)
	p := checkAt(t, filepath.Join(scenes, "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		inst(2, "null", "@uuid:"+coinUUID, `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "scale", "value": {"x": 2, "y": 2, "z": 2}}]`),
		E{ID: 3, Parent: at(2), C: []string{tr(30, 0, 0)}})
	// The instance root keeps the asset's position and takes the scale
	// override: the child's origin is at 500 + 2·30, the coin's 24-wide
	// sprite doubled spans 500 ± 24.
	c := p.Cells[0]
	if c.Name != "test.cell_5_5" || !nearRect(c.Bounds, Rect{MinX: 476, MinZ: 500, MaxX: 600, MaxZ: 600}) {
		t.Errorf("cell %s bounds %+v", c.Name, c.Bounds)
	}
	p = checkAt(t, filepath.Join(scenes, "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		inst(2, "null", "@uuid:"+coinUUID, `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "scale", "value": {"x": 6, "y": 6, "z": 6}}]`),
		E{ID: 3, Parent: at(2), C: []string{tr(30, 0, 0)}})
	// 500 + 6·30 = 680 for the child; the sprite spans 500 ± 72 in x.
	if c := p.Cells[0]; !nearRect(c.Bounds, Rect{MinX: 428, MinZ: 500, MaxX: 680, MaxZ: 600}) {
		t.Errorf("scaled bounds %+v", c.Bounds)
	}
}

func TestPrefabOverrideReferences(t *testing.T) {
	ov := func(value string) string {
		return `[{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 10, "z": 10}},
			{"prefabEntityId": "1", "type": "property", "componentType": "RevoluteJoint", "propertyName": "connectedEntity", "value": ` + value + `}]`
	}
	base := func(value string) []E {
		return []E{
			{ID: 1, C: []string{sw("100")}},
			{ID: 3, Name: "Near", C: []string{tr(50, 0, 50)}},
			{ID: 4, Name: "Far", C: []string{tr(550, 0, 50)}},
			{ID: 5, Name: "Player", C: []string{persistent}},
			inst(2, "null", "@uuid:"+coinUUID, ov(value)),
		}
	}
	cases := []struct {
		value string
		want  []string
	}{
		{"3", []string{"unresolved-prefab@2:prefab"}},
		{"5", []string{"unresolved-prefab@2:prefab"}},
		{"4", []string{"cross-cell-ref@2:RevoluteJoint.connectedEntity", "unresolved-prefab@2:prefab"}},
		{`"1"`, []string{"unresolved-prefab@2:prefab"}},
		{"0", []string{"unresolved-prefab@2:prefab"}},
		{"77", []string{"dangling-ref@2:RevoluteJoint.connectedEntity", "unresolved-prefab@2:prefab"}},
	}
	for _, tc := range cases {
		p := checkAt(t, "/elsewhere/main.esscene", Options{}, base(tc.value)...)
		if got := codes(p); !slices.Equal(got, tc.want) {
			t.Errorf("value %s: findings %v, want %v", tc.value, got, tc.want)
		}
		for _, f := range p.Findings {
			if f.Code == CodeCrossCellRef && (f.FromCell != "test.cell_0_0" || f.ToCell != "test.cell_5_0") {
				t.Errorf("cells %s → %s", f.FromCell, f.ToCell)
			}
		}
	}
	// A prefab instance's refs are checked in scenes that are not streamed
	// too, for dangling targets.
	es := base("77")[1:]
	p := checkAt(t, "/elsewhere/main.esscene", Options{}, es...)
	if got := codes(p); !slices.Equal(got, []string{"dangling-ref@2:RevoluteJoint.connectedEntity"}) {
		t.Errorf("non-streamed: %v", got)
	}
}

func TestPrefabSource(t *testing.T) {
	p := checkAt(t, "/elsewhere/main.esscene", Options{},
		E{ID: 1, C: []string{sw("100")}},
		inst(2, "null", "@uuid:"+coinUUID, `[
			{"prefabEntityId": "0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 10, "y": 2, "z": 10}},
			{"prefabEntityId": "0", "type": "component_added", "componentData": {"type": "WorldStreamingSource", "data": {"loadRadius": 100, "unloadRadius": 50}}},
			{"prefabEntityId": "0", "type": "property", "componentType": "WorldStreamingSource", "propertyName": "unloadRadius", "value": 150}]`))
	if len(p.Sources) != 1 || p.Sources[0].LoadRadius != 100 || p.Sources[0].UnloadRadius != 150 || p.Sources[0].Position.Y != 2 {
		t.Fatalf("sources %+v", p.Sources)
	}
	// The instance is in a cell: so is its source.
	if got := codes(p); !slices.Equal(got, []string{"source-in-cell@2:WorldStreamingSource", "unresolved-prefab@2:prefab"}) {
		t.Errorf("findings %v", got)
	}
}

func TestMalformedOverridesIsInputError(t *testing.T) {
	d := parse(t, sceneJSON(E{ID: 1, C: []string{sw("100")}}, inst(2, "null", "@uuid:x", `"none"`)))
	if _, err := Check(d, Options{}); err == nil {
		t.Fatal("overrides given as a string accepted")
	}
}
