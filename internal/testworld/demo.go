package testworld

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
)

// The demo world is the small streamed world shipped in testdata/demo. It is
// laid out by hand so that it reads like a game a user recognises and so that
// it exercises every rule worldcook enforces without breaking any: props that
// overhang their cell, a joint between two roots of one cell, a reference
// from a cell to the persistent player, rotated and scaled parents, and
// streaming sources. Its cells are 1000 units wide on the XZ plane, four
// columns by three rows: x in [0, 4000) and z in [0, 3000).

// Demo layout constants shared by the scene and the route.
const (
	demoCell    = 1000
	demoColumns = 4
	demoRows    = 3
	demoPlayer  = 2 // id of the Player entity
)

// DemoConfig is the worldcook.yaml that goes with the demo world. FollowTarget
// is a project component the engine does not know, so the project declares
// that its target field holds an entity id.
const DemoConfig = `# The demo game's project components that hold entity ids.
components:
  FollowTarget:
    entityFields: [target]
`

// Demo writes the demo scene, pretty-printed as the editor saves it.
func Demo(w io.Writer) error {
	d := buildDemo()
	e := newEmitter(w, true)
	e.beginScene("Main")
	for _, ent := range d.ents {
		e.beginEntity(int64(ent.id), ent.name, int64(ent.parent), ent.children)
		for _, c := range ent.comps {
			e.component(c.typ)
			for _, m := range c.data {
				e.key(m.k)
				writeValue(e, m.v)
			}
			e.endComponent()
		}
		e.endEntity()
	}
	e.endScene()
	return e.flush()
}

