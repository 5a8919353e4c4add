// Package testworld generates synthetic Estella streamed-world scenes.
//
// worldcook needs worlds of every size, from a few hundred entities to
// millions, to benchmark cook, validate and simulate and to load-test them.
// Real worlds of that size are not public, so this package writes documents
// that look like what the Estella editor saves: the same record layout and
// field order, the same components with realistic data, a hierarchy of props
// and their children, entity references of the kinds the engine declares, and
// the streaming components worldcook interprets.
//
// Generation streams: Write keeps only the entity group it is writing and a
// small fixed table of recent roots, so a world of five million entities is
// written with the memory of a few kilobytes of state plus the output buffer.
// Output is a pure function of Options: every number is derived from a PCG
// generator by integer arithmetic, so the same options give the same bytes on
// every machine.
package testworld

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// Options describes a generated world. The zero value of a field selects its
// default, so Options{Entities: n, Seed: s} is a complete request; use
// DefaultOptions when the editor's pretty layout is wanted, because a false
// Pretty cannot be told apart from an unset one.
type Options struct {
	// Entities is the exact number of entity records written, including the
	// settings entity, the sun and the streaming sources.
	Entities int
	// Seed selects the world; equal options with equal seeds give
	// byte-identical documents.
	Seed uint64
	// Extent is the side of the square, in world units, over which props are
	// scattered. Default 20000.
	Extent float64
	// CellSize is written into the StreamedWorld settings and decides which
	// props share a cell for same-cell and cross-cell references. Default 1000.
	CellSize float64
	// Pretty writes two-space indented JSON as the editor does; otherwise the
	// document is compact. Both end with a newline.
	Pretty bool
	// ChildFraction is the share of entities that are children of props.
	// Default 0.30; a negative value generates no children.
	ChildFraction float64
	// RefFraction is the share of entities carrying an entity reference.
	// Default 0.02; a negative value generates no references.
	RefFraction float64
	// InvalidRefFraction is the share of references that deliberately point
	// into another cell, so that validate has cross-cell-ref errors to find.
	// Default 0.
	InvalidRefFraction float64
	// Sources is the number of persistent WorldStreamingSource entities: the
	// player, the main camera, then streaming probes. Default 2; a negative
	// value writes none.
	Sources int
	// Plane is "xz" (default; props spread over X and Z, Y is height) or "xy"
	// (2D worlds; props spread over X and Y).
	Plane string
	// Name is the document's display name. Default "Generated World".
	Name string
	// PrefabFraction is the share of props written as prefab-instance
	// entries (one record each) of the library PrefabLibrary returns.
	// Default 0: none, and the world is exactly as without the field.
	PrefabFraction float64
	// Prefabs is the size of that library. Default 50.
	Prefabs int
	// LargeFraction is the share of groups written as large content: a
	// road, a bridge or a terrain tile whose collider spans 2 to 16 cells,
	// with segments as children, among the ordinary props. Default 0:
	// none, and the world is exactly as without the field.
	LargeFraction float64
	// Authored writes the scene as it is authored before worldcook init
	// makes it a streamed world: the settings entity keeps its place but
	// carries no StreamedWorld, and the player and the camera carry no
	// WorldPersistent or WorldStreamingSource (the init benchmarks).
	Authored bool
}

// Defaults used for zero-valued Options fields.
const (
	DefaultExtent        = 20000
	DefaultCellSize      = 1000
	DefaultChildFraction = 0.30
	DefaultRefFraction   = 0.02
	DefaultSources       = 2
	DefaultName          = "Generated World"
)

// maxGroupChildren caps the children generated under one prop. The geometric
// draw almost never reaches it at the default child fraction; the cap keeps a
// group, the only part of the world held in memory, small for any fraction.
const maxGroupChildren = 16

// DefaultOptions returns the options benchmarks use: the documented defaults
// with the editor's pretty layout.
func DefaultOptions(entities int, seed uint64) Options {
	return Options{
		Entities:      entities,
		Seed:          seed,
		Extent:        DefaultExtent,
		CellSize:      DefaultCellSize,
		Pretty:        true,
		ChildFraction: DefaultChildFraction,
		RefFraction:   DefaultRefFraction,
		Sources:       DefaultSources,
		Plane:         "xz",
		Name:          DefaultName,
	}
}

// Check reports whether Write would accept the options, so that a caller can
// reject them before creating any output.
func (o Options) Check() error {
	_, err := o.normalize()
	return err
}

