package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/route"
	"github.com/worldcook/worldcook/streaming"
)

// route writes a file per route that simulate reads, and prints a line
// per route.
func TestRouteWrites(t *testing.T) {
	out := filepath.Join(t.TempDir(), "routes")
	code, stdout, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "route", demoScene, "--out", out, "--from", "tour,teleport", "--map", filepath.Join(out, "..", "map.svg"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"tour.csv", "teleport.csv"} {
		if !strings.Contains(stdout, filepath.Join(out, name)+"  ") {
			t.Errorf("no line for %s in\n%s", name, stdout)
		}
		if _, err := streaming.ReadRoute(filepath.Join(out, name)); err != nil {
			t.Errorf("simulate cannot read %s: %v", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "..", "map.svg")); err != nil || !strings.Contains(string(b), "2 routes") {
		t.Errorf("the map does not draw the routes: %v", err)
	}
	code, stdout, stderr = run(t, "--config", "../testdata/demo/worldcook.yaml", "simulate", "--path", out, "--summary-only", demoScene)
	if code != 0 || strings.Count(stdout, "summary of") != 2 {
		t.Fatalf("simulate --path DIR: exit %d, %d summaries\n%s%s", code, strings.Count(stdout, "summary of"), stdout, stderr)
	}
}

// Bad input is exit 2 with one line, and no file is written.
func TestRouteBadInput(t *testing.T) {
	scene := filepath.Join(t.TempDir(), "s.esscene")
	os.WriteFile(scene, []byte(`{"version": 1, "name": "S", "entities": [
	  {"id": 1, "name": "Director", "parent": null, "children": [2], "components": [{"type": "TimelinePlayer", "data": {"timeline": "gone.estimeline"}}]},
	  {"id": 2, "name": "Hero", "parent": 1, "children": [], "components": [{"type": "Transform", "data": {}}]}]}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "timeline"}, `TimelinePlayer.timeline: "gone.estimeline"`},
		{[]string{"--fps", "0"}, "--fps"},
		{[]string{"--speed", "-3"}, "--speed"},
		{[]string{"--from", "walk"}, "--from"},
		{[]string{"--from", "tour"}, "no tour route: the scene is not a streamed world"},
		{[]string{"--loops", "0"}, "--loops"},
		{[]string{"--from", "tour", "--out", filepath.Dir(scene)}, "no tour route"},
		// A file's name for the folder: said before anything is made.
		{[]string{"--out", filepath.Join(filepath.Dir(scene), "tour.CSV")}, "--out is the folder route writes one CSV per route into"},
	} {
		out := filepath.Join(t.TempDir(), "routes")
		args := append([]string{"route", scene, "--out", out}, tc.args...)
		code, stdout, stderr := run(t, args...)
		if code != ExitInput || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and one line with %q", tc.args, code, stderr, stdout, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was made", tc.args, out)
		}
	}
}

// A route is never written over an input of the run.
func TestRouteNeverOverAnInput(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile(demoScene)
	scene := filepath.Join(dir, "tour.csv") // the scene named as the tour's file
	os.WriteFile(scene, b, 0o644)
	code, _, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "route", scene, "--out", dir, "--from", "tour")
	if code != ExitInput || !strings.Contains(stderr, "an input of this run") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(scene); string(after) != string(b) {
		t.Fatal("the scene was written over")
	}
}

func TestRouteRecorder(t *testing.T) {
	code, stdout, stderr := run(t, "route", "--recorder")
	if code != 0 || stdout != route.Recorder || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, _ := run(t, "route", "--recorder", "x.esscene"); code != ExitInput {
		t.Fatalf("--recorder with a scene: exit %d", code)
	}
}

// --json: a route object per file, a note object per note, exit_error on
// failure.
func TestRouteJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "routes")
	code, stdout, stderr := run(t, "--config", "../testdata/demo/worldcook.yaml", "--json", "route", demoScene, "--out", out)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var types []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var v struct {
			MessageType string `json:"message_type"`
			File        string
			Frames      int
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || !strings.HasPrefix(l, `{"message_type":"`) {
			t.Fatalf("not a JSON line: %s", l)
		}
		if v.MessageType == "route" && (v.Frames == 0 || !strings.HasPrefix(v.File, out)) {
			t.Errorf("route line %s", l)
		}
		types = append(types, v.MessageType)
	}
	if got := strings.Join(types, ","); got != "route,route,note,note" {
		t.Errorf("objects %s", got)
	}
	code, stdout, _ = run(t, "--json", "route", demoScene, "--fps", "0")
	if code != ExitInput || !strings.HasPrefix(stdout, `{"message_type":"exit_error","code":2`) {
		t.Errorf("exit %d: %s", code, stdout)
	}
}
