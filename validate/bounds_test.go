package validate

import (
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

func nearRect(a, b Rect) bool {
	return near(a.MinX, b.MinX) && near(a.MinZ, b.MinZ) && near(a.MaxX, b.MaxX) && near(a.MaxZ, b.MaxZ)
}

// quarter turn about Y: (x, y, z) → (z, y, -x).
const rotY90 = `"rotation": {"x": 0, "y": 0.7071067811865476, "z": 0, "w": 0.7071067811865476}`

// Bodies that make colliders build shapes.
const (
	body2D = `{"type": "RigidBody", "data": {"bodyType": 0}}`
	body3D = `{"type": "RigidBody3D", "data": {"bodyType": 0}}`
)

func TestBounds(t *testing.T) {
	cases := []struct {
		name   string
		opts   Options
		es     []E
		cell   string
		bounds Rect
		by     float64
		over   int64
	}{
		{
			name: "rotated and scaled parent",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, Name: "Tower", C: []string{comp("Transform", `{"position": {"x": 100, "y": 0, "z": 100}, `+rotY90+`, "scale": {"x": 2, "y": 2, "z": 2}}`)}},
				// world (100,0,100) + 2·R(400,0,0) = (100, 0, -700)
				{ID: 3, Name: "Arm", Parent: at(2), C: []string{tr(400, 0, 0)}},
				// world (100,0,100) + 2·R(400,0,100) = (300, 0, -700)
				{ID: 4, Name: "Hand", Parent: at(3), C: []string{tr(0, 0, 100)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -700, MaxX: 1000, MaxZ: 1000}, by: 700, over: 3,
		},
		{
			name: "non-uniform scale under rotation",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				// scale x by 3, then rotate: local (100,0,0) → (0,0,-300)
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 500, "z": 500}, `+rotY90+`, "scale": {"x": 3, "y": 1, "z": 1}}`)}},
				{ID: 3, Parent: at(2), C: []string{tr(100, 0, 0)}},
				// local (0,0,100) is not scaled: → (100, 0, 0)
				{ID: 4, Parent: at(2), C: []string{tr(0, 0, 100)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1000},
		},
		{
			name: "door overhanging the border",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, Name: "House", C: []string{tr(900, 0, 100)}},
				// origin x = 1050; a 100-wide sprite reaches 1100
				{ID: 3, Name: "Door", Parent: at(2), C: []string{tr(150, 0, 0), comp("Sprite", `{"texture": "@uuid:x"}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1100, MaxZ: 1000}, by: 100, over: 3,
		},
		{
			name: "sprite pivot and size",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(10, 10, 0), comp("Sprite", `{"size": {"x": 40, "y": 20}, "pivot": {"x": 1, "y": 0}}`)}},
			},
			// x [10-40, 10], y [10, 30]
			cell: "test.cell_0_0", bounds: Rect{MinX: -30, MinZ: 0, MaxX: 1000, MaxZ: 1000}, by: 30, over: 2,
		},
		{
			name: "2D colliders times pixelsPerUnit",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, Name: "UI", C: []string{comp("Canvas", `{"pixelsPerUnit": 50}`)}},
				// x [(0.5-2)·50, (0.5+2)·50] + 950 = [875, 1075]
				{ID: 3, Name: "Crate", C: []string{tr(950, 500, 0), body2D, comp("BoxCollider", `{"halfExtents": {"x": 2, "y": 1}, "offset": {"x": 0.5, "y": 0}}`)}},
				// ±3·50 around (100, 100)
				{ID: 4, Name: "Ball", C: []string{tr(100, 100, 0), body2D, comp("CircleCollider", `{"radius": 3}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -50, MinZ: -50, MaxX: 1075, MaxZ: 1000}, by: 75, over: 3,
		},
		{
			name: "capsule collider default pixelsPerUnit",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				// radius 0.25 and halfHeight 0.5 by default: y ±75 at ppu 100
				{ID: 2, C: []string{tr(500, 10, 0), body2D, comp("CapsuleCollider", `{}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -65, MaxX: 1000, MaxZ: 1000}, by: 65, over: 2,
		},
		{
			name: "large 3D box",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, Name: "Wall", C: []string{tr(500, 0, 500), body3D, comp("BoxCollider3D", `{"halfExtents": {"x": 3000, "y": 1, "z": 10}}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -2500, MinZ: 0, MaxX: 3500, MaxZ: 1000}, by: 2500, over: 2,
		},
		{
			name: "rotated 3D box",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				// the quarter turn swaps the box's X and Z extents
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 500, "y": 0, "z": 500}, `+rotY90+`}`), body3D, comp("BoxCollider3D", `{"halfExtents": {"x": 3000, "y": 1, "z": 10}}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -2500, MaxX: 1000, MaxZ: 3500}, by: 2500, over: 2,
		},
		{
			name: "builtin mesh scaled",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 990, "y": 0, "z": 990}, "scale": {"x": 2, "y": 2, "z": 2}}`), comp("MeshRenderer", `{"mesh": "builtin:cube?lod=1"}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1090, MaxZ: 1090}, by: 90, over: 2,
		},
		{
			name: "sphere collider and character controller",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(10, 0, 10), body3D, comp("SphereCollider3D", `{"radius": 30}`)}},
				{ID: 3, C: []string{tr(990, 0, 500), comp("CharacterController3D", `{"radius": 35, "halfHeight": 90}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -20, MinZ: -20, MaxX: 1025, MaxZ: 1000}, by: 25, over: 3,
		},
		{
			// physics-3d's Ground: a 700×500 box on a Transform scaled
			// 14×10. The body is built from position and rotation only,
			// so the box stays 1400×1000, not 19600×10000.
			name: "3D collider not scaled",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, Name: "Ground", C: []string{comp("Transform", `{"position": {"x": 500, "y": -1, "z": 500}, "scale": {"x": 14, "y": 1, "z": 10}}`), body3D, comp("BoxCollider3D", `{"halfExtents": {"x": 700, "y": 1, "z": 500}}`), comp("MeshRenderer", `{"mesh": "builtin:cube"}`)}},
			},
			// the cube is drawn scaled: ±700 × ±500, the collider's reach too
			cell: "test.cell_0_0", bounds: Rect{MinX: -200, MinZ: 0, MaxX: 1200, MaxZ: 1000}, by: 200, over: 2,
		},
		{
			name: "a parent's scale moves a collider but does not size it",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 100, "y": 0, "z": 500}, "scale": {"x": 4, "y": 4, "z": 4}}`)}},
				// at 100 + 4·200 = 900, the sphere ±50 unscaled
				{ID: 3, Parent: at(2), C: []string{tr(200, 0, 0), body3D, comp("SphereCollider3D", `{"radius": 150}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1050, MaxZ: 1000}, by: 50, over: 3,
		},
		{
			name: "a rotated, scaled parent turns a collider without sizing it",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 500, "y": 0, "z": 500}, "scale": {"x": 3, "y": 3, "z": 3}, `+rotY90+`}`)}},
				{ID: 3, Parent: at(2), C: []string{tr(0, 0, 0), body3D, comp("BoxCollider3D", `{"halfExtents": {"x": 700, "y": 1, "z": 10}}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: -200, MaxX: 1000, MaxZ: 1200}, by: 200, over: 3,
		},
		{
			name: "colliders the engine never builds cover nothing",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(500, 0, 500), body3D, comp("SphereCollider3D", `{"radius": 3000, "enabled": false}`)}},
				{ID: 3, C: []string{tr(500, 0, 500), body2D, comp("BoxCollider", `{"halfExtents": {"x": 3000, "y": 3000}, "enabled": false}`)}},
				{ID: 4, C: []string{tr(500, 0, 500), body3D, comp("MeshCollider3D", `{"mesh": ""}`), comp("ConvexCollider3D", `{}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1000},
		},
		{
			name: "a collider without a body counts as the body it becomes",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 500, "y": 0, "z": 500}, "scale": {"x": 9, "y": 9, "z": 9}}`), comp("BoxCollider3D", `{"halfExtents": {"x": 600, "y": 1, "z": 10}}`)}},
				{ID: 3, C: []string{tr(500, 0, 500), comp("RigidBody3D", `{"enabled": false}`), comp("SphereCollider3D", `{"radius": 550}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -100, MinZ: -50, MaxX: 1100, MaxZ: 1050}, by: 100, over: 2,
		},
		{
			name: "one 3D body per entity: the box before the sphere, whatever their order",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(500, 0, 500), body3D, comp("SphereCollider3D", `{"radius": 3000}`), comp("BoxCollider3D", `{"halfExtents": {"x": 600, "y": 1, "z": 10}}`)}},
				// a disabled box leaves the body to the capsule
				{ID: 3, C: []string{tr(500, 0, 500), body3D, comp("BoxCollider3D", `{"enabled": false}`), comp("CapsuleCollider3D", `{"radius": 10, "halfHeight": 5}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -100, MinZ: 0, MaxX: 1100, MaxZ: 1000}, by: 100, over: 2,
		},
		{
			name: "mesh and convex colliders: the mesh's box, unscaled",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 980, "y": 0, "z": 500}, "scale": {"x": 10, "y": 10, "z": 10}}`), body3D, comp("MeshCollider3D", `{"mesh": "builtin:cube"}`)}},
				{ID: 3, C: []string{comp("Transform", `{"position": {"x": 30, "y": 0, "z": 500}, "scale": {"x": 10, "y": 10, "z": 10}}`), body3D, comp("ConvexCollider3D", `{"mesh": "builtin:sphere"}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -20, MinZ: 0, MaxX: 1030, MaxZ: 1000}, by: 30, over: 2,
		},
		{
			name: "2D colliders not scaled, turned about Z",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				// a quarter turn about Z, scale 5: the 2 m × 0.1 m plank
				// stands ±100 along y, ±5 along x
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 500, "y": 950, "z": 0}, "scale": {"x": 5, "y": 5, "z": 1}, "rotation": {"x": 0, "y": 0, "z": 0.7071067811865476, "w": 0.7071067811865476}}`), body2D, comp("BoxCollider", `{"halfExtents": {"x": 1, "y": 0.05}}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1000, MaxZ: 1050}, by: 50, over: 2,
		},
		{
			name: "segment, polygon (eight vertices) and chain colliders",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(500, 500, 0), body2D, comp("SegmentCollider", `{"point1": {"x": -6, "y": 0}, "point2": {"x": 0, "y": 1}}`)}},
				{ID: 3, C: []string{tr(500, 500, 0), body2D, comp("PolygonCollider", `{"vertices": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}, {"x": 0, "y": 1}, {"x": 0, "y": 1}, {"x": 0, "y": 1}, {"x": 0, "y": 1}, {"x": 0, "y": 7}, {"x": 99, "y": 99}]}`)}},
				// three points build no chain
				{ID: 4, C: []string{tr(500, 500, 0), body2D, comp("ChainCollider", `{"points": [{"x": 0, "y": 0}, {"x": 90, "y": 0}, {"x": 0, "y": 90}]}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -100, MinZ: 0, MaxX: 1000, MaxZ: 1200}, by: 200, over: 3,
		},
		{
			name: "a light's reach is not scaled",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{comp("Transform", `{"position": {"x": 900, "y": 0, "z": 500}, "scale": {"x": 10, "y": 10, "z": 10}}`), comp("Light2D", `{"radius": 150}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 1050, MaxZ: 1000}, by: 50, over: 2,
		},
		{
			name: "children of a parent without Transform keep their local position",
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(100, 0, 100)}},
				{ID: 3, Parent: at(2)},
				{ID: 4, Parent: at(3), C: []string{tr(5000, 0, 0)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: 0, MinZ: 0, MaxX: 5000, MaxZ: 1000}, by: 4000, over: 4,
		},
		{
			name: "shape renderer centred",
			opts: Options{Plane: "xy"},
			es: []E{
				{ID: 1, C: []string{sw("1000")}},
				{ID: 2, C: []string{tr(0, 500, 0), comp("ShapeRenderer", `{"size": {"x": 60, "y": 10}}`)}},
			},
			cell: "test.cell_0_0", bounds: Rect{MinX: -30, MinZ: 0, MaxX: 1000, MaxZ: 1000}, by: 30, over: 2,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := check(t, tc.opts, tc.es...)
			if len(p.Findings) != 0 {
				t.Fatalf("findings %v", codes(p))
			}
			var c *Cell
			for k := range p.Cells {
				if p.Cells[k].Name == tc.cell {
					c = &p.Cells[k]
				}
			}
			if c == nil {
				t.Fatalf("no cell %s in %+v", tc.cell, p.Cells)
			}
			if !nearRect(c.Bounds, tc.bounds) {
				t.Errorf("bounds %+v, want %+v", c.Bounds, tc.bounds)
			}
			if !near(c.Overhang.By, tc.by) || (tc.by > 0 && c.Overhang.Entity != tc.over) {
				t.Errorf("overhang %+v, want by %v entity %d", c.Overhang, tc.by, tc.over)
			}
		})
	}
}

