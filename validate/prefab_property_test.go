package validate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/scene"
)

// The property test below builds random prefab libraries (plain prefabs
// with random hierarchies, variants of them, prefabs nesting them) and
// random scenes of their instances with random edits, and compares the
// plan with a naive expansion written here from the prefab documents as
// JSON maps: every expanded origin lies in its cell's bounds, and the
// references rejected are exactly the cross-residency ones the naive
// expansion finds.

type naiveEnt struct {
	addr, parent string
	comps        []map[string]any
}

func naiveLoad(t *testing.T, dir, ref string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ref))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func naiveEnts(m map[string]any) []naiveEnt {
	var out []naiveEnt
	for _, e := range m["entities"].([]any) {
		em := e.(map[string]any)
		ne := naiveEnt{addr: em["prefabEntityId"].(string)}
		if p, ok := em["parent"].(string); ok {
			ne.parent = p
		}
		for _, c := range asList(em["components"]) {
			ne.comps = append(ne.comps, c.(map[string]any))
		}
		out = append(out, ne)
		if np, ok := em["nestedPrefab"].(map[string]any); ok {
			out[len(out)-1].comps = nil
			out[len(out)-1].addr = "nested:" + ne.addr + ":" + np["prefabPath"].(string)
		}
	}
	return out
}

// naiveExpand expands prefab ref with overrides (one level of variant or
// nesting, as the generator makes them) into entities with addresses.
func naiveExpand(t *testing.T, dir, ref string, ovs []any) (ents []naiveEnt, root string) {
	m := naiveLoad(t, dir, ref)
	root = m["rootEntityId"].(string)
	var own []any
	if base, ok := m["basePrefab"].(string); ok {
		bm := naiveLoad(t, dir, base)
		ents = naiveEnts(bm)
		ents = append(ents, naiveEnts(m)...)
		own = asList(m["overrides"])
	} else {
		for _, e := range naiveEnts(m) {
			if strings.HasPrefix(e.addr, "nested:") {
				parts := strings.SplitN(e.addr, ":", 3)
				slot, path := parts[1], parts[2]
				var nm map[string]any
				for _, x := range m["entities"].([]any) {
					if x.(map[string]any)["prefabEntityId"] == slot {
						nm = x.(map[string]any)["nestedPrefab"].(map[string]any)
					}
				}
				sub := asList(nm["overrides"])
				for _, o := range ovs {
					om := o.(map[string]any)
					if id := om["prefabEntityId"].(string); strings.HasPrefix(id, slot+"/") {
						c := map[string]any{}
						for k, v := range om {
							c[k] = v
						}
						c["prefabEntityId"] = strings.TrimPrefix(id, slot+"/")
						sub = append(sub, c)
					}
				}
				nents, nroot := naiveExpand(t, dir, path, sub)
				for _, ne := range nents {
					ne.addr = slot + "/" + ne.addr
					if ne.parent != "" {
						ne.parent = slot + "/" + ne.parent
					} else if ne.addr == slot+"/"+nroot {
						ne.parent = e.parent
					}
					ents = append(ents, ne)
				}
				if slot == root {
					root = slot + "/" + nroot
				}
				continue
			}
			ents = append(ents, e)
		}
	}
	for _, o := range append(own, ovs...) {
		om := o.(map[string]any)
		for k := range ents {
			e := &ents[k]
			if e.addr != om["prefabEntityId"] {
				continue
			}
			switch om["type"] {
			case "property":
				for _, c := range e.comps {
					if c["type"] == om["componentType"] {
						d := map[string]any{}
						for kk, v := range c["data"].(map[string]any) {
							d[kk] = v
						}
						d[om["propertyName"].(string)] = om["value"]
						c["data"] = d
					}
				}
			case "component_added":
				cd := om["componentData"].(map[string]any)
				has := false
				for _, c := range e.comps {
					has = has || c["type"] == cd["type"]
				}
				if !has {
					e.comps = append(e.comps, cd)
				}
			}
		}
	}
	return ents, root
}

func TestPrefabProperty(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { prefabProperty(t, seed) })
	}
}