// normalize fills defaults and rejects options that cannot describe a world.
func (o Options) normalize() (Options, error) {
	if o.Entities < 0 {
		return o, fmt.Errorf("worldgen: entity count %d is negative", o.Entities)
	}
	if o.Extent == 0 {
		o.Extent = DefaultExtent
	}
	if o.CellSize == 0 {
		o.CellSize = DefaultCellSize
	}
	// Coordinates are kept in integer hundredths, which bounds the extent.
	const maxUnits = 1e13
	if !(o.Extent > 0 && o.Extent <= maxUnits) {
		return o, fmt.Errorf("worldgen: extent %v must be positive and at most %v", o.Extent, float64(maxUnits))
	}
	if !(o.CellSize >= 0.01 && o.CellSize <= maxUnits) {
		return o, fmt.Errorf("worldgen: cell size %v must be between 0.01 and %v", o.CellSize, float64(maxUnits))
	}
	switch {
	case o.ChildFraction == 0:
		o.ChildFraction = DefaultChildFraction
	case o.ChildFraction < 0:
		o.ChildFraction = 0
	case !(o.ChildFraction < 1):
		return o, fmt.Errorf("worldgen: child fraction %v must be below 1", o.ChildFraction)
	}
	switch {
	case o.RefFraction == 0:
		o.RefFraction = DefaultRefFraction
	case o.RefFraction < 0:
		o.RefFraction = 0
	case !(o.RefFraction <= 1):
		return o, fmt.Errorf("worldgen: reference fraction %v must be at most 1", o.RefFraction)
	}
	if !(o.InvalidRefFraction >= 0 && o.InvalidRefFraction <= 1) {
		return o, fmt.Errorf("worldgen: invalid-reference fraction %v must be between 0 and 1", o.InvalidRefFraction)
	}
	switch {
	case o.Sources == 0:
		o.Sources = DefaultSources
	case o.Sources < 0:
		o.Sources = 0
	}
	switch o.Plane {
	case "":
		o.Plane = "xz"
	case "xz", "xy":
	default:
		return o, fmt.Errorf("worldgen: plane %q must be \"xz\" or \"xy\"", o.Plane)
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	if !(o.LargeFraction >= 0 && o.LargeFraction <= 1) {
		return o, fmt.Errorf("worldgen: large-content fraction %v must be between 0 and 1", o.LargeFraction)
	}
	if !(o.PrefabFraction >= 0 && o.PrefabFraction <= 1) {
		return o, fmt.Errorf("worldgen: prefab fraction %v must be between 0 and 1", o.PrefabFraction)
	}
	switch {
	case o.Prefabs == 0:
		o.Prefabs = DefaultPrefabs
	case o.Prefabs < 5 || o.Prefabs > maxPrefabs:
		return o, fmt.Errorf("worldgen: prefab library size %d must be between 5 and %d", o.Prefabs, maxPrefabs)
	}
	return o, nil
}

// Write streams a generated world to w. It buffers its own output, so w need
// not be buffered. It returns the first write error.
func Write(w io.Writer, o Options) error {
	o, err := o.normalize()
	if err != nil {
		return err
	}
	g := newGenerator(w, o)
	g.run()
	return g.e.flush()
}

// refKind names the kinds of entity reference the generator plants.
type refKind uint8

const (
	refNone     refKind = iota
	refSubtree          // a joint to another member of the same subtree
	refSkin             // MeshSkin.joints listing the other members of the subtree
	refSameCell         // a 3D hinge to an earlier root in the same cell
	refFollow           // FollowTarget.target on the persistent player
	refCross            // a joint to a root in another cell (invalid by design)
)

// member is one entity of the group being written: a prop and its children.
type member struct {
	parent int // index in the group; -1 for the prop itself
	ref    refKind
	target int64
}

// rootInfo remembers where a prop root was placed.
type rootInfo struct {
	id     int64
	cx, cz int64
}

// cellSlots sizes the lossy table of the latest root seen per cell. A fixed
// table keeps memory constant however many cells the world has; a collision
// only means that one same-cell reference becomes another kind.
const cellSlots = 4096

type generator struct {
	o   Options
	e   *emitter
	rng *rand.Rand
	// prng draws the prefab instances; a stream of its own, so that a
	// world without instances is exactly what it was before they existed.
	prng *rand.Rand
	// lrng draws the large content, a stream of its own for the same
	// reason.
	lrng *rand.Rand

	extent int64 // hundredths
	cell   int64 // hundredths
	xy     bool

	nextID    int64
	remaining int
	playerID  int64

	cells  [cellSlots]rootInfo
	recent [4]rootInfo // latest roots, newest first, for cross-cell targets

	group []member
	ids   []int64
}

func newGenerator(w io.Writer, o Options) *generator {
	g := &generator{
		o: o,
		e: newEmitter(w, o.Pretty),
		// The second PCG word is a fixed constant so that the whole stream
		// is chosen by Seed alone.
		rng:       rand.New(rand.NewPCG(o.Seed, 0x5745_4c4c_4157_4f52)),
		extent:    max(1, int64(math.Round(o.Extent*100))),
		cell:      max(1, int64(math.Round(o.CellSize*100))),
		xy:        o.Plane == "xy",
		nextID:    1,
		remaining: o.Entities,
		group:     make([]member, 0, maxGroupChildren+1),
		ids:       make([]int64, 0, maxGroupChildren+1),
	}
	if o.PrefabFraction > 0 {
		g.prng = rand.New(rand.NewPCG(o.Seed, 0x5052_4546_4142_0000))
	}
	if o.LargeFraction > 0 {
		g.lrng = rand.New(rand.NewPCG(o.Seed, 0x4c41_5247_4500_0000))
	}
	return g
}

func (g *generator) run() {
	g.e.beginScene(g.o.Name)
	g.writeFixed()
	for g.remaining > 0 {
		g.writeGroup()
	}
	g.e.endScene()
}

// take reserves the next id if the entity budget allows another record.
func (g *generator) take() (int64, bool) {
	if g.remaining == 0 {
		return 0, false
	}
	g.remaining--
	id := g.nextID
	g.nextID++
	return id, true
}

// pos orders a (ground, height, ground) triple into x, y, z for the plane:
// on XZ the second value is the height Y, on XY it is the depth Z.
func (g *generator) pos(a, h, b int64) (x, y, z int64) {
	if g.xy {
		return a, b, h
	}
	return a, h, b
}

// writeFixed writes the persistent entities every streamed world has: the
// settings, the streaming sources and the sun.
func (g *generator) writeFixed() {
	e := g.e
	half := g.extent / 2

	if id, ok := g.take(); ok {
		g.e.beginEntity(id, "World Settings", 0, nil)
		if !g.o.Authored {
			e.component("StreamedWorld")
			// The cell size is written as the generator rounded it, so
			// that the cells it plans references with are the cells
			// worldcook computes.
			e.keyCenti("cellSize", g.cell)
			e.endComponent()
		}
		g.e.endEntity()
	}
	for i := 0; i < g.o.Sources; i++ {
		id, ok := g.take()
		if !ok {
			return
		}
		switch i {
		case 0:
			g.playerID = id
			g.e.beginEntity(id, "Player", 0, nil)
			x, y, z := g.pos(half, 0, half)
			g.transform(x, y, z, nil, 0)
			e.component("CharacterController3D")
			e.keyCenti("radius", 3500)
			e.keyCenti("halfHeight", 9000)
			e.keyCenti("stepHeight", 3000)
			e.endComponent()
			e.component("PlayerControl")
			e.keyCenti("walkSpeed", 42000)
			e.keyCenti("runSpeed", 90000)
			e.endComponent()
			g.persistentSource(300000, 200000, 300000)
		case 1:
			g.e.beginEntity(id, "Main Camera", 0, nil)
			x, y, z := g.pos(half, 80000, half-60000)
			pitch := &cameraPitch
			if g.xy {
				// A 2D camera looks straight down the Z axis.
				x, y, z, pitch = half, half, 100000, nil
			}
			g.transform(x, y, z, pitch, 0)
			e.component("Camera")
			e.keyInt("projectionType", 0)
			e.keyInt("fov", 60)
			e.keyInt("nearPlane", 1)
			e.keyInt("farPlane", 20000)
			e.keyBool("isActive", true)
			e.keyInt("priority", 0)
			e.endComponent()
			if g.playerID != 0 {
				g.followTarget(g.playerID)
			}
			g.persistentSource(250000, 150000, 250000)
		default:
			g.e.beginEntity(id, "Streaming Probe "+strconv.Itoa(i-1), 0, nil)
			x, y, z := g.pos(g.rng.Int64N(g.extent), 0, g.rng.Int64N(g.extent))
			g.transform(x, y, z, nil, 0)
			g.persistentSource(200000, 100000, 200000)
		}
		g.e.endEntity()
	}
	if id, ok := g.take(); ok {
		// The sun has no Transform, which by itself keeps it persistent.
		g.e.beginEntity(id, "Sun", 0, nil)
		e.component("Light2D")
		e.keyInt("type", 1)
		e.color("color", 100, 97, 90, 100)
		e.keyCenti("intensity", 85)
		e.keyBool("meshShadows", true)
		e.keyBool("enabled", true)
		e.endComponent()
		g.e.endEntity()
	}
}

func (g *generator) persistentSource(prefetch, load, unload int64) {
	if g.o.Authored {
		return
	}
	e := g.e
	e.component("WorldPersistent")
	e.endComponent()
	e.component("WorldStreamingSource")
	e.keyCenti("prefetchRadius", prefetch)
	e.keyCenti("loadRadius", load)
	e.keyCenti("unloadRadius", unload)
	e.keyBool("enabled", true)
	e.endComponent()
}

// writeGroup plans one prop with its children and writes them. The whole
// group is decided before the first record is written because a parent's
// children list must name ids that come after it in the file.
func (g *generator) writeGroup() {
	if g.lrng != nil && g.lrng.Float64() < g.o.LargeFraction {
		g.writeLarge()
		return
	}
	if g.prng != nil && g.prng.Float64() < g.o.PrefabFraction {
		g.writeInstance()
		return
	}
	rng := g.rng
	children := 0
	for children < maxGroupChildren && children < g.remaining-1 && rng.Float64() < g.o.ChildFraction {
		children++
	}
	n := children + 1
	base := g.nextID
	g.group = g.group[:0]
	g.group = append(g.group, member{parent: -1})
	for j := 1; j < n; j++ {
		p := 0
		if j > 1 && rng.IntN(4) == 0 {
			p = 1 + rng.IntN(j-1)
		}
		g.group = append(g.group, member{parent: p})
	}

	ga, gb := rng.Int64N(g.extent), rng.Int64N(g.extent)
	h := rng.Int64N(2000)
	cx, cz := ga/g.cell, gb/g.cell
	// A root exactly on a cell border could be placed on either side by a
	// reader dividing in floating point, so it neither takes nor serves as
	// a same-cell or cross-cell target.
	onBorder := ga%g.cell == 0 || gb%g.cell == 0
	slot := &g.cells[cellHash(cx, cz)]
	var sameCell, otherCell int64
	if !onBorder {
		if slot.id != 0 && slot.cx == cx && slot.cz == cz {
			sameCell = slot.id
		}
		for _, r := range g.recent {
			if r.id != 0 && (r.cx != cx || r.cz != cz) {
				otherCell = r.id
				break
			}
		}
	}

	for i := range g.group {
		if rng.Float64() >= g.o.RefFraction {
			continue
		}
		m := &g.group[i]
		if otherCell != 0 && g.o.InvalidRefFraction > 0 && rng.Float64() < g.o.InvalidRefFraction {
			m.ref, m.target = refCross, otherCell
			continue
		}
		// Try the drawn kind first and fall back through the others so that
		// the share of referencing entities does not depend on the group.
		first := rng.IntN(4)
		for k := 0; k < 4 && m.ref == refNone; k++ {
			switch refKind(1 + (first+k)%4) {
			case refSubtree:
				if n > 1 {
					m.ref = refSubtree
					if i == 0 {
						m.target = base + 1 + int64(rng.IntN(n-1))
					} else {
						m.target = base + int64(m.parent)
					}
				}
			case refSkin:
				if n > 1 {
					m.ref = refSkin
				}
			case refSameCell:
				if sameCell != 0 {
					m.ref, m.target = refSameCell, sameCell
				}
			case refFollow:
				if g.playerID != 0 {
					m.ref, m.target = refFollow, g.playerID
				}
			}
		}
	}

	for i := range g.group {
		id, _ := g.take()
		g.ids = g.ids[:0]
		for j := i + 1; j < n; j++ {
			if g.group[j].parent == i {
				g.ids = append(g.ids, base+int64(j))
			}
		}
		var parent int64
		if p := g.group[i].parent; p >= 0 {
			parent = base + int64(p)
		}
		if i == 0 {
			g.writeProp(id, ga, h, gb)
		} else {
			g.writeChild(id, parent)
		}
		g.writeRef(i, base, n)
		g.e.endEntity()
	}

	if !onBorder {
		*slot = rootInfo{id: base, cx: cx, cz: cz}
		copy(g.recent[1:], g.recent[:len(g.recent)-1])
		g.recent[0] = rootInfo{id: base, cx: cx, cz: cz}
	}
}

// largeKinds are the kinds of large content: long and narrow, or square.
var largeKinds = [...]string{"Road", "Bridge", "Terrain Tile"}

// writeLarge writes one piece of large content: a root whose collider
// spans 2 to 16 cells on its long side, and pillar segments as its
// children (one per four cells), each with its own mesh and collider. It
// draws from lrng only, and references nothing: large content is placed by its own size.
func (g *generator) writeLarge() {
	r := g.lrng
	kind := r.IntN(len(largeKinds))
	span := 2 + r.Int64N(15) // cells
	half := span * g.cell / 2
	hx, hz := half, g.cell/10
	switch kind {
	case 1:
		hz = g.cell / 5
	case 2:
		hz = half
	}
	across := r.IntN(2) == 0 // runs along Z
	if across {
		hx, hz = hz, hx
	}
	a, b := r.Int64N(g.extent), r.Int64N(g.extent)
	segs := int(min((span+3)/4, int64(g.remaining-1)))
	base, _ := g.take()
	g.ids = g.ids[:0]
	for j := 1; j <= segs; j++ {
		g.ids = append(g.ids, base+int64(j))
	}
	x, y, z := g.pos(a, 0, b)
	g.e.beginEntity(base, largeKinds[kind]+" "+strconv.FormatInt(base, 10), 0, g.ids)
	g.transform(x, y, z, nil, 0)
	g.mesh("cube", 45, 45, 40, false)
	hy := int64(100)
	if g.xy {
		hy, hz = hz, hy
	}
	g.boxCollider3D(hx, hy, hz, false)
	g.rigidBody(0)
	g.e.endEntity()
	for j := 1; j <= segs; j++ {
		id, _ := g.take()
		// Segments evenly along the long side, in local units.
		off := -half + (2*int64(j)-1)*half/int64(segs)
		lx, lz := off, int64(0)
		if across {
			lx, lz = 0, off
		}
		sx, sy, sz := g.pos(lx, 0, lz)
		g.e.beginEntity(id, "Segment "+strconv.Itoa(j), base, nil)
		g.transform(sx, sy, sz, nil, 0)
		g.mesh("cube", 50, 50, 45, false)
		g.boxCollider3D(g.cell/4, 100, g.cell/4, false)
		g.e.endEntity()
	}
}

// cellHash spreads cell coordinates over the slot table.
func cellHash(cx, cz int64) uint64 {
	h := uint64(cx)*0x9E3779B97F4A7C15 ^ uint64(cz)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	return h % cellSlots
}

// transform writes a Transform component; rot may be nil and scale 0 for the
// defaults, which the editor omits.
func (g *generator) transform(x, y, z int64, rot *quaternion, scale int64) {
	e := g.e
	e.component("Transform")
	e.vec3("position", x, y, z)
	if rot != nil {
		e.quat("rotation", *rot)
	}
	if scale != 0 {
		e.vec3("scale", scale, scale, scale)
	}
	e.endComponent()
}

// randomTransform writes a Transform at the given position with an optional
// random turn about the up axis and an optional uniform scale.
func (g *generator) randomTransform(x, y, z int64, rotChance, scaleChance int) {
	var rot *quaternion
	if g.rng.IntN(100) < rotChance {
		q := turn(g.rng.IntN(24), g.xy)
		rot = &q
	}
	var scale int64
	if g.rng.IntN(100) < scaleChance {
		scale = 60 + 5*g.rng.Int64N(29) // 0.6 to 2.0
	}
	g.transform(x, y, z, rot, scale)
}

// Asset references use a fixed pool of uuids, as a project has a fixed set
// of materials and textures that many props share.
var (
	materials = uuidPool(0x6d617465, 12)
	textures  = uuidPool(0x74657874, 12)
)

func uuidPool(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, seed))
	const hex = "0123456789abcdef"
	out := make([]string, n)
	for i := range out {
		var b [36]byte
		for j := range b {
			switch j {
			case 8, 13, 18, 23:
				b[j] = '-'
			case 14:
				b[j] = '4' // version 4, as the editor creates them
			default:
				b[j] = hex[r.IntN(16)]
			}
		}
		out[i] = "@uuid:" + string(b[:])
	}
	return out
}

