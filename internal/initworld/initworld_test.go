package initworld

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// summary is what a golden file holds besides the diff: what was chosen
// and marked, and what is left.
func summary(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cellSize %v chosen %v extent %+v empty %v world %d\n", r.CellSize, r.Chosen, r.Extent, r.Empty, r.World)
	for _, m := range r.Persistent {
		fmt.Fprintf(&b, "persistent %d %q: %s\n", m.Entity, m.Name, m.Why)
	}
	if r.Source != nil {
		fmt.Fprintf(&b, "source %d %q\n", r.Source.Entity, r.Source.Name)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note %s\n", n)
	}
	fmt.Fprintf(&b, "errors %d\n", r.Errors)
	return b.String()
}

func TestGolden(t *testing.T) {
	cases := []struct {
		name, scene string
		opts        Options
	}{
		{"door", "door.esscene", Options{}},
		{"door-25", "door.esscene", Options{CellSize: 25}},
		{"compact", "compact.esscene", Options{}},
		{"inline", "inline.esscene", Options{}},
		{"inline-xy", "inline.esscene", Options{Plane: "xy", CellSize: 500}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join("testdata", tc.scene)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Make(file, src, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			golden.Compare(t, filepath.Join("testdata", tc.name+".golden"), append([]byte(summary(r)+"\n"), r.Diff...))
			if !bytes.Equal(without(r.After(), r.ins), src) {
				t.Error("removing the inserted text does not give the original scene")
			}
			checkApplies(t, map[string]bool{"patch": has("patch"), "git": has("git")}, file, r)
			doc, err := scene.Parse(file, r.After())
			if err != nil {
				t.Fatal(err)
			}
			plan, err := validate.Check(doc, validate.Options{Plane: tc.opts.Plane})
			if err != nil {
				t.Fatal(err)
			}
			if n := plan.Errors(false); n > 0 || !plan.Streamed {
				t.Errorf("the result has %d errors (streamed %v): %v", n, plan.Streamed, plan.Findings)
			}
			assertNoRoles(t, doc, plan)
		})
	}
}

// The hinge of the door straddles x = 0, a grid line at every cell size:
// without marking both ends, the cut breaks it.
func TestDoorHingeKeptTogether(t *testing.T) {
	src, err := os.ReadFile("testdata/door.esscene")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []float64{0, 1, 10, 1000} {
		r, err := Make("testdata/door.esscene", src, Options{CellSize: size})
		if err != nil {
			t.Fatal(err)
		}
		marked := map[string]bool{}
		for _, m := range r.Persistent {
			marked[m.Name] = true
		}
		if !marked["Door"] || !marked["DoorFrame"] {
			t.Errorf("cell size %v: Door and DoorFrame are not both persistent: %+v", size, r.Persistent)
		}
		if marked["Lamp"] || marked["Rock"] {
			t.Errorf("cell size %v: a root that may stream was marked: %+v", size, r.Persistent)
		}
	}
}

func TestAlreadyStreamed(t *testing.T) {
	src, err := os.ReadFile("testdata/streamed.esscene")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Make("testdata/streamed.esscene", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Streamed || r.Diff != nil || !bytes.Equal(r.After(), src) {
		t.Errorf("a streamed world was edited: streamed %v, diff %q", r.Streamed, r.Diff)
	}
}

func TestBadInput(t *testing.T) {
	src, err := os.ReadFile("testdata/bad.esscene")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{}, "testdata/bad.esscene:1:"},
		{Options{Plane: "yz"}, "yz"},
		{Options{CellSize: -1}, "cell size -1"},
	} {
		_, err := Make("testdata/bad.esscene", src, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line with %q", tc.opts, err, tc.want)
		}
	}
}

func TestChooseCellSize(t *testing.T) {
	for _, tc := range []struct {
		span float64
		ok   bool
		want float64
	}{
		{800, true, 100},
		{460, true, 50},   // 57.5
		{1400, true, 200}, // 175
		{1700, true, 200}, // 212.5
		{2000, true, 250}, // 250
		{3000, true, 500}, // 375: nearer 500 than 250 on a log scale
		{60329, true, 10000},
		{4, true, 1},               // the engine's smallest
		{3e39, true, maxCellSize},  // 3.75e38 would round to 5e38
		{4e300, true, maxCellSize}, // beyond what the engine keeps
		{0, true, validate.DefaultCellSize},
		{100, false, validate.DefaultCellSize},
	} {
		got := ChooseCellSize(validate.Rect{MaxX: tc.span, MaxZ: tc.span / 2}, tc.ok)
		if got != tc.want {
			t.Errorf("span %v: cell size %v, want %v", tc.span, got, tc.want)
		}
	}
}