func prefabProperty(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	dir := t.TempDir()
	write := func(name string, v any) {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.esproject", map[string]any{})
	pos := func(scale int) map[string]any {
		return map[string]any{"x": r.IntN(2*scale) - scale, "y": r.IntN(100), "z": r.IntN(2*scale) - scale}
	}
	tr := func(p map[string]any) map[string]any {
		return map[string]any{"type": "Transform", "data": map[string]any{"position": p}}
	}
	var lib []string
	plain := 2 + r.IntN(3)
	for k := 0; k < plain; k++ {
		n := 1 + r.IntN(5)
		ents := []map[string]any{}
		kids := map[string][]any{}
		parents := map[string]any{}
		for e := 0; e < n; e++ {
			id := fmt.Sprint("e", e)
			if e > 0 {
				p := fmt.Sprint("e", r.IntN(e))
				parents[id] = p
				kids[p] = append(kids[p], id)
			} else {
				parents[id] = nil
			}
		}
		for e := 0; e < n; e++ {
			id := fmt.Sprint("e", e)
			comps := []any{tr(pos(400))}
			if r.IntN(3) == 0 {
				comps = append(comps, map[string]any{"type": "SphereCollider3D", "data": map[string]any{"radius": r.IntN(80)}})
			}
			ch := kids[id]
			if ch == nil {
				ch = []any{}
			}
			ents = append(ents, map[string]any{"prefabEntityId": id, "name": "N" + id, "parent": parents[id], "children": ch, "components": comps})
		}
		name := fmt.Sprintf("P%d.esprefab", k)
		write(name, map[string]any{"version": "2", "rootEntityId": "e0", "entities": ents})
		lib = append(lib, name)
	}
	// Variants and nesting prefabs of the plain ones.
	for k := 0; k < plain; k++ {
		v := fmt.Sprintf("V%d.esprefab", k)
		write(v, map[string]any{"version": "2", "rootEntityId": "e0", "basePrefab": lib[k], "entities": []any{
			map[string]any{"prefabEntityId": "va", "name": "Added", "parent": "e0", "children": []any{}, "components": []any{tr(pos(600))}}},
			"overrides": []any{map[string]any{"prefabEntityId": "e0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": pos(300)}}})
		n := fmt.Sprintf("N%d.esprefab", k)
		write(n, map[string]any{"version": "2", "rootEntityId": "r", "entities": []any{
			map[string]any{"prefabEntityId": "r", "name": "Holder", "parent": nil, "children": []any{"s"}, "components": []any{tr(map[string]any{})}},
			map[string]any{"prefabEntityId": "s", "name": "", "parent": "r", "children": []any{}, "components": []any{},
				"nestedPrefab": map[string]any{"prefabPath": lib[k], "overrides": []any{
					map[string]any{"prefabEntityId": "e0", "type": "property", "componentType": "Transform", "propertyName": "position", "value": pos(300)}}}}}})
		lib = append(lib, v, n)
	}
	cellSize := []int{100, 250, 500}[r.IntN(3)]
	entries := []string{fmt.Sprintf(`{"id": 1, "name": "World", "parent": null, "children": [], "components": [{"type": "StreamedWorld", "data": {"cellSize": %d}}]}`, cellSize)}
	nPlain := 3 + r.IntN(5)
	for k := 0; k < nPlain; k++ {
		comps := fmt.Sprintf(`[{"type": "Transform", "data": {"position": {"x": %d, "y": 0, "z": %d}}}]`, r.IntN(2000)-1000, r.IntN(2000)-1000)
		if r.IntN(3) == 0 {
			comps = `[{"type": "WorldPersistent", "data": {}}]`
		}
		entries = append(entries, fmt.Sprintf(`{"id": %d, "name": "Plain%d", "parent": null, "children": [], "components": %s}`, 10+k, k, comps))
	}
	nInst := 2 + r.IntN(8)
	for k := 0; k < nInst; k++ {
		ref := lib[r.IntN(len(lib))]
		rootAddr := "e0"
		if strings.HasPrefix(ref, "N") {
			rootAddr = "r"
		}
		ovs := []any{map[string]any{"prefabEntityId": rootAddr, "type": "property", "componentType": "Transform", "propertyName": "position", "value": map[string]any{"x": r.IntN(2000) - 1000, "y": 0, "z": r.IntN(2000) - 1000}}}
		target := 10 + r.IntN(nPlain)
		switch r.IntN(4) {
		case 0:
			// A joint added by override on a prefab entity.
			addr := "e0"
			if strings.HasPrefix(ref, "N") {
				addr = "s/e0"
			}
			ovs = append(ovs, map[string]any{"prefabEntityId": addr, "type": "component_added", "componentData": map[string]any{"type": "HingeJoint3D", "data": map[string]any{"connectedEntity": target}}})
		case 1:
			ovs = append(ovs, map[string]any{"prefabEntityId": "e1", "type": "property", "componentType": "Transform", "propertyName": "position", "value": pos(700)})
		}
		added := []any{}
		if r.IntN(3) == 0 {
			added = append(added, map[string]any{"prefabEntityId": "x", "name": "Extra", "parentId": nil, "visible": true, "components": []any{tr(pos(500)),
				map[string]any{"type": "RevoluteJoint", "data": map[string]any{"connectedEntity": target}}}})
		}
		removed := []any{}
		if r.IntN(4) == 0 && !strings.HasPrefix(ref, "N") {
			removed = append(removed, "e1")
		}
		ob, _ := json.Marshal(ovs)
		ab, _ := json.Marshal(added)
		rb, _ := json.Marshal(removed)
		entries = append(entries, fmt.Sprintf(`{"id": %d, "name": "I%d", "parent": null, "prefab": %q, "overrides": %s, "added": %s, "removed": %s}`, 100+k, k, ref, ob, ab, rb))
	}
	src := `{"version": 1, "name": "prop", "entities": [` + strings.Join(entries, ",\n") + "]}"
	file := filepath.Join(dir, "main.esscene")
	d, err := scene.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(d, Options{SceneName: "prop"})
	if err != nil {
		t.Fatal(err)
	}
	bounds := map[string]Rect{}
	for _, c := range p.Cells {
		bounds[c.Name] = c.Bounds
	}
	// The naive expansion: origins and references.
	type nref struct{ from, to int64 }
	want := map[nref]bool{}
	var doc struct{ Entities []map[string]any }
	json.Unmarshal([]byte(src), &doc)
	for _, e := range doc.Entities {
		id := int64(e["id"].(float64))
		ref, ok := e["prefab"].(string)
		if !ok {
			continue
		}
		ents, root := naiveExpand(t, dir, ref, asList(e["overrides"]))
		removed := map[string]bool{}
		for _, x := range asList(e["removed"]) {
			removed[x.(string)] = true
		}
		for again := true; again; {
			again = false
			for _, ne := range ents {
				if !removed[ne.addr] && removed[ne.parent] {
					removed[ne.addr], again = true, true
				}
			}
		}
		for _, a := range asList(e["added"]) {
			am := a.(map[string]any)
			ne := naiveEnt{addr: am["prefabEntityId"].(string), parent: root}
			for _, c := range asList(am["components"]) {
				ne.comps = append(ne.comps, c.(map[string]any))
			}
			ents = append(ents, ne)
		}
		byAddr := map[string]*naiveEnt{}
		for k := range ents {
			byAddr[ents[k].addr] = &ents[k]
		}
		var world func(addr string, depth int) (scene.Affine, bool)
		world = func(addr string, depth int) (scene.Affine, bool) {
			ne := byAddr[addr]
			for _, c := range ne.comps {
				if c["type"] == "Transform" {
					b, _ := json.Marshal(c["data"])
					tr, _ := scene.ParseTRS(b)
					m := tr.Matrix()
					if ne.parent != "" && addr != root && depth < 50 {
						if pm, ok := world(ne.parent, depth+1); ok {
							m = pm.Mul(m)
						}
					}
					return m, true
				}
			}
			return scene.Affine{}, false
		}
		cell := cellOf(t, p, id)
		for _, ne := range ents {
			if removed[ne.addr] {
				continue
			}
			for _, c := range ne.comps {
				if data, ok := c["data"].(map[string]any); ok {
					if v, ok := data["connectedEntity"].(float64); ok && (c["type"] == "HingeJoint3D" || c["type"] == "RevoluteJoint") {
						tc := cellOf(t, p, int64(v))
						if tc != "persistent" && tc != cell {
							want[nref{id, int64(v)}] = true
						}
					}
				}
			}
			m, ok := world(ne.addr, 0)
			if !ok || cell == "persistent" {
				continue
			}
			o := m.Origin()
			b := bounds[cell]
			if !(o.X >= b.MinX-1e-6 && o.X <= b.MaxX+1e-6 && o.Z >= b.MinZ-1e-6 && o.Z <= b.MaxZ+1e-6) {
				t.Errorf("instance %d entity %s at (%g, %g) outside %s bounds %+v", id, ne.addr, o.X, o.Z, cell, b)
			}
		}
	}
	got := map[nref]bool{}
	for _, f := range p.Findings {
		switch f.Code {
		case CodeCrossCellRef, CodePersistentToCellRef:
			got[nref{*f.Entity, *f.Target}] = true
		case CodeCameraInCell, CodeUIRootInCell, CodeNothingStreams, CodeNoStreamingSource:
		default:
			t.Errorf("unexpected %s", f.String())
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("rejected reference %d → %d the naive expansion does not find", k.from, k.to)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("reference %d → %d crosses cells but is not rejected", k.from, k.to)
		}
	}
}
