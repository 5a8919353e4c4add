package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/testbin"
)

// advised returns the commands a line of advice names, as printed: every
// "worldcook …" after the line's own "worldcook: " prefix, each up to
// the next one, a ", then …:" or the end of the line.
func advised(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		parts := strings.Split(line, " worldcook ")
		for _, p := range parts[1:] {
			if i := strings.Index(p, ", then "); i >= 0 {
				p = p[:i]
			}
			out = append(out, "worldcook "+strings.TrimSuffix(strings.TrimSpace(p), ";"))
		}
	}
	return out
}

// sh runs a command line as printed, with the worldcook binary first on
// PATH, in dir; it returns the exit status and the output.
func sh(t *testing.T, bin, dir, line string) (int, string) {
	t.Helper()
	c := exec.Command("sh", "-c", line)
	c.Dir = dir
	c.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// unstreamed copies the repository's containers project and takes the
// StreamedWorld out of its scene, as a project before init.
func unstreamed(t *testing.T) string {
	t.Helper()
	proj := t.TempDir()
	corpus.CopyTree(t, "../testdata/containers", proj)
	scene := filepath.Join(proj, "assets", "scenes", "main.esscene")
	src, err := os.ReadFile(scene)
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte(`{"type": "StreamedWorld", "data": {"cellSize": 100}}`), []byte(`{"type": "Transform", "data": {}}`), 1)
	if bytes.Contains(src, []byte("StreamedWorld")) {
		t.Fatal("the fixture's StreamedWorld was not taken out")
	}
	if err := os.WriteFile(scene, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "r.csv"), []byte("x,z\n50,50\n150,50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj
}

// TestAdviceRunsAsPrinted: every command worldcook advises in answer to a
// newcomer's mistake runs as printed, from where the mistake was made,
// and does what the advice says (exit 0, or 1 for validate showing the
// errors it was asked to show).
func TestAdviceRunsAsPrinted(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this machine")
	}
	bin, _ := testbin.Build(t, t.TempDir())
	for _, tc := range []struct {
		name string
		prep func(t *testing.T, proj string) // before the mistake
		line string                          // the mistake, as typed
		n    int                             // commands advised
		exit []int                           // each one's status
	}{
		{name: "simulate a folder of scenes none of which streams", line: "worldcook simulate --path r.csv assets/scenes", n: 2, exit: []int{0, 0}},
		{name: "simulate the project's root", prep: initMain, line: "worldcook simulate --path r.csv .", n: 1, exit: []int{0}},
		{name: "simulate . once cooked", prep: func(t *testing.T, p string) { initMain(t, p); mustSh(t, bin, p, "worldcook cook .") },
			line: "worldcook simulate --path r.csv . --summary-only", n: 1, exit: []int{0}},
		{name: "simulate cook's output of two worlds", prep: func(t *testing.T, p string) { initMain(t, p); twoScenes(t, p); mustSh(t, bin, p, "worldcook cook .") },
			line: "worldcook simulate --path r.csv", n: 1, exit: []int{0}},
		{name: "simulate with nothing cooked", prep: initMain, line: "worldcook simulate --path r.csv", n: 1, exit: []int{0}},
		{name: "a route given as the world", prep: func(t *testing.T, p string) { initMain(t, p); mustSh(t, bin, p, "worldcook cook .") },
			line: "worldcook simulate r.csv cooked", n: 1, exit: []int{0}},
		{name: "cook --check of a stale world", prep: func(t *testing.T, p string) { initMain(t, p); mustSh(t, bin, p, "worldcook cook . --out 'my world'") },
			line: `sed -i 's/"x": 10, "y": 0, "z": 10/"x": 12, "y": 0, "z": 10/' assets/scenes/main.esscene && worldcook cook --check . --out 'my world'`, n: 1, exit: []int{0}},
		{name: "cook --check from the environment", prep: initMain, line: "WORLDCOOK_COOK_CHECK=true worldcook cook .", n: 1, exit: []int{0}},
		{name: "tune a folder of scenes none of which streams", line: "worldcook tune --path r.csv assets/scenes", n: 2, exit: []int{0, 0}},
		{name: "tune the project's root", prep: initMain, line: "worldcook tune --path r.csv .", n: 1, exit: []int{0}},
		{name: "tune . once cooked", prep: func(t *testing.T, p string) { initMain(t, p); mustSh(t, bin, p, "worldcook cook .") },
			line: "worldcook tune --path r.csv .", n: 1, exit: []int{0}},
		{name: "init given the project", line: "worldcook init --cell-size 100 .", n: 1, exit: []int{0}},
		{name: "cook given a cell size", line: "worldcook cook --cellsize 100 assets/scenes/main.esscene", n: 1, exit: []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj := unstreamed(t)
			if tc.prep != nil {
				tc.prep(t, proj)
			}
			code, out := sh(t, bin, proj, tc.line)
			if code == 0 {
				t.Fatalf("%s: exit 0, want a refusal with advice:\n%s", tc.line, out)
			}
			cmds := advised(out)
			if len(cmds) != tc.n {
				t.Fatalf("%s advised %d commands %q, want %d:\n%s", tc.line, len(cmds), cmds, tc.n, out)
			}
			for i, c := range cmds {
				if code, got := sh(t, bin, proj, c); code != tc.exit[i] {
					t.Errorf("advised %q: exit %d, want %d:\n%s", c, code, tc.exit[i], got)
				}
			}
		})
	}
}

