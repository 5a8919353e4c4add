package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
)

// platformerCopy is a copy of the Estella platformer example made a
// streamed world (init --write), with its Coin prefab placed five times.
func platformerCopy(t *testing.T) (root string) {
	t.Helper()
	projects := corpus.Projects()
	if projects == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS to run this test)")
	}
	root = filepath.Join(t.TempDir(), "platformer")
	corpus.CopyTree(t, filepath.Join(projects, "examples", "platformer"), root)
	if code, _, stderr := run(t, "init", "--write", filepath.Join(root, "assets", "scenes", "main.esscene")); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	return root
}

// TestValidatePrefab: a prefab validates the scenes of its project that
// place it, so that an edit of the prefab alone fails on what it breaks
// in them; a prefab nothing places, one that is no prefab document and
// one outside any project are told apart.
func TestValidatePrefab(t *testing.T) {
	root := platformerCopy(t)
	coin := filepath.Join(root, "assets", "prefabs", "Coin.esprefab")
	scene := filepath.Join(root, "assets", "scenes", "main.esscene")

	code, stdout, stderr := run(t, "validate", coin)
	if code != 0 || !strings.Contains(stdout, scene+`: streamed world "main"`) || !strings.Contains(stderr, "is used by 1 scene of the project "+root+": "+scene) {
		t.Fatalf("clean prefab: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A child carrying WorldPersistent breaks every instance.
	var doc map[string]any
	data, _ := os.ReadFile(coin)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	ents := doc["entities"].([]any)
	ents[0].(map[string]any)["children"] = []any{"1"}
	doc["entities"] = append(ents, map[string]any{"prefabEntityId": "1", "name": "Halo", "parent": "0", "children": []any{}, "visible": true,
		"components": []any{map[string]any{"type": "Transform", "data": map[string]any{}}, map[string]any{"type": "WorldPersistent", "data": map[string]any{}}}})
	data, _ = json.Marshal(doc)
	if err := os.WriteFile(coin, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = run(t, "validate", coin)
	if code != 1 || strings.Count(stdout, "error[persistent-not-root]") != 5 || !strings.Contains(stdout, scene+":479:7:") {
		t.Fatalf("broken prefab: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// Given with its scene, the scene is checked once; with -q, nothing
	// but the findings.
	code, stdout, stderr = run(t, "validate", "-q", scene, coin)
	if code != 1 || strings.Count(stdout, "error[persistent-not-root]") != 5 || stderr != "" {
		t.Fatalf("scene and prefab: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	unused := filepath.Join(root, "assets", "prefabs", "Unused.esprefab")
	if err := os.WriteFile(unused, []byte(`{"version": "2", "name": "U", "rootEntityId": "0", "entities": [{"prefabEntityId": "0", "name": "U", "parent": null, "children": [], "components": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := run(t, "validate", unused); code != 0 || stdout != "" || !strings.Contains(stderr, "no scene of the project "+root+" places or names it") {
		t.Errorf("unused prefab: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A built game inside the project (its game.config.json) holds no
	// authored scene: its copy of main.esscene is not checked.
	built := filepath.Join(root, "dist-web", "assets", "scenes")
	os.MkdirAll(built, 0o755)
	os.WriteFile(filepath.Join(root, "dist-web", "game.config.json"), []byte(`{}`), 0o644)
	corpus.CopyTree(t, filepath.Join(root, "assets", "scenes"), built)
	if code, _, stderr := run(t, "validate", coin); code != 1 || strings.Contains(stderr, "dist-web") {
		t.Errorf("with a built game: exit %d: %s", code, stderr)
	}

	for _, tc := range []struct{ name, body, want string }{
		{"not JSON", `{"version": "2"`, "is not valid JSON"},
		{"no root", `{"version": "2", "entities": []}`, "has no rootEntityId"},
	} {
		bad := filepath.Join(root, "assets", "prefabs", "Bad.esprefab")
		os.WriteFile(bad, []byte(tc.body), 0o644)
		code, stdout, stderr := run(t, "validate", bad)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "Bad.esprefab") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", tc.name, code, stdout, stderr)
		}
	}

	lone := filepath.Join(t.TempDir(), "Lone.esprefab")
	os.WriteFile(lone, []byte(`{"version": "2", "rootEntityId": "0", "entities": []}`), 0o644)
	if code, _, stderr := run(t, "validate", lone); code != 2 || !strings.Contains(stderr, "no folder at or above") || !strings.Contains(stderr, "project.esproject") {
		t.Errorf("outside a project: exit %d: %s", code, stderr)
	}
}
