package repair

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/reparent"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/validate"
)

var linkFields = map[string]validate.ComponentFields{"Link": {Entity: []string{"target"}}}

func options(routes ...string) Options {
	return Options{
		Open:   cook.OpenOptions{Validate: validate.Options{Components: linkFields}},
		Routes: routes,
	}
}

// generated writes a scene of n roots scattered over 10-unit cells, each
// with a child or two, turned and scaled (uniformly for some, not for
// others), a camera with a streaming source, a rigid body here and there,
// and links between random roots, some of which cross cells.
func generated(rng *rand.Rand, n int) []byte {
	var ents []string
	ents = append(ents, `{ "id": 1, "name": "World", "parent": null, "children": [], "components": [ { "type": "StreamedWorld", "data": { "cellSize": 10 } } ] }`)
	ents = append(ents, `{ "id": 2, "name": "Camera", "parent": null, "children": [], "components": [ { "type": "Transform", "data": { "position": { "x": 0, "y": 5, "z": 0 } } }, { "type": "Camera", "data": {} }, { "type": "WorldStreamingSource", "data": { "loadRadius": 12, "unloadRadius": 16, "prefetchRadius": 14 } }, { "type": "WorldPersistent", "data": {} } ] }`)
	num := func(s float64) float64 { return math.Round((rng.Float64()*2-1)*s*100) / 100 }
	id := int64(10)
	var roots []int64
	for k := 0; k < n; k++ {
		root := id
		roots = append(roots, root)
		id++
		deg := float64(rng.IntN(8)) * 45
		s, c := math.Sincos(deg * math.Pi / 360)
		sc := 0.5 + float64(rng.IntN(4))*0.5
		scale := fmt.Sprintf(`{ "x": %g, "y": %g, "z": %g }`, sc, sc, sc)
		if rng.IntN(3) == 0 {
			scale = fmt.Sprintf(`{ "x": %g, "y": 1, "z": %g }`, sc, sc*2)
		}
		comps := fmt.Sprintf(`{ "type": "Transform", "data": { "position": { "x": %g, "y": 0, "z": %g }, "rotation": { "x": 0, "y": %g, "z": 0, "w": %g }, "scale": %s } }`,
			num(40), num(40), s, c, scale)
		if rng.IntN(4) == 0 {
			comps += `, { "type": "Sprite", "data": { "width": 6, "height": 6 } }`
		}
		if rng.IntN(5) == 0 {
			comps += `, { "type": "RigidBody", "data": { "bodyType": 2 } }`
		}
		if rng.IntN(3) == 0 && k > 0 {
			comps += fmt.Sprintf(`, { "type": "Link", "data": { "target": %d } }`, roots[rng.IntN(k)])
		}
		kids := 1 + rng.IntN(2)
		var kidIDs []string
		for j := 0; j < kids; j++ {
			kidIDs = append(kidIDs, fmt.Sprint(id+int64(j)))
		}
		ents = append(ents, fmt.Sprintf(`{ "id": %d, "name": "Root %d", "parent": null, "children": [%s], "components": [ %s ] }`, root, k, strings.Join(kidIDs, ", "), comps))
		for j := 0; j < kids; j++ {
			link := ""
			if rng.IntN(3) == 0 && k > 0 {
				link = fmt.Sprintf(`, { "type": "Link", "data": { "target": %d } }`, roots[rng.IntN(k)])
			}
			ents = append(ents, fmt.Sprintf(`{ "id": %d, "name": "Child %d.%d", "parent": %d, "children": [], "components": [ { "type": "Transform", "data": { "position": { "x": %g, "y": 1, "z": %g }, "rotation": { "x": 0, "y": 0.3826834323650898, "z": 0, "w": 0.9238795325112867 } } }%s ] }`,
				id, k, j, root, num(3), num(3), link))
			id++
		}
	}
	return []byte("{\n  \"version\": \"1.0\",\n  \"name\": \"gen\",\n  \"entities\": [\n    " + strings.Join(ents, ",\n    ") + "\n  ]\n}\n")
}