func (g *generator) material() string { return materials[g.rng.IntN(len(materials))] }
func (g *generator) texture() string  { return textures[g.rng.IntN(len(textures))] }

// mesh writes a Mesh2D with a built-in mesh, as 3D props are authored.
func (g *generator) mesh(name string, r, gr, b int64, withMaterial bool) {
	e := g.e
	e.component("Mesh2D")
	e.keyStr("mesh", "builtin:"+name)
	if withMaterial {
		e.keyStr("material", g.material())
	}
	e.color("color", r, gr, b, 100)
	e.keyBool("lit", true)
	e.keyBool("opaque", true)
	e.keyBool("enabled", true)
	e.endComponent()
}

func (g *generator) boxCollider3D(hx, hy, hz int64, trigger bool) {
	e := g.e
	e.component("BoxCollider3D")
	e.vec3("halfExtents", hx, hy, hz)
	if trigger {
		e.keyBool("isTrigger", true)
	}
	e.endComponent()
}

func (g *generator) rigidBody(bodyType int64) {
	e := g.e
	e.component("RigidBody")
	e.keyInt("bodyType", bodyType)
	if bodyType == 2 {
		e.keyCenti("gravityScale", 100)
		e.keyCenti("linearDamping", 10)
	}
	e.endComponent()
}

