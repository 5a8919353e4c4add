package repair

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// TestRealProjects makes every scene of ../shared/estella-projects a
// streamed world (as init would), then variants in which hard references
// cross cells (a streamed root linked to one in another cell, and the
// persistent world linked into a cell), and repairs each: the repaired
// scene must cook with no broken reference and no finding the variant
// did not have, every entity must keep its world transform, the edit
// must keep the line endings, and the diff must apply with patch -p1 and
// git apply.
func TestRealProjects(t *testing.T) {
	root := corpus.Projects()
	if root == "" {
		t.Skip("Estella projects not found at ../shared/estella-projects (set WORLDCOOK_PROJECTS)")
	}
	var scenes []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".esscene") {
			scenes = append(scenes, p)
		}
		return nil
	})
	repaired := 0
	for _, file := range scenes {
		rel, _ := filepath.Rel(root, file)
		proj := filepath.Dir(filepath.Dir(filepath.Dir(file))) // <project>/assets/scenes/x.esscene
		t.Run(rel, func(t *testing.T) {
			dir := t.TempDir()
			corpus.CopyTree(t, proj, dir)
			mine, _ := filepath.Rel(proj, file)
			mine = filepath.Join(dir, mine)
			src, err := os.ReadFile(mine)
			if err != nil {
				t.Fatal(err)
			}
			check := validate.Options{Components: linkFields}
			o := Options{Open: cook.OpenOptions{Validate: check}}
			// Cells as init chooses them, else finer ones, until two
			// streamed roots lie in different cells.
			var vs [][]byte
			size := 0.0
			for try := 0; try < 5 && vs == nil; try++ {
				in, err := initworld.Make(mine, src, initworld.Options{Check: check, CellSize: size})
				if err != nil {
					t.Fatal(err)
				}
				vs = variants(t, mine, in.After, o)
				size = in.CellSize / 4
			}
			if vs == nil {
				t.Skip("no root that is not a prefab instance streams, so no reference can be made to cross cells")
			}
			for v, variant := range vs {
				crlf := v == len(vs)-1
				if crlf {
					variant = bytes.ReplaceAll(variant, []byte("\n"), []byte("\r\n"))
				}
				if err := os.WriteFile(mine, variant, 0o644); err != nil {
					t.Fatal(err)
				}
				before, _, _, err := cook.OpenSource(context.Background(), mine, variant, o.Open)
				if err != nil {
					t.Fatal(err)
				}
				if len(broken(before)) == 0 {
					t.Fatalf("variant %d: no reference crosses a cell", v)
				}
				r, err := Make(context.Background(), mine, variant, o)
				if err != nil {
					t.Fatalf("variant %d: %v", v, err)
				}
				if len(r.Left) > 0 {
					for _, fx := range r.Fixes {
						for _, c := range fx.Excluded {
							t.Logf("variant %d: not offered: %s: %s", v, c.Repair, c.Excluded)
						}
					}
					t.Errorf("variant %d: %d references left unrepaired", v, len(r.Left))
					continue
				}
				after := r.Edit.After
				p, _, _, err := cook.OpenSource(context.Background(), mine, after, o.Open)
				if err != nil {
					t.Fatal(err)
				}
				had := map[string]bool{}
				for _, f := range before.Findings {
					had[key(f)] = true
				}
				for _, f := range p.Findings {
					// A warning on the world's shape may follow (one
					// cell left: nothing-streams); nothing else may.
					if f.Code == validate.CodeCrossCellRef || f.Code == validate.CodePersistentToCellRef ||
						!had[key(f)] && (f.Severity == validate.SeverityError || breaks[f.Code]) {
						t.Errorf("variant %d: after the repair: %s", v, f.Diagnostic.String())
					}
				}
				sameWorld(t, variant, after)
				if crlf && bytes.Count(after, []byte("\n")) != bytes.Count(after, []byte("\r\n")) {
					t.Errorf("variant %d: the edit wrote a bare line feed into a CR LF scene", v)
				}
				applies(t, mine, r.Edit)
				repaired++
			}
		})
	}
	if repaired == 0 {
		t.Fatal("no variant was repaired")
	}
}

// variants are the streamed scene with references added across cells:
// the first streamed root (in file order) that is no prefab instance
// linked to the first such root of another cell, and the persistent
// world's first root with a Transform linked to that streamed root; nil
// when neither can be made.
func variants(t *testing.T, file string, src []byte, o Options) [][]byte {
	t.Helper()
	p, _, _, err := cook.OpenSource(context.Background(), file, src, o.Open)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Doc
	var a, b, pers = -1, -1, -1
	for i := range d.Entities {
		e := &d.Entities[i]
		if e.HasParent || e.IsPrefab() {
			continue
		}
		if _, ok, _ := d.Transform(i); !ok {
			continue
		}
		switch cell := cellOf(p, i); {
		case cell == "persistent":
			if pers < 0 && !d.Has(i, "StreamedWorld") {
				pers = i
			}
		case a < 0:
			a = i
		case b < 0 && cell != cellOf(p, a):
			b = i
		}
	}
	var out [][]byte
	if a >= 0 && b >= 0 {
		out = append(out, link(t, d, a, d.Entities[b].ID))
	}
	if a >= 0 && pers >= 0 {
		out = append(out, link(t, d, pers, d.Entities[a].ID))
	}
	return out
}

// link returns the scene with a Link component targeting id appended to
// entity i's components.
func link(t *testing.T, d *scene.Document, i int, id int64) []byte {
	rec := d.Authored(i)
	list, ok := scene.Field(rec, "components")
	if !ok || scene.KindOf(list) != scene.Array {
		t.Fatalf("entity %d has no components list", d.Entities[i].ID)
	}
	at := d.Offset(i) + (cap(rec) - cap(list)) + 1
	text := fmt.Sprintf(`{ "type": "Link", "data": { "target": %d } }`, id)
	if len(bytes.TrimSpace(list[1:len(list)-1])) > 0 {
		text += ", "
	}
	out := append([]byte(nil), d.Src[:at]...)
	out = append(out, text...)
	return append(out, d.Src[at:]...)
}

// applies checks that patch -p1 and git apply, run where the diff says
// (the scene's folder when it is outside the working directory), turn
// the scene's text before into the result.
func applies(t *testing.T, file string, r *initworld.Result) {
	t.Helper()
	for _, tool := range []string{"patch", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			continue
		}
		dir := t.TempDir()
		name, _ := initworld.DiffPath(file)
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, r.Before, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("patch", "-p1", "--quiet", "--no-backup-if-mismatch")
		if tool == "git" {
			cmd = exec.Command("git", "apply", "-p1", "-")
		}
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(r.Diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s does not apply the diff: %v\n%s\n%s", tool, err, out, r.Diff)
		}
		got, _ := os.ReadFile(target)
		if !bytes.Equal(got, r.After) {
			t.Fatalf("%s made something else of the scene than the repair", tool)
		}
	}
}
