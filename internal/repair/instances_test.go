package repair

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/corpus"
	goldenfile "github.com/worldcook/worldcook/internal/golden"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/scene"
)

// TestInstances repairs references from and to prefab instances
// (testdata/instances: a street of lamp instances, one marked
// WorldPersistent by its overrides, one referencing by a Link its
// overrides add, and one of a prefab whose root is a nested prefab). Every repair inside an instance is written as the
// engine applies an instance's edits: its overrides on the prefab's
// root. The table and the diff are a golden (-update rewrites it); each
// offered candidate, made on its own, must mend its group, keep every
// entity the engine spawns where it was and every record it does not
// name byte for byte.
func TestInstances(t *testing.T) {
	dir, file, src, o, r := street(t)
	var out bytes.Buffer
	if err := WriteText(&out, r); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\n")
	out.Write(r.Edit.Diff)
	goldenfile.Compare(t, filepath.Join("testdata", "instances.golden"), bytes.ReplaceAll(out.Bytes(), []byte(dir), []byte("DIR")))
	if len(r.Left) > 0 || len(r.Fixes) != 4 {
		t.Fatalf("%d groups, %d references left", len(r.Fixes), len(r.Left))
	}
	diffs := map[string]string{}
	for _, fx := range r.Fixes {
		if len(fx.Candidates) != 3 && len(fx.Candidates)+len(fx.Excluded) != 3 {
			t.Errorf("%s: %d candidates", fx.Findings[0].Message, len(fx.Candidates))
		}
		for _, c := range fx.Candidates {
			res, err := initworld.MakeRepair(file, src, c.edit)
			if err != nil {
				t.Fatalf("%s: %v", c.Repair, err)
			}
			diffs[c.Repair] = string(res.Diff)
			p, _, _, err := cook.OpenSource(context.Background(), file, res.After(), o.Open)
			if err != nil {
				t.Fatal(err)
			}
			left := map[string]bool{}
			for _, f := range broken(p) {
				left[key(f)] = true
			}
			for _, f := range fx.Findings {
				if left[key(f)] {
					t.Errorf("%s leaves %s", c.Repair, f.Message)
				}
			}
			sameWorld(t, file, o, src, res.After())
			named := map[int64]bool{}
			for _, id := range c.edit.Persist {
				named[id] = true
			}
			for _, m := range c.edit.Moves {
				named[m.Entity], named[m.Under] = true, true
			}
			keptElse(t, src, res.After(), named)
		}
	}
	// The overrides, as the engine's prefab core applies them: a
	// component added on the root (componentData is what it inserts), the
	// root's Transform property overrides (the last of each edited in
	// place, else appended), a component removed.
	for repair, want := range map[string][]string{
		`mark "Lamp" (3) WorldPersistent`:  {`+        },` + "\n" + `+        { "prefabEntityId": "lamp", "type": "component_added", "componentType": "WorldPersistent", "componentData": { "type": "WorldPersistent", "data": {} } }`},
		`move "Lamp" (3) under "Post" (2)`: {`-            "x": 25,`, `+            "x": 0,`, `"propertyName": "rotation", "value": { "x": 0, "y": -0.7071067811865476, "z": 0, "w": 0.7071067811865476 } }`, `"parent": 2,`},
		`move "Gate" (6) under "Road" (7)`: {`{ "prefabEntityId": "lamp", "type": "component_removed", "componentType": "WorldPersistent" }`, `"value": { "x": -30, "y": 0, "z": 0 }`, `"parent": 7,`},
		`move "Post" (2) under "Lamp" (3)`: {`"children": [2]`, `"parent": 3,`},
		// The root of a prefab whose root is a nested prefab's slot is
		// addressed through the slot.
		`mark "Pair" (8) WorldPersistent`: {`{ "prefabEntityId": "slot/lamp", "type": "component_added", "componentType": "WorldPersistent"`},
		`move "Pair" (8) under "Bin" (9)`: {`+        { "prefabEntityId": "slot/lamp", "type": "property", "componentType": "Transform", "propertyName": "position", "value": { "x": -10, "y": 0, "z": 0 } }`, `"propertyName": "scale"`},
	} {
		d, ok := diffs[repair]
		if !ok {
			t.Errorf("%s is not offered", repair)
			continue
		}
		for _, w := range want {
			if !strings.Contains(d, w) {
				t.Errorf("%s: the diff lacks %s:\n%s", repair, w, d)
			}
		}
	}
}

// TestTidy: rounding errors of short numbers are written short, and a
// long number the arithmetic gives (an authored cosine) is kept exactly.
func TestTidy(t *testing.T) {
	id := scene.Identity
	for _, tc := range []struct{ in, want float64 }{
		{2.0000000000000004, 2},
		{0.9238795325112867, 0.9238795325112867},
		{12.499999999999998, 12.5},
		{0.1234567890123456, 0.1234567890123456},
		{3.6e-15, 0},
	} {
		local := id
		local.Position.X = tc.in
		want := id
		want.Position.X = tc.want
		if got := tidy(id, local, want); got.Position.X != tc.want {
			t.Errorf("tidy(%v) = %v, want %v", tc.in, got.Position.X, tc.want)
		}
	}
}

// street copies the street of instances to a temporary project and
// weighs its repairs: the project's folder, the scene's path and bytes,
// the options and the result.
func street(t *testing.T) (dir, file string, src []byte, o Options, r *Result) {
	t.Helper()
	dir = t.TempDir()
	corpus.CopyTree(t, filepath.Join("testdata", "instances"), dir)
	file = filepath.Join(dir, "assets", "scenes", "street.esscene")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	o = options()
	r, err = Make(context.Background(), file, src, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, file, src, o, r
}
