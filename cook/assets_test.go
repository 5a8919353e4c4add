package cook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// assetProject writes a project whose streamed scene has two cells sharing
// a material and its texture, and returns the scene's path.
func assetProject(t *testing.T) (scene, root string) {
	t.Helper()
	root = t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", "{}")
	write("assets/textures/t.png", "PNG-0001")
	write("assets/materials/m.esmaterial", `{"type": "material", "properties": {"u_albedo": "assets/textures/t.png"}}`)
	write("assets/materials/m.esmaterial.meta", `{"uuid": "11111111-0000-4000-8000-000000000001"}`)
	write("assets/textures/only.png", "ONLY")
	scene = filepath.Join(root, "assets", "scenes", "main.esscene")
	write("assets/scenes/main.esscene", `{"version": 1, "name": "main", "entities": [
		{"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 100}}]},
		{"id": 2, "name": "A", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 10, "y": 0, "z": 10}}},
			{"type": "Mesh2D", "data": {"mesh": "builtin:cube", "material": "@uuid:11111111-0000-4000-8000-000000000001"}}]},
		{"id": 3, "name": "B", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 110, "y": 0, "z": 10}}},
			{"type": "Mesh2D", "data": {"material": "assets/materials/m.esmaterial"}}, {"type": "Sprite", "data": {"texture": "assets/textures/only.png"}}]}
	]}`)
	return scene, root
}

func TestAssetsInTheManifest(t *testing.T) {
	scene, root := assetProject(t)
	out := t.TempDir()
	rep := cookTo(t, scene, out, validate.Options{}, 0)
	m := rep.World.Manifest
	wantAll := []manifest.Asset{
		{Path: "assets/materials/m.esmaterial", Bytes: 73},
		{Path: "assets/textures/only.png", Bytes: 4},
		{Path: "assets/textures/t.png", Bytes: 8},
	}
	if len(m.Assets) != len(wantAll) {
		t.Fatalf("assets %+v", m.Assets)
	}
	for i, a := range m.Assets {
		if a.Path != wantAll[i].Path || a.Bytes != wantAll[i].Bytes || len(a.Blake3) != 64 {
			t.Errorf("assets[%d] = %+v, want %+v with a digest", i, a, wantAll[i])
		}
	}
	if got := m.Cells[0].List(); !slices.Equal(got, []string{"assets/materials/m.esmaterial", "assets/textures/t.png"}) || *m.Cells[0].AssetBytes != 81 {
		t.Errorf("cell 0 assets %q (%d B)", got, *m.Cells[0].AssetBytes)
	}
	if got := m.Cells[1].List(); len(got) != 3 || *m.Cells[1].AssetBytes != 85 {
		t.Errorf("cell 1 assets %q (%d B)", got, *m.Cells[1].AssetBytes)
	}
	if m.Persistent.Assets.Assets == nil || len(m.Persistent.List()) != 0 || *m.Persistent.AssetBytes != 0 {
		t.Errorf("persistent assets %v", m.Persistent.Assets)
	}
	// The manifest on disk says the same and passes its check.
	if _, err := manifest.Load(filepath.Join(out, "world", "main.world.json")); err != nil {
		t.Fatal(err)
	}

	// An unchanged re-cook writes nothing, and never trusts the record: the
	// assets may have changed without the scene.
	again := cookTo(t, scene, out, validate.Options{}, 0)
	if again.Reused || again.Result.Changed() {
		t.Fatalf("re-cook: reused %v, changed %v", again.Reused, again.Result.Changed())
	}
	tex := filepath.Join(root, "assets", "textures", "t.png")
	cellStat := func() []os.FileInfo {
		var out2 []os.FileInfo
		for _, c := range m.Cells {
			st, _ := os.Stat(filepath.Join(out, filepath.FromSlash(c.Path)))
			out2 = append(out2, st)
		}
		return out2
	}
	before := cellStat()
	for _, change := range []struct{ name, body string }{
		{"content only", "PNG-0002"},
		{"size", "PNG-000003"},
	} {
		os.WriteFile(tex, []byte(change.body), 0o644)
		// --check sees the stale manifest and writes nothing.
		chk, err := run(context.Background(), sceneJob{File: scene, Out: out, Check: true})
		if !errors.Is(err, ErrWouldChange) || !chk.Result.Changed() || chk.Reused {
			t.Fatalf("%s: --check: %v, changed %v", change.name, err, chk.Result.Changed())
		}
		r := cookTo(t, scene, out, validate.Options{}, 0)
		if !slices.Equal(r.Result.Written, []string{"world/main.world.json"}) {
			t.Errorf("%s: wrote %q, want the manifest only", change.name, r.Result.Written)
		}
	}
	for i, st := range cellStat() {
		if !st.ModTime().Equal(before[i].ModTime()) {
			t.Errorf("cell %d was rewritten for an asset change", i)
		}
	}
}

