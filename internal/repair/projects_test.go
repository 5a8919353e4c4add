package repair

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/corpus"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/validate"
)

// TestRealProjects makes every scene of ../shared/estella-projects a
// streamed world (as init would), then variants in which hard references
// cross cells, through scene entities and through prefab instances (a
// streamed root linked to one in another cell, a Link added to an
// instance by a component_added override, the persistent world linked
// into a cell), and repairs each with --write: the written scene must be
// the edit, validate must report no broken reference and no finding the
// variant did not have, cook must succeed, every entity the engine spawns
// must keep its world transform, every record the repair does not name
// must keep its bytes, the edit must keep the line endings, and the diff
// must apply with patch -p1 and git apply. Every scene must be repaired.
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
	repaired, instances := 0, 0
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
			var vs []variant
			size := 0.0
			for try := 0; try < 5 && len(vs) < 2; try++ {
				in, err := initworld.Make(mine, src, initworld.Options{Check: check, CellSize: size})
				if err != nil {
					t.Fatal(err)
				}
				if more := variants(t, mine, in.After(), o); len(more) > len(vs) {
					vs = more
				}
				size = in.CellSize / 4
			}
			if vs == nil {
				t.Fatal("no variant in which a reference crosses a cell could be made")
			}
			scened := 0
			for v, va := range vs {
				crlf := v == len(vs)-1
				variant := va.src
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
					t.Fatalf("variant %d (%s): no reference crosses a cell", v, va.what)
				}
				r, err := RunFile(context.Background(), mine, o, true)
				if err != nil {
					t.Fatalf("variant %d (%s): %v", v, va.what, err)
				}
				if len(r.Left) > 0 {
					for _, fx := range r.Fixes {
						for _, c := range fx.Excluded {
							t.Logf("variant %d: not offered: %s: %s", v, c.Repair, c.Excluded)
						}
					}
					t.Errorf("variant %d (%s): %d references left unrepaired", v, va.what, len(r.Left))
					continue
				}
				after, err := os.ReadFile(mine)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(after, r.Edit.After()) {
					t.Fatalf("variant %d (%s): --write wrote something else than the edit", v, va.what)
				}
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
						t.Errorf("variant %d (%s): after the repair: %s", v, va.what, f.Diagnostic.String())
					}
				}
				out := filepath.Join(dir, "out", strconv.Itoa(v))
				if _, err := cook.Cook(context.Background(), cook.Batch{Args: []string{mine}, Out: out, Validate: check, LockTimeout: time.Second}); err != nil {
					t.Errorf("variant %d (%s): cook after the repair: %v", v, va.what, err)
				}
				sameWorld(t, mine, o, variant, after)
				keptElse(t, variant, after, touched(r))
				if crlf && bytes.Count(after, []byte("\n")) != bytes.Count(after, []byte("\r\n")) {
					t.Errorf("variant %d: the edit wrote a bare line feed into a CR LF scene", v)
				}
				applies(t, mine, r.Edit)
				repaired++
				scened++
				if va.instance {
					instances++
				}
				t.Logf("variant %d (%s): %s", v, va.what, chosen(r))
			}
			if scened == 0 {
				t.Errorf("no variant of %s was repaired", rel)
			}
		})
	}
	if repaired == 0 || instances == 0 {
		t.Fatalf("%d variants repaired, %d through prefab instances", repaired, instances)
	}
}

// chosen lists the repairs r chose, for the log.
func chosen(r *Result) string {
	var out []string
	for _, fx := range r.Fixes {
		if fx.Chosen >= 0 {
			out = append(out, fx.Candidates[fx.Chosen].Repair)
		}
	}
	return strings.Join(out, "; ")
}

// touched are the ids of the entities the chosen repairs of r edit: the
// marked ones, the moved ones and the roots they move under.
func touched(r *Result) map[int64]bool {
	out := map[int64]bool{}
	for _, fx := range r.Fixes {
		if fx.Chosen < 0 {
			continue
		}
		c := fx.Candidates[fx.Chosen]
		for _, id := range c.Persist {
			out[id] = true
		}
		for _, m := range c.Moves {
			out[m.Entity], out[m.Under] = true, true
		}
	}
	return out
}