// DemoRoute writes the demo route as CSV: a player walking the roads of the
// demo world in a serpentine that passes through every row of cells, at a
// pace that speeds up and slows down smoothly between 24 and 38 units per
// frame. Every coordinate is an integer, so the file is exact everywhere.
func DemoRoute(w io.Writer) error {
	bw := bufio.NewWriter(w)
	waypoints := [][2]int{{500, 500}, {3500, 500}, {3500, 1500}, {500, 1500}, {500, 2500}, {2300, 2500}}
	x, z := waypoints[0][0], waypoints[0][1]
	frame := 1
	row := func() {
		bw.WriteString(strconv.Itoa(frame) + "," + strconv.Itoa(x) + "," + strconv.Itoa(z) + "\n")
		frame++
	}
	bw.WriteString("frame,x,z\n")
	row()
	for next := 1; next < len(waypoints); {
		// A triangle wave over 28 frames: 24, 25, ..., 38, 37, ..., 25.
		phase := frame % 28
		step := 24 + min(phase, 28-phase)
		for step > 0 && next < len(waypoints) {
			tx, tz := waypoints[next][0], waypoints[next][1]
			d := abs(tx-x) + abs(tz-z) // Roads run along the axes.
			move := min(step, d)
			x += sign(tx-x) * move
			z += sign(tz-z) * move
			step -= move
			if x == tx && z == tz {
				next++
			}
		}
		row()
	}
	return bw.Flush()
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// kv is one member of an ordered JSON object; the demo is small enough to be
// built as values, which keeps its layout readable, and order is kept because
// the editor's field order is part of what the demo shows.
type kv struct {
	k string
	v any
}

type obj []kv

// num is the literal text of a JSON number, such as "0.85".
type num string

// hundredths formats v/100 as the editor would print the number.
func hundredths(v int) num { return num(appendCenti(nil, int64(v))) }

func writeValue(e *emitter, v any) {
	switch v := v.(type) {
	case nil:
		e.null()
	case bool:
		e.boolean(v)
	case int:
		e.int(int64(v))
	case num:
		e.raw(string(v))
	case string:
		e.str(v)
	case obj:
		e.beginObject()
		for _, m := range v {
			e.key(m.k)
			writeValue(e, m.v)
		}
		e.endObject()
	case []any:
		e.beginArray()
		for _, x := range v {
			e.elem()
			writeValue(e, x)
		}
		e.endArray()
	default:
		panic("testworld: demo value of unsupported type")
	}
}

type demoComp struct {
	typ  string
	data obj
}

type demoEntity struct {
	id       int
	name     string
	parent   int
	children []int64
	comps    []demoComp
}

type demoWorld struct {
	ents []*demoEntity
	rng  *rand.Rand
}

// add appends an entity under parent (0 for a root) and returns its id. Ids
// follow file order from 1, and a parent is always added before its
// children, so the file reads top-down like the editor's outliner.
func (d *demoWorld) add(parent int, name string, comps ...demoComp) int {
	id := len(d.ents) + 1
	d.ents = append(d.ents, &demoEntity{id: id, name: name, parent: parent, children: []int64{}, comps: comps})
	if parent != 0 {
		p := d.ents[parent-1]
		p.children = append(p.children, int64(id))
	}
	return id
}

// Component builders. Positions are whole world units; everything fractional
// is a literal number text.

func vec(x, y, z int) obj     { return obj{{"x", x}, {"y", y}, {"z", z}} }
func vecn(x, y, z num) obj    { return obj{{"x", x}, {"y", y}, {"z", z}} }
func vec2d(x, y int) obj      { return obj{{"x", x}, {"y", y}} }
func uniform(s num) obj       { return vecn(s, s, s) }
func rgba(r, g, b, a num) obj { return obj{{"r", r}, {"g", g}, {"b", b}, {"a", a}} }

func quat(q quaternion) obj {
	return obj{{"x", num(q.x)}, {"y", num(q.y)}, {"z", num(q.z)}, {"w", num(q.w)}}
}

// at is a Transform with only a position.
func at(x, y, z int) demoComp {
	return demoComp{"Transform", obj{{"position", vec(x, y, z)}}}
}

// placed is a Transform with a turn about the up axis in 15° steps and an
// optional scale (nil for none).
func placed(x, y, z int, turns int, scale obj) demoComp {
	data := obj{{"position", vec(x, y, z)}}
	if turns%24 != 0 {
		data = append(data, kv{"rotation", quat(turn(((turns%24)+24)%24, false))})
	}
	if scale != nil {
		data = append(data, kv{"scale", scale})
	}
	return demoComp{"Transform", data}
}

func mesh(name string, color obj, material string) demoComp {
	data := obj{{"mesh", "builtin:" + name}}
	if material != "" {
		data = append(data, kv{"material", material})
	}
	data = append(data, kv{"color", color}, kv{"lit", true}, kv{"opaque", true}, kv{"enabled", true})
	return demoComp{"Mesh2D", data}
}

func box3D(hx, hy, hz num) demoComp {
	return demoComp{"BoxCollider3D", obj{{"halfExtents", vecn(hx, hy, hz)}}}
}

func body(bodyType int) demoComp {
	return demoComp{"RigidBody", obj{{"bodyType", bodyType}}}
}

func pointLight(radius int, intensity num) demoComp {
	return demoComp{"Light2D", obj{
		{"type", 0},
		{"color", rgba("1", "0.86", "0.62", "1")},
		{"intensity", intensity},
		{"radius", radius},
		{"enabled", true},
	}}
}

func source(prefetch, load, unload int) demoComp {
	return demoComp{"WorldStreamingSource", obj{
		{"prefetchRadius", prefetch},
		{"loadRadius", load},
		{"unloadRadius", unload},
		{"enabled", true},
	}}
}

func wander(speed, radius, homeX, homeZ int) demoComp {
	return demoComp{"Wander", obj{
		{"speed", speed},
		{"radius", radius},
		{"home", obj{{"x", homeX}, {"z", homeZ}}},
	}}
}

// Shared assets of the demo project.
const (
	matGrass  = "@uuid:3f6c1d0a-8b52-4e1f-9a37-5c2e8d41b7a0"
	matPlank  = "@uuid:a81e4c27-5d39-4b06-8f12-7e9b3c5a0d64"
	matStone  = "@uuid:c2d95b18-07e4-4a6f-b3c1-94f0e2a7d853"
	matWater  = "@uuid:5b7a2e90-c4f1-4d38-a6e5-0f19b8c3d72e"
	matThatch = "@uuid:e40f7d63-1a2b-4c95-8e07-b6d3a9f1c528"
	texVillag = "@uuid:91d3f0b4-6e27-4a18-bc59-2a7e0c4f8d13"
	texSheep  = "@uuid:0c8e5a31-f9d2-4b74-a163-d85b2e07f94a"
	texSign   = "@uuid:7a2f9c05-3b68-4e1d-95c0-e4b17d2a8f36"
)

func buildDemo() *demoWorld {
	d := &demoWorld{rng: rand.New(rand.NewPCG(2024, 1))}

	// Persistent world: settings, sources and lights.
	d.add(0, "World Settings", demoComp{"StreamedWorld", obj{{"cellSize", demoCell}}})
	player := d.add(0, "Player",
		at(500, 0, 500),
		demoComp{"CharacterController3D", obj{{"radius", 35}, {"halfHeight", 90}, {"stepHeight", 30}}},
		demoComp{"PlayerControl", obj{{"walkSpeed", 420}, {"runSpeed", 900}}},
		demoComp{"WorldPersistent", obj{}},
		source(1800, 1200, 1800),
	)
	if player != demoPlayer {
		panic("testworld: demo player id moved")
	}
	d.add(0, "Main Camera",
		demoComp{"Transform", obj{{"position", vec(500, 350, 0)}, {"rotation", quat(cameraPitch)}}},
		demoComp{"Camera", obj{{"projectionType", 0}, {"fov", 60}, {"nearPlane", 1}, {"farPlane", 900}, {"isActive", true}, {"priority", 0}}},
		demoComp{"FollowTarget", obj{{"target", player}, {"offsetX", 0}, {"offsetY", 350}, {"deadzone", 40}, {"damping", num("0.18")}}},
		demoComp{"WorldPersistent", obj{}},
		source(1400, 900, 1500),
	)
	// The lights have no Transform, which keeps them in the persistent world.
	d.add(0, "Sun", demoComp{"Light2D", obj{
		{"type", 1},
		{"color", rgba("1", "0.97", "0.9", "1")},
		{"intensity", num("0.85")},
		{"meshShadows", true},
		{"enabled", true},
	}})
	d.add(0, "Sky", demoComp{"Light2D", obj{
		{"type", 2},
		{"color", rgba("0.72", "0.82", "1", "1")},
		{"intensity", num("0.45")},
		{"enabled", true},
	}})

	// Terrain: one ground tile per cell, so every cell of the grid exists.
	for i := range demoColumns {
		for j := range demoRows {
			d.add(0, "Ground "+strconv.Itoa(i)+"_"+strconv.Itoa(j),
				placed(i*demoCell+500, 0, j*demoCell+500, 0, vecn("10", "1", "10")),
				mesh("plane", rgba("0.36", "0.58", "0.27", "1"), matGrass),
				box3D("50", "0.5", "50"),
			)
		}
	}

	// The river runs north-south at x = 2500 with a crossing on each road.
	for j := range demoRows {
		d.add(0, "River",
			placed(2500, -5, j*demoCell+500, 0, vecn("1.2", "1", "10")),
			mesh("plane", rgba("0.22", "0.45", "0.7", "0.85"), matWater),
			demoComp{"WaterFlow", obj{{"direction", vec2d(0, 1)}, {"speed", 40}}},
		)
	}
	d.footbridge(2500, 500)
	d.drawbridge(2500, 1500)
	d.footbridge(2500, 2500)

	// Villages. The houses flagged "border" stand close enough to a cell
	// border that their door, a child placed in front of the house, lies in
	// the neighbouring cell: the subtree overhangs and the cell's bounds grow.
	d.village("Millbrook", 740, 620, []house{
		{600, 430, 0, "Miller"}, {800, 410, 0, "Baker"}, {955, 640, 6, "Smith"}, // border: the door is at x = 1030
		{620, 780, 12, "Weaver"}, {840, 840, 12, "Fisher"},
	})
	d.village("Crossroads", 2000, 1000, []house{
		{1940, 935, 0, "Innkeeper"},  // border: the door is at z = 1010
		{2045, 1100, 18, "Merchant"}, // border: the door is at x = 1970
		{1830, 1160, 12, "Carter"},
	})
	d.village("Eastwatch", 3300, 2400, []house{
		{3040, 2300, 18, "Captain"}, // border: the door is at x = 2965
		{3420, 2250, 0, "Armourer"}, {3300, 2600, 12, "Cook"}, {3560, 2520, 6, "Scout"},
	})

	// The guard of Eastwatch follows the player: a reference from a cell to
	// the persistent world, declared in worldcook.yaml.
	guard := d.add(0, "Guard",
		placed(3400, 0, 2420, 3, nil),
		mesh("capsule", rgba("0.55", "0.2", "0.18", "1"), ""),
		demoComp{"CharacterController3D", obj{{"radius", 30}, {"halfHeight", 80}}},
		demoComp{"FollowTarget", obj{{"target", player}, {"offsetX", 0}, {"offsetY", 0}, {"deadzone", 120}, {"damping", num("0.25")}}},
		demoComp{"Health", obj{{"max", 150}, {"current", 150}}},
	)
	d.add(guard, "Spear",
		demoComp{"Transform", obj{{"position", vec(30, 90, 0)}, {"scale", vecn("0.08", "1.8", "0.08")}}},
		mesh("cylinder", rgba("0.45", "0.32", "0.2", "1"), ""),
		demoComp{"Attachment", obj{{"bone", "hand_r"}, {"offset", vec(0, 0, 0)}}},
	)

	d.windmill(1500, 2300)

	// Fences around the fields south of the Crossroads. The last one starts
	// just west of x = 3000 and runs across the border into the next column.
	d.fence(1150, 300, 0)
	d.fence(1150, 700, 0)
	d.fence(1150, 300, 18)
	d.fence(1450, 300, 18)
	d.fence(3200, 1750, 0)
	d.fence(3200, 2000, 0)
	d.fence(2850, 1800, 0)

	// Sheep graze in the fenced field.
	for range 8 {
		x, z := 1180+d.rng.IntN(240), 330+d.rng.IntN(340)
		d.add(0, "Sheep",
			placed(x, 0, z, d.rng.IntN(24), nil),
			demoComp{"Sprite", obj{{"size", vec2d(60, 40)}, {"color", rgba("1", "1", "1", "1")}, {"texture", texSheep}, {"layer", 1}}},
			wander(20, 120, 1300, 500),
		)
	}

	// Lamp posts light the middle road.
	for x := 700; x < 3500; x += 400 {
		lamp := d.add(0, "Lamp Post",
			placed(x, 0, 1440, 0, nil),
			mesh("cylinder", rgba("0.2", "0.2", "0.22", "1"), matStone),
			box3D("6", "50", "6"),
		)
		d.add(lamp, "Lamp Light", at(0, 180, 0), pointLight(260, "0.9"))
	}

	// Signposts at the road corners.
	for _, s := range []struct {
		x, z int
		text string
	}{{560, 560, "Millbrook"}, {3440, 560, "North Road"}, {3440, 1440, "Crossroads"}, {560, 1440, "To the Mill"}, {560, 2440, "Eastwatch"}} {
		d.add(0, "Signpost",
			placed(s.x, 0, s.z, 3, nil),
			demoComp{"Sprite", obj{{"size", vec2d(60, 80)}, {"color", rgba("1", "1", "1", "1")}, {"texture", texSign}, {"layer", 1}}},
			demoComp{"Sign", obj{{"text", s.text}, {"fontSize", 24}}},
		)
	}

	// Loot: a chest hidden in the north-east corner and crates by the inn.
	d.add(0, "Treasure Chest",
		placed(3820, 0, 180, 9, nil),
		mesh("cube", rgba("0.55", "0.35", "0.2", "1"), matPlank),
		box3D("40", "30", "30"),
		demoComp{"Loot", obj{
			{"table", "rare"},
			{"items", []any{obj{{"id", "gold"}, {"count", 120}}, obj{{"id", "map"}, {"count", 1}}}},
			{"respawn", obj{{"enabled", false}, {"seconds", 0}}},
		}},
	)
	for i := range 6 {
		d.add(0, "Crate",
			placed(1880+40*i, 40*(i%2), 1240+20*(i%3), i*2, nil),
			mesh("cube", rgba("0.7", "0.55", "0.35", "1"), matPlank),
			box3D("20", "20", "20"),
			body(2),
		)
	}

	// Trees and rocks fill the countryside, away from roads and villages.
	d.scatter("Tree", 70, func(x, z int) {
		tree := d.add(0, "Tree",
			placed(x, 0, z, d.rng.IntN(24), uniform(hundredths(100+10*d.rng.IntN(5)))),
			mesh("cylinder", rgba("0.42", "0.29", "0.16", "1"), ""),
			box3D("15", "60", "15"),
		)
		d.add(tree, "Canopy",
			placed(0, 150, 0, 0, uniform("1.6")),
			mesh("sphere", rgba("0.2", hundredths(40+d.rng.IntN(10)), "0.18", "1"), ""),
		)
	})
	d.scatter("Rock", 30, func(x, z int) {
		d.add(0, "Rock",
			placed(x, 0, z, d.rng.IntN(24), uniform(hundredths(50+10*d.rng.IntN(5)))),
			mesh("sphere", rgba("0.5", "0.5", "0.53", "1"), matStone),
			box3D("45", "30", "45"),
			body(0),
		)
	})
	return d
}

type house struct {
	x, z  int
	turns int // 15° steps about Y; the door is on the local +Z side
	owner string
}

// village adds a well at the centre, the houses with their residents, and
// the residents' wander homes at their houses.
func (d *demoWorld) village(name string, cx, cz int, houses []house) {
	well := d.add(0, "Well",
		placed(cx, 0, cz, 0, nil),
		mesh("cylinder", rgba("0.55", "0.55", "0.58", "1"), matStone),
		box3D("40", "25", "40"),
		demoComp{"Interact", obj{{"prompt", "Draw water"}, {"radius", 120}}},
	)
	bucket := mesh("cylinder", rgba("0.45", "0.3", "0.18", "1"), matPlank)
	bucket.data[0].v = demoBucketMesh // the project's own mesh, shared by every well
	d.add(well, "Bucket", at(0, 60, 0), bucket)

	for _, h := range houses {
		root := d.add(0, "House",
			placed(h.x, 0, h.z, h.turns, nil),
			box3D("80", "60", "70"),
			body(0),
			demoComp{"Residence", obj{{"village", name}, {"owner", h.owner}, {"beds", 2}}},
		)
		d.add(root, "Walls",
			placed(0, 60, 0, 0, vecn("1.6", "1.2", "1.4")),
			mesh("cube", rgba("0.85", "0.78", "0.62", "1"), matStone),
		)
		d.add(root, "Roof",
			placed(0, 150, 0, 0, vecn("1.9", "0.8", "1.7")),
			mesh("cone", rgba("0.62", "0.38", "0.2", "1"), matThatch),
		)
		d.add(root, "Door",
			placed(0, 40, 75, 0, vecn("0.3", "0.8", "0.06")),
			mesh("cube", rgba("0.4", "0.25", "0.12", "1"), matPlank),
			box3D("15", "40", "3"),
			demoComp{"Door", obj{{"locked", false}, {"opensInward", true}}},
		)
		d.add(root, "Window Light", at(-40, 70, 72), pointLight(140, "0.6"))
		if h.turns%12 == 0 {
			d.add(root, "Chimney",
				placed(45, 190, -20, 0, vecn("0.2", "0.6", "0.2")),
				mesh("cube", rgba("0.4", "0.38", "0.38", "1"), matStone),
			)
		}
		// The resident stands in front of the house, inside its cell.
		dx, dz := rotate90(0, 130, h.turns)
		if !sameDemoCell(h.x, h.z, h.x+dx, h.z+dz) {
			dx, dz = -dx, -dz
		}
		d.add(0, h.owner,
			placed(h.x+dx, 0, h.z+dz, h.turns, nil),
			demoComp{"Sprite", obj{{"size", vec2d(48, 96)}, {"color", rgba("1", "1", "1", "1")}, {"texture", texVillag}, {"layer", 1}}},
			demoComp{"CharacterController3D", obj{{"radius", 25}, {"halfHeight", 50}}},
			wander(80, 200, h.x, h.z),
		)
	}
}

// rotate90 turns the local offset (x, z) by a multiple of 90° (turns in 15°
// steps, multiples of 6) about Y, exactly as the Transform rotation does.
func rotate90(x, z, turns int) (int, int) {
	for range ((turns/6)%4 + 4) % 4 {
		x, z = z, -x
	}
	return x, z
}

func sameDemoCell(x1, z1, x2, z2 int) bool {
	return x1/demoCell == x2/demoCell && z1/demoCell == z2/demoCell
}

// footbridge adds a plain bridge over the river where a road crosses it.
func (d *demoWorld) footbridge(x, z int) {
	d.add(0, "Footbridge",
		placed(x, 8, z, 0, vecn("1.6", "0.1", "0.6")),
		mesh("cube", rgba("0.6", "0.45", "0.28", "1"), matPlank),
		box3D("50", "50", "50"),
		body(0),
	)
}

// drawbridge adds the bridge of the middle road. Its deck is hinged to a
// loose plank that is its own root in the same cell: a joint between two
// roots, which worldcook accepts because both land in one cell.
func (d *demoWorld) drawbridge(x, z int) {
	plank := d.add(0, "Bridge Plank",
		placed(x+10, 14, z+45, 0, vecn("0.8", "0.06", "0.2")),
		mesh("cube", rgba("0.58", "0.42", "0.26", "1"), matPlank),
		box3D("40", "3", "10"),
		body(2),
	)
	bridge := d.add(0, "Bridge",
		placed(x, 10, z-20, 0, vecn("1.6", "0.1", "0.5")),
		mesh("cube", rgba("0.6", "0.45", "0.28", "1"), matPlank),
		box3D("80", "5", "25"),
		body(0),
		demoComp{"RevoluteJoint", obj{
			{"connectedEntity", plank},
			{"anchorA", vec2d(0, 25)},
			{"anchorB", vec2d(0, -10)},
			{"enableMotor", false},
			{"motorSpeed", 0},
			{"maxMotorTorque", 0},
			{"enableLimit", true},
			{"lowerAngle", num("-0.5")},
			{"upperAngle", num("0.5")},
			{"collideConnected", false},
		}},
	)
	for _, side := range []int{-22, 22} {
		d.add(bridge, "Railing",
			placed(0, 60, side*10, 0, vecn("1", "4", "0.1")),
			mesh("cube", rgba("0.5", "0.36", "0.22", "1"), matPlank),
			box3D("50", "10", "5"),
		)
	}
}

// windmill adds a mill whose root is turned 45° and scaled 1.5, so every
// child's world position depends on the parent's full transform. The sails
// nest one level deeper with their blades turned about Z.
func (d *demoWorld) windmill(x, z int) {
	mill := d.add(0, "Windmill",
		placed(x, 0, z, 3, uniform("1.5")),
		mesh("cylinder", rgba("0.82", "0.8", "0.75", "1"), matStone),
		box3D("50", "100", "50"),
		body(0),
	)
	d.add(mill, "Cap", placed(0, 130, 0, 0, uniform("1.1")), mesh("cone", rgba("0.5", "0.3", "0.2", "1"), matThatch))
	sails := d.add(mill, "Sails",
		at(0, 110, 55),
		demoComp{"Spin", obj{{"speed", num("0.6")}, {"axis", "z"}}},
	)
	for k, p := range [][2]int{{0, 45}, {-45, 0}, {0, -45}, {45, 0}} {
		d.add(sails, "Blade",
			demoComp{"Transform", obj{
				{"position", vec(p[0], p[1], 2)},
				{"rotation", quat(turn(6*k, true))},
				{"scale", vecn("0.15", "0.9", "0.02")},
			}},
			mesh("cube", rgba("0.9", "0.88", "0.8", "1"), matPlank),
		)
	}
	d.add(mill, "Mill Door",
		placed(0, 30, 52, 0, vecn("0.3", "0.6", "0.05")),
		mesh("cube", rgba("0.4", "0.25", "0.12", "1"), matPlank),
	)
}

// fence adds a fence of four posts joined by a rail, running 300 units from
// (x, z) along the local X axis.
func (d *demoWorld) fence(x, z, turns int) {
	f := d.add(0, "Fence", placed(x, 0, z, turns, nil))
	for i := range 4 {
		d.add(f, "Post",
			placed(100*i, 40, 0, 0, vecn("0.1", "0.8", "0.1")),
			mesh("cube", rgba("0.5", "0.36", "0.22", "1"), matPlank),
			box3D("5", "40", "5"),
		)
	}
	d.add(f, "Rail",
		placed(150, 60, 0, 0, vecn("3", "0.08", "0.06")),
		mesh("cube", rgba("0.55", "0.4", "0.25", "1"), matPlank),
	)
}

// scatter places n props at random free spots: inside the world, off the
// roads, the river and the villages, and apart from one another.
func (d *demoWorld) scatter(kind string, n int, add func(x, z int)) {
	for placedCount := 0; placedCount < n; {
		x, z := 40+d.rng.IntN(demoColumns*demoCell-80), 40+d.rng.IntN(demoRows*demoCell-80)
		if !d.free(x, z) {
			continue
		}
		add(x, z)
		placedCount++
	}
}

// demoClearings are the areas kept free of trees and rocks: villages, the
// sheep field, the windmill, the Eastwatch fields and the chest.
var demoClearings = [][4]int{
	{450, 250, 1100, 1000}, // Millbrook
	{1100, 250, 1500, 750}, // sheep field
	{1700, 800, 2250, 1350},
	{1300, 2100, 1750, 2550},
	{2800, 1700, 3550, 2100},
	{2950, 2150, 3700, 2750}, // Eastwatch
	{3700, 80, 3950, 300},
}

func (d *demoWorld) free(x, z int) bool {
	for _, road := range []int{500, 1500, 2500} {
		if abs(z-road) < 90 {
			return false
		}
	}
	if abs(x-500) < 90 || abs(x-3500) < 90 || abs(x-2500) < 110 {
		return false
	}
	for _, c := range demoClearings {
		if x >= c[0] && x <= c[2] && z >= c[1] && z <= c[3] {
			return false
		}
	}
	for _, e := range d.ents {
		if e.parent != 0 || len(e.comps) == 0 || e.comps[0].typ != "Transform" {
			continue
		}
		if e.name != "Tree" && e.name != "Rock" {
			continue
		}
		p := e.comps[0].data[0].v.(obj)
		if abs(p[0].v.(int)-x) < 45 && abs(p[2].v.(int)-z) < 45 {
			return false
		}
	}
	return true
}
