package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scene2D is an authored 2D scene as Estella's 2D examples lay one out: an
// orthographic camera at z = 10 and a 10×6 floor of 128-unit tiles on x
// and y, all at z = 0. streamed adds a StreamedWorld of cellSize 200 and a
// source on the camera.
func scene2D(streamed bool) string {
	var b strings.Builder
	camera := `{"type": "Camera", "data": {"projectionType": 1, "orthoSize": 360, "isActive": true, "priority": 0}}`
	if streamed {
		camera += `, {"type": "WorldPersistent", "data": {}}, {"type": "WorldStreamingSource", "data": {"prefetchRadius": 300, "loadRadius": 200, "unloadRadius": 300, "enabled": true}}`
	}
	fmt.Fprintf(&b, `{"version": "1.0", "name": "main", "entities": [
    {"id": 1, "name": "Camera", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 10}}}, %s], "visible": true}`, camera)
	id := 100
	for y := range 6 {
		for x := range 10 {
			fmt.Fprintf(&b, `,
    {"id": %d, "name": "Tile_%d_%d", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": %d, "y": %d, "z": 0}}}, {"type": "Sprite", "data": {"size": {"x": 128, "y": 124}}}], "visible": true}`,
				id, x, y, -576+128*x, -310+124*y)
			id++
		}
	}
	if streamed {
		b.WriteString(`,
    {"id": 2, "name": "StreamedWorld", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 200}}], "visible": true}`)
	}
	b.WriteString("\n  ]\n}\n")
	return b.String()
}

// project2D writes an Estella project holding scene at
// assets/scenes/main.esscene and returns the project's folder.
func project2D(t *testing.T, scene string) string {
	t.Helper()
	proj := filepath.Join(t.TempDir(), "game")
	if err := os.MkdirAll(filepath.Join(proj, "assets", "scenes"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"project.esproject":          `{"formatVersion": "1", "name": "game", "designResolution": {"width": 1280, "height": 720}}`,
		"assets/scenes/main.esscene": scene,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proj
}

// TestInitRecordsPlane: init --plane xy --write puts plane: xy in the
// settings file the other commands read (a new one at the project root),
// so that a cook run from anywhere cuts the scene on x and y.
func TestInitRecordsPlane(t *testing.T) {
	proj := project2D(t, scene2D(false))
	t.Chdir(t.TempDir())
	scene := filepath.Join(proj, "assets", "scenes", "main.esscene")

	code, _, stderr := run(t, "init", "--plane", "xy", scene)
	if code != 0 || !strings.Contains(stderr, "with --write, init also records plane: xy in a new "+filepath.Join(proj, "worldcook.yaml")) {
		t.Fatalf("init without --write: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, "worldcook.yaml")); err == nil {
		t.Fatal("init without --write wrote the settings file")
	}
	code, _, stderr = run(t, "init", "--plane", "xy", "--write", scene)
	if code != 0 || !strings.Contains(stderr, "recorded plane: xy in a new") {
		t.Fatalf("init --write: exit %d, stderr:\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(proj, "worldcook.yaml")); string(got) != "plane: xy\n" {
		t.Errorf("worldcook.yaml holds %q", got)
	}
	code, stdout, _ := run(t, "config", "cook", scene)
	if code != 0 || !strings.Contains(stdout, "# settings file "+filepath.Join(proj, "worldcook.yaml")+" (the nearest to") ||
		!strings.Contains(stdout, "cook.plane          xy") {
		t.Errorf("config cook SCENE: exit %d:\n%s", code, stdout)
	}
	out := filepath.Join(t.TempDir(), "world")
	code, stdout, stderr = run(t, "cook", "--out", out, scene)
	// Cells of 500, over which the camera's 1280 × 720 view spans about
	// 2×2: 8 on x and y (4 when the plane is lost and x and z are cut).
	if code != 0 || !strings.Contains(stdout, "8 cells") {
		t.Errorf("cook after init: exit %d, want 8 cells on x and y:\n%s%s", code, stdout, stderr)
	}

	// A file already there gets the line before its first key, its other
	// bytes kept.
	os.WriteFile(filepath.Join(proj, "worldcook.yaml"), []byte("# game settings\nplane: xz # 3D\ncook:\n  jobs: 2\n"), 0o644)
	code, _, stderr = run(t, "init", "--plane", "xy", "--write", scene)
	if got, _ := os.ReadFile(filepath.Join(proj, "worldcook.yaml")); code != 0 || string(got) != "# game settings\nplane: xy # 3D\ncook:\n  jobs: 2\n" {
		t.Errorf("exit %d, worldcook.yaml holds %q; stderr:\n%s", code, got, stderr)
	}
}