// TestCellSizeFitsTheEngine: init never writes a cellSize the engine's
// 32-bit float cannot hold, which validate would then refuse: a view or an
// extent beyond it is cut at maxCellSize, a size given beyond it refused.
func TestCellSizeFitsTheEngine(t *testing.T) {
	if maxCellSize > math.MaxFloat32 || readable(maxCellSize) != maxCellSize || readable(maxCellSize*2) <= math.MaxFloat32 {
		t.Fatalf("maxCellSize %v is not the largest readable size a float32 holds", maxCellSize)
	}
	for _, v := range []manifest.View{
		{Projection: manifest.Perspective, Distance: 1e300},
		{Projection: manifest.Orthographic, Width: 1e300, Height: 1e300},
	} {
		if got := viewCellSize(&v); got != maxCellSize {
			t.Errorf("view %+v: cell size %v, want %v", v, got, maxCellSize)
		}
	}
	// A collider as wide as 2e300: the extent asks for cells of 2.5e299.
	src := []byte(`{"entities":[{"id":4,"parent":null,"components":[{"type":"Transform","data":{}},{"type":"BoxCollider3D","data":{"halfExtents":{"x":1e300,"y":1,"z":1}}}]},{"id":9,"parent":null,"components":[{"type":"Transform","data":{"position":{"x":30}}}]}]}`)
	r, err := Make("wide.esscene", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.CellSize != maxCellSize || r.Errors > 0 {
		t.Errorf("cell size %v with %d errors (%q), want %v and none", r.CellSize, r.Errors, r.Notes, maxCellSize)
	}
	if _, err := Make("wide.esscene", src, Options{CellSize: 1e39}); err == nil || !strings.Contains(err.Error(), "32-bit float") {
		t.Errorf("--cell-size 1e39: error %v, want one naming the 32-bit float range", err)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "door.esscene")
	src, err := os.ReadFile("testdata/door.esscene")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, src, 0o640); err != nil {
		t.Fatal(err)
	}
	r, err := Run(file, Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.Before != nil || r.After() != nil {
		t.Error("Run's result keeps the scene's text")
	}
	want, err := Make(file, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.After()) || !bytes.Equal(r.Diff, want.Diff) {
		t.Error("--write did not write the result")
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left beside the scene: %v", entries)
	}
	// A second run finds a streamed world and writes nothing.
	r, err = Run(file, Options{}, true)
	if err != nil || !r.Streamed {
		t.Errorf("second run: streamed %v, err %v", r != nil && r.Streamed, err)
	}
	// A symbolic link is refused, and what it names is left as it is.
	link := filepath.Join(dir, "link.esscene")
	orig := filepath.Join(dir, "orig.esscene")
	os.WriteFile(orig, src, 0o644)
	if err := os.Symlink(orig, link); err != nil {
		t.Skip(err)
	}
	if _, err := Run(link, Options{}, true); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a symbolic link: err %v", err)
	}
	if got, _ := os.ReadFile(orig); !bytes.Equal(got, src) {
		t.Error("the file behind a refused link changed")
	}
}

// TestRunKeepsASaveMadeMeanwhile: a scene saved while init --write ran
// (written in place, or another file renamed over it, as editors save) is
// kept, and init says so: the mapped scene is checked to be the one the
// path names, unchanged, before the edit replaces it.
func TestRunKeepsASaveMadeMeanwhile(t *testing.T) {
	src, err := os.ReadFile("testdata/door.esscene")
	if err != nil {
		t.Fatal(err)
	}
	saved := append(bytes.Clone(src), ' ')
	for _, how := range []string{"in place", "renamed over"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "door.esscene")
			if err := os.WriteFile(file, src, 0o644); err != nil {
				t.Fatal(err)
			}
			beforeReplace = func(file string) {
				if how == "in place" {
					os.WriteFile(file, saved, 0o644)
					return
				}
				tmp := filepath.Join(dir, "save.tmp")
				os.WriteFile(tmp, saved, 0o644)
				os.Rename(tmp, file)
			}
			defer func() { beforeReplace = func(string) {} }()
			if _, err := Run(file, Options{}, true); err == nil || !strings.Contains(err.Error(), "changed while init read it") {
				t.Errorf("err %v, want the scene changed", err)
			}
			if got, _ := os.ReadFile(file); !bytes.Equal(got, saved) {
				t.Error("the scene saved meanwhile was replaced")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("files left beside the scene: %v", entries)
			}
		})
	}
}