// TestPlacementIndependentOfPlacers: the parallel placement merges to the
// same cells, bounds, overhangs and findings as one placer.
func TestPlacementIndependentOfPlacers(t *testing.T) {
	es := []E{{ID: 1, C: []string{sw("100")}}}
	id := int64(2)
	for k := 0; k < 3000; k++ {
		x, z := float64((k*37)%1000), float64((k*91)%700)
		root := id
		es = append(es, E{ID: root, C: []string{tr(x, 0, z)}})
		id++
		if k%3 == 0 {
			es = append(es, E{ID: id, Parent: at(root), C: []string{tr(float64(k%150), 0, 0), comp("Sprite", `{}`)}})
			id++
		}
		if k%100 == 0 {
			es = append(es, E{ID: id, C: []string{tr(x, 0, z), joint("2"), comp("Transform", `{}`)}})
			id++
		}
	}
	d := parse(t, sceneJSON(es...))
	run := func(parts int) *Plan {
		defer withPlacers(parts)()
		p, err := Check(d, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := run(1)
	for _, parts := range []int{2, 3, 7} {
		many := run(parts)
		if !reflect.DeepEqual(one.Cells, many.Cells) || !reflect.DeepEqual(one.Findings, many.Findings) ||
			!reflect.DeepEqual(one.Persistent, many.Persistent) || !reflect.DeepEqual(one.PersistentRefs, many.PersistentRefs) {
			t.Fatalf("%d placers differ from one", parts)
		}
	}
	if len(one.Cells) < 50 || len(one.Findings) == 0 {
		t.Fatalf("weak test world: %d cells, %d findings", len(one.Cells), len(one.Findings))
	}
}
