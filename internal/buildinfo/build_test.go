package buildinfo_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/blake3"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testbin"
)

// The two scenes of the real project the build tests cook, made streamed
// at a cell size that puts their tile maps in a cell of their own: each
// lists its own tileset texture, which the other does not use.
var buildScenes = []string{"hex-map", "iso-map"}

// realProject copies the tilemap demo of the shared Estella projects into
// dir/proj, with buildScenes made streamed, skipping the test when the
// projects are absent.
func realProject(t *testing.T, dir string) string {
	t.Helper()
	root := corpus.Projects()
	if root == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS to their path to run this test)")
	}
	src := filepath.Join(root, "examples", "tilemap-demo")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("Estella project %s not found", src)
	}
	proj := filepath.Join(dir, "proj")
	corpus.CopyTree(t, src, proj)
	for _, s := range buildScenes {
		file := filepath.Join(proj, "assets", "scenes", s+".esscene")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		at := bytes.Index(data, []byte(`"entities"`))
		open := bytes.IndexByte(data[at:], '[') + at + 1
		streamed := append(append(append([]byte(nil), data[:open]...),
			`{"id": 100000, "name": "Streamed World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": 160}}]},`...), data[open:]...)
		if err := os.WriteFile(file, streamed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proj
}

// editBytes changes a file's content, not only its time: a manifest
// records each asset's bytes and blake3, so only new content changes it.
func editBytes(t *testing.T, file string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte{0}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("$ %s %s (%.2fs)\n%s", name, strings.Join(args, " "), time.Since(start).Seconds(), out)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}

func read(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// buildTool is one build system driving the cook of buildScenes.
type buildTool struct {
	name string
	// file writes the build file for the worldcook binary.
	file func(bin string) (name, text string)
	args []string
	// ran reports whether the tool's output says the cook of scene ran.
	ran func(out, scene string) bool
	// idle reports whether the tool's output says it had nothing to do.
	idle func(out string) bool
}

var tools = []buildTool{
	{
		name: "ninja",
		file: func(bin string) (string, string) {
			var b strings.Builder
			b.WriteString("rule cook\n  command = " + bin + " cook -q --plane xy --out cooked --depfile $out.d $in\n" +
				"  depfile = $out.d\n  deps = gcc\n  restat = 1\n  description = cook $in\n")
			for _, s := range buildScenes {
				b.WriteString("build cooked/world/" + s + ".world.json: cook proj/assets/scenes/" + s + ".esscene\n")
			}
			b.WriteString("default")
			for _, s := range buildScenes {
				b.WriteString(" cooked/world/" + s + ".world.json")
			}
			return "build.ninja", b.String() + "\n"
		},
		ran: func(out, scene string) bool {
			return strings.Contains(out, "cook proj/assets/scenes/"+scene+".esscene")
		},
		idle: func(out string) bool { return strings.Contains(out, "ninja: no work to do.") },
	},
	{
		name: "make",
		file: func(bin string) (string, string) {
			var b strings.Builder
			b.WriteString("all:")
			for _, s := range buildScenes {
				b.WriteString(" cooked/world/" + s + ".world.json")
			}
			b.WriteString("\n")
			for _, s := range buildScenes {
				b.WriteString("cooked/world/" + s + ".world.json: proj/assets/scenes/" + s + ".esscene\n\t" +
					bin + " cook -q --plane xy --out cooked --depfile deps/" + s + ".d $<\n")
			}
			b.WriteString("$(shell mkdir -p deps)\n-include $(wildcard deps/*.d)\n")
			return "Makefile", b.String()
		},
		args: []string{"--no-print-directory"},
		ran:  func(out, scene string) bool { return strings.Contains(out, "proj/assets/scenes/"+scene+".esscene") },
		idle: func(out string) bool { return strings.Contains(out, "Nothing to be done") },
	},
}

// TestBuildTools drives the cook with the real build tools, as a studio's
// build does, and checks that the depfile tells them exactly what each
// cook depends on: a second build does nothing; new bytes in a texture
// one scene's cell uses re-run only that scene's cook and change its
// manifest; new bytes in a texture no scene uses re-run nothing.
func TestBuildTools(t *testing.T) {
	var bin string
	bins := t.TempDir()
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			path, err := exec.LookPath(tool.name)
			if err != nil {
				t.Skipf("%s not found on PATH (Debian: apt-get install ninja-build make); it proves the depfile", tool.name)
			}
			dir := t.TempDir()
			realProject(t, dir)
			if bin == "" {
				bin, _ = testbin.Build(t, bins)
			}
			name, text := tool.file(bin)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			build := func() string { return run(t, dir, path, tool.args...) }
			manifest := func(s string) string { return read(t, filepath.Join(dir, "cooked", "world", s+".world.json")) }

			out := build()
			for _, s := range buildScenes {
				if !tool.ran(out, s) {
					t.Fatalf("the first build did not cook %s", s)
				}
			}
			if out := build(); !tool.idle(out) {
				t.Fatalf("a second build did work")
			}

			hex, iso := manifest("hex-map"), manifest("iso-map")
			editBytes(t, filepath.Join(dir, "proj", "assets", "tilesets", "hex-tiles.png"))
			out = build()
			if !tool.ran(out, "hex-map") || tool.ran(out, "iso-map") {
				t.Fatalf("new bytes in hex-map's texture should re-run hex-map's cook alone")
			}
			if manifest("hex-map") == hex {
				t.Error("hex-map's manifest did not change with its texture")
			}
			if manifest("iso-map") != iso {
				t.Error("iso-map's manifest changed")
			}
			if out := build(); !tool.idle(out) {
				t.Fatalf("the build after the texture's cook did work")
			}

			editBytes(t, filepath.Join(dir, "proj", "assets", "textures", "player.png"))
			if out := build(); !tool.idle(out) {
				t.Fatalf("a texture no scene uses re-ran a cook")
			}
		})
	}
}

