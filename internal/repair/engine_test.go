package repair

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// engineRoot is an instance root as the engine's prefab core expands it.
type engineRoot struct {
	ID         int64
	Parent     *int64
	Components []struct {
		Type string
		Data json.RawMessage
	}
}

// TestInstancesAgainstTheEngine makes every repair --fix offers on the
// street of prefab instances (testdata/instances) and expands each
// instance entry of the repaired scene with the engine's own prefab core
// in Node (expandEntry: flatten, nested prefabs, overrides, the entry's
// parent): the root the engine spawns must carry WorldPersistent exactly
// when the model of the repaired world says the instance is persistent,
// hang under the parent the model gives it, and stand where the model
// places it, its Transform as the overrides the repair wrote leave it.
func TestInstancesAgainstTheEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	dir, file, src, o, r := street(t)
	prefabs := map[string]json.RawMessage{}
	for _, name := range []string{"Lamp", "Pair"} {
		b, err := os.ReadFile(filepath.Join(dir, "assets", "prefabs", name+".esprefab"))
		if err != nil {
			t.Fatal(err)
		}
		prefabs["assets/prefabs/"+name+".esprefab"] = b
	}
	var worlds []*world.World
	var scenes [][]json.RawMessage
	edits := 0
	for _, fx := range r.Fixes {
		for _, c := range fx.Candidates {
			res, err := initworld.MakeRepair(file, src, c.edit)
			if err != nil {
				t.Fatal(err)
			}
			p, _, _, err := cook.OpenSource(context.Background(), file, res.After(), o.Open)
			if err != nil {
				t.Fatal(err)
			}
			w := p.World()
			var entries []json.RawMessage
			for _, i := range w.Instances() {
				entries = append(entries, w.Doc().Authored(int(i)))
			}
			worlds = append(worlds, w)
			scenes = append(scenes, entries)
			edits++
		}
	}
	if edits < 8 {
		t.Fatalf("only %d repairs offered", edits)
	}
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "engine.ts"))
	in, _ := json.Marshal(map[string]any{"prefabs": prefabs, "scenes": scenes})
	var out [][]engineRoot
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(worlds) {
		t.Fatalf("the engine answered %d scenes, want %d", len(out), len(worlds))
	}
	for k, w := range worlds {
		for n, i := range w.Instances() {
			got := out[k][n]
			name := w.InstancePath(i)
			persistent, placed := false, false
			var at scene.TRS
			for _, c := range got.Components {
				switch c.Type {
				case "WorldPersistent":
					persistent = true
				case "Transform":
					var ok bool
					if at, ok = geometry.ReadTRS(c.Data); !ok {
						var err error
						at, err = scene.ParseTRS(c.Data)
						if err != nil {
							t.Fatalf("scene %d, %s: the engine's Transform %s: %v", k, name, c.Data, err)
						}
					}
					placed = true
				}
			}
			if want := w.Flags(i)&world.Persistent != 0; persistent != want {
				t.Errorf("scene %d, %s: the engine's root carries WorldPersistent: %v, the model says %v", k, name, persistent, want)
			}
			parent := int64(-1)
			if got.Parent != nil {
				parent = *got.Parent
			}
			if p := w.Parent(i); p >= 0 && parent != w.Doc().Entities[p].ID || p < 0 && parent != -1 {
				t.Errorf("scene %d, %s: the engine hangs the root under %d, the model under index %d", k, name, parent, p)
			}
			local, has, err := w.Local(i)
			if err != nil || !has || !placed || local != at {
				t.Errorf("scene %d, %s: the engine places the root at %+v, the model at %+v (%v)", k, name, at, local, err)
			}
		}
	}
}