// TestChoosesTheCheapest repairs generated scenes, and, for every group,
// makes each offered candidate's edit on its own, cooks it and measures
// its costs here (bytes the persistent world gains, the receiving cell's
// bounds, the simulated peak on a route), to check that the chosen one is
// the cheapest by the rule: lowest simulated peak, then fewest resident
// bytes, then least bounds growth, then the first. The repaired scene must
// cook with no broken reference, and every entity keep its world
// transform.
func TestChoosesTheCheapest(t *testing.T) {
	dir := t.TempDir()
	route := filepath.Join(dir, "walk.csv")
	var csv strings.Builder
	csv.WriteString("x,z\n")
	for f := 0; f < 40; f++ {
		fmt.Fprintf(&csv, "%g,%g\n", -40+2*float64(f), math.Sin(float64(f)/6)*30)
	}
	if err := os.WriteFile(route, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(34, 2))
	offered, fixes := 0, 0
	for k := 0; k < 24; k++ {
		src := generated(rng, 4+rng.IntN(6))
		file := filepath.Join(dir, fmt.Sprintf("gen%d.esscene", k))
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		var routes []string
		if k%2 == 1 {
			routes = []string{route}
		}
		o := options(routes...)
		r, err := Make(context.Background(), file, src, o)
		if err != nil {
			t.Fatalf("scene %d: %v", k, err)
		}
		// The edit so far, rebuilt group by group as Make applies them.
		var so initworld.Repair
		for _, fx := range r.Fixes {
			fixes++
			offered += len(fx.Candidates)
			base := independent(t, file, src, so, nil, o)
			best := -1
			var bestCost cost
			for c, cand := range fx.Candidates {
				cc := independent(t, file, src, so, cand, o)
				cc.resident -= base.resident
				if cand.ResidentBytes != cc.resident {
					t.Errorf("scene %d: %s: resident bytes %d, measured %d", k, cand.Repair, cand.ResidentBytes, cc.resident)
				}
				if cand.Peak() != cc.peak {
					t.Errorf("scene %d: %s: peak %d, measured %d", k, cand.Repair, cand.Peak(), cc.peak)
				}
				if a := area(cand); math.Abs(a-cc.area) > 1e-9*math.Max(1, a) {
					t.Errorf("scene %d: %s: bounds growth %g, measured %g", k, cand.Repair, a, cc.area)
				}
				if best < 0 || cc.less(bestCost, len(routes) > 0) {
					best, bestCost = c, cc
				}
			}
			if fx.Chosen != best {
				t.Errorf("scene %d: chose %d (%s), the cheapest measured is %d", k, fx.Chosen, fx.Why, best)
			}
			if fx.Chosen >= 0 {
				so = add(so, fx.Candidates[fx.Chosen])
			}
		}
		after := r.Edit.After()
		p, _, _, err := cook.OpenSource(context.Background(), file, after, o.Open)
		if err != nil {
			t.Fatalf("scene %d: the repaired scene: %v", k, err)
		}
		if n := len(broken(p)); n != len(r.Left) {
			t.Errorf("scene %d: %d broken references after the repair, %d reported left", k, n, len(r.Left))
		}
		if len(r.Left) == 0 && p.Errors(false) != 0 {
			t.Errorf("scene %d: the repaired scene has %d errors: %v", k, p.Errors(false), p.Findings)
		}
		sameWorld(t, file, o, src, after)
	}
	if offered < 2*fixes || fixes < 10 {
		t.Fatalf("only %d candidates over %d groups: the generated scenes test too little", offered, fixes)
	}
}

type cost struct {
	peak, resident int64
	area, reach    float64
}

func (a cost) less(b cost, routes bool) bool {
	if routes && a.peak != b.peak {
		return a.peak < b.peak
	}
	if a.resident != b.resident {
		return a.resident < b.resident
	}
	if a.area != b.area {
		return a.area < b.area
	}
	return a.reach < b.reach
}

func add(r initworld.Repair, c *Candidate) initworld.Repair {
	r.Persist = append(append([]int64(nil), r.Persist...), c.Persist...)
	r.Moves = append([]initworld.Move(nil), r.Moves...)
	for _, m := range c.Moves {
		t := m.Transform
		r.Moves = append(r.Moves, initworld.Move{Entity: m.Entity, Under: m.Under, Unpersist: m.Unpersist, Transform: scene.TRS{
			Position: scene.Vec3{X: t.Position[0], Y: t.Position[1], Z: t.Position[2]},
			Rotation: scene.Quat{X: t.Rotation[0], Y: t.Rotation[1], Z: t.Rotation[2], W: t.Rotation[3]},
			Scale:    scene.Vec3{X: t.Scale[0], Y: t.Scale[1], Z: t.Scale[2]}}})
	}
	return r
}

