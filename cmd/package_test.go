package cmd

import (
	"encoding/json"
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

// TestCookPersistAtRegistered cooks into the layout Estella's exporter
// writes: the build folder holds game.config.json, which registers scene
// "main" at assets/scenes/main.esscene, and the staged scene there. With
// --persist-at registered the persistent world replaces the staged scene,
// as the engine's own export does, and nothing warns; a re-cook touches
// nothing and --check agrees. Without it the warning names the setting.
func TestCookPersistAtRegistered(t *testing.T) {
	src, err := os.ReadFile(demoScene)
	if err != nil {
		t.Fatal(err)
	}
	const registered = "assets/scenes/main.esscene"
	conf := `{"entryScene": "` + registered + `", "scenes": [{"name": "main", "path": "` + registered + `"}]}`
	exporter := func(t *testing.T) (build, cfg string) {
		build = t.TempDir()
		cfg = filepath.Join(build, "game.config.json")
		os.WriteFile(cfg, []byte(conf), 0o644)
		os.MkdirAll(filepath.Join(build, "assets", "scenes"), 0o755)
		os.WriteFile(filepath.Join(build, filepath.FromSlash(registered)), src, 0o644)
		return build, cfg
	}

	build, cfg := exporter(t)
	_, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg)
	if !strings.Contains(errs, "cook with --persist-at registered (cook.persistAt in worldcook.yaml) to write it at "+registered) {
		t.Errorf("the default's warning does not name the setting: %q", errs)
	}
	build, cfg = exporter(t)
	args := []string{"--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg, "--persist-at", "registered"}
	if code, _, errs := run(t, args...); code != 0 || errs != "" {
		t.Fatalf("exit %d: %q", code, errs)
	}
	persistent, _ := os.ReadFile(filepath.Join(build, filepath.FromSlash(registered)))
	if len(persistent) == 0 || len(persistent) >= len(src) {
		t.Errorf("%s holds %d bytes, the scene %d: not its persistent world", registered, len(persistent), len(src))
	}
	if _, err := os.Stat(filepath.Join(build, "main.esscene")); err == nil {
		t.Error("main.esscene written at the package root too")
	}
	if m, _ := os.ReadFile(filepath.Join(build, "world", "main.world.json")); !strings.Contains(string(m), `"path": "`+registered+`"`) {
		t.Errorf("the manifest's persistent path is not %s", registered)
	}
	if in, _ := os.ReadFile(demoScene); string(in) != string(src) {
		t.Fatal("the input scene was written")
	}
	before := snapshot(t, build)
	if code, out, errs := run(t, args...); code != 0 || errs != "" || strings.Contains(out, "listed") {
		t.Errorf("re-cook: exit %d, %s %q", code, out, errs)
	}
	if code, _, errs := run(t, append(args, "--check")...); code != 0 || errs != "" {
		t.Errorf("--check of an up-to-date package: exit %d: %q", code, errs)
	}
	for p, v := range snapshot(t, build) {
		if before[p] != v {
			t.Errorf("%s was touched by an unchanged re-cook", p)
		}
	}
	// The persistent world edited by hand: --check sees it.
	os.WriteFile(filepath.Join(build, filepath.FromSlash(registered)), src, 0o644)
	if code, _, _ := run(t, append(args, "--check")...); code != 1 {
		t.Errorf("--check after the persistent world was replaced: exit %d", code)
	}

	// Registered paths that would put the world outside the build folder,
	// or among its own files, are refused before anything is written.
	outside := t.TempDir()
	for _, tc := range []struct{ name, path, want string }{
		{"dot-dot", "../main.esscene", "leaves the cooked directory"},
		{"dot-dot inside", "assets/../../main.esscene", "leaves the cooked directory"},
		{"absolute", filepath.ToSlash(filepath.Join(outside, "main.esscene")), "leaves the cooked directory"},
		{"backslash", `assets\main.esscene`, "is not a path inside the package"},
		{"not a scene", "assets/main.json", "is not a .esscene file"},
		{"among the cells", "world/main.esscene", "lies among the world's cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			build := t.TempDir()
			cfg := filepath.Join(build, "game.config.json")
			os.WriteFile(cfg, []byte(`{"scenes": [{"name": "main", "path": `+strconvQuote(tc.path)+`}]}`), 0o644)
			code, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg, "--persist-at", "registered")
			if code != ExitInput || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "--persist-at name") {
				t.Errorf("exit %d, %q; want %q", code, errs, tc.want)
			}
			if _, err := os.Stat(filepath.Join(build, "world")); err == nil {
				t.Error("a refused cook wrote its world")
			}
		})
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("something was written outside the build folder: %v", ents)
	}

	// A symbolic link in the build folder on the way to the registered
	// path: the world is not written through it.
	t.Run("symlink", func(t *testing.T) {
		build, cfg := exporter(t)
		os.RemoveAll(filepath.Join(build, "assets"))
		target := t.TempDir()
		if err := os.Symlink(target, filepath.Join(build, "assets")); err != nil {
			t.Skip("no symbolic links here")
		}
		code, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg, "--persist-at", "registered")
		if code == 0 {
			t.Errorf("cooked through a symbolic link: %q", errs)
		}
		if ents, _ := os.ReadDir(target); len(ents) != 0 {
			t.Errorf("written through the link: %v", ents)
		}
	})

	// The registered path is the scene being cooked (the build folder is
	// the project): refused, the scene untouched.
	t.Run("input", func(t *testing.T) {
		build, cfg := exporter(t)
		scene := filepath.Join(build, filepath.FromSlash(registered))
		code, _, errs := run(t, "--config", demoYAML, "cook", scene, "--out", build, "--package-config", cfg, "--persist-at", "registered")
		if code == 0 || !strings.Contains(errs, "scene") {
			t.Errorf("cooked over its own input: exit %d, %q", code, errs)
		}
		if got, _ := os.ReadFile(scene); string(got) != string(src) {
			t.Error("the input scene was written")
		}
	})

	t.Run("without --package-config", func(t *testing.T) {
		code, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", t.TempDir(), "--persist-at", "registered")
		if code != ExitInput || !strings.Contains(errs, "pass --package-config") {
			t.Errorf("exit %d, %q", code, errs)
		}
	})
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestRegisteredConfigIsAnInput: with --persist-at registered the game
// configuration decides where the persistent world goes, so the depfile
// and the metafile list it among the inputs.
func TestRegisteredConfigIsAnInput(t *testing.T) {
	src, err := os.ReadFile(demoScene)
	if err != nil {
		t.Fatal(err)
	}
	const registered = "assets/scenes/main.esscene"
	build := t.TempDir()
	cfg := filepath.Join(build, "game.config.json")
	os.WriteFile(cfg, []byte(`{"entryScene": "`+registered+`", "scenes": [{"name": "main", "path": "`+registered+`"}]}`), 0o644)
	os.MkdirAll(filepath.Join(build, "assets", "scenes"), 0o755)
	os.WriteFile(filepath.Join(build, filepath.FromSlash(registered)), src, 0o644)
	side := t.TempDir()
	dep, meta := filepath.Join(side, "cook.d"), filepath.Join(side, "cook.json")
	if code, _, errs := run(t, "--config", demoYAML, "cook", demoScene, "--out", build, "--package-config", cfg, "--persist-at", "registered", "--depfile", dep, "--metafile", meta); code != 0 {
		t.Fatalf("exit %d: %q", code, errs)
	}
	d, _ := os.ReadFile(dep)
	m, _ := os.ReadFile(meta)
	if !strings.Contains(string(d), cfg) || !strings.Contains(string(m), `"path": "`+filepath.ToSlash(cfg)+`"`) {
		t.Errorf("the game configuration is not an input:\n%s\n%s", d, m)
	}
}
