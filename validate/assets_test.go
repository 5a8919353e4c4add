package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

const sharedProjects = "../../shared/estella-projects"

// streamed returns the scene at file made a streamed world: a StreamedWorld
// root with cellSize is put first in its entities list. The document keeps
// the file's path, so its project resolves as it would in place.
func streamed(t *testing.T, file string, cellSize string) *scene.Document {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Skipf("the Estella projects are not beside the repository (%v)", err)
	}
	at := bytes.Index(src, []byte(`"entities": [`))
	if at < 0 {
		t.Fatalf("%s has no entities list", file)
	}
	at += len(`"entities": [`)
	root := `{"id": 90001, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": ` + cellSize + `}}]},`
	src = append(append(append([]byte(nil), src[:at]...), root...), src[at:]...)
	d, err := scene.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func assetSets(p *Plan) map[string][]string {
	out := map[string][]string{"persistent": p.Assets.Persistent.Paths}
	for k, c := range p.Cells {
		out[c.Name] = p.Assets.Cells[k].Paths
	}
	return out
}

func TestAssetsOfRealProjects(t *testing.T) {
	for _, tc := range []struct {
		scene    string
		cellSize string
		want     map[string][]string
	}{
		{"examples/lighting-3d/assets/scenes/main.esscene", "100", map[string][]string{
			"persistent":    {},
			"main.cell_0_0": {"assets/env/sky.esenv", "assets/env/sky_env.png", "assets/models/waver.esprefab", "assets/models/waver_0_0.esmesh", "assets/models/waver_1_0.esmesh", "assets/models/waver_Wave.estimeline", "assets/models/waver_m0.esmaterial", "assets/models/waver_m1.esmaterial"},
			"main.cell_0_3": {},
		}},
		{"examples/platformer/assets/scenes/main.esscene", "400", map[string][]string{
			"persistent":     {},
			"main.cell_-2_0": {},
			"main.cell_-1_0": {"assets/prefabs/Coin.esprefab", "assets/textures/block-guard.ktx2", "assets/textures/coin.png", "assets/textures/platform.png", "assets/textures/player.png"},
			"main.cell_0_0":  {"assets/prefabs/Coin.esprefab", "assets/textures/coin.png", "assets/textures/ground.png", "assets/textures/platform.png", "assets/textures/sky.png"},
			"main.cell_1_0":  {},
		}},
		{"examples/tilemap-demo/assets/scenes/tiled-map.esscene", "200", map[string][]string{
			"persistent":         {},
			"tiled-map.cell_0_0": {"assets/maps/level.tmj", "assets/textures/player.png", "assets/textures/props.png", "assets/textures/tileset.png"},
			"tiled-map.cell_1_0": {},
		}},
		{"examples/tilemap-demo/assets/scenes/wang-map.esscene", "200", map[string][]string{
			"persistent":        {},
			"wang-map.cell_0_0": {"assets/tilesets/wang-tiles.png", "assets/tilesets/wang.estileset"},
			"wang-map.cell_1_0": {},
		}},
		{"examples/sprite-rendering/assets/scenes/main.esscene", "300", map[string][]string{
			"persistent":     {},
			"main.cell_-1_0": {"assets/textures/arrow.png"},
			"main.cell_0_0":  {"assets/textures/arrow.png", "assets/textures/star.png"},
		}},
	} {
		t.Run(tc.scene, func(t *testing.T) {
			d := streamed(t, filepath.Join(sharedProjects, tc.scene), tc.cellSize)
			p, err := Check(d, Options{SceneName: strings.TrimSuffix(filepath.Base(tc.scene), SceneExt)})
			if err != nil {
				t.Fatal(err)
			}
			if p.Assets == nil {
				t.Fatal("no asset plan")
			}
			got := assetSets(p)
			if len(got) != len(tc.want) {
				t.Errorf("asset sets of %d cells and the persistent world, want %d: %q", len(got)-1, len(tc.want)-1, got)
			}
			for name, want := range tc.want {
				if !slices.Equal(got[name], want) {
					t.Errorf("%s: assets %q, want %q", name, got[name], want)
				}
			}
			for _, f := range p.Findings {
				// The camera, the HUD and the scene-wide lights land in
				// cells once a scene not made to stream is cut: their
				// warnings are expected.
				if f.Code == CodeCameraInCell || f.Code == CodeUIRootInCell || f.Code == CodeGlobalLightInCell || setupCodes[f.Code] || f.Code == CodePlaneMismatch {
					continue
				}
				t.Errorf("unexpected finding %s", f)
			}
		})
	}
}

