package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	demoScene = "../testdata/demo/main.esscene"
	demoYAML  = "../testdata/demo/worldcook.yaml"
)

// TestSimulateEstellaDemo runs the demo route under the runtime's policy,
// with the cells' asset scopes and without (--asset-costs off, which must
// give the report of a world without assets): the tables and the
// --compare views are goldens, and every run is byte-identical when
// repeated.
func TestSimulateEstellaDemo(t *testing.T) {
	args := []string{"--config", demoYAML, "simulate", "--path", demoRoute, "--policy", "estella", demoScene}
	off := []string{"--asset-costs", "off"}
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"demo_estella_assets.table", args},
		{"demo_estella.table", append(slices.Clone(args), off...)},
	} {
		code, out, errs := run(t, tc.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.golden, code, errs)
		}
		simGolden(t, tc.golden, changedRows(out))
		if _, again, _ := run(t, tc.args...); again != out {
			t.Errorf("%s: two runs differ", tc.golden)
		}
	}
	compare := []string{"--config", demoYAML, "simulate", "--path", demoRoute, "--budget", "16384", "--compare", demoScene}
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"demo_compare_assets.txt", compare},
		{"demo_compare.txt", append(slices.Clone(compare), off...)},
	} {
		code, out, errs := run(t, tc.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.golden, code, errs)
		}
		simGolden(t, tc.golden, out)
	}
	// The demo's route drives the player; its main camera stands still.
	code, out, _ := run(t, "--json", "--config", demoYAML, "simulate", "--path", demoRoute, "--compare", demoScene)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"message_type":"warning","code":"undriven-source"`) ||
		!strings.HasPrefix(lines[1], `{"message_type":"comparison","seed":{`) || strings.Count(lines[1], `"assets":{"distinct":14,`) != 2 {
		t.Errorf("--compare --json: exit %d, want the warning once, then the comparison with the assets on both sides: %.300s", code, out)
	}
	code, out, _ = run(t, "--config", demoYAML, "simulate", "--path", demoRoute, "--policy", "estella", "--format", "jsonl", demoScene)
	if code != 0 || !strings.Contains(out, `"prefetchHits":[`) || !strings.Contains(out, `{"message_type":"summary","policy":"estella"`) ||
		!strings.Contains(out, `"residentAssetBytes":`) || !strings.Contains(out, `"assetRefsByCell":{"main.cell_0_0":`) {
		t.Errorf("jsonl: exit %d, %.200s", code, out)
	}
	code, out, _ = run(t, append([]string{"--config", demoYAML, "simulate", "--path", demoRoute, "--policy", "estella", "--format", "jsonl", demoScene}, off...)...)
	if code != 0 || strings.Contains(out, "asset") {
		t.Errorf("jsonl --asset-costs off: exit %d, still names assets", code)
	}
}

// changedRows keeps the table's header, the rows that differ from the one
// before them but for the frame number, and the summary: a steady stretch
// of the route says nothing new frame after frame.
func changedRows(table string) string {
	var b strings.Builder
	prev := ""
	for _, line := range strings.SplitAfter(table, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] == "frame" || strings.Trim(f[0], "0123456789") != "" {
			b.WriteString(line)
			prev = ""
			continue
		}
		if rest := strings.Join(f[1:], " "); rest != prev {
			b.WriteString(line)
			prev = rest
		}
	}
	return b.String()
}

// TestSimulateEstellaRefusesSettingsItLacks: the runtime has no budget,
// cap, pinning, LOD or in-flight limit; naming one is an error that lists
// them, never a silently ignored setting.
func TestSimulateEstellaRefusesSettingsItLacks(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--budget", "16384"}, "drop --budget (flag"},
		{[]string{"--max-resident-bytes", "0", "--pinned-radius", "10"}, "drop --max-resident-bytes, --pinned-radius (flag"},
		{[]string{"--lod-radius", "5", "--max-in-flight", "2"}, "drop --lod-radius, --max-in-flight (flag"},
		{[]string{"--distance", "center"}, "drop --distance center (flag"},
		{[]string{"--retries", "0", "--retry-timeout", "10"}, "drop --retries, --retry-timeout (flag"},
		{[]string{"--io", "disk"}, "modelled host; drop --io disk"},
		{[]string{"--publish-frames", "-1"}, "--publish-frames must be from 0 to 2147483647 frames (got -1)"},
		{[]string{"--policy", "greedy"}, `--policy "greedy": use budgeted or estella`},
	} {
		args := append([]string{"--config", demoYAML, "simulate", "--path", demoRoute, "--policy", "estella"}, tc.args...)
		code, _, errs := run(t, append(args, demoScene)...)
		if code != 2 || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q on one line", tc.args, code, errs, tc.want)
		}
	}
	// Settings from worldcook.yaml are named the same way.
	if code, _, errs := run(t, "--config", islandYAML, "simulate", "--path", islandRoute, "--policy", "estella", island); code != 2 || !strings.Contains(errs, "drop --budget, --max-resident-bytes, --pinned-radius, --lod-radius") {
		t.Errorf("config settings: exit %d, %q", code, errs)
	}
	// Under --compare the budgeted policy gets them.
	if code, _, errs := run(t, "--config", demoYAML, "simulate", "--path", demoRoute, "--compare", "--budget", "4096", demoScene); code != 0 {
		t.Errorf("--compare --budget: exit %d: %s", code, errs)
	}
}

// xyScene is a 2D world cut on x and y: a camera source at (1485, 5447)
// and content in the cell it stands in, cell_1_5, and in cell_1_0, the
// cell a runtime that reads X and Z thinks it stands in.
const xyScene = `{"version": 1, "name": "Flat", "entities": [
 {"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 1000}}]},
 {"id": 2, "name": "Camera", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1485, "y": 5447, "z": 0}}},
   {"type": "WorldPersistent", "data": {}},
   {"type": "WorldStreamingSource", "data": {"prefetchRadius": 100, "loadRadius": 100, "unloadRadius": 200, "enabled": true}}]},
 {"id": 3, "name": "Hut", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1500, "y": 5500, "z": 0}}}]},
 {"id": 4, "name": "Rock", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 1500, "y": 500, "z": 0}}}]}
]}`

// TestSimulateEstellaOnXYWorld: the runtime samples X and Z, so on a world
// cut on X and Y it streams the wrong cell; the run says so and counts the
// hole where the camera really is, while the seed policy streams the
// right one.
func TestSimulateEstellaOnXYWorld(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "flat.esscene")
	route := filepath.Join(dir, "route.csv")
	os.WriteFile(scene, []byte(xyScene), 0o644)
	os.WriteFile(route, []byte("x,y\n1485,5447\n1485,5447\n1485,5447\n"), 0o644)
	code, out, errs := run(t, "simulate", "--plane", "xy", "--path", route, "--policy", "estella", "--format", "jsonl", scene)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], `{"message_type":"warning","code":"xy-plane","message":"flat: the world is cut on x and y (plane xy, from --plane), and Estella's runtime samples streaming sources on X and Z only`) ||
		!strings.Contains(lines[0], "no radius makes it stream this world as cut") {
		t.Errorf("no warning about the plane: %q", lines[0])
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"residentCells":["flat.cell_1_0"]`) {
		t.Errorf("the runtime should stream cell_1_0 for a camera at (1485, 5447): %s", last)
	}
	// The hole is where the camera is, and its cause is the plane, not a
	// radius.
	if f3 := lines[3]; !strings.Contains(f3, `"holes":["flat.cell_1_5"],`) || !strings.Contains(f3, `"holeCauses":["plane"]`) {
		t.Errorf("frame 3 should count cell_1_5, where the camera is, as a hole of the plane: %s", f3)
	}
	// The warning is said once, under --compare too, in every format.
	for _, args := range [][]string{
		{"--compare"}, {"--compare", "--format", "jsonl"}, {"--policy", "estella"}, {"--policy", "estella", "--format", "csv"}, {},
	} {
		code, out, errs := run(t, append(append([]string{"simulate", "--plane", "xy", "--path", route}, args...), scene)...)
		if n := strings.Count(out+errs, "flat: the world is cut on x and y (plane xy, from --plane)"); code != 0 || n != 1 {
			t.Errorf("%v: exit %d, the plane warning %d times:\n%s%s", args, code, n, out, errs)
		}
		if strings.Contains(out, "raise --prefetch-radius") {
			t.Errorf("%v: blames the prefetch radius:\n%s", args, out)
		}
		// Where the runtime runs (--policy estella, --compare), that no
		// radius helps; the budgeted scheduler alone, that the runtime
		// streams other cells.
		if runtime := len(args) > 0; strings.Contains(out+errs, "no radius makes it stream") != runtime {
			t.Errorf("%v: says no radius helps %v, want %v:\n%s", args, !runtime, runtime, out)
		}
	}
	code, out, _ = run(t, "simulate", "--plane", "xy", "--path", route, "--format", "jsonl", scene)
	if code != 0 || !strings.Contains(out, `"residentCells":["flat.cell_1_5"]`) {
		t.Errorf("the seed policy should stream cell_1_5: exit %d, %s", code, out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:])
	}
}

// TestPlaneXYWarns: cooking or validating a world cut on X and Y says that
// Estella's runtime streams on X and Z only; an XZ cook says nothing.
func TestPlaneXYWarns(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "flat.esscene")
	os.WriteFile(scene, []byte(xyScene), 0o644)
	const note = "warning[xy-plane]: the world is cut on x and y (plane xy, from --plane): Estella's runtime samples streaming sources on X and Z only"
	for _, args := range [][]string{
		{"cook", "--plane", "xy", "--out", filepath.Join(dir, "out"), scene},
		{"validate", "--plane", "xy", scene},
		{"validate", "--plane", "xy", "--format", "sarif", scene},
		{"init", "--plane", "xy", scene},
	} {
		code, _, errs := run(t, args...)
		if code != 0 || strings.Count(errs, note) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", args, code, errs, note)
		}
		if code, _, errs := run(t, append([]string{"--quiet"}, args...)...); code != 0 || strings.Contains(errs, note) {
			t.Errorf("--quiet %v: exit %d, stderr %q", args, code, errs)
		}
	}
	if _, _, errs := run(t, "cook", "--out", filepath.Join(dir, "xz"), scene); strings.Contains(errs, "X and Z") {
		t.Errorf("an xz cook warned: %q", errs)
	}
	// It names where the plane was set: a variable, a line of the file.
	t.Setenv("WORLDCOOK_PLANE", "xy")
	if _, _, errs := run(t, "validate", scene); !strings.Contains(errs, "(plane xy, from WORLDCOOK_PLANE)") {
		t.Errorf("plane from the environment: %q", errs)
	}
	t.Setenv("WORLDCOOK_PLANE", "")
	yaml := filepath.Join(dir, "worldcook.yaml")
	os.WriteFile(yaml, []byte("# 2D\nplane: xy\n"), 0o644)
	if _, _, errs := run(t, "validate", scene); !strings.Contains(errs, "(plane xy, from "+yaml+":2:8: plane)") {
		t.Errorf("plane from the file: %q", errs)
	}
}

// TestSimulateEstellaGate: --fail-on reads the runtime's frames as it reads
// the budgeted scheduler's. The demo has holes on its first frame only, so
// without a warm-up the gate fails and names the frame and the cells, and
// with the default warm-up it passes.
func TestSimulateEstellaGate(t *testing.T) {
	base := []string{"--config", demoYAML, "simulate", "--path", demoRoute, "--policy", "estella", "--summary-only", "--fail-on", "holes,failures"}
	code, out, errs := run(t, append(base, "--warmup", "0", demoScene)...)
	if code != 1 || !strings.Contains(errs, "--fail-on: holes in frames 1 (main.cell_0_0") || !strings.Contains(out, "gate                   FAILED") {
		t.Errorf("warm-up 0: exit %d\nstdout:\n%.400s\nstderr:\n%s", code, out, errs)
	}
	if strings.Contains(out, "\n    1 ") {
		t.Errorf("--summary-only printed rows:\n%.400s", out)
	}
	code, out, errs = run(t, append(base, demoScene)...)
	if code != 0 || !strings.Contains(out, "gate                   passed") {
		t.Errorf("default warm-up: exit %d\nstdout:\n%.400s\nstderr:\n%s", code, out, errs)
	}
}