// keptElse checks that every byte of before outside the records of the
// entities in edited is in after: the text around the entities, and each
// other entity's record, byte for byte.
func keptElse(t *testing.T, before, after []byte, edited map[int64]bool) {
	t.Helper()
	db, err := scene.Parse("before", before)
	if err != nil {
		t.Fatal(err)
	}
	da, err := scene.Parse("after", after)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range db.Entities {
		j, ok := da.Lookup(e.ID)
		if !ok {
			t.Fatalf("entity %d is gone after the repair", e.ID)
		}
		if !edited[e.ID] && !bytes.Equal(db.Authored(i), da.Authored(j)) {
			t.Errorf("the repair changed entity %d, which it does not name:\n%s\n%s", e.ID, db.Authored(i), da.Authored(j))
		}
	}
	if n := len(db.Entities); n > 0 {
		head, tail := db.Offset(0), db.Offset(n-1)+len(db.Authored(n-1))
		atail := da.Offset(n-1) + len(da.Authored(n-1))
		if !bytes.Equal(before[:head], after[:da.Offset(0)]) || !bytes.Equal(before[tail:], after[atail:]) {
			t.Errorf("the repair changed the text around the entities")
		}
	}
}

// variant is a scene in which references cross cells.
type variant struct {
	src  []byte
	what string
	// instance: the reference goes from or to a prefab instance.
	instance bool
}

// variants are the streamed scene with references added across cells,
// each made if the scene has the roots it needs: the first streamed root
// (in file order) linked to the first root of another cell, for roots
// that are scene entities and for prefab instances on either side (an
// instance's Link added by a component_added override on its root), and
// the persistent world's first root with a Transform linked to the first
// streamed root of either kind.
func variants(t *testing.T, file string, src []byte, o Options) []variant {
	t.Helper()
	p, _, _, err := cook.OpenSource(context.Background(), file, src, o.Open)
	if err != nil {
		t.Fatal(err)
	}
	w := p.World()
	d := p.Doc
	pers := -1
	var streamed [2][]int // [0] scene entities, [1] expanded instances
	for i := range d.Entities {
		e := &d.Entities[i]
		if w.Parent(int32(i)) >= 0 {
			continue
		}
		inst := 0
		if e.IsPrefab() {
			if in := w.Instance(int32(i)); in == nil || !in.Expanded() {
				continue
			}
			inst = 1
		}
		if _, ok, _ := w.Local(int32(i)); !ok {
			continue
		}
		switch cell := cellOf(p, i); {
		case cell != "persistent":
			streamed[inst] = append(streamed[inst], i)
		case pers < 0 && inst == 0 && w.Flags(int32(i))&world.StreamedWorld == 0:
			pers = i
		}
	}
	name := func(i int) string {
		if d.Entities[i].IsPrefab() {
			return "instance " + who(w, i)
		}
		return who(w, i)
	}
	var out []variant
	for _, kinds := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
		as, bs := streamed[kinds[0]], streamed[kinds[1]]
		if len(as) == 0 {
			continue
		}
		a := as[0]
		for _, b := range bs {
			if cellOf(p, b) != cellOf(p, a) {
				out = append(out, variant{src: link(t, w, a, d.Entities[b].ID), what: name(a) + " links to " + name(b), instance: kinds != [2]int{}})
				break
			}
		}
	}
	if pers >= 0 {
		for k := range streamed {
			if len(streamed[k]) > 0 {
				b := streamed[k][0]
				out = append(out, variant{src: link(t, w, pers, d.Entities[b].ID), what: "persistent " + name(pers) + " links to " + name(b), instance: k == 1})
			}
		}
	}
	return out
}

// link returns the scene with a Link component targeting id added to
// entity i: appended to its components, or, for a prefab instance, by a
// component_added override on its root.
func link(t *testing.T, w *world.World, i int, id int64) []byte {
	d := w.Doc()
	rec := d.Authored(i)
	field, text := "components", fmt.Sprintf(`{ "type": "Link", "data": { "target": %d } }`, id)
	if d.Entities[i].IsPrefab() {
		in := w.Instance(int32(i))
		field = "overrides"
		text = fmt.Sprintf(`{ "prefabEntityId": %q, "type": "component_added", "componentType": "Link", "componentData": { "type": "Link", "data": { "target": %d } } }`, in.Tpl.Addr(in.Tpl.Root), id)
	}
	list, ok := scene.Field(rec, field)
	if !ok || scene.KindOf(list) != scene.Array {
		t.Fatalf("entity %d has no %s list", d.Entities[i].ID, field)
	}
	at := d.Offset(i) + (cap(rec) - cap(list)) + 1
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
		if !bytes.Equal(got, r.After()) {
			t.Fatalf("%s made something else of the scene than the repair:\n%s\n---\n%q\n---\n%q", tool, r.Diff, got, r.After())
		}
	}
}