// Write refuses to replace a scene that changed since it was read.
func TestWriteKeepsAConcurrentEdit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "door.esscene")
	src, _ := os.ReadFile("testdata/door.esscene")
	os.WriteFile(file, src, 0o644)
	r, err := Make(file, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	edited := append(bytes.Clone(src), '\n')
	os.WriteFile(file, edited, 0o644)
	if err := Write(r); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("err %v, want the scene changed", err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, edited) {
		t.Error("a concurrent edit was lost")
	}
}

func has(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// TestThinExtentSuggestsXY: a 2D scene measured on the x-z plane is one
// row of cells, and init says how to cut it on x and y instead; measured
// on x and y, or for a 3D scene, it says nothing of the kind.
func TestThinExtentSuggestsXY(t *testing.T) {
	scene := func(pos [][3]float64) []byte {
		var ents []string
		for i, p := range pos {
			ents = append(ents, fmt.Sprintf(`{ "id": %d, "name": "E%d", "parent": null, "children": [], "components": [ { "type": "Transform", "data": { "position": { "x": %g, "y": %g, "z": %g } } } ] }`, i+1, i+1, p[0], p[1], p[2]))
		}
		return []byte(`{ "version": 1, "name": "s", "entities": [` + strings.Join(ents, ",\n") + "] }")
	}
	flat := [][3]float64{{0, 0, 0}, {500, 300, 0}, {1000, 600, 0}}
	deep := [][3]float64{{0, 0, 0}, {500, 0, 300}, {1000, 0, 600}}
	for _, tc := range []struct {
		name  string
		pos   [][3]float64
		plane string
		hint  bool
	}{
		{"2D scene on xz", flat, "xz", true},
		{"2D scene on xy", flat, "xy", false},
		{"3D scene on xz", deep, "xz", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Make("s.esscene", scene(tc.pos), Options{Plane: tc.plane})
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Contains(strings.Join(r.Summary(), "\n"), "--plane xy")
			if said != tc.hint || r.Thin() != tc.hint {
				t.Errorf("extent %+v: Thin %v, summary suggests --plane xy %v; want %v", r.Extent, r.Thin(), said, tc.hint)
			}
		})
	}
}

// TestWriteRefusesAReadOnlyScene: a scene without a write bit (Perforce's
// lock on a file not checked out) is not replaced, and the refusal names it.
func TestWriteRefusesAReadOnlyScene(t *testing.T) {
	file := filepath.Join(t.TempDir(), "door.esscene")
	src, _ := os.ReadFile("testdata/door.esscene")
	os.WriteFile(file, src, 0o444)
	if _, err := Run(file, Options{}, true); err == nil || !strings.Contains(err.Error(), file+" is read-only") {
		t.Errorf("err %v, want the scene read-only", err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, src) {
		t.Error("a read-only scene was replaced")
	}
}

// TestWriteRemovesAKilledRunsTemporary: the full-size temporary a killed
// init --write left beside the scene is removed by the next one.
func TestWriteRemovesAKilledRunsTemporary(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "door.esscene")
	src, _ := os.ReadFile("testdata/door.esscene")
	os.WriteFile(file, src, 0o644)
	os.WriteFile(filepath.Join(dir, ".door.esscene.init-123456"), src, 0o600)
	os.WriteFile(filepath.Join(dir, "keep.esscene"), src, 0o644)
	if _, err := Run(file, Options{}, true); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files beside the scene: %v, want door.esscene and keep.esscene", entries)
	}
}