// synthetic writes a project with every reference form and returns its
// root.
func synthetic(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	meta := func(rel, uuid string) { write(rel+".meta", `{"uuid": "`+uuid+`", "type": "x"}`) }
	write("project.esproject", `{}`)
	write("assets/textures/grass.png", "PNG-grass")
	meta("assets/textures/grass.png", "00000000-0000-4000-8000-000000000001")
	write("assets/textures/rock.png", "PNG-rock!")
	write("assets/textures/tiles.png", "PNG-tiles")
	meta("assets/textures/tiles.png", "00000000-0000-4000-8000-000000000003")
	write("assets/textures/props.png", "PNG-props")
	write("assets/materials/rock.esmaterial", `{"type": "material", "shader": "builtin:model", "properties": {"texture": "assets/textures/rock.png"}}`)
	meta("assets/materials/rock.esmaterial", "00000000-0000-4000-8000-000000000002")
	write("assets/materials/broken.esmaterial", `{"type": "material", "shader": "builtin:model", "properties": {"u_albedo": "assets/textures/gone.png"}}`)
	write("assets/models/rock.esmesh", "ESMH....")
	write("assets/prefabs/Rock.esprefab", `{"version": "2", "rootEntityId": "r", "entities": [{"prefabEntityId": "r", "components": [
		{"type": "Transform", "data": {}},
		{"type": "Mesh2D", "data": {"mesh": "assets/models/rock.esmesh", "material": "@uuid:00000000-0000-4000-8000-000000000002"}}]}]}`)
	meta("assets/prefabs/Rock.esprefab", "00000000-0000-4000-8000-000000000004")
	write("assets/tilesets/ground.estileset", `{"texture": "@uuid:00000000-0000-4000-8000-000000000003", "tileWidth": 16}`)
	meta("assets/tilesets/ground.estileset", "00000000-0000-4000-8000-000000000005")
	write("assets/maps/level.tmj", `{"tilesets": [{"firstgid": 1, "source": "ground.tsj"}, {"firstgid": 99, "image": "../textures/props.png"}]}`)
	write("assets/maps/ground.tsj", `{"image": "../textures/tiles.png"}`)
	return root
}