func (g *generator) pointLight(radius int64) {
	e := g.e
	e.component("Light2D")
	e.keyInt("type", 0)
	e.color("color", 100, 85+g.rng.Int64N(10), 60+g.rng.Int64N(20), 100)
	e.keyCenti("intensity", 60+g.rng.Int64N(60))
	e.keyCenti("radius", radius)
	e.keyBool("enabled", true)
	e.endComponent()
}

func (g *generator) sprite(w, h int64, tex bool) {
	e := g.e
	e.component("Sprite")
	e.vec2("size", w, h)
	e.color("color", 70+g.rng.Int64N(31), 70+g.rng.Int64N(31), 70+g.rng.Int64N(31), 100)
	if tex {
		e.keyStr("texture", g.texture())
	}
	e.keyInt("layer", 1)
	e.endComponent()
}

var propKinds = [...]string{"Tree", "Tree", "Rock", "Crate", "Bush", "Lamp Post", "Villager", "Chest", "Signpost"}

// writeProp writes a top-level prop at ground position (a, b) and height h.
func (g *generator) writeProp(id, a, h, b int64) {
	rng, e := g.rng, g.e
	kind := propKinds[rng.IntN(len(propKinds))]
	x, y, z := g.pos(a, h, b)
	g.e.beginEntity(id, kind+" "+strconv.FormatInt(id, 10), 0, g.ids)
	switch kind {
	case "Tree":
		g.randomTransform(x, y, z, 30, 50)
		g.mesh("cylinder", 40+rng.Int64N(15), 25+rng.Int64N(10), 10+rng.Int64N(10), false)
		g.boxCollider3D(2500, 10000, 2500, false)
		if rng.IntN(3) == 0 {
			e.component("Foliage")
			e.keyStr("season", [...]string{"spring", "summer", "autumn"}[rng.IntN(3)])
			e.key("sway")
			e.beginObject()
			e.keyCenti("amplitude", 5+rng.Int64N(20))
			e.keyCenti("frequency", 20+rng.Int64N(80))
			e.endObject()
			e.endComponent()
		}
	case "Rock":
		g.randomTransform(x, y, z, 90, 80)
		grey := 35 + rng.Int64N(30)
		g.mesh("sphere", grey, grey, grey+5, false)
		g.boxCollider3D(4000+rng.Int64N(2000), 2500+rng.Int64N(1500), 4000+rng.Int64N(2000), false)
		g.rigidBody(0)
	case "Crate":
		g.randomTransform(x, y, z, 60, 20)
		g.mesh("cube", 70, 55, 35, true)
		g.boxCollider3D(5000, 5000, 5000, false)
		g.rigidBody(2)
		if rng.IntN(2) == 0 {
			e.component("Breakable")
			e.keyInt("health", 10+rng.Int64N(40))
			e.key("drops")
			e.beginArray()
			for range 1 + rng.IntN(3) {
				e.elem()
				e.beginObject()
				e.keyStr("item", [...]string{"wood", "nails", "coin", "apple"}[rng.IntN(4)])
				e.keyInt("count", 1+rng.Int64N(5))
				e.keyCenti("chance", 10+rng.Int64N(91))
				e.endObject()
			}
			e.endArray()
			e.endComponent()
		}
	case "Bush":
		g.randomTransform(x, y, z, 0, 40)
		g.sprite(6000+rng.Int64N(6000), 4000+rng.Int64N(4000), true)
	case "Lamp Post":
		g.randomTransform(x, y, z, 0, 0)
		g.mesh("cylinder", 20, 20, 22, true)
		g.pointLight(20000 + rng.Int64N(20000))
	case "Villager":
		g.randomTransform(x, y, z, 80, 0)
		g.sprite(4800, 9600, true)
		e.component("CharacterController3D")
		e.keyCenti("radius", 2500)
		e.keyCenti("halfHeight", 5000)
		e.endComponent()
		e.component("Wander")
		e.keyCenti("speed", 8000+rng.Int64N(8000))
		e.keyCenti("radius", 20000+rng.Int64N(30000))
		e.vec2("home", a, b)
		e.key("schedule")
		e.beginArray()
		for i, act := range [...]string{"sleep", "work", "market", "home"} {
			e.elem()
			e.beginObject()
			e.keyInt("hour", int64(6*i)+rng.Int64N(3))
			e.keyStr("activity", act)
			e.endObject()
		}
		e.endArray()
		e.endComponent()
		if rng.IntN(2) == 0 {
			e.component("Health")
			e.keyInt("max", 100)
			e.keyInt("current", 50+rng.Int64N(51))
			e.endComponent()
		}
	case "Chest":
		g.randomTransform(x, y, z, 100, 0)
		g.mesh("cube", 55, 35, 20, true)
		g.boxCollider3D(4000, 3000, 3000, false)
		e.component("Loot")
		e.keyStr("table", [...]string{"common", "rare", "quest"}[rng.IntN(3)])
		e.key("items")
		e.beginArray()
		for range rng.IntN(4) {
			e.elem()
			e.beginObject()
			e.keyStr("id", [...]string{"gold", "potion", "arrow", "map"}[rng.IntN(4)])
			e.keyInt("count", 1+rng.Int64N(20))
			e.endObject()
		}
		e.endArray()
		e.key("respawn")
		e.beginObject()
		e.keyBool("enabled", rng.IntN(2) == 0)
		e.keyInt("seconds", 60*(1+rng.Int64N(30)))
		e.endObject()
		e.endComponent()
	case "Signpost":
		g.randomTransform(x, y, z, 100, 0)
		g.sprite(6000, 8000, true)
		e.component("Sign")
		e.keyStr("text", [...]string{"North Road", "To the Mill", "Danger: wolves", "Harbour"}[rng.IntN(4)])
		e.keyCenti("fontSize", 2400)
		e.endComponent()
	}
}

