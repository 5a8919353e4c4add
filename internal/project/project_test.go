package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSceneNames: scenes are named as the engine's export names them,
// relative to the folder of the project's entry scene.
func TestSceneNames(t *testing.T) {
	for _, tc := range []struct {
		name, project string
		files         []string // besides project.esproject
		scenes        map[string]string
	}{
		{"defaultScene", `{"defaultScene": "assets/scenes/main.esscene"}`, nil, map[string]string{
			"assets/scenes/main.esscene":        "main",
			"assets/scenes/levels/boss.esscene": "levels/boss",
			"tests/probe.esscene":               "tests/probe",
			"assets/scenes2/x.esscene":          "assets/scenes2/x",
			"assets/scenes/Odd.ESSCENE":         "Odd",
		}},
		{"defaultScene at the top", `{"defaultScene": "main.esscene"}`, nil, map[string]string{
			"main.esscene":            "main",
			"levels/a.esscene":        "levels/a",
			"assets/scenes/b.esscene": "assets/scenes/b",
		}},
		{"defaultScene written on Windows", `{"defaultScene": ".\\levels\\start.esscene"}`, nil, map[string]string{
			"levels/start.esscene": "start",
			"levels/w/b.esscene":   "w/b",
		}},
		{"no defaultScene, the conventional entry", `{"name": "x"}`, []string{"scenes/main.esscene"}, map[string]string{
			"scenes/main.esscene":     "main",
			"assets/scenes/b.esscene": "assets/scenes/b",
		}},
		{"assets/scenes/main.esscene first", `{}`, []string{"assets/scenes/main.esscene", "scenes/main.esscene"}, map[string]string{
			"assets/scenes/main.esscene": "main",
			"scenes/main.esscene":        "scenes/main",
		}},
		{"no entry: the layout's scenes folder", `{"layout": {"scenes": "content/levels"}}`, nil, map[string]string{
			"content/levels/a.esscene": "a",
		}},
		{"no entry, no layout", `{}`, nil, map[string]string{
			"assets/scenes/a.esscene": "a",
			"other/a.esscene":         "other/a",
		}},
		{"a defaultScene of the wrong type is ignored", `{"defaultScene": 7}`, nil, map[string]string{
			"assets/scenes/a.esscene": "a",
		}},
		{"a defaultScene outside the project is ignored", `{"defaultScene": "../x/main.esscene"}`, nil, map[string]string{
			"assets/scenes/a.esscene": "a",
		}},
		{"a repeated key takes its last value", `{"defaultScene": "a/main.esscene", "defaultScene": "b/main.esscene"}`, nil, map[string]string{
			"b/x.esscene": "x",
		}},
		{"not an object", `[]`, nil, map[string]string{
			"assets/scenes/a.esscene": "a",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, File, tc.project)
			for _, f := range tc.files {
				write(t, root, f, "{}")
			}
			p, err := Load(root)
			if err != nil {
				t.Fatal(err)
			}
			for rel, want := range tc.scenes {
				if got := p.SceneName(rel); got != want {
					t.Errorf("%s is named %q, want %q (scenes root %q, %s)", rel, got, want, p.ScenesRoot, p.From)
				}
			}
		})
	}
}

func TestLoadRefuses(t *testing.T) {
	root := t.TempDir()
	write(t, root, File, `{"defaultScene": `)
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), File) || strings.Contains(err.Error(), "\n") {
		t.Errorf("a broken project file: %v", err)
	}
	write(t, root, File, `{"x": "`+strings.Repeat("a", MaxFileBytes)+`"}`)
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a huge project file: %v", err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, File), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(filepath.Join(dir, "a.esscene")); ok {
		t.Error("a folder named project.esproject makes a project")
	}
}

// FuzzParse: whatever the project file says, its scenes root stays
// inside the project and every scene gets a name; a broken file is one
// line of error.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"defaultScene": "assets/scenes/main.esscene"}`))
	f.Add([]byte(`{"defaultScene": "..\\..\\x.esscene", "layout": {"scenes": "/abs"}}`))
	f.Add([]byte(`{"layout": {"scenes": "a/../../b"}}`))
	f.Add([]byte(`{"defaultScene": "\u0000"}`))
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parse(root, File, data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("an error of two lines: %q", err)
			}
			return
		}
		if c, ok := clean(p.ScenesRoot); !ok || c != p.ScenesRoot {
			t.Fatalf("scenes root %q leaves the project or is not clean", p.ScenesRoot)
		}
		for _, rel := range []string{"main.esscene", p.ScenesRoot + "/a.esscene", "x/y.esscene"} {
			if p.SceneName(rel) == "" {
				t.Fatalf("%s has no name under %q", rel, p.ScenesRoot)
			}
		}
	})
}

func TestDesignResolution(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		w, h float64
	}{
		{`{"name": "P", "designResolution": {"width": 800, "height": 600}}`, 800, 600},
		{`{"name": "P"}`, 0, 0},
		{`{"designResolution": {"width": 0, "height": 600}}`, 0, 0},
		{`{"designResolution": {"width": "800", "height": 600}}`, 0, 0},
		{`{"designResolution": [800, 600]}`, 0, 0},
		{`[]`, 0, 0},
	} {
		p, err := parse(t.TempDir(), "project.esproject", []byte(tc.doc))
		if err != nil || p.DesignWidth != tc.w || p.DesignHeight != tc.h {
			t.Errorf("%s: %v × %v, %v; want %v × %v", tc.doc, p.DesignWidth, p.DesignHeight, err, tc.w, tc.h)
		}
	}
}

// TestCameraFit: the project's camera fit is read as the engine's
// resolveScreenFit maps it: the five mode names, anything else none; the
// match blend clamped to 0..1, 0.5 when absent.
func TestCameraFit(t *testing.T) {
	for _, tc := range []struct {
		doc   string
		fit   int
		match float64
	}{
		{`{"name": "P"}`, -1, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "fixed-width"}}}`, 0, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "fixed-height"}}}`, 1, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "expand"}}}`, 2, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "shrink"}}}`, 3, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "match", "cameraMatch": 0.25}}}`, 4, 0.25},
		{`{"features": {"rendering": {"cameraScaleMode": "match", "cameraMatch": 7}}}`, 4, 1},
		{`{"features": {"rendering": {"cameraScaleMode": "match", "cameraMatch": -1}}}`, 4, 0},
		{`{"features": {"rendering": {"cameraScaleMode": "none"}}}`, -1, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "Fixed-Width"}}}`, -1, 0.5},
		{`{"features": {"rendering": {"CameraScaleMode": "expand"}}}`, -1, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": 2}}}`, -1, 0.5},
		{`{"features": {"rendering": "expand"}}`, -1, 0.5},
		{`{"features": {"rendering": {"cameraScaleMode": "match", "cameraMatch": "1"}}}`, 4, 0.5},
	} {
		p, err := parse(t.TempDir(), "project.esproject", []byte(tc.doc))
		if err != nil || p.CameraFit != tc.fit || p.CameraMatch != tc.match {
			t.Errorf("%s: fit %d match %v, %v; want %d, %v", tc.doc, p.CameraFit, p.CameraMatch, err, tc.fit, tc.match)
		}
	}
}
