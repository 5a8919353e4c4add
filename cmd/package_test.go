package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCookPackageConfig cooks the demo straight into a game's build folder
// and lists it in the folder's game.config.json, as the packaged runtime
// reads it; a re-cook leaves the file alone, --check says when it is
// stale, and a configuration that is an input of the run is refused.
func TestCookPackageConfig(t *testing.T) {
	build := t.TempDir()
	cfg := filepath.Join(build, "game.config.json")
	orig := "{\n  \"entryScene\": \"main.esscene\",\n  \"scenes\": [\n    {\n      \"name\": \"main\",\n      \"path\": \"main.esscene\"\n    }\n  ]\n}\n"
	os.WriteFile(cfg, []byte(orig), 0o644)
	if code, _, errs := run(t, "--config", demoYAML, "cook", "--check", demoScene, "--out", build, "--package-config", cfg); code != 1 {
		t.Errorf("--check before the first cook: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "listed main in "+cfg) {
		t.Errorf("no note of the listing: %s", out)
	}
	want := strings.TrimSuffix(orig, "\n}\n") + ",\n  \"worlds\": [\n    {\n      \"scene\": \"main\",\n      \"manifest\": \"world/main.world.json\"\n    }\n  ]\n}\n"
	if got, _ := os.ReadFile(cfg); string(got) != want {
		t.Errorf("game.config.json:\n%s\nwant:\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(build, "world", "main.world.json")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, build)
	if code, out, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg); code != 0 || strings.Contains(out, "listed") {
		t.Errorf("re-cook: exit %d, %s %s", code, out, errs)
	}
	if code, _, errs := run(t, "--config", demoYAML, "cook", "--check", demoScene, "--out", build, "--package-config", cfg); code != 0 {
		t.Errorf("--check of an up-to-date package: exit %d: %s", code, errs)
	}
	after := snapshot(t, build)
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s was touched by an unchanged re-cook", p)
		}
	}

	// The runtime loads the entry scene from its scenes entry: one that
	// does not point at the cooked persistent world is called out.
	os.WriteFile(cfg, []byte(`{"entryScene": "assets/main.esscene", "scenes": [{"name": "main", "path": "assets/main.esscene"}]}`), 0o644)
	if _, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg); !strings.Contains(errs, `registers scene "main" at assets/main.esscene, but its persistent world was cooked to main.esscene`) {
		t.Errorf("no warning about the entry scene's path: %q", errs)
	}

	// Never an input or an output of the run.
	dir := t.TempDir()
	scene := filepath.Join(dir, "main.esscene")
	src, _ := os.ReadFile(demoScene)
	os.WriteFile(scene, src, 0o644)
	for _, bad := range []string{scene, filepath.Join(dir, "out", "world", "main.world.json"), filepath.Join(dir, "out", "main.esscene")} {
		code, _, errs := run(t, "--config", demoYAML, "cook", scene, "--out", filepath.Join(dir, "out"), "--package-config", bad)
		if code != 2 || !strings.Contains(errs, "--package-config") {
			t.Errorf("%s: exit %d, %q", bad, code, errs)
		}
	}
	if code, _, errs := run(t, "--config", demoYAML, "cook", scene, "--out", filepath.Join(dir, "out"), "--package-config", filepath.Join(dir, "game.config.json")); code != 2 || !strings.Contains(errs, "reads the world's cells relative to the configuration's folder") {
		t.Errorf("a configuration outside --out: exit %d, %q", code, errs)
	}
	if got, _ := os.ReadFile(scene); string(got) != string(src) {
		t.Error("the scene was written")
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Error("a refused run cooked anyway")
	}
}

// TestCookPackageConfigSeveralScenes lists every streamed world of a run
// and leaves the configuration alone when any scene fails.
func TestCookPackageConfigSeveralScenes(t *testing.T) {
	dir := t.TempDir()
	levels := filepath.Join(dir, "levels")
	os.MkdirAll(filepath.Join(levels, "town"), 0o755)
	src, _ := os.ReadFile(demoScene)
	os.WriteFile(filepath.Join(levels, "main.esscene"), src, 0o644)
	os.WriteFile(filepath.Join(levels, "town", "market.esscene"), src, 0o644)
	build := filepath.Join(dir, "build")
	os.MkdirAll(build, 0o755)
	cfg := filepath.Join(build, "game.config.json")
	os.WriteFile(cfg, []byte(`{"entryScene": "main.esscene"}`), 0o644)
	if code, _, errs := run(t, "--config", demoYAML, "cook", levels, "--out", build, "--package-config", cfg); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `{"entryScene": "main.esscene","worlds":[{"scene":"main","manifest":"world/main.world.json"},{"scene":"town/market","manifest":"world/town_market.world.json"}]}`
	if got, _ := os.ReadFile(cfg); string(got) != want {
		t.Errorf("game.config.json:\n%s\nwant\n%s", got, want)
	}
	bad, _ := os.ReadFile("../testdata/bad/cross-cell-ref.esscene")
	os.WriteFile(filepath.Join(levels, "town", "market.esscene"), bad, 0o644)
	os.WriteFile(cfg, []byte(`{}`), 0o644)
	if code, _, _ := run(t, "--config", demoYAML, "cook", levels, "--out", build, "--package-config", cfg); code != 1 {
		t.Errorf("a failing scene: exit %d, want 1", code)
	}
	if got, _ := os.ReadFile(cfg); string(got) != `{}` {
		t.Errorf("a failed run wrote the configuration: %s", got)
	}
}