var childKinds = [...]string{"Canopy", "Shadow", "Trigger", "Light", "Decal", "Socket"}

// childOffset draws a local offset along one ground axis. One child in four
// sits far from its prop, as far as 0.6 cells, so that subtrees overhang the
// border of their cell as real props with long attachments do.
func (g *generator) childOffset(far bool) int64 {
	if far {
		return g.rng.Int64N(g.cell*6/5+1) - g.cell*3/5
	}
	return g.rng.Int64N(20001) - 10000
}

// writeChild writes a child at a local offset from its parent.
func (g *generator) writeChild(id, parent int64) {
	rng, e := g.rng, g.e
	kind := childKinds[rng.IntN(len(childKinds))]
	far := rng.IntN(4) == 0
	a, b := g.childOffset(far), g.childOffset(far)
	g.e.beginEntity(id, kind, parent, g.ids)
	switch kind {
	case "Canopy":
		x, y, z := g.pos(0, 15000+rng.Int64N(10000), 0)
		g.randomTransform(x, y, z, 0, 100)
		g.mesh("sphere", 15+rng.Int64N(20), 45+rng.Int64N(30), 15+rng.Int64N(15), false)
	case "Shadow":
		x, y, z := g.pos(0, 10, 0)
		g.transform(x, y, z, nil, 0)
		e.component("Sprite")
		e.vec2("size", 8000+rng.Int64N(8000), 8000+rng.Int64N(8000))
		e.color("color", 0, 0, 0, 35)
		e.keyInt("layer", 0)
		e.endComponent()
	case "Trigger":
		x, y, z := g.pos(a, 0, b)
		g.transform(x, y, z, nil, 0)
		g.boxCollider3D(5000+rng.Int64N(10000), 5000, 5000+rng.Int64N(10000), true)
		e.component("Interact")
		e.keyStr("prompt", [...]string{"Open", "Talk", "Read", "Pick up"}[rng.IntN(4)])
		e.keyCenti("radius", 15000)
		e.endComponent()
	case "Light":
		x, y, z := g.pos(a/4, 20000, b/4)
		g.transform(x, y, z, nil, 0)
		g.pointLight(10000 + rng.Int64N(20000))
	case "Decal":
		x, y, z := g.pos(a, 5, b)
		g.randomTransform(x, y, z, 100, 60)
		g.mesh("plane", 60, 55, 50, true)
	case "Socket":
		x, y, z := g.pos(a/2, 10000, b/2)
		g.randomTransform(x, y, z, 50, 0)
		g.mesh("cube", 50, 50, 55, false)
		e.component("Attachment")
		e.keyStr("bone", [...]string{"hand_r", "hand_l", "back", "hip"}[rng.IntN(4)])
		e.vec3("offset", rng.Int64N(2001)-1000, rng.Int64N(2001)-1000, 0)
		e.endComponent()
	}
}

