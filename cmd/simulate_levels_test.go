package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// levelledScene has one root far larger than a cell (a ground of 800 on a
// grid of 100) beside a small prop: with levels the ground goes to a
// coarser cell, without them it grows the prop's cell.
const levelledScene = `{
  "version": 1,
  "name": "main",
  "entities": [
    { "id": 1, "name": "World", "parent": null, "children": [], "components": [ { "type": "StreamedWorld", "data": { "cellSize": 100 } } ] },
    { "id": 2, "name": "Ground", "parent": null, "children": [], "components": [
      { "type": "Transform", "data": { "position": { "x": 50, "y": 0, "z": 50 } } },
      { "type": "BoxCollider3D", "data": { "halfExtents": { "x": 400, "y": 1, "z": 400 } } } ] },
    { "id": 3, "name": "Rock", "parent": null, "children": [], "components": [ { "type": "Transform", "data": { "position": { "x": 50, "y": 0, "z": 50 } } } ] }
  ]
}
`

// TestSimulateSceneWithLevels checks that a scene simulated without
// cooking it first is cut with --levels as cook would cut it.
func TestSimulateSceneWithLevels(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "main.esscene")
	route := filepath.Join(dir, "route.csv")
	if err := os.WriteFile(scene, []byte(levelledScene), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(route, []byte("x,z\n50,50\n60,50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		levels string
		want   string
	}{
		{"0", `"main.cell_0_0"`},
		{"4", `"main.cell_L3_0_0"`},
	} {
		code, out, errs := run(t, "simulate", "--path", route, "--format", "jsonl", "--cell-states", "--levels", tc.levels, scene)
		if code != 0 {
			t.Fatalf("--levels %s: exit %d: %s", tc.levels, code, errs)
		}
		if !strings.Contains(out, `"residentCells":[`) || !strings.Contains(out, tc.want) {
			t.Errorf("--levels %s: no resident %s in:\n%s", tc.levels, tc.want, out)
		}
		if tc.levels == "0" && strings.Contains(out, "cell_L") {
			t.Errorf("--levels 0 made a level cell:\n%s", out)
		}
	}
}