// independent makes the edit so (and candidate c) of src, cooks it and
// measures it as the test's own code reads a cooked world.
func independent(t *testing.T, file string, src []byte, so initworld.Repair, c *Candidate, o Options) cost {
	t.Helper()
	edit := so
	if c != nil {
		edit = add(so, c)
	}
	res, err := initworld.MakeRepair(file, src, edit)
	if err != nil {
		t.Fatal(err)
	}
	p, m, w, err := cook.OpenSource(context.Background(), file, res.After(), o.Open)
	if err != nil {
		t.Fatal(err)
	}
	var out cost
	out.resident = m.Persistent.Bytes
	if m.Persistent.AssetBytes != nil {
		out.resident += *m.Persistent.AssetBytes
	}
	for _, route := range o.Routes {
		so := o.Simulate
		so.Route = route
		r, err := simulate.Run(context.Background(), w, so)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range r.Runs {
			out.peak = max(out.peak, run.Summary.PeakResidentBytes+m.Persistent.Bytes)
		}
	}
	if c != nil && len(c.Moves) > 0 {
		base, err := initworld.MakeRepair(file, src, so)
		if err != nil {
			t.Fatal(err)
		}
		bp, _, _, err := cook.OpenSource(context.Background(), file, base.After(), o.Open)
		if err != nil {
			t.Fatal(err)
		}
		under, _ := p.Doc.Lookup(c.Moves[0].Under)
		for _, cell := range p.Cells {
			holds := false
			for _, e := range cell.Entities {
				holds = holds || int(e) == under
			}
			if !holds {
				continue
			}
			old := cell.Grid
			for _, b := range bp.Cells {
				if b.Name == cell.Name {
					old = b.Bounds
				}
			}
			nb := cell.Bounds
			out.area = math.Max(0, (nb.MaxX-nb.MinX)*(nb.MaxZ-nb.MinZ)-(old.MaxX-old.MinX)*(old.MaxZ-old.MinZ))
			out.reach = math.Max(0, math.Max(math.Max(old.MinX-nb.MinX, nb.MaxX-old.MaxX), math.Max(old.MinZ-nb.MinZ, nb.MaxZ-old.MaxZ)))
		}
	}
	return out
}

// sameWorld checks that every entity of before has the same world matrix
// in after: a scene entity outside prefab instances by composing its
// parents' Transforms here, and every entity the engine spawns (prefab
// instances expanded) as the model of each scene's world composes it.
func sameWorld(t *testing.T, file string, o Options, before, after []byte) {
	t.Helper()
	db, err := scene.Parse("before", before)
	if err != nil {
		t.Fatal(err)
	}
	da, err := scene.Parse("after", after)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b scene.Affine) bool {
		for r := range a {
			for c := range a[r] {
				if math.Abs(a[r][c]-b[r][c]) > 10*reparent.Tolerance*math.Max(1, math.Abs(a[r][c])) {
					return false
				}
			}
		}
		return true
	}
	// composed is entity i's world matrix by its parents' Transforms; ok
	// is false when a prefab instance is on the way.
	composed := func(d *scene.Document, i int) (scene.Affine, bool) {
		m := scene.IdentityAffine
		for n := 0; n < len(d.Entities); n++ {
			if d.Entities[i].IsPrefab() {
				return m, false
			}
			tr, _, err := d.Transform(i)
			if err != nil {
				t.Fatal(err)
			}
			m = tr.Matrix().Mul(m)
			e := d.Entities[i]
			p, ok := d.Lookup(e.Parent)
			if !e.HasParent || !ok {
				break
			}
			i = p
		}
		return m, true
	}
	for i, e := range db.Entities {
		j, ok := da.Lookup(e.ID)
		if !ok {
			t.Fatalf("entity %d is gone after the repair", e.ID)
		}
		a, ok1 := composed(db, i)
		b, ok2 := composed(da, j)
		if ok1 && ok2 && !near(a, b) {
			t.Fatalf("entity %d moved: %v, was %v", e.ID, b, a)
		}
	}
	pb, _, _, err := cook.OpenSource(context.Background(), file, before, o.Open)
	if err != nil {
		t.Fatal(err)
	}
	pa, _, _, err := cook.OpenSource(context.Background(), file, after, o.Open)
	if err != nil {
		t.Fatal(err)
	}
	wb, wa := pb.World(), pa.World()
	wb.Spawned(func(e world.Ent) bool {
		a, hasA, err := wb.WorldOf(e, nil)
		if err != nil || !hasA {
			return true
		}
		j, _ := da.Lookup(db.Entities[e.I].ID)
		e2 := world.Ent{I: int32(j), Sub: e.Sub}
		if e.Sub > 0 {
			if in := wa.Instance(e2.I); in == nil || !in.Expanded() || int(e.Sub) > in.Tpl.Len() || in.Tpl.Paths[e.Sub-1] != wb.Instance(e.I).Tpl.Paths[e.Sub-1] {
				t.Fatalf("%s is not spawned after the repair", wb.Path(e))
			}
		}
		b, hasB, err := wa.WorldOf(e2, nil)
		if err != nil || !hasB || !near(a, b) {
			t.Fatalf("%s moved in the expanded world: %v, was %v (%v)", wb.Path(e), b, a, err)
		}
		return true
	})
	if !bytes.Equal(before, after) && len(after) < len(before)/2 {
		t.Fatalf("the repair lost most of the scene")
	}
}