// writeRef appends the reference component planned for group member i.
func (g *generator) writeRef(i int, base int64, n int) {
	m := g.group[i]
	switch m.ref {
	case refSubtree:
		if g.rng.IntN(2) == 0 {
			g.revoluteJoint(m.target)
		} else {
			g.hingeJoint3D(m.target)
		}
	case refSameCell, refCross:
		g.hingeJoint3D(m.target)
	case refSkin:
		e := g.e
		e.component("MeshSkin")
		e.key("joints")
		e.beginArray()
		for j := 0; j < n; j++ {
			if j != i {
				e.elem()
				e.int(base + int64(j))
			}
		}
		e.endArray()
		e.endComponent()
	case refFollow:
		g.followTarget(m.target)
	}
}

func (g *generator) revoluteJoint(target int64) {
	e := g.e
	e.component("RevoluteJoint")
	e.keyInt("connectedEntity", target)
	e.vec2("anchorA", 0, 0)
	e.vec2("anchorB", 0, 0)
	e.keyBool("enableMotor", false)
	e.keyInt("motorSpeed", 0)
	e.keyInt("maxMotorTorque", 0)
	e.keyBool("enableLimit", false)
	e.keyInt("lowerAngle", 0)
	e.keyInt("upperAngle", 0)
	e.keyBool("collideConnected", false)
	e.endComponent()
}

