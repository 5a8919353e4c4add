package reparent

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/internal/scene"
)

// node is one entity of a generated hierarchy.
type node struct {
	id, parent int64
	t          scene.TRS
}

type engineTRS struct {
	Position scene.Vec3
	Rotation [4]float64
	Scale    scene.Vec3
}

type engineCell struct {
	Name                   string
	MinX, MinZ, MaxX, MaxZ float64
	IDs                    []int64
}

type engineScene struct {
	World  map[string]engineTRS
	Cells  []engineCell
	Errors []string
}

// TestAgainstTheEngine moves a root of rotated, non-uniformly scaled,
// nested hierarchies under another root with Under's transform, and runs
// the scene before and after through the engine's own TypeScript in Node:
// every entity's world position, rotation and scale as the engine's cook
// composes them (partitionWorld's rotate and multiplyQuat) must be the
// same after as before, and partitionWorld itself must put the moved
// subtree in the new parent's cell with the bounds its entities' world
// positions give. The matrices of the engine's transform system
// (scene.Affine) are checked in Go on the same hierarchies.
func TestAgainstTheEngine(t *testing.T) {
	sdk := enginejs.Engine(t)
	rng := rand.New(rand.NewPCG(34, 1))
	type pair struct{ before, after []node }
	var cases []pair
	var scenes []any
	for k := 0; k < 60; k++ {
		parent, subtree := hierarchy(rng, k)
		local, err := Under(parent.t, subtree[0].t)
		if err != nil {
			t.Fatalf("case %d: %v", k, err)
		}
		before := append([]node{parent}, subtree...)
		after := append([]node{parent}, subtree...)
		after[1] = node{id: subtree[0].id, parent: parent.id, t: local}
		cases = append(cases, pair{before, after})
		scenes = append(scenes, sceneJSON(before), sceneJSON(after))
	}
	bundle := enginejs.Bundle(t, sdk, filepath.Join("testdata", "engine.ts"))
	in, _ := json.Marshal(map[string]any{"scenes": scenes})
	var out []engineScene
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 2*len(cases) {
		t.Fatalf("the engine answered %d scenes, want %d", len(out), 2*len(cases))
	}
	for k, c := range cases {
		before, after := out[2*k], out[2*k+1]
		if len(before.Errors)+len(after.Errors) > 0 {
			t.Fatalf("case %d: the engine's cut refused: %v %v", k, before.Errors, after.Errors)
		}
		for _, n := range c.before {
			id := jsonID(n.id)
			b, a := before.World[id], after.World[id]
			if dev := trsDeviation(fromEngine(b), fromEngine(a)); dev > Tolerance {
				t.Errorf("case %d: entity %d moved in the engine's composition by %.3g: before %+v, after %+v", k, n.id, dev, b, a)
			}
		}
		// Go's matrices, as the engine's transform system multiplies them.
		mb, ma := matrices(c.before), matrices(c.after)
		for id, m := range mb {
			if dev := Deviation(m, ma[id]); dev > Tolerance {
				t.Errorf("case %d: entity %d moved under matrix composition by %.3g", k, id, dev)
			}
		}
		// The engine's own cut: the moved subtree joins the parent's cell,
		// whose bounds now hold its entities' world positions.
		cell := cellOf(after.Cells, c.before[0].id)
		if cell == nil {
			t.Fatalf("case %d: the parent is in no cell after the move: %+v", k, after.Cells)
		}
		want := idsOf(c.before)
		got := append([]int64(nil), cell.IDs...)
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		if !equalIDs(got, want) {
			t.Errorf("case %d: the parent's cell holds %v after the move, want %v", k, got, want)
		}
		wb := cellOf(before.Cells, c.before[0].id)
		minX, minZ, maxX, maxZ := wb.MinX, wb.MinZ, wb.MaxX, wb.MaxZ
		for _, n := range c.before[1:] {
			p := before.World[jsonID(n.id)].Position
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minZ, maxZ = math.Min(minZ, p.Z), math.Max(maxZ, p.Z)
		}
		for _, v := range [][2]float64{{cell.MinX, minX}, {cell.MinZ, minZ}, {cell.MaxX, maxX}, {cell.MaxZ, maxZ}} {
			if math.Abs(v[0]-v[1]) > Tolerance*math.Max(1, math.Abs(v[1])) {
				t.Errorf("case %d: the parent's cell after the move spans %+v, want [%g %g]×[%g %g]", k, cell, minX, maxX, minZ, maxZ)
				break
			}
		}
	}
}