func mustSh(t *testing.T, bin, dir, line string) {
	t.Helper()
	if code, out := sh(t, bin, dir, line); code != 0 {
		t.Fatalf("%s: exit %d:\n%s", line, code, out)
	}
}

// initMain makes the project's scene streamed again, as init writes it.
func initMain(t *testing.T, proj string) {
	t.Helper()
	if code, _, errs := run(t, "init", "--write", "--cell-size", "100", filepath.Join(proj, "assets", "scenes", "main.esscene")); code != 0 {
		t.Fatalf("init: %s", errs)
	}
}

// twoScenes adds a second streamed scene beside main.
func twoScenes(t *testing.T, proj string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(proj, "assets", "scenes", "main.esscene"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "assets", "scenes", "level2.esscene"), src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitDiffAppliesWhereItRan: init's diff names the scene by its path
// from where init ran, as git diff writes paths, so that git apply and
// patch -p1 apply it there: from the project's root, from the scene's
// folder, and from a project that is a folder of a git repository.
func TestInitDiffAppliesWhereItRan(t *testing.T) {
	bin, _ := testbin.Build(t, t.TempDir())
	var tools []string
	for _, tool := range []string{"git", "patch"} {
		if _, err := exec.LookPath(tool); err == nil {
			tools = append(tools, tool)
		}
	}
	if len(tools) == 0 {
		t.Skip("neither git nor patch is installed")
	}
	apply := map[string]string{"git": "git apply", "patch": "patch -p1 --quiet"}
	for _, tc := range []struct {
		name, from, scene, header string
		repo                      bool
	}{
		{"the project's root", ".", "assets/scenes/main.esscene", "--- a/assets/scenes/main.esscene\n+++ b/assets/scenes/main.esscene\n", false},
		{"the scene's folder", "assets/scenes", "main.esscene", "--- a/main.esscene\n+++ b/main.esscene\n", false},
		{"a path that climbs and comes back", "assets/spine", "../scenes/main.esscene", "--- a/../scenes/main.esscene", false},
		{"a project in a git repository", ".", "assets/scenes/main.esscene", "--- a/assets/scenes/main.esscene\n", true},
	} {
		for _, tool := range tools {
			t.Run(tc.name+"/"+tool, func(t *testing.T) {
				top := t.TempDir()
				proj := top
				if tc.repo {
					proj = filepath.Join(top, "games", "demo")
					mustSh(t, bin, top, "git init -q")
				}
				if err := os.MkdirAll(proj, 0o755); err != nil {
					t.Fatal(err)
				}
				src := unstreamed(t)
				corpus.CopyTree(t, src, proj)
				dir := filepath.Join(proj, filepath.FromSlash(tc.from))
				code, out := sh(t, bin, dir, "worldcook init --cell-size 100 "+tc.scene+" > streamed.diff")
				if code != 0 {
					t.Fatalf("init: exit %d: %s", code, out)
				}
				diff, err := os.ReadFile(filepath.Join(dir, "streamed.diff"))
				if err != nil {
					t.Fatal(err)
				}
				if tc.header == "--- a/../scenes/main.esscene" {
					// A path from here that climbs out of here is no
					// path git diff writes: init names the file in its
					// own folder and says to apply it there.
					if !bytes.HasPrefix(diff, []byte("--- a/main.esscene\n")) {
						t.Fatalf("diff of a scene outside the working folder starts %.60q", diff)
					}
					dir = filepath.Join(proj, "assets", "scenes")
					if err := os.WriteFile(filepath.Join(dir, "streamed.diff"), diff, 0o644); err != nil {
						t.Fatal(err)
					}
				} else if !bytes.HasPrefix(diff, []byte(tc.header)) {
					t.Fatalf("diff starts %.80q, want %q", diff, tc.header)
				}
				if code, out := sh(t, bin, dir, apply[tool]+" < streamed.diff"); code != 0 {
					t.Fatalf("%s from %s: exit %d: %s", apply[tool], tc.from, code, out)
				}
				if code, out := sh(t, bin, proj, "worldcook validate assets/scenes/main.esscene"); code != 0 {
					t.Errorf("the applied scene does not validate: %s", out)
				}
			})
		}
	}
}