func TestAssetsOfSyntheticProject(t *testing.T) {
	root := synthetic(t)
	sprite := func(tex string) string { return comp("Sprite", `{"texture": "`+tex+`"}`) }
	p := checkAt(t, filepath.Join(root, "assets", "scenes", "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		// Cell 0_0: a uuid texture, a prefab by path (mesh, material by uuid,
		// its texture by path), a builtin mesh.
		E{ID: 2, C: []string{tr(10, 0, 10), sprite("@uuid:00000000-0000-4000-8000-000000000001"), comp("Mesh2D", `{"mesh": "builtin:cube"}`)}},
		inst(3, "null", "assets/prefabs/Rock.esprefab", `[{"prefabEntityId": "r", "type": "property", "componentType": "Transform", "propertyName": "position", "value": {"x": 20, "y": 0, "z": 20}}]`),
		// Cell 1_0: the same texture (shared), a tileset by uuid in a list,
		// a Tiled map by path with an external tileset.
		E{ID: 4, C: []string{tr(110, 0, 10), sprite("assets/textures/grass.png"),
			comp("TilemapLayer", `{"tilesetAssets": ["@uuid:00000000-0000-4000-8000-000000000005"]}`),
			comp("Tilemap", `{"source": "assets/maps/level.tmj"}`)}},
		// Cell 2_0: missing files: a path, a uuid and one inside a material.
		E{ID: 5, C: []string{tr(210, 0, 10), sprite("assets/textures/none.png")}},
		E{ID: 6, C: []string{tr(220, 0, 10), sprite("@uuid:00000000-0000-4000-8000-0000000000ff")}},
		E{ID: 7, C: []string{tr(230, 0, 10), comp("Mesh2D", `{"material": "assets/materials/broken.esmaterial"}`)}},
	)
	got := assetSets(p)
	want := map[string][]string{
		"persistent":    {},
		"test.cell_0_0": {"assets/materials/rock.esmaterial", "assets/models/rock.esmesh", "assets/prefabs/Rock.esprefab", "assets/textures/grass.png", "assets/textures/rock.png"},
		"test.cell_1_0": {"assets/maps/ground.tsj", "assets/maps/level.tmj", "assets/textures/grass.png", "assets/textures/props.png", "assets/textures/tiles.png", "assets/tilesets/ground.estileset"},
		"test.cell_2_0": {"assets/materials/broken.esmaterial"},
	}
	if len(got) != len(want) {
		t.Errorf("sets %q, want %q", got, want)
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	size := func(rel string) int64 {
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	for k, c := range p.Cells {
		var sum int64
		for _, a := range got[c.Name] {
			sum += size(a)
		}
		if p.Assets.Cells[k].Bytes != sum {
			t.Errorf("%s: %d asset bytes, want %d", c.Name, p.Assets.Cells[k].Bytes, sum)
		}
	}
	if n := len(p.Assets.All); n != 11 {
		t.Errorf("%d distinct assets, want 11 (the shared texture once)", n)
	}
	var missing []string
	for _, f := range p.Findings {
		if f.Code == CodeMissingAsset {
			msg, _ := strings.CutPrefix(f.Message, quoteName(f.EntityName)+" ("+itoa(*f.Entity)+") ")
			missing = append(missing, itoa(*f.Entity)+":"+msg)
		}
	}
	// The synthetic mesh and map are stand-ins, not valid files: the
	// extents say so (their bounds are unknown), and the asset graph,
	// which counts them, does not report them a second time.
	wantMissing := []string{
		`3:(prefab entity Coin3#3) Mesh2D.mesh names assets/models/rock.esmesh: mesh ` + filepath.Join(root, "assets", "models", "rock.esmesh") + ` is shorter than an .esmesh header`,
		`4:Tilemap.source names assets/maps/level.tmj: map ` + filepath.Join(root, "assets", "maps", "level.tmj") + ` has no width, height or tile size; the engine refuses it`,
		`5:Sprite.texture: "assets/textures/none.png" does not exist`,
		`6:Sprite.texture: "@uuid:00000000-0000-4000-8000-0000000000ff" has no .meta with that uuid under ` + root,
		`7:Mesh2D.material: "assets/textures/gone.png", referenced by assets/materials/broken.esmaterial, does not exist`,
	}
	if !slices.Equal(missing, wantMissing) {
		t.Errorf("missing-asset findings\n%q\nwant\n%q", missing, wantMissing)
	}
}

func TestAssetReports(t *testing.T) {
	root := synthetic(t)
	sprite := func(tex string) string { return comp("Sprite", `{"texture": "`+tex+`"}`) }
	p := checkAt(t, filepath.Join(root, "assets", "scenes", "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, C: []string{tr(10, 0, 10), sprite("assets/textures/grass.png"), comp("Mesh2D", `{"material": "assets/materials/rock.esmaterial"}`)}},
		E{ID: 3, C: []string{tr(110, 0, 10), sprite("assets/textures/grass.png")}},
		E{ID: 4, C: []string{tr(210, 0, 10), sprite("assets/textures/grass.png"), sprite("assets/textures/props.png")}},
	)
	r := p.AssetSummary()
	if r == nil {
		t.Fatal("no asset report")
	}
	if r.Distinct != 4 || r.Bytes != 9+9+9+int64(len(`{"type": "material", "shader": "builtin:model", "properties": {"texture": "assets/textures/rock.png"}}`)) {
		t.Errorf("report %+v", r)
	}
	if len(r.Heaviest) != 3 || r.Heaviest[0].Cell != "test.cell_0_0" || r.Heaviest[1].Cell != "test.cell_2_0" || r.Heaviest[1].Assets != 2 {
		t.Errorf("heaviest %+v", r.Heaviest)
	}
	if len(r.Shared) != 1 || r.Shared[0] != (SharedAsset{Path: "assets/textures/grass.png", Bytes: 9, Cells: 3}) {
		t.Errorf("shared %+v", r.Shared)
	}
	var text, js bytes.Buffer
	if err := Write(&text, FormatText, []*Plan{p}, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&js, FormatJSON, []*Plan{p}, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"assets: 4 distinct assets", "heaviest cells by assets: test.cell_0_0 (3 assets, ", "most shared assets: assets/textures/grass.png (9 B, 3 cells)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{`"assetCount":3,"assetBytes":`, `"shared":[{"path":"assets/textures/grass.png","bytes":9,"cells":3}]`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON report lacks %q:\n%s", want, js.String())
		}
	}
}

// TestAssetsAsTheEngineLoadsThem: a cell costs what the engine's preload
// and material loader fetch, in the hand-made project of
// assets/testdata/materials: every string property of a material and its
// parent's, a project shader, a behaviour tree file (not a code name), and
// nothing for an entity with "visible": false.
func TestAssetsAsTheEngineLoadsThem(t *testing.T) {
	root := filepath.Join("..", "internal", "assets", "testdata", "materials")
	mesh := func(mat string) string { return comp("Mesh2D", `{"mesh": "builtin:cube", "material": "`+mat+`"}`) }
	hidden := func(id int64, x float64, comps ...string) E {
		return E{Raw: fmt.Sprintf(`{"id": %d, "name": "H%d", "parent": null, "children": [], "visible": false, "components": [%s]}`, id, id, strings.Join(append([]string{tr(x, 0, 10)}, comps...), ", "))}
	}
	p := checkAt(t, filepath.Join(root, "assets", "scenes", "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, C: []string{tr(10, 0, 10), mesh("assets/materials/crate_red.esmaterial")}},
		E{ID: 3, C: []string{tr(110, 0, 10), mesh("assets/materials/water.esmaterial"),
			comp("BehaviorTreeAgent", `{"bt": "assets/ai/guard.esbt"}`), comp("StateMachineAgent", `{"fsm": "patrol"}`)}},
		hidden(4, 120, mesh("assets/models/crate_m0.esmaterial")),
		hidden(5, 210, comp("Sprite", `{"texture": "assets/textures/none.png"}`)),
		E{ID: 6, C: []string{tr(310, 0, 10), mesh("assets/materials/leaf.esmaterial")}},
	)
	got := assetSets(p)
	want := map[string][]string{
		"persistent": {},
		"test.cell_0_0": {"assets/materials/crate_red.esmaterial", "assets/materials/red.png", "assets/models/crate_m0.esmaterial",
			"assets/models/crate_normal.png", "assets/textures/ao.png", "assets/textures/glow.png"},
		"test.cell_1_0": {"assets/ai/guard.esbt", "assets/materials/water.esmaterial", "assets/materials/water.esshader", "assets/textures/stone.png"},
		"test.cell_2_0": {},
		// A material on (or below) an instanceOf cycle never loads: no
		// texture of it does (loop_b's red.png).
		"test.cell_3_0": {"assets/materials/leaf.esmaterial", "assets/materials/loop_a.esmaterial", "assets/materials/loop_b.esmaterial"},
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sets %q", got)
	}
	// The hidden entity's missing texture is not looked for; the cycle is
	// one warning on the entity that pulls it in.
	var missing []string
	for _, f := range p.Findings {
		if f.Code == CodeMissingAsset {
			missing = append(missing, f.Message)
		}
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "Mesh2D.material: \"loop_b.esmaterial\" (assets/materials/loop_b.esmaterial), referenced by assets/materials/loop_a.esmaterial, leads back to assets/materials/loop_a.esmaterial") {
		t.Errorf("missing-asset findings %q", missing)
	}
}

// TestAssetsOfContainers: the missing files a container names are each
// one warning on the entity that loads the container, naming the file
// that names them; a container that names nothing usable says to fix it.
func TestAssetsOfContainers(t *testing.T) {
	file := filepath.Join("..", "testdata", "containers", "assets", "scenes", "main.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{SceneName: "main"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range p.Findings {
		if f.Code == CodeMissingAsset {
			got = append(got, itoa(*f.Entity)+": "+f.Message+" ("+f.Hint+")")
		}
	}
	root, err := filepath.Abs(filepath.Join("..", "testdata", "containers"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`3: "Hero" (3) SpineAnimation.atlasPath: "../../../outside.png" (assets/spine/../../../outside.png), referenced by assets/spine/hero.atlas, is outside the project ` + root + ` (fix the reference in assets/spine/hero.atlas or add the file it names)`,
		`3: "Hero" (3) SpineAnimation.atlasPath: "assets/spine/gone.jpg", referenced by assets/spine/hero.atlas, does not exist (fix the reference in assets/spine/hero.atlas or add the file it names)`,
		`5: "Blank" (5) DragonBonesAnimation.atlasPath: "assets/dragonbones/Blank_tex.json" names no image (no "imagePath" string): the engine draws its armatures untextured (fix assets/dragonbones/Blank_tex.json)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("missing-asset findings\n%q\nwant\n%q", got, want)
	}
}

// TestDuplicateUUID: a uuid two .meta files carry is an error naming both,
// on a reference of the scene and on one inside a prefab, and every
// sidecar the index read is listed.
func TestDuplicateUUID(t *testing.T) {
	root := synthetic(t)
	for _, f := range []struct{ name, uuid string }{
		{"assets/textures/zz-copy.png", "00000000-0000-4000-8000-000000000001"},
		{"assets/textures/zz-mat.png", "00000000-0000-4000-8000-000000000002"},
	} {
		p := filepath.Join(root, filepath.FromSlash(f.name))
		if err := os.WriteFile(p, []byte("PNG"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".meta", []byte(`{"uuid": "`+f.uuid+`", "type": "texture"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := checkAt(t, filepath.Join(root, "assets", "scenes", "main.esscene"), Options{},
		E{ID: 1, C: []string{sw("100")}},
		E{ID: 2, C: []string{tr(10, 0, 10), comp("Sprite", `{"texture": "@uuid:00000000-0000-4000-8000-000000000001"}`)}},
		inst(3, "null", "assets/prefabs/Rock.esprefab", `[]`),
	)
	var got []string
	for _, f := range p.Findings {
		if f.Code == CodeDuplicateUUID {
			if f.Severity != SeverityError {
				t.Errorf("%s is a %s, want an error", f.Message, f.Severity)
			}
			got = append(got, f.Message)
		}
	}
	tex := filepath.Join(root, "assets", "textures")
	for _, want := range []string{
		filepath.Join(tex, "grass.png.meta") + " and " + filepath.Join(tex, "zz-copy.png.meta"),
		filepath.Join(root, "assets", "materials", "rock.esmaterial.meta") + " and " + filepath.Join(tex, "zz-mat.png.meta"),
	} {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, want)
		}
		if !found {
			t.Errorf("no duplicate-uuid finding names %s; got %q", want, got)
		}
	}
	var metas []string
	_ = filepath.WalkDir(root, func(path string, de os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".meta") {
			metas = append(metas, path)
		}
		return nil
	})
	if !slices.Equal(p.Assets.Sidecars, metas) {
		t.Errorf("sidecars read %q, want every .meta %q", p.Assets.Sidecars, metas)
	}
}
