package cmd

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A hostile filesystem case: a tree built in a temporary folder, the
// command run in it, and what must hold afterwards.
type hostileFS struct {
	name string
	// build makes the tree under dir and returns the arguments (after
	// --config) and the files that must come out byte-identical: the
	// inputs and whatever lies outside the output directory.
	build func(t *testing.T, dir string) (args, keep []string)
	code  int
	// want are substrings of the one line on stderr (exit 2) or of
	// stderr (exit 1); "" skips.
	want []string
	// absent are substrings stderr must not hold.
	absent []string
	// after, if set, checks more once the command ended.
	after func(t *testing.T, dir string)
	// chdir runs the command from this folder under dir.
	chdir string
}

// demoInto copies the demo scene to dir/rel.
func demoInto(t *testing.T, dir, rel string) string {
	t.Helper()
	src, err := os.ReadFile("../testdata/demo/main.esscene")
	if err != nil {
		t.Fatal(err)
	}
	// The demo's project comes along (project.esproject and its assets at
	// dir), so that the scene's mesh, textures and materials are found
	// wherever under dir it is put.
	if err := os.CopyFS(dir, os.DirFS("../testdata/demo")); err != nil && !errors.Is(err, fs.ErrExist) {
		t.Fatal(err)
	}
	for _, f := range []string{"main.esscene", "route.csv", "worldcook.yaml"} {
		os.Remove(filepath.Join(dir, f))
	}
	// The project's scenes are under levels/, as the engine names them
	// (levels/town/x.esscene is "town/x").
	if err := os.WriteFile(filepath.Join(dir, "project.esproject"), []byte(`{"formatVersion": "1", "name": "worldcook demo", "defaultScene": "levels/main.esscene"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(t *testing.T, p, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if code, stdout, stderr := run(t, append([]string{"--config", demoConfig}, args...)...); code != 0 {
		t.Fatalf("%v: exit %d: %s%s", args, code, stdout, stderr)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("named pipes: %v", err)
	}
}

// noWorld checks that a refused cook wrote nothing: no file in the
// output folder (which a cook refused once it found a prefab or asset
// has made, to lock it, before it read the scene).
func noWorld(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(filepath.Join(dir, "out"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			t.Errorf("the refused cook wrote %s", p)
		}
		return nil
	})
}

// cookedDemo cooks the demo scene at dir/levels/main.esscene into
// dir/out and returns both paths.
func cookedDemo(t *testing.T, dir string) (scene, out string) {
	t.Helper()
	scene = demoInto(t, dir, "levels/main.esscene")
	out = filepath.Join(dir, "out")
	mustRun(t, "cook", scene, "--out", out)
	return scene, out
}

// prefabScene writes a streamed scene placing one prefab instance and the
// prefab, and returns both.
func prefabScene(t *testing.T, dir string) (scene, prefab string) {
	scene = writeFile(t, filepath.Join(dir, "p", "main.esscene"), `{"version":1,"name":"m","entities":[`+
		`{"id":9,"parent":null,"children":[],"components":[{"type":"StreamedWorld","data":{"cellSize":100}}]},`+
		`{"id":1,"parent":null,"prefab":"assets/x.esprefab","overrides":[],"added":[],"removed":[]}]}`)
	prefab = writeFile(t, filepath.Join(dir, "p", "assets", "x.esprefab"),
		`{"rootEntityId":1,"entities":[{"prefabEntityId":1,"components":[{"type":"Transform","data":{"position":{"x":10,"y":0,"z":10}}}]}]}`)
	return scene, prefab
}

func hostileFSCases() []hostileFS {
	const refused = "cook into an --out folder that holds none of the input"
	return []hostileFS{
		// 1. The input is never written.
		{name: "out is the scene's folder", code: 2, want: []string{"levels/main.esscene is also", refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", s, "--out", filepath.Join(dir, "levels")}, []string{s}
			}},
		{name: "out is . in the scene's folder", code: 2, chdir: "levels", want: []string{"scene main.esscene is also main.esscene", refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", "main.esscene", "--out", "."}, []string{s}
			}},
		{name: "out is ./", code: 2, chdir: "levels", want: []string{refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", "main.esscene", "--out", "./"}, []string{s}
			}},
		{name: "out is .. from a folder below", code: 2, chdir: "levels/sub", want: []string{refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				os.MkdirAll(filepath.Join(dir, "levels", "sub"), 0o755)
				return []string{"cook", "../main.esscene", "--out", ".."}, []string{s}
			}},
		{name: "out names the scene's folder through a folder not yet made", code: 2, want: []string{refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", s, "--out", filepath.Join(dir, "levels", "new") + "/.."}, []string{s}
			},
			after: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "levels", "new")); err == nil {
					t.Error("the refused cook created a folder")
				}
			}},
		{name: "out is a link to the scene's folder, with a slash", code: 2, want: []string{refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				symlink(t, "levels", filepath.Join(dir, "alias"))
				return []string{"cook", s, "--out", filepath.Join(dir, "alias") + "/"}, []string{s}
			}},
		{name: "out is a link to the scene's folder", code: 2, want: []string{"is a symbolic link"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				symlink(t, "levels", filepath.Join(dir, "alias"))
				return []string{"cook", s, "--out", filepath.Join(dir, "alias")}, []string{s}
			}},
		{name: "the scene is hard-linked as the persistent output", code: 2, want: []string{"levels/main.esscene is also", "out/main.esscene", refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				os.MkdirAll(filepath.Join(dir, "out"), 0o755)
				if err := os.Link(s, filepath.Join(dir, "out", "main.esscene")); err != nil {
					t.Skip(err)
				}
				return []string{"cook", s, "--out", filepath.Join(dir, "out")}, []string{s}
			}},
		{name: "the scene is linked from a cell of the output", code: 2, want: []string{"out/world/main.cell_0_0.json", refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				cell := filepath.Join(out, "world", "main.cell_0_0.json")
				os.Remove(cell)
				symlink(t, s, cell)
				return []string{"cook", s, "--out", out}, []string{s}
			}},
		{name: "the scene is the output of another scene of the run", code: 2, want: []string{refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/a.esscene")
				b := demoInto(t, dir, "other/main.esscene")
				os.MkdirAll(filepath.Join(dir, "out"), 0o755)
				os.Link(b, filepath.Join(dir, "out", "a.esscene"))
				return []string{"cook", a, b, "--out", filepath.Join(dir, "out")}, []string{a, b}
			}},
		{name: "a prefab the scene reads is a cell of the output", code: 2, want: []string{"prefab", "x.esprefab is also", "world/main.cell_0_0.json", refused},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, prefab := prefabScene(t, dir)
				out := filepath.Join(dir, "out")
				mustRun(t, "cook", s, "--out", out)
				cell := filepath.Join(out, "world", "main.cell_0_0.json")
				os.Remove(cell)
				if err := os.Link(prefab, cell); err != nil {
					t.Skip(err)
				}
				return []string{"cook", s, "--out", out}, []string{s, prefab}
			}},
		{name: "--cpuprofile names the scene", code: 2, want: []string{"--cpuprofile", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--cpuprofile", s}, []string{s}
			}},
		{name: "--memprofile names the configuration", code: 2, want: []string{"--memprofile", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				cfg := filepath.Join(dir, "worldcook.yaml")
				b, _ := os.ReadFile(demoConfig)
				os.WriteFile(cfg, b, 0o644)
				return []string{"--config", cfg, "cook", s, "--out", filepath.Join(dir, "out"), "--memprofile", cfg}, []string{s, cfg}
			}},
		{name: "--memprofile names a prefab through a link", code: 2, want: []string{"--memprofile", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, prefab := prefabScene(t, dir)
				symlink(t, prefab, filepath.Join(dir, "profile"))
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--memprofile", filepath.Join(dir, "profile")}, []string{s, prefab}
			}},
		{name: "--cpuprofile names a prefab through a link", code: 2, want: []string{"--cpuprofile", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, prefab := prefabScene(t, dir)
				symlink(t, prefab, filepath.Join(dir, "profile"))
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--cpuprofile", filepath.Join(dir, "profile")}, []string{s, prefab}
			}},
		{name: "--depfile names the journal", code: 2, want: []string{"--depfile", ".main.worldcook-journal, a file this run writes itself"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				out := filepath.Join(dir, "out")
				return []string{"cook", s, "--out", out, "--depfile", filepath.Join(out, ".main.worldcook-journal")}, []string{s}
			}},
		{name: "--metafile names the manifest in other case", code: 2, want: []string{"--metafile", "main.world.json, a file this run writes itself"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				manifest := filepath.Join(out, "world", "main.world.json")
				return []string{"cook", s, "--out", out, "--metafile", filepath.Join(out, "world", "Main.World.json")}, []string{s, manifest}
			}},
		{name: "--depfile and --metafile name one file", code: 2, want: []string{"--metafile", "is also the file of --depfile"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--depfile", filepath.Join(dir, "cook.d"), "--metafile", filepath.Join(dir, "COOK.d")}, []string{s}
			}},
		{name: "--depfile names the game configuration", code: 2, want: []string{"--depfile", "is also the file of --package-config"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				cfg := writeFile(t, filepath.Join(dir, "web", "game.config.json"), `{"entryScene": "x"}`)
				return []string{"cook", s, "--out", filepath.Join(dir, "web"), "--package-config", cfg, "--depfile", cfg}, []string{s, cfg}
			}},
		{name: "validate --map names the scene", code: 2, want: []string{"--map", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				return []string{"validate", s, "--map", filepath.Join(dir, "levels", ".", "main.esscene")}, []string{s}
			}},
		// Every side output is checked against every file the run reads
		// or writes before anything is written: the world stays as it
		// was (here: not cooked at all), the input keeps its bytes.
		{name: "--depfile names a cell in other case, before the first cook", code: 2, want: []string{"--depfile", "main.cell_1_2.json, a cell of main, a file this run writes itself"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				out := filepath.Join(dir, "out")
				return []string{"cook", s, "--out", out, "--depfile", filepath.Join(out, "world", "MAIN.CELL_1_2.JSON")}, []string{s}
			}, after: noWorld},
		{name: "--depfile names a file in the staging folder", code: 2, want: []string{"--depfile", "a file this run writes itself"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				out := filepath.Join(dir, "out")
				return []string{"cook", s, "--out", out, "--depfile", filepath.Join(out, ".worldcook-staging-main", "000001")}, []string{s}
			}, after: noWorld},
		{name: "--depfile names a hard link of a cell", code: 2, want: []string{"--depfile", "main.cell_1_1.json, a file this run writes itself"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				link := filepath.Join(dir, "cook.d")
				if err := os.Link(filepath.Join(out, "world", "main.cell_1_1.json"), link); err != nil {
					t.Skipf("hard links: %v", err)
				}
				return []string{"cook", s, "--out", out, "--depfile", link}, []string{s, link}
			}},
		{name: "--metafile names a material the scene uses", code: 2, want: []string{"--metafile", "stone.esmaterial, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				mat := filepath.Join(dir, "assets", "materials", "stone.esmaterial")
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--metafile", mat}, []string{s, mat}
			}, after: noWorld},
		{name: "--depfile names a texture's sidecar through a linked folder", code: 2, want: []string{"--depfile", "stone.png.meta, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				symlink(t, filepath.Join(dir, "assets", "textures"), filepath.Join(dir, "alias"))
				meta := filepath.Join(dir, "assets", "textures", "stone.png.meta")
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--depfile", filepath.Join(dir, "alias", "stone.png.meta")}, []string{s, meta}
			}, after: noWorld},
		{name: "--cpuprofile names a prefab, before the world is written", code: 2, want: []string{"--cpuprofile", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, prefab := prefabScene(t, dir)
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--cpuprofile", prefab}, []string{s, prefab}
			}, after: noWorld},
		{name: "--memprofile names the project file", code: 2, want: []string{"--memprofile", "project.esproject, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				proj := filepath.Join(dir, "project.esproject")
				return []string{"cook", s, "--out", filepath.Join(dir, "out"), "--memprofile", proj}, []string{s, proj}
			}, after: noWorld},
		{name: "simulate --map names the persistent world", code: 2, want: []string{"--map", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				_, out := cookedDemo(t, dir)
				p := filepath.Join(out, "main.esscene")
				return []string{"simulate", "-q", "--path", "../testdata/demo/route.csv", out, "--map", p}, []string{p}
			}},
		{name: "simulate --plot names a texture the world's manifest lists", code: 2, want: []string{"--plot", "stone.png, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				_, out := cookedDemo(t, dir)
				tex := filepath.Join(dir, "assets", "textures", "stone.png")
				return []string{"simulate", "-q", "--path", "../testdata/demo/route.csv", out, "--plot", tex}, []string{tex}
			}},
		{name: "simulate --html names a material of the scene simulated", code: 2, want: []string{"--html", "stone.esmaterial, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				mat := filepath.Join(dir, "assets", "materials", "stone.esmaterial")
				return []string{"simulate", "-q", "--path", "../testdata/demo/route.csv", s, "--html", mat}, []string{s, mat}
			}},
		{name: "simulate --plot and --map name one file", code: 2, want: []string{"--map", "is also the file of --plot"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				_, out := cookedDemo(t, dir)
				return []string{"simulate", "-q", "--path", "../testdata/demo/route.csv", out, "--plot", filepath.Join(dir, "a.svg"), "--map", filepath.Join(dir, "A.svg")}, nil
			}},
		{name: "tune --write --plot names a texture", code: 2, want: []string{"--plot", "stone.png, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				tex := filepath.Join(dir, "assets", "textures", "stone.png")
				return []string{"tune", "--path", "../testdata/demo/route.csv", "--write", "--plot", tex, s}, []string{s, tex}
			}},
		{name: "validate --map names a material", code: 2, want: []string{"--map", "stone.esmaterial, an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/main.esscene")
				mat := filepath.Join(dir, "assets", "materials", "stone.esmaterial")
				return []string{"validate", s, "--map", mat}, []string{s, mat}
			}},
		{name: "simulate --plot names the route", code: 2, want: []string{"--plot", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				_, out := cookedDemo(t, dir)
				route := filepath.Join(dir, "route.csv")
				b, _ := os.ReadFile("../testdata/demo/route.csv")
				os.WriteFile(route, b, 0o644)
				return []string{"simulate", "-q", "--path", route, out, "--plot", route}, []string{route}
			}},
		{name: "simulate --map names a cell of the world", code: 2, want: []string{"--map", "an input of this run"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				_, out := cookedDemo(t, dir)
				cell := filepath.Join(out, "world", "main.cell_1_1.json")
				return []string{"simulate", "-q", "--path", "../testdata/demo/route.csv", out, "--map", cell}, []string{cell}
			}},

		// 2. Two scenes never share outputs.
		{name: "a b and a_b", code: 2, want: []string{`a b.esscene ("a b")`, `a_b.esscene ("a_b")`, "world/a_b.world.json"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/a b.esscene")
				b := demoInto(t, dir, "levels/a_b.esscene")
				return []string{"cook", filepath.Join(dir, "levels"), "--out", filepath.Join(dir, "out")}, []string{a, b}
			},
			after: noOutput},
		{name: "town/x and town_x", code: 2, want: []string{`("town/x")`, `("town_x")`, "world/town_x.world.json"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/town/x.esscene")
				b := demoInto(t, dir, "levels/town_x.esscene")
				return []string{"cook", filepath.Join(dir, "levels"), "--out", filepath.Join(dir, "out")}, []string{a, b}
			},
			after: noOutput},
		{name: "a scene named into another's staging folder", code: 2, want: []string{"would both write"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/main.esscene")
				b := demoInto(t, dir, "levels/.worldcook-staging-main/000001.esscene")
				return []string{"cook", a, b, "--scenes-root", filepath.Join(dir, "levels"), "--out", filepath.Join(dir, "out")}, []string{a, b}
			},
			after: noOutput},
		{name: "a b, then a_b in another run", code: 2, want: []string{`a_b.esscene (scene "a_b") would overwrite the world of scene "a b"`, `(both names become the file name "a_b")`, "cook one of them into another --out", "delete its files"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/a b.esscene")
				b := demoInto(t, dir, "levels/a_b.esscene")
				out := filepath.Join(dir, "out")
				mustRun(t, "cook", a, "--out", out)
				return []string{"cook", b, "--out", out}, append(filesUnder(t, out), a, b)
			}},
		{name: "Main, then main in another run", code: 2, want: []string{`(scene "main") would overwrite the world of scene "Main"`, "one where names ignore case"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				a := demoInto(t, dir, "levels/Main.esscene")
				b := demoInto(t, dir, "levels/main.esscene")
				out := filepath.Join(dir, "out")
				mustRun(t, "cook", a, "--out", out)
				return []string{"cook", b, "--out", out}, append(filesUnder(t, out), a, b)
			}},

		// 3. Nothing outside OUT is written, renamed or removed.
		{name: "OUT/town is a link out of OUT", code: 2, want: []string{"out/town is not a real directory", "remove it"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/town/x.esscene")
				os.MkdirAll(filepath.Join(dir, "out"), 0o755)
				victim := writeFile(t, filepath.Join(dir, "elsewhere", "keep.txt"), "precious")
				symlink(t, filepath.Join(dir, "elsewhere"), filepath.Join(dir, "out", "town"))
				return []string{"cook", filepath.Join(dir, "levels"), "--out", filepath.Join(dir, "out")}, []string{s, victim}
			},
			after: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "elsewhere", "x.esscene")); err == nil {
					t.Error("the persistent scene landed outside the output directory")
				}
			}},
		{name: "OUT/town is a link to OUT/world", code: 2, want: []string{"out/town is not a real directory"}, absent: []string{"commit is decided"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s := demoInto(t, dir, "levels/town/x.esscene")
				os.MkdirAll(filepath.Join(dir, "out", "world"), 0o755)
				symlink(t, "world", filepath.Join(dir, "out", "town"))
				return []string{"cook", filepath.Join(dir, "levels"), "--out", filepath.Join(dir, "out")}, []string{s}
			}},
		{name: "the record's temporary file is a link to a victim", code: 0,
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				// Outside a project, where the cook keeps a record (a
				// project's assets are not covered by one).
				os.Remove(filepath.Join(dir, "project.esproject"))
				writeFile(t, s, strings.Replace(readText(t, s), `"visible": true`, `"visible": false`, 1))
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				symlink(t, victim, filepath.Join(out, ".main.worldcook-record.tmp"))
				return []string{"cook", s, "--out", out}, []string{s, victim}
			},
			after: func(t *testing.T, dir string) {
				if st, err := os.Lstat(filepath.Join(dir, "out", ".main.worldcook-record")); err != nil || !st.Mode().IsRegular() {
					t.Errorf("no record written beside the world: %v", err)
				}
			}},
		{name: "the journal's temporary file is a link to a victim", code: 0,
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				writeFile(t, s, strings.Replace(readText(t, s), `"visible": true`, `"visible": false`, 1))
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				symlink(t, victim, filepath.Join(out, ".main.worldcook-journal.tmp"))
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "the staging folder is a link to a folder outside", code: 0,
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				writeFile(t, s, strings.Replace(readText(t, s), `"visible": true`, `"visible": false`, 1))
				victim := writeFile(t, filepath.Join(dir, "elsewhere", "000000"), "precious")
				symlink(t, filepath.Join(dir, "elsewhere"), filepath.Join(out, ".worldcook-staging-main"))
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "the persistent scene is a link to a victim", code: 2, want: []string{"out/main.esscene exists and is not a regular file; remove it"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				os.Remove(filepath.Join(out, "main.esscene"))
				symlink(t, victim, filepath.Join(out, "main.esscene"))
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "a cell is a named pipe", code: 2, want: []string{"main.cell_0_0.json exists and is not a regular file"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				cell := filepath.Join(out, "world", "main.cell_0_0.json")
				os.Remove(cell)
				mkfifo(t, cell)
				return []string{"cook", s, "--out", out}, []string{s}
			}},

		// 4. Files the cook trusts are checked first.
		{name: "a journal naming ../victim for removal", code: 2,
			want: []string{".main.worldcook-journal is damaged", `"../victim"`, "delete it and the folder", "then cook again"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				writeFile(t, filepath.Join(out, ".main.worldcook-journal"), `{"renames":[],"removes":["../victim"]}`)
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "a journal moving a file onto ../victim", code: 2, want: []string{"is damaged", `"../victim"`},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				writeFile(t, filepath.Join(out, ".worldcook-staging-main", "000000"), "evil")
				writeFile(t, filepath.Join(out, ".main.worldcook-journal"), `{"renames":[[".worldcook-staging-main/000000","../victim"]],"removes":[]}`)
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "a journal moving a victim into the world", code: 2, want: []string{"is damaged", "not a staged file"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				writeFile(t, filepath.Join(out, ".main.worldcook-journal"), `{"renames":[["../victim","main.esscene"]],"removes":[]}`)
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},
		{name: "a journal removing another scene's cell", code: 2, want: []string{"is damaged", "world/other.cell_0_0.json"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				other := writeFile(t, filepath.Join(out, "world", "other.cell_0_0.json"), "{}")
				writeFile(t, filepath.Join(out, ".main.worldcook-journal"), `{"renames":[],"removes":["world/other.cell_0_0.json"]}`)
				return []string{"cook", s, "--out", out}, []string{s, other}
			}},
		{name: "a journal that is not JSON", code: 2, want: []string{"is damaged (not a journal", "delete it"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				writeFile(t, filepath.Join(out, ".main.worldcook-journal"), `{"renames":[[`)
				return []string{"cook", s, "--out", out}, []string{s}
			}},
		{name: "a journal that is a named pipe", code: 2, want: []string{"is damaged (a named pipe, not a regular file)"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				mkfifo(t, filepath.Join(out, ".main.worldcook-journal"))
				return []string{"cook", s, "--out", out}, []string{s}
			}},
		{name: "a journal of 100 MB", code: 2, want: []string{"is damaged", "more than the 67108864"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				f, _ := os.Create(filepath.Join(out, ".main.worldcook-journal"))
				f.Truncate(100 << 20)
				f.Close()
				return []string{"cook", s, "--out", out}, []string{s}
			}},
		{name: "a record that is a named pipe", code: 0,
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				os.Remove(filepath.Join(out, ".main.worldcook-record"))
				mkfifo(t, filepath.Join(out, ".main.worldcook-record"))
				return []string{"cook", s, "--out", out}, []string{s}
			}},
		{name: "a record naming ../victim", code: 0,
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				victim := writeFile(t, filepath.Join(dir, "victim"), "precious")
				writeFile(t, filepath.Join(out, ".main.worldcook-record"), `{"input":"x","key":"y","manifest":"","files":["../victim"],"sizes":[8],"streamed":false}`)
				return []string{"cook", s, "--out", out}, []string{s, victim}
			}},

		// 7. --check looks at the bytes.
		{name: "--check finds a cell edited with its size and time kept", code: 1, want: []string{"out of date"},
			build: func(t *testing.T, dir string) ([]string, []string) {
				s, out := cookedDemo(t, dir)
				cell := filepath.Join(out, "world", "main.cell_1_1.json")
				st, _ := os.Stat(cell)
				b, _ := os.ReadFile(cell)
				i := bytes.Index(b, []byte(`"name":"`)) + len(`"name":"`)
				b[i] ^= 0x20
				os.WriteFile(cell, b, 0o644)
				os.Chtimes(cell, st.ModTime(), st.ModTime())
				return []string{"cook", "--check", s, "--out", out}, []string{s, cell}
			}},
	}
}

// TestDamagedJournalAdviceWorks follows the message of a damaged journal:
// once it and the staging folder are deleted, the cook goes through and
// the world is whole again.
func TestDamagedJournalAdviceWorks(t *testing.T) {
	dir := t.TempDir()
	s, out := cookedDemo(t, dir)
	journal := filepath.Join(out, ".main.worldcook-journal")
	writeFile(t, journal, `{"renames":[],"removes":["../victim"]}`)
	writeFile(t, filepath.Join(out, ".worldcook-staging-main", "000000"), "half")
	code, _, stderr := run(t, "--config", demoConfig, "cook", s, "--out", out)
	if code != 2 || !strings.Contains(stderr, "delete it and the folder "+filepath.Join(out, ".worldcook-staging-main")) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	os.Remove(journal)
	os.RemoveAll(filepath.Join(out, ".worldcook-staging-main"))
	mustRun(t, "cook", s, "--out", out)
	mustRun(t, "simulate", "-q", "--path", "../testdata/demo/route.csv", out)
}

// TestReadOnlyOutputSaysSo: on a read-only file system every write and
// every removal fails, of files that exist or not. The message says that
// the output directory is read-only, not that some journal (which does
// not exist) could not be removed.
func TestReadOnlyOutputSaysSo(t *testing.T) {
	dir := t.TempDir()
	demo, edited := demoPair(t, dir)
	out := filepath.Join(dir, "out")
	if code, stderr := cookThrough(t, nil, demo, out); code != 0 {
		t.Fatalf("cook: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	ro := func() *faultFS {
		return &faultFS{FS: openOut(t, out), errno: syscall.EROFS, ops: map[string]bool{"mkdir": true, "write": true, "rename": true, "remove": true}}
	}
	// faultFS.Remove fails whether or not the file is there, as unlink
	// does on a read-only mount.
	code, stderr := cookThrough(t, ro(), edited, out)
	if code != ExitInput || !strings.Contains(stderr, "the output directory "+out+" is on a read-only file system") ||
		strings.Contains(stderr, "journal") || strings.Contains(stderr, "free space") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, out))
	// With a killed cook's leftovers there, removing them is what fails,
	// and the message still puts the read-only directory first.
	writeFile(t, filepath.Join(out, ".main.worldcook-journal.tmp"), "{")
	before = snapshot(t, out)
	code, stderr = cookThrough(t, ro(), edited, out)
	if code != ExitInput || !strings.HasPrefix(stderr, "worldcook: the output directory "+out+" is on a read-only file system (removing the unfinished journal") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, out))
}

// filesUnder lists every file under dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("%d files under %s (%v)", len(out), dir, err)
	}
	return out
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noOutput checks that a refused cook did not even create its output.
func noOutput(t *testing.T, dir string) {
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("the refused cook created its output directory")
	}
}

// TestHostileFileSystem runs each case in a fresh temporary tree: the
// exit status, the message, that the inputs and files outside the output
// directory are byte for byte what they were, and that the command ends
// promptly (named pipes must never be opened for reading).
func TestHostileFileSystem(t *testing.T) {
	for _, tc := range hostileFSCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args, keep := tc.build(t, dir)
			before := map[string]string{}
			for _, p := range keep {
				before[p] = readText(t, p)
			}
			config, err := filepath.Abs(demoConfig)
			if err != nil {
				t.Fatal(err)
			}
			if tc.chdir != "" {
				t.Chdir(filepath.Join(dir, filepath.FromSlash(tc.chdir)))
			}
			type result struct {
				code           int
				stdout, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, stdout, stderr := run(t, append([]string{"--config", config}, args...)...)
				done <- result{code, stdout, stderr}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the command did not end within 30 s")
			}
			t.Logf("exit %d: %s", r.code, strings.TrimSpace(r.stderr))
			if r.code != tc.code {
				t.Errorf("exit %d, want %d: %s", r.code, tc.code, r.stderr)
			}
			if lines := errorLines(r.stderr); r.code == 2 && (len(lines) != 1 || !strings.HasPrefix(lines[0], "worldcook: ")) {
				t.Errorf("want one line on stderr, got:\n%s", r.stderr)
			}
			if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
				t.Errorf("panic:\n%s", r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, r.stderr)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(r.stderr, w) {
					t.Errorf("stderr says %q:\n%s", w, r.stderr)
				}
			}
			for p, b := range before {
				if got, err := os.ReadFile(p); err != nil || string(got) != b {
					t.Errorf("%s was changed or removed (%v)", p, err)
				}
			}
			if tc.after != nil {
				tc.after(t, dir)
			}
		})
	}
}

// TestCookFolderIntoItsSubfolder: cooking levels/ into levels/cooked
// twice cooks the same scenes both times; what the first cook wrote is
// never read back as an input.
func TestCookFolderIntoItsSubfolder(t *testing.T) {
	dir := t.TempDir()
	demoInto(t, dir, "levels/main.esscene")
	demoInto(t, dir, "levels/town/inn.esscene")
	levels, out := filepath.Join(dir, "levels"), filepath.Join(dir, "levels", "cooked")
	var runs []string
	for range 2 {
		code, stdout, stderr := run(t, "--config", demoConfig, "--json", "cook", levels, "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		res := cookLines(t, stdout)
		var names []string
		for _, r := range res {
			names = append(names, r.Scene)
		}
		runs = append(runs, strings.Join(names, ","))
	}
	if runs[0] != "main,town/inn" || runs[1] != runs[0] {
		t.Fatalf("the two cooks cooked %q and %q", runs[0], runs[1])
	}
	// The folder that is the output holds no input of its own.
	if code, _, stderr := run(t, "--config", demoConfig, "cook", out, "--out", out); code != 2 || !strings.Contains(stderr, "is the output directory") {
		t.Fatalf("cooking the output folder: exit %d: %s", code, stderr)
	}
}

// TestStaleCellsAreOnlyTheScenesOwn: a manifest edited to list a file
// that is not one of the scene's cells never gets that file removed.
func TestStaleCellsAreOnlyTheScenesOwn(t *testing.T) {
	dir := t.TempDir()
	s, out := cookedDemo(t, dir)
	other := writeFile(t, filepath.Join(out, "world", "other.cell_0_0.json"), "{}")
	mf := filepath.Join(out, "world", "main.world.json")
	text := readText(t, mf)
	i := strings.Index(text, `"path": "world/main.cell_0_0.json"`)
	if i < 0 {
		t.Fatal("no cell 0,0 in the manifest")
	}
	writeFile(t, mf, text[:i]+`"path": "world/other.cell_0_0.json"`+text[i+len(`"path": "world/main.cell_0_0.json"`):])
	mustRun(t, "cook", s, "--out", out)
	if got := readText(t, other); got != "{}" {
		t.Fatalf("the other scene's file became %q", got)
	}
}

// TestSideOutputsKeepOffOtherScenesNames: a side output in the output
// directory may not take a name a cook into it keeps for any scene, this
// run's or another's: another scene's journal (a depfile there made that
// scene's next cook refuse "journal is damaged"), staging folder, record,
// cell or manifest. A name of no scene's is fine.
func TestSideOutputsKeepOffOtherScenesNames(t *testing.T) {
	dir := copyDemo(t)
	os.MkdirAll(filepath.Join(dir, "levels"), 0o755)
	demo, err := os.ReadFile(filepath.Join(dir, "main.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"main", "town"} {
		os.WriteFile(filepath.Join(dir, "levels", s+".esscene"), demo, 0o644)
	}
	main, town, out := filepath.Join(dir, "levels", "main.esscene"), filepath.Join(dir, "levels", "town.esscene"), filepath.Join(dir, "out")
	if code, _, stderr := run(t, "cook", "-q", main, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{".levels_town.worldcook-journal", ".levels_town.worldcook-journal.tmp", ".LEVELS_TOWN.worldcook-record",
		".worldcook-staging-levels_town", "world/levels_town.cell_0_0.json", "world/Levels_Town.World.json", "world/levels_town.cell_L1_0_0.json"} {
		for _, flag := range []string{"--depfile", "--metafile"} {
			code, _, stderr := run(t, "cook", "-q", main, "--out", out, flag, filepath.Join(out, name))
			if code != ExitInput || !strings.Contains(stderr, "a name cooks into") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s %s: exit %d, %q", flag, name, code, stderr)
			}
			if _, err := os.Lstat(filepath.Join(out, name)); err == nil {
				t.Errorf("%s %s: written", flag, name)
			}
		}
	}
	if code, _, stderr := run(t, "cook", "-q", main, "--out", out, "--depfile", filepath.Join(out, "world", "main.d")); code != 0 {
		t.Errorf("a depfile named as no scene's file: exit %d: %s", code, stderr)
	}
	if code, _, stderr := run(t, "cook", "-q", town, "--out", out); code != 0 {
		t.Errorf("the other scene's cook: exit %d: %s", code, stderr)
	}
}

// TestSimulateAndTuneKeepOffCookedNames: simulate's --html, --plot and
// --map and tune's --plot may take no name a cook keeps in a cooked
// output folder, of the scene cooked there or of another (its journal,
// record, staging folder, cells, manifest, persistent world), in any
// case, whether the run reads that world or the scene: a plot over the
// journal made every later simulate and cook report an interrupted
// commit. Nothing is written, and a plot beside them is.
func TestSimulateAndTuneKeepOffCookedNames(t *testing.T) {
	dir := copyDemo(t)
	os.MkdirAll(filepath.Join(dir, "levels"), 0o755)
	demo, err := os.ReadFile(filepath.Join(dir, "main.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	main, out := filepath.Join(dir, "levels", "main.esscene"), filepath.Join(dir, "out")
	os.WriteFile(main, demo, 0o644)
	route := filepath.Join(dir, "route.csv")
	if code, _, stderr := run(t, "cook", "-q", main, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := filesUnder(t, out)
	names := []string{".levels_main.worldcook-journal", ".levels_town.worldcook-journal.tmp", ".LEVELS_MAIN.worldcook-record",
		".worldcook-staging-levels_main", "world/levels_main.cell_0_0.json", "world/levels_main.cell_7_7.json",
		"world/Levels_Town.World.json", "world/levels_main.cell_L1_0_0.json", "levels/MAIN.esscene"}
	type cmdCase struct {
		name  string
		args  func(flag, file string) []string
		flags []string
	}
	for _, c := range []cmdCase{
		{"simulate the world", func(flag, file string) []string {
			return []string{"simulate", "-q", "--path", route, out, flag, file}
		}, []string{"--html", "--plot", "--map"}},
		{"simulate the scene", func(flag, file string) []string {
			return []string{"simulate", "-q", "--path", route, main, flag, file}
		}, []string{"--plot"}},
		{"tune the world", func(flag, file string) []string {
			return []string{"tune", "-q", "--path", route, out, flag, file}
		}, []string{"--plot"}},
		{"tune the scene", func(flag, file string) []string {
			return []string{"tune", "-q", "--path", route, main, flag, file}
		}, []string{"--plot"}},
	} {
		for _, name := range names {
			for _, flag := range c.flags {
				code, _, stderr := run(t, c.args(flag, filepath.Join(out, filepath.FromSlash(name)))...)
				if code != ExitInput || !strings.Contains(stderr, "cook") || !strings.Contains(stderr, "write it somewhere else") {
					t.Errorf("%s %s %s: exit %d, %q", c.name, flag, name, code, stderr)
				}
			}
		}
	}
	if after := filesUnder(t, out); !slices.Equal(after, before) {
		t.Errorf("the refused runs changed the cooked folder: %v, was %v", after, before)
	}
	if code, _, stderr := run(t, "simulate", "-q", "--path", route, out, "--plot", filepath.Join(out, "plot.svg")); code != 0 {
		t.Errorf("a plot named as no cook's file: exit %d: %s", code, stderr)
	}
}
