package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSimulateUndrivenSource: the demo's route drives the first enabled
// source, the player; its main camera stays where it was authored, and
// every format says so once, under either policy and --compare. A route
// whose source column names both sources warns about none; one that
// names only the camera warns about the player.
func TestSimulateUndrivenSource(t *testing.T) {
	const camera = `the route does not drive streaming source \"Main Camera\"`
	const cameraText = `warning[undriven-source]: the route does not drive streaming source "Main Camera" (without a source column it moves the first enabled source, "Player"): it stays at its authored position (x 500, z 0) for the whole run`
	base := []string{"--config", demoYAML, "simulate", "--path", demoRoute}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "table"}, cameraText},
		{[]string{"--format", "csv"}, cameraText},
		{[]string{"--format", "jsonl"}, camera},
		{[]string{"--summary-only"}, cameraText},
		{[]string{"--policy", "estella"}, cameraText},
		{[]string{"--policy", "estella", "--format", "jsonl"}, camera},
		{[]string{"--compare"}, cameraText},
		{[]string{"--compare", "--json"}, camera},
	} {
		code, out, errs := run(t, append(append(base, tc.args...), demoScene)...)
		if n := strings.Count(out+errs, tc.want); code != 0 || n != 1 {
			t.Errorf("%v: exit %d, %d warnings %q:\n%.600s\n%s", tc.args, code, n, tc.want, out, errs)
		}
	}

	dir := t.TempDir()
	both := filepath.Join(dir, "both.csv")
	os.WriteFile(both, []byte("frame,source,x,z\n1,Player,500,500\n1,Main Camera,500,0\n2,Player,520,500\n2,Main Camera,520,0\n"), 0o644)
	if code, out, errs := run(t, "--config", demoYAML, "simulate", "--path", both, "--summary-only", demoScene); code != 0 || strings.Contains(out+errs, "undriven-source") {
		t.Errorf("a route driving both sources: exit %d, %s%s", code, out, errs)
	}
	cam := filepath.Join(dir, "camera.csv")
	os.WriteFile(cam, []byte("source,x,z\nMain Camera,500,0\nMain Camera,520,0\n"), 0o644)
	code, out, errs := run(t, "--config", demoYAML, "simulate", "--path", cam, "--summary-only", demoScene)
	want := `warning[undriven-source]: the route does not drive streaming source "Player" (it moves only the sources its source column names): it stays at its authored position (x 500, z 500) for the whole run`
	if code != 0 || strings.Count(out, want) != 1 || strings.Contains(out, `source "Main Camera"`) {
		t.Errorf("a route driving the camera: exit %d, want %q:\n%.600s%s", code, want, out, errs)
	}
}

// TestPlaneHintKeysParse: the plane-mismatch hint names worldcook.yaml
// keys as the config accepts them: written into a file as the hint gives
// them, they set the plane.
func TestPlaneHintKeysParse(t *testing.T) {
	dir := t.TempDir()
	// A 2D layout (z = 0, y spread) cut on xz.
	var b strings.Builder
	b.WriteString(`{"version": 1, "name": "Flat", "entities": [{"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 100}}]}`)
	for i := 0; i < 10; i++ {
		b.WriteString(`, {"id": ` + strconv.Itoa(10+i) + `, "name": "E", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": ` + strconv.Itoa(i*100) + `, "y": ` + strconv.Itoa(i*50) + `, "z": 0}}}]}`)
	}
	b.WriteString("]}")
	scene := filepath.Join(dir, "flat.esscene")
	os.WriteFile(scene, []byte(b.String()), 0o644)
	_, out, errs := run(t, "validate", scene)
	const tail = " at the top of worldcook.yaml"
	j := strings.Index(out, tail)
	i := strings.LastIndex(out[:max(j, 0)], "(set ")
	if j < 0 || i < 0 {
		t.Fatalf("no plane-mismatch hint naming worldcook.yaml:\n%s%s", out, errs)
	}
	snippet := out[i+len("(set ") : j]
	file := filepath.Join(dir, "worldcook.yaml")
	os.WriteFile(file, []byte(snippet+"\n"), 0o644)
	for _, section := range []string{"cook", "validate", "simulate", "init"} {
		code, out, errs := run(t, "--config", file, "config", section)
		if code != 0 || !regexp.MustCompile(`(?m)^`+section+`\.plane\s+xy\s+`+regexp.QuoteMeta(file)).MatchString(out) {
			t.Errorf("the hint's %q does not set %s.plane: exit %d\n%s%s", snippet, section, code, out, errs)
		}
	}
}

// TestSimulateDefaultWorldIsCookOut: without WORLD, simulate reads the
// world cook writes, cook.out of the configuration.
func TestSimulateDefaultWorldIsCookOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "built")
	cfg := filepath.Join(dir, "worldcook.yaml")
	os.WriteFile(cfg, []byte("cook:\n  out: "+out+"\n"), 0o644)
	if code, _, errs := run(t, "--config", cfg, "cook", demoScene); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, errs)
	}
	code, stdout, errs := run(t, "--config", cfg, "simulate", "--path", demoRoute, "--summary-only")
	if code != 0 || !strings.Contains(stdout, "summary of 318 frames") {
		t.Errorf("simulate without WORLD: exit %d\n%.300s\n%s", code, stdout, errs)
	}
}