// TestHermetic cooks the real project, copies exactly the files the
// metafile lists as inputs (the depfile's list) into a fresh folder, cooks
// there and gets byte-identical outputs: what the cook read is all it
// depends on, so a remote build given those files cooks the same world.
func TestHermetic(t *testing.T) {
	a := t.TempDir()
	realProject(t, a)
	bin, _ := testbin.Build(t, t.TempDir())
	args := []string{"cook", "-q", "--plane", "xy", "--out", "cooked", "--depfile", "cook.d", "--metafile", "cook.json"}
	for _, s := range buildScenes {
		args = append(args, "proj/assets/scenes/"+s+".esscene")
	}
	run(t, a, bin, args...)
	type file struct {
		Path   string `json:"path"`
		Bytes  int64  `json:"bytes"`
		Blake3 string `json:"blake3"`
	}
	var meta struct {
		Inputs  []file `json:"inputs"`
		Outputs []file `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(a, "cook.json"))), &meta); err != nil {
		t.Fatal(err)
	}
	// Every digest is that of the file at its path, and every .meta of
	// the project (each read for the uuid index) is an input.
	listed := map[string]bool{}
	for _, f := range append(append([]file(nil), meta.Inputs...), meta.Outputs...) {
		listed[f.Path] = true
		data := read(t, filepath.Join(a, filepath.FromSlash(f.Path)))
		sum := blake3.Sum256([]byte(data))
		if int64(len(data)) != f.Bytes || hex.EncodeToString(sum[:]) != f.Blake3 {
			t.Errorf("the metafile gives %s %d bytes, blake3 %s; on disk it has %d, %x", f.Path, f.Bytes, f.Blake3, len(data), sum)
		}
	}
	filepath.WalkDir(filepath.Join(a, "proj", "assets"), func(p string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(a, p); err == nil && strings.HasSuffix(p, ".meta") && !listed[filepath.ToSlash(rel)] {
			t.Errorf("%s, read for the uuid index, is not an input", rel)
		}
		return nil
	})
	dep := read(t, filepath.Join(a, "cook.d"))
	b := t.TempDir()
	for _, in := range meta.Inputs {
		if filepath.IsAbs(in.Path) {
			t.Fatalf("input %s is outside the build folder", in.Path)
		}
		if !strings.Contains(dep, in.Path) {
			t.Errorf("the depfile does not list %s", in.Path)
		}
		dst := filepath.Join(b, filepath.FromSlash(in.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(read(t, filepath.Join(a, in.Path))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, b, bin, args...)
	if len(meta.Outputs) == 0 {
		t.Fatal("the metafile lists no outputs")
	}
	for _, o := range meta.Outputs {
		if got, want := read(t, filepath.Join(b, o.Path)), read(t, filepath.Join(a, o.Path)); got != want {
			t.Errorf("%s differs when cooked from the listed files alone", o.Path)
		}
	}
	if got, want := read(t, filepath.Join(b, "cook.json")), read(t, filepath.Join(a, "cook.json")); got != want {
		t.Errorf("the metafiles differ:\n%s\n%s", got, want)
	}
	t.Logf("%d inputs of %d files copied; %d outputs identical", len(meta.Inputs), countFiles(t, filepath.Join(a, "proj")), len(meta.Outputs))
}

func countFiles(t *testing.T, dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