func TestMissingAssetIsAWarningAndStrictFails(t *testing.T) {
	scene, root := assetProject(t)
	os.Remove(filepath.Join(root, "assets", "textures", "only.png"))
	out := t.TempDir()
	rep := cookTo(t, scene, out, validate.Options{}, 0)
	var codes []string
	for _, f := range rep.Plan.Findings {
		if f.Code != validate.CodeNoStreamingSource { // the fixture has no source
			codes = append(codes, f.Code+":"+f.Field)
		}
	}
	if !slices.Equal(codes, []string{"missing-asset:Sprite.texture"}) {
		t.Errorf("findings %q", codes)
	}
	if n := len(rep.World.Manifest.Assets); n != 2 {
		t.Errorf("%d assets listed, want 2 (the missing one counts nothing)", n)
	}
	_, err := run(context.Background(), sceneJob{File: scene, Out: t.TempDir(), Validate: validate.Options{Strict: true}})
	if !errors.Is(err, ErrFindings) {
		t.Errorf("strict cook with a missing asset: %v, want ErrFindings", err)
	}
}

func TestSceneOutsideAProjectHasNoAssets(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "main.esscene")
	os.WriteFile(in, []byte(`{"version":1,"name":"m","entities":[{"id":1,"parent":null,"components":[{"type":"StreamedWorld","data":{"cellSize":100}}]},
		{"id":2,"parent":null,"components":[{"type":"Transform","data":{"position":{"x":1,"y":0,"z":1}}},{"type":"Sprite","data":{"texture":"@uuid:22222222-0000-4000-8000-000000000001"}}]}]}`), 0o644)
	rep := cookTo(t, in, t.TempDir(), validate.Options{}, 0)
	// A one-cell world without a source: its setup warnings only.
	findings := slices.DeleteFunc(rep.Plan.Findings, func(f validate.Finding) bool {
		return f.Code == validate.CodeNoStreamingSource || f.Code == validate.CodeNothingStreams
	})
	if rep.World.Manifest.Assets != nil || rep.World.Manifest.Cells[0].Assets.Assets != nil || len(findings) != 0 {
		t.Errorf("a scene outside any project got assets %v or findings %v", rep.World.Manifest.Assets, rep.Plan.Findings)
	}
}

// TestAssetThatIsAnOutputIsRefused: an asset file the cook would replace
// (here a texture path naming the world's own manifest) is an input; the
// cook refuses to write over it.
func TestAssetThatIsAnOutputIsRefused(t *testing.T) {
	scene, root := assetProject(t)
	out := filepath.Join(root, "build")
	cookTo(t, scene, out, validate.Options{}, 0)
	src, _ := os.ReadFile(scene)
	os.WriteFile(scene, []byte(strings.Replace(string(src), "assets/textures/only.png", "build/world/main.world.json", 1)), 0o644)
	_, err := run(context.Background(), sceneJob{File: scene, Out: out})
	if err == nil || !strings.Contains(err.Error(), "asset") || !strings.Contains(err.Error(), "main.world.json") {
		t.Fatalf("cook over its own asset: %v", err)
	}
	if _, err := manifest.Load(filepath.Join(out, "world", "main.world.json")); err != nil {
		t.Errorf("the previous world was damaged: %v", err)
	}
}

// TestRecordOfASceneThatJoinsAProject: a record written while the scene
// was outside any project is not trusted once a project.esproject appears
// above it (the world now has asset lists).
func TestRecordOfASceneThatJoinsAProject(t *testing.T) {
	scene, root := assetProject(t)
	os.Remove(filepath.Join(root, "project.esproject"))
	out := t.TempDir()
	cookTo(t, scene, out, validate.Options{}, 0)
	if rep := cookTo(t, scene, out, validate.Options{}, 0); !rep.Reused {
		t.Fatal("outside a project the record should be used")
	}
	record := filepath.Join(out, ".main.worldcook-record")
	if _, err := os.Stat(record); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "project.esproject"), []byte("{}"), 0o644)
	rep := cookTo(t, scene, out, validate.Options{}, 0)
	if rep.Reused || len(rep.World.Manifest.Assets) == 0 {
		t.Fatalf("after the project appeared: reused %v, %d assets", rep.Reused, len(rep.World.Manifest.Assets))
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Errorf("a world with assets kept a record: %v", err)
	}
}
