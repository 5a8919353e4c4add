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
// and y, all at z = 0. A cellSize above 0 adds a StreamedWorld of that
// cell size, and source a streaming source on the camera.
func scene2D(cellSize float64, source bool) string { return scene2DAt(cellSize, source, 0) }

// scene2DAt is scene2D with the floor moved by (d, d).
func scene2DAt(cellSize float64, source bool, d int) string {
	var b strings.Builder
	camera := `{"type": "Camera", "data": {"projectionType": 1, "orthoSize": 360, "isActive": true, "priority": 0}}`
	if cellSize > 0 {
		camera += `, {"type": "WorldPersistent", "data": {}}`
	}
	if source {
		camera += `, {"type": "WorldStreamingSource", "data": {"prefetchRadius": 300, "loadRadius": 200, "unloadRadius": 300, "enabled": true}}`
	}
	fmt.Fprintf(&b, `{"version": "1.0", "name": "main", "entities": [
    {"id": 1, "name": "Camera", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 0, "y": 0, "z": 10}}}, %s], "visible": true}`, camera)
	id := 100
	for y := range 6 {
		for x := range 10 {
			fmt.Fprintf(&b, `,
    {"id": %d, "name": "Tile_%d_%d", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": %d, "y": %d, "z": 0}}}, {"type": "Sprite", "data": {"size": {"x": 128, "y": 124}}}], "visible": true}`,
				id, x, y, d-576+128*x, d-310+124*y)
			id++
		}
	}
	if cellSize > 0 {
		fmt.Fprintf(&b, `,
    {"id": 2, "name": "StreamedWorld", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": %v}}], "visible": true}`, cellSize)
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
	proj := project2D(t, scene2D(0, false))
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

// TestWorldWarnings: a world that cannot stream as meant says so in every
// command that reads it, once, as a new user would run them on a 2D
// project: one cell, no source, a route drawn elsewhere.
func TestWorldWarnings(t *testing.T) {
	t.Chdir(t.TempDir())
	route := filepath.Join(t.TempDir(), "route.csv")
	os.WriteFile(route, []byte("x,y\n0,0\n100,0\n200,0\n"), 0o644)
	zroute := filepath.Join(t.TempDir(), "zroute.csv")
	os.WriteFile(zroute, []byte("x,z\n0,0\n100,0\n200,0\n"), 0o644)
	away := filepath.Join(t.TempDir(), "away.csv")
	os.WriteFile(away, []byte("x,y\n99999,0\n99999,10\n"), 0o644)
	for _, tc := range []struct {
		name  string
		scene string
		args  []string
		want  []string
		not   []string
	}{
		{"one cell: validate", scene2DAt(100000, true, 1000), []string{"validate", "SCENE"}, []string{"warning[nothing-streams]", "its top-level entities span 1300 × 740 (x × y) and cellSize is 100000: a cellSize near 160"}, []string{"no-streaming-source"}},
		{"one cell: cook", scene2DAt(100000, true, 1000), []string{"cook", "SCENE", "--out", "OUT"}, []string{"warning[nothing-streams]"}, nil},
		{"one cell: simulate", scene2DAt(100000, true, 1000), []string{"simulate", "--path", route, "SCENE"}, []string{"warning[nothing-streams]: main: all of the world's content is in one cell"}, nil},
		{"one cell: tune", scene2DAt(100000, true, 1000), []string{"tune", "--path", route, "SCENE"}, []string{"warning[nothing-streams]"}, nil},
		{"no source: validate", scene2D(200, false), []string{"validate", "SCENE"}, []string{"warning[no-streaming-source]"}, []string{"nothing-streams"}},
		{"no source: cook", scene2D(200, false), []string{"cook", "SCENE", "--out", "OUT"}, []string{"warning[no-streaming-source]"}, nil},
		{"route elsewhere: simulate", scene2D(200, true), []string{"simulate", "--path", away, "SCENE"}, []string{"warning[route-outside-world]", "it spans x 99999..99999, y 0..10"}, nil},
		// The plane left unset (XZ marks the case): every command finds
		// the 2D scene out, naming the evidence and the key.
		{"XZ validate", scene2D(200, true), []string{"validate", "SCENE"}, []string{"warning[plane-mismatch]", "its camera is orthographic (a 2D view) and its top-level entities span y -372 to 372 but z 0 to 0", "set plane: xy at the top of worldcook.yaml"}, nil},
		{"XZ cook", scene2D(200, true), []string{"cook", "SCENE", "--out", "OUT"}, []string{"warning[plane-mismatch]"}, nil},
		{"XZ simulate", scene2D(200, true), []string{"simulate", "--path", zroute, "SCENE"}, []string{"warning[plane-mismatch]: main is cut on xz, but it is laid out on x and y"}, nil},
		{"XZ simulate with a 2D route", scene2D(200, true), []string{"simulate", "--path", route, "SCENE"}, []string{"the route is drawn on x and y, and main is cut on xz, but it is laid out on x and y", "set plane: xy"}, nil},
		{"XZ tune", scene2D(200, true), []string{"tune", "--path", zroute, "SCENE"}, []string{"warning[plane-mismatch]"}, nil},
		{"XZ init", scene2D(0, false), []string{"init", "SCENE"}, []string{"warning[plane-mismatch]"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := project2D(t, tc.scene)
			if !strings.HasPrefix(tc.name, "XZ") {
				os.WriteFile(filepath.Join(proj, "worldcook.yaml"), []byte("plane: xy\n"), 0o644)
			}
			scene := filepath.Join(proj, "assets", "scenes", "main.esscene")
			var args []string
			for _, a := range tc.args {
				switch a {
				case "SCENE":
					a = scene
				case "OUT":
					a = filepath.Join(t.TempDir(), "out")
				}
				args = append(args, a)
			}
			code, stdout, stderr := run(t, args...)
			all := stdout + stderr
			// Only a route on the other plane is refused.
			if refused := strings.Contains(tc.name, "2D route"); (code == 2) != refused {
				t.Fatalf("exit %d: %s", code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no %q in:\n%s", w, all)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(all, w) {
					t.Errorf("%q in:\n%s", w, all)
				}
			}
			for _, code := range []string{"nothing-streams", "no-streaming-source", "route-outside-world", "plane-mismatch", "xy-plane"} {
				if n := strings.Count(all, "warning["+code+"]"); n > 1 {
					t.Errorf("%s said %d times:\n%s", code, n, all)
				}
			}
		})
	}
}