func (g *generator) hingeJoint3D(target int64) {
	e := g.e
	e.component("HingeJoint3D")
	e.keyInt("connectedEntity", target)
	e.vec3("anchor", 0, 5000, 0)
	x, y, z := g.pos(0, 100, 0)
	e.vec3("axis", x, y, z)
	e.keyBool("enableLimit", true)
	e.keyCenti("lowerAngle", -157)
	e.keyCenti("upperAngle", 157)
	e.keyBool("collideConnected", false)
	e.endComponent()
}

func (g *generator) followTarget(target int64) {
	e := g.e
	e.component("FollowTarget")
	e.keyInt("target", target)
	e.keyInt("offsetX", 0)
	e.keyInt("offsetY", 0)
	e.keyInt("deadzone", 40)
	e.keyCenti("damping", 18)
	e.endComponent()
}

// quaternion holds the literal text of each component so that rotations are
// written identically everywhere, without evaluating sin or cos at run time.
type quaternion struct{ x, y, z, w string }

// halfSines holds sin(k·7.5°) for k = 0..12, to ten decimals as the editor
// writes them. Turns in 15° steps are built from these half angles.
var halfSines = [13]string{
	"0", "0.1305261922", "0.2588190451", "0.3826834324", "0.5", "0.608761429",
	"0.7071067812", "0.7933533403", "0.8660254038", "0.9238795325",
	"0.9659258263", "0.9914448614", "1",
}

// turn returns the quaternion of a k·15° rotation (k in 0..23) about the up
// axis: Y on the XZ plane, Z on the XY plane. Turns past 180° are written as
// the equivalent quaternion with a non-negative w.
func turn(k int, xy bool) quaternion {
	var s, c string
	if k <= 12 {
		s, c = halfSines[k], halfSines[12-k]
	} else {
		s, c = "-"+halfSines[24-k], halfSines[k-12]
	}
	if xy {
		return quaternion{x: "0", y: "0", z: s, w: c}
	}
	return quaternion{x: "0", y: s, z: "0", w: c}
}

// cameraPitch tilts the main camera 35° down towards the ground.
var cameraPitch = quaternion{x: "-0.3007057995", y: "0", z: "0", w: "0.9537169507"}