// TestKeepsCRLF: a scene whose lines end in CR LF gets inserted lines
// that end so too.
func TestKeepsCRLF(t *testing.T) {
	src, _ := os.ReadFile("testdata/door.esscene")
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	r, err := Make("door.esscene", crlf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.After()) == len(crlf) {
		t.Fatal("nothing inserted")
	}
	if n, m := bytes.Count(r.After(), []byte("\n")), bytes.Count(r.After(), []byte("\r\n")); n != m {
		t.Errorf("%d line breaks, %d of them CR LF", n, m)
	}
}

// cameraScene is a scene of the cameras given (each the components of a
// root entity, ids from 1) and a crate far away.
func cameraScene(cameras ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"version": 1, "name": "Cams", "entities": [`)
	for i, comps := range cameras {
		fmt.Fprintf(&b, `{"id": %d, "name": "Cam%d", "parent": null, "children": [], "components": [%s], "visible": true},`, i+1, i+1, comps)
	}
	fmt.Fprintf(&b, `{"id": %d, "name": "Crate", "parent": null, "children": [], "components": [{"type": "Transform", "data": {"position": {"x": 90, "y": 0, "z": 90}}}], "visible": true}]}`, len(cameras)+1)
	return []byte(b.String())
}

const cameraComps = `{"type": "Transform", "data": {"position": {"x": 0, "y": 2, "z": 0}}}, {"type": "Camera", "data": {"isActive": true, "priority": 0}}`

// TestPersistentCameraGetsNoSecondMark: a camera already WorldPersistent
// but without a source gets the source and keeps its one WorldPersistent
// (two would be a component the engine adds twice).
func TestPersistentCameraGetsNoSecondMark(t *testing.T) {
	src := cameraScene(cameraComps + `, {"type": "WorldPersistent", "data": {}}`)
	r, err := Make("cams.esscene", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Source == nil || r.Source.Entity != 1 {
		t.Fatalf("source %+v, want the camera", r.Source)
	}
	if n := bytes.Count(r.After(), []byte(`"WorldPersistent"`)); n != 1 || !bytes.Contains(r.After(), []byte(`"WorldStreamingSource"`)) {
		t.Errorf("%d WorldPersistent in the scene (want the camera's one), and a source?\n%s", n, r.After())
	}
}

// TestFirstOfEquallyRankedCameras: the source goes on the scene's main
// camera as the engine's camera director picks it (camera.Main, as
// validate and simulate read it): the first active full-frame camera in
// authored order whatever the priorities, else the full-frame one of
// highest priority (the first on a tie); a hidden camera is never
// spawned, and an overlay's viewport leaves it out while a full-frame
// camera exists.
func TestFirstOfEquallyRankedCameras(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cameras []string
		want    int64
	}{
		{"same priority", []string{cameraComps, cameraComps}, 1},
		{"no priority", []string{
			`{"type": "Transform", "data": {}}, {"type": "Camera", "data": {}}`,
			`{"type": "Transform", "data": {}}, {"type": "Camera", "data": {}}`}, 1},
		{"a higher priority later", []string{cameraComps, strings.Replace(cameraComps, `"priority": 0`, `"priority": 1`, 1)}, 1},
		{"an inactive first", []string{strings.Replace(cameraComps, "true", "false", 1), cameraComps}, 2},
		{"none active, a higher priority later", []string{strings.Replace(cameraComps, "true", "false", 1),
			strings.Replace(strings.Replace(cameraComps, "true", "false", 1), `"priority": 0`, `"priority": 1`, 1)}, 2},
		{"none active, one priority", []string{strings.Replace(cameraComps, "true", "false", 1), strings.Replace(cameraComps, "true", "false", 1)}, 1},
		{"an overlay first", []string{strings.Replace(cameraComps, `"priority": 0`, `"priority": 0, "viewport": {"x": 0.75, "w": 0.25}`, 1), cameraComps}, 2},
		{"a hidden one first", []string{cameraComps, cameraComps}, 2},
	} {
		src := cameraScene(tc.cameras...)
		if strings.HasPrefix(tc.name, "a hidden") {
			src = bytes.Replace(src, []byte(`], "visible": true},{"id": 2`), []byte(`], "visible": false},{"id": 2`), 1)
		}
		r, err := Make("cams.esscene", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Source == nil || r.Source.Entity != tc.want {
			t.Errorf("%s: source %+v, want entity %d", tc.name, r.Source, tc.want)
		}
	}
}

// TestDiffNamesApply: init's diff of a scene with a space, a trailing
// space, a tab, a line break (which would inject header lines), a quote,
// a backslash, ESC or a non-ASCII letter in its name applies with git
// apply to that very file and gives the scene init would write: the
// header names it as git diff does.
func TestDiffNamesApply(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("skipping: git is not installed")
	}
	src := cameraScene(cameraComps)
	for _, name := range []string{"plain.esscene", "my scene.esscene", "trailing .esscene", "tab\there.esscene",
		"line\n+++ b\tevil.esscene", "quote\"and\\back.esscene", "esc\x1b]0;x\a.esscene", "sc\u00e8ne.esscene", "\u00a0nbsp.esscene"} {
		dir := t.TempDir()
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Make(file, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.ApplyIn != dir {
			t.Fatalf("%q: apply in %q, want %q", name, r.ApplyIn, dir)
		}
		cmd := exec.Command(git, "apply", "--unsafe-paths", "-")
		cmd.Dir, cmd.Stdin = dir, bytes.NewReader(r.Diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: git apply: %v\n%s\n%s", name, err, out, r.Diff)
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, r.After()) {
			t.Errorf("%q: the applied diff differs from the scene init writes", name)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%q: git apply left %d files", name, len(ents))
		}
	}
}

// TestMainCameraInInstance: when the scene's main camera is a prefab
// instance (the first active camera in authored order is the instance's
// root), init gives no other camera the source, and a note says how to
// add it to the instance.
func TestMainCameraInInstance(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", `{}`)
	write("assets/prefabs/Rig.esprefab", `{"version": "2", "name": "Rig", "rootEntityId": "0", "entities": [
  {"prefabEntityId": "0", "name": "Rig", "parent": null, "children": [], "visible": true,
   "components": [{"type": "Transform", "data": {"position": {"x": 5, "y": 2, "z": 5}}}, {"type": "Camera", "data": {"isActive": true}}]}]}`)
	write("assets/prefabs/Rig.esprefab.meta", `{"uuid": "0b7c7d7e-1111-4222-8333-944455556666", "version": "2.0", "type": "prefab"}`)
	src := []byte(`{"version": 1, "name": "Rigged", "entities": [
  {"id": 1, "name": "Rig", "parent": null, "prefab": "assets/prefabs/Rig.esprefab", "overrides": [], "added": [], "removed": []},
  {"id": 2, "name": "Spare", "parent": null, "children": [], "components": [` + cameraComps + `], "visible": true}
]}`)
	file := filepath.Join(root, "assets", "scenes", "main.esscene")
	write("assets/scenes/main.esscene", string(src))
	r, err := Make(file, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Source != nil {
		t.Errorf("source on %+v, want none: the main camera is the instance", r.Source)
	}
	if r.View == nil || r.View.Camera != 1 {
		t.Errorf("view %+v, want the instance's camera", r.View)
	}
	found := false
	for _, n := range r.Notes {
		found = found || strings.Contains(n, "the main camera is prefab instance entity 1") && strings.Contains(n, "component_added WorldStreamingSource")
	}
	if !found {
		t.Errorf("no note names the instance: %q", r.Notes)
	}
}

// TestSettingsIDNamesNothing: the id init gives the settings entity is
// not one a child list, a parent or an entity reference already names,
// dangling: the added entity would become what they name.
func TestSettingsIDNamesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want int64
	}{
		{"free", `{"entities":[{"id":2,"parent":null,"components":[]}]}`, 1},
		{"a dangling child", `{"entities":[{"id":4,"parent":null,"children":[1],"components":[]}]}`, 2},
		{"a dangling parent", `{"entities":[{"id":4,"parent":1,"components":[]}]}`, 2},
		{"a dangling reference", `{"entities":[{"id":4,"parent":null,"children":[1],"components":[{"type":"Transform","data":{}},{"type":"RevoluteJoint","data":{"connectedEntity":2}}]}]}`, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Make("ids.esscene", []byte(tc.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.World != tc.want {
				t.Errorf("settings entity id %d, want %d", r.World, tc.want)
			}
		})
	}
}
