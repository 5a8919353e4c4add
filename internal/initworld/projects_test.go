package initworld

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// projectScenes lists the scenes of ../shared/estella-projects, skipping
// t when the projects are absent.
func projectScenes(t *testing.T) []string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "estella-projects")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skip("Estella projects not found at ../shared/estella-projects")
	}
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".esscene") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Skip("no scenes in ../shared/estella-projects")
	}
	return out
}

// without removes the inserted text from after: what is left must be
// the original, byte for byte.
func without(after []byte, ins []insertion) []byte {
	var out []byte
	prev, shift := 0, 0
	for _, e := range ins {
		at := e.At + shift
		out = append(out, after[prev:at]...)
		prev = at + len(e.Text)
		shift += len(e.Text)
	}
	return append(out, after[prev:]...)
}

func TestRealScenes(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every shared scene")
	}
	projects := projectScenes(t)
	files := append(projects, corpus.Files(t, ".esscene")...)
	tools := map[string]bool{}
	for _, tool := range []string{"patch", "git"} {
		_, err := exec.LookPath(tool)
		tools[tool] = err == nil
	}
	streamed := 0
	for _, file := range files {
		name := strings.TrimPrefix(file, filepath.Dir(filepath.Dir(file))+"/")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			before, err := scene.Parse(file, src)
			if err != nil {
				t.Skipf("the scene does not parse: %v", err)
			}
			r, err := Make(file, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Streamed {
				streamed++
				return
			}
			if !bytes.Equal(without(r.After(), r.ins), src) {
				t.Fatal("removing the inserted text does not give the original scene")
			}
			checkApplies(t, tools, file, r)
			doc, err := scene.Parse(file, r.After())
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			plan, err := validate.Check(doc, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !plan.Streamed {
				t.Fatal("the result is not a streamed world")
			}
			// Errors the scene has before the cut (its structure) may
			// remain; the cut must add none.
			orig, err := validate.Check(before, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			had := map[string]bool{}
			for _, f := range orig.Findings {
				had[f.Code] = true
			}
			// A corpus scene lies outside its project, so its prefabs may
			// not be found: an instance that cannot be placed is named in
			// the notes. In a project, every instance must place.
			inProject := slices.Contains(projects, file)
			for _, f := range plan.Findings {
				if f.Severity != validate.SeverityError || had[f.Code] {
					continue
				}
				if !inProject && f.Code == validate.CodeUnplaceablePrefab && slices.Contains(r.Notes, f.String()) {
					continue
				}
				{
					t.Errorf("the result does not cook: %s", f.String())
				}
			}
			assertNoRoles(t, doc, plan)
			t.Logf("cell size %v (extent %.6g × %.6g), %d roots marked, source on %v, %d cells, %d notes",
				r.CellSize, r.Extent.MaxX-r.Extent.MinX, r.Extent.MaxZ-r.Extent.MinZ, len(r.Persistent), r.Source, len(plan.Cells), len(r.Notes))
		})
	}
}

// assertNoRoles fails when a camera, UI root, scene-wide light or
// streaming source is placed in a cell of plan.
func assertNoRoles(t *testing.T, d *scene.Document, plan *validate.Plan) {
	t.Helper()
	for _, f := range plan.Findings {
		if f.Code == validate.CodeCameraInCell || f.Code == validate.CodeUIRootInCell {
			t.Errorf("left in a cell: %s", f.String())
		}
	}
	for _, c := range plan.Cells {
		for _, i := range c.Entities {
			for _, comp := range d.Components(int(i)) {
				if validate.GlobalLight(comp) || validate.StreamingSource(comp) {
					t.Errorf("entity %d %q (%s) is left in cell %s", d.Entities[i].ID, d.Entities[i].Name, comp.Type, c.Name)
				}
			}
		}
	}
}

// checkApplies applies the diff with patch -p1 and git apply from a copy
// of the scene's folder, under the scene's own name, and compares.
func checkApplies(t *testing.T, tools map[string]bool, file string, r *Result) {
	t.Helper()
	for _, tool := range []string{"patch", "git"} {
		if !tools[tool] {
			continue
		}
		// The scene where the diff says it is, from where the command
		// ran (or, for one outside it, in the folder r.ApplyIn names).
		dir := t.TempDir()
		base, _ := DiffPath(file)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, base)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, base), r.Before, 0o644); err != nil {
			t.Fatal(err)
		}
		var cmd *exec.Cmd
		if tool == "patch" {
			cmd = exec.Command("patch", "-p1", "--quiet", "--no-backup-if-mismatch")
		} else {
			cmd = exec.Command("git", "apply", "-p1", "-")
		}
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(r.Diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s does not apply the diff: %v\n%s\n%s", tool, err, out, r.Diff)
		}
		got, err := os.ReadFile(filepath.Join(dir, base))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, r.After()) {
			t.Fatalf("%s applied the diff to something else than the result", tool)
		}
	}
}