// hierarchy returns a parent root and a subtree (its root first) of
// random rotations and scales, nested up to four deep. Case k chooses
// the parent's scale: uniform (most cases), or non-uniform with the
// subtree's root turned only about the parent's axes by multiples of a
// half turn (which keeps it unsheared).
func hierarchy(rng *rand.Rand, k int) (node, []node) {
	num := func(s float64) float64 { return math.Round((rng.Float64()*2-1)*s*1000) / 1000 }
	quat := func() scene.Quat {
		q := scene.Quat{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64(), W: rng.NormFloat64()}
		n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
		return scene.Quat{X: q.X / n, Y: q.Y / n, Z: q.Z / n, W: q.W / n}
	}
	scale := func() scene.Vec3 {
		s := func() float64 { return (0.25 + rng.Float64()*3) * float64(1-2*rng.IntN(2)) }
		return scene.Vec3{X: s(), Y: s(), Z: s()}
	}
	pos := func() scene.Vec3 { return scene.Vec3{X: num(500), Y: num(50), Z: num(500)} }
	parent := node{id: 10, parent: -1, t: scene.TRS{Position: pos(), Rotation: quat()}}
	u := 0.5 + rng.Float64()*2
	parent.t.Scale = scene.Vec3{X: u, Y: u, Z: u}
	rootRot := quat()
	if k%4 == 3 {
		parent.t.Scale = scale()
		rootRot = Mul(parent.t.Rotation, [...]scene.Quat{{W: 1}, {X: 1}, {Y: 1}, {Z: 1}}[rng.IntN(4)])
	}
	sub := []node{{id: 20, parent: -1, t: scene.TRS{Position: pos(), Rotation: rootRot, Scale: scale()}}}
	for n := 1 + rng.IntN(6); n > 0; n-- {
		p := sub[rng.IntN(len(sub))]
		if depth(sub, p) >= 4 {
			p = sub[0]
		}
		sub = append(sub, node{id: int64(21 + len(sub)), parent: p.id, t: scene.TRS{Position: scene.Vec3{X: num(20), Y: num(20), Z: num(20)}, Rotation: quat(), Scale: scale()}})
	}
	return parent, sub
}

func depth(ns []node, n node) int {
	d := 0
	for n.parent >= 0 {
		for _, m := range ns {
			if m.id == n.parent {
				n = m
				break
			}
		}
		d++
	}
	return d
}

// sceneJSON is the scene of the nodes, with a StreamedWorld of 64-unit
// cells.
func sceneJSON(ns []node) map[string]any {
	ents := []any{map[string]any{"id": 1, "name": "World", "parent": nil, "components": []any{
		map[string]any{"type": "StreamedWorld", "data": map[string]any{"cellSize": 64}}}}}
	for _, n := range ns {
		var parent any
		if n.parent >= 0 {
			parent = n.parent
		}
		q := n.t.Rotation
		ents = append(ents, map[string]any{"id": n.id, "name": "e", "parent": parent, "components": []any{
			map[string]any{"type": "Transform", "data": map[string]any{
				"position": n.t.Position, "rotation": map[string]float64{"x": q.X, "y": q.Y, "z": q.Z, "w": q.W}, "scale": n.t.Scale}}}})
	}
	return map[string]any{"version": "1.0", "name": "world", "entities": ents}
}

func matrices(ns []node) map[int64]scene.Affine {
	out := map[int64]scene.Affine{}
	var world func(n node) scene.Affine
	world = func(n node) scene.Affine {
		m := n.t.Matrix()
		for _, p := range ns {
			if p.id == n.parent {
				return world(p).Mul(m)
			}
		}
		return m
	}
	for _, n := range ns {
		out[n.id] = world(n)
	}
	return out
}

func fromEngine(e engineTRS) scene.TRS {
	return scene.TRS{Position: e.Position, Rotation: scene.Quat{X: e.Rotation[0], Y: e.Rotation[1], Z: e.Rotation[2], W: e.Rotation[3]}, Scale: e.Scale}
}

func cellOf(cells []engineCell, id int64) *engineCell {
	for k := range cells {
		for _, m := range cells[k].IDs {
			if m == id {
				return &cells[k]
			}
		}
	}
	return nil
}

func idsOf(ns []node) []int64 {
	var ids []int64
	for _, n := range ns {
		ids = append(ids, n.id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func jsonID(id int64) string {
	b, _ := json.Marshal(id)
	return string(b)
}
