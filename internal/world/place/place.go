// Package place puts the entities of a streamed world (internal/world)
// on the streaming grid: each top-level entity and its subtree in the
// cell its world position falls in, or in the persistent world; the
// cells' bounds grown over everything their entities cover, and the
// entity that reaches farthest out; with levels, the roots too large for
// their cell moved to a coarser level's (docs/format.md, "Levels"). It
// says where, not whether that is right: what it could not place is a
// Fault, for the rules to report.
package place

import (
	"math"
	"runtime"
	"sync"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Options say how the world is cut.
type Options struct {
	// SceneName names the cells ("<scene>.cell_<x>_<z>").
	SceneName string
	// CellSize is the level-0 cell size; CellsOK is false when the
	// scene's cell size is unusable, and every root then stays in the
	// persistent world.
	CellSize float64
	CellsOK  bool
	// XY cuts the world on the x-y plane rather than x-z.
	XY bool
	// Levels is the coarsest level a large root may be promoted to (0:
	// every root stays in the level-0 grid).
	Levels int
	// Persistent, when set, keeps the top-level entities it marks (by
	// index) in the persistent world as if they carried WorldPersistent:
	// worldcook init measures the world it is about to mark so without
	// writing and reading the marked scene first.
	Persistent []bool
}

// FaultKind is what kept an entity from being placed as it is.
type FaultKind uint8

const (
	// Unplaced: the prefab instance root I has no known place
	// (expand.Instance.Why); it stays in the persistent world.
	Unplaced FaultKind = iota
	// OutOfRange: top-level entity I lies at U, V on the plane, in a cell
	// whose index does not fit a 32-bit integer; it stays in the
	// persistent world.
	OutOfRange
	// NonFinite: a world position or extent of entity I (or of its
	// expansion) is not a finite number; it is left out of the bounds.
	NonFinite
)

// Fault is one entity placement could not place as it is.
type Fault struct {
	Kind FaultKind
	I    int32
	U, V float64
}

// Cell is one grid cell with content.
type Cell struct {
	// Key is the cell's level and indices in that level's grid.
	Key grid.Key
	// Name is "<scene>.cell_<x>_<z>" ("<scene>.cell_L<level>_<x>_<z>" above
	// level 0); File is its file name inside world/.
	Name string
	File string
	// Entities are the cell's entity indices in authored order.
	Entities []int32
	Roots    int
	Grid     grid.Rect
	Bounds   grid.Rect
	// Over is the entity reaching farthest outside the grid square (-1
	// for none), By how far, and Sub, when it is an instance, 1 + the
	// entity of its expansion that does (0 for the root).
	Over int32
	Sub  int32
	By   float64
	// MaxID is the highest id of the cell's entities, above which the
	// engine numbers the ids it generates for the cell's instances.
	MaxID int64
}

// Placement is where a streamed world's entities go.
type Placement struct {
	w      *world.World
	d      *scene.Document
	opts   Options
	flags  []world.Flag
	parent []int32
	root   []int32

	doc   []int32 // -1 persistent, else cell index
	cells []cellAcc
	pos   map[int32]scene.Vec3 // world positions of world.NeedPos entities
	// spawns is each root's Spawns, once asked.
	spawns map[int32]int

	// Persistent holds the entity indices of the persistent world, in
	// authored order.
	Persistent []int32
	// Cells are the non-empty cells sorted by level, then X, then Z.
	Cells []Cell
	// Promotions are the roots placed at a coarser level, in authored
	// order; nil when none is.
	Promotions []Promotion
	// Faults are the entities not placed as they are, in the order met.
	Faults []Fault
	// Misses are the asset references of entities outside instances
	// whose box the extents could not read (an instance's are its
	// template's: expand.Template.Shape.Misses).
	Misses []geometry.Miss
}

// Place places the world w, whose instances are expanded (World.Expand).
// The error is for a malformed Transform (a *scene.Error naming the
// first in authored order).
func Place(w *world.World, opts Options) (*Placement, error) {
	pl := &Placement{w: w, d: w.Doc(), opts: opts, flags: w.FlagWords(), parent: w.Parents(), root: w.Roots()}
	if err := pl.place(); err != nil {
		return nil, err
	}
	pl.buildCells()
	return pl, nil
}

// Cell is entity i's cell (an index of Cells), -1 for the persistent
// world.
func (pl *Placement) Cell(i int32) int32 { return pl.doc[i] }

// Pos is the world position of entity i, for an entity that wants one
// (world.NeedPos) and has a place.
func (pl *Placement) Pos(i int32) (scene.Vec3, bool) {
	p, ok := pl.pos[i]
	return p, ok
}

// UV projects a world point on the plane the world is cut on.
func (pl *Placement) UV(p scene.Vec3) (float64, float64) { return pl.uv(p) }

// parallelMin is the world size from which placement is spread over
// several goroutines; below it the goroutines cost more than they save.
const parallelMin = 32 << 10

// maxPlacers caps the goroutines placing subtrees.
const maxPlacers = 8

// PlacerCount is how many placers share a world of n entities (a variable
// so tests can prove the result does not depend on it).
var PlacerCount = func(n int) int {
	if n < parallelMin {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxPlacers)
}

// placer places a share of the world's subtrees: it composes world
// matrices, assigns top-level entities to cells and grows its own copy of
// the cells' bounds. Subtrees are independent, so placers share nothing
// they write but per-entity slots of their own subtrees.
type placer struct {
	pl      *Placement
	cells   []cellAcc
	cellKey map[grid.Key]int32
	pos     map[int32]scene.Vec3
	// slot is the walkers' shared slot array (world.Walker).
	slot   []int32
	faults []Fault
	misses []geometry.Miss // see Placement.Misses
	failed bool
	// nonFinite marks the entities whose non-finite extent was reported.
	nonFinite map[int32]bool
	// sub is 1 + the template entity being bounded inside an instance, 0
	// outside instances.
	sub int32
	// The entity whose extents are being taken (see box).
	sinkCI, sinkI int32
	sinkM         scene.Affine
	sinkQuiet     bool
	// Only when levels are asked for: fps are the footprints of this
	// placer's cell roots that may move, in authored order, and the one
	// being grown is fps[cur] (-1 for none); stay[ci] is cell ci grown
	// over the roots that cannot move alone (see keepFootprint). bound
	// marks the roots that a hard reference ties to another root.
	fps   []footprint
	stay  []cellAcc
	cur   int32
	bound []bool
	// rec, while measuring (Measure), takes the ranges instead of a cell.
	rec *traceRun
	// spanning, for Trace.Span, folds each root's cell into spanRect.
	spanning bool
	spanRect grid.Rect
	spanOK   bool
}

// place partitions the world. Entities are grouped by root, each group
// in parents-first order, and the groups are shared out to placers in
// contiguous runs; the placers' cells are then merged. The result does
// not depend on how many placers ran. With levels, the placers keep the
// footprints promote may need (see keepFootprint) and promote moves the
// large roots.
func (pl *Placement) place() error {
	return pl.cut(nil)
}

// cut partitions the world, each placer over its run either measuring
// as it goes (tr nil) or from a trace of an earlier measure (Trace.Place).
func (pl *Placement) cut(tr *Trace) error {
	n := len(pl.flags)
	var grouped []int32
	var bounds []int
	if tr != nil {
		grouped, bounds = tr.grouped, tr.bounds
	} else {
		grouped = pl.groupByRoot()
		bounds = split(grouped, pl.parent, max(1, min(PlacerCount(n), n)))
	}
	parts := len(bounds) - 1

	var bound []bool
	if pl.opts.Levels > 0 {
		bound = pl.boundRoots()
	}
	pl.doc = make([]int32, n)
	var slot []int32
	if tr == nil {
		slot = pl.w.NewSlots()
	}
	placers := make([]placer, parts)
	var wg sync.WaitGroup
	for k := range placers {
		w := &placers[k]
		w.pl, w.slot, w.cur, w.bound = pl, slot, -1, bound
		w.cellKey = make(map[grid.Key]int32)
		w.pos = make(map[int32]scene.Vec3)
		run := grouped[bounds[k]:bounds[k+1]]
		work := func() {
			if tr != nil {
				w.replay(run, &tr.runs[k])
			} else {
				w.run(run)
			}
		}
		if parts == 1 {
			work()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()

	for k := range placers {
		if placers[k].failed {
			return pl.firstMalformed()
		}
	}

	// Merge the placers' cells and renumber every entity's cell.
	key := make(map[grid.Key]int32)
	if tr != nil {
		pl.pos = tr.pos
	} else {
		pl.pos = make(map[int32]scene.Vec3)
	}
	// With levels, every placer's footprints, in authored order, and
	// each cell grown over the roots that cannot move.
	nfps := 0
	for k := range placers {
		nfps += len(placers[k].fps)
	}
	fps := make([]footprint, 0, nfps)
	var stay []cellAcc
	for k := range placers {
		w := &placers[k]
		remap := make([]int32, len(w.cells))
		for l := range w.cells {
			a := &w.cells[l]
			g, ok := key[a.key]
			if !ok {
				g = int32(len(pl.cells))
				key[a.key] = g
				pl.cells = append(pl.cells, *a)
				if pl.opts.Levels > 0 {
					stay = append(stay, *w.stayAcc(int32(l)))
				}
			} else {
				pl.cells[g].merge(a)
				if pl.opts.Levels > 0 {
					stay[g].merge(w.stayAcc(int32(l)))
				}
			}
			remap[l] = g
		}
		for _, i := range grouped[bounds[k]:bounds[k+1]] {
			if ci := pl.doc[i]; ci >= 0 {
				pl.doc[i] = remap[ci]
			}
		}
		if tr == nil {
			for i, p := range w.pos {
				pl.pos[i] = p
			}
		}
		for _, f := range w.fps {
			f.ci = remap[f.ci]
			fps = append(fps, f)
		}
		w.fps, w.stay = nil, nil
		pl.Faults = append(pl.Faults, w.faults...)
		pl.Misses = append(pl.Misses, w.misses...)
	}
	if len(fps) > 0 {
		pl.promote(fps, stay)
	}
	return nil
}

// split shares grouped (entities grouped by root) out to parts placers in
// contiguous runs of about equal length, each starting at a root so that
// a subtree is never split, and returns the runs' bounds.
func split(grouped, parent []int32, parts int) []int {
	n := len(grouped)
	bounds := make([]int, 0, parts+1)
	bounds = append(bounds, 0)
	for k := 1; k < parts; k++ {
		j := max(n*k/parts, bounds[len(bounds)-1])
		for j < n && parent[grouped[j]] >= 0 {
			j++
		}
		bounds = append(bounds, j)
	}
	return append(bounds, n)
}

// firstMalformed is the error of the first malformed Transform in
// authored order, so that the error does not depend on which placer met
// one first.
func (pl *Placement) firstMalformed() error {
	for i := range pl.flags {
		if pl.flags[i]&world.Transform != 0 && pl.flags[i]&world.Prefab == 0 {
			if _, _, err := pl.d.Transform(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupByRoot returns the entities grouped by root (roots in authored
// order), each group in the topological order: a stable counting sort.
func (pl *Placement) groupByRoot() []int32 {
	n := len(pl.flags)
	start := make([]int32, n+1)
	for _, r := range pl.root {
		start[r+1]++
	}
	for k := 1; k <= n; k++ {
		start[k] += start[k-1]
	}
	out := make([]int32, n)
	for _, i := range pl.w.Order() {
		r := pl.root[i]
		out[start[r]] = i
		start[r]++
	}
	return out
}

// merge folds another placer's share of the same cell into a.
func (a *cellAcc) merge(b *cellAcc) {
	a.bounds = a.bounds.Union(b.bounds)
	if b.over >= 0 && (b.by > a.by || (b.by == a.by && (a.over < 0 || b.over < a.over))) {
		a.by, a.over, a.sub = b.by, b.over, b.sub
	}
	a.roots += b.roots
	a.maxID = max(a.maxID, b.maxID)
}

// run places the entities of run, which holds whole subtrees in
// parents-first order. A world matrix is the parent's times the local one
// and is kept only for entities with children.
func (w *placer) run(run []int32) {
	pl := w.pl
	walk := pl.w.Walker(run, w.slot)
	for _, i := range run {
		fl, in, m, hasT, ok := w.walk(walk, i)
		if !ok {
			return
		}
		u, v := pl.uv(m.Origin())
		ci := w.assign(i, fl, in, hasT, u, v)
		if ci < 0 || !hasT {
			continue
		}
		if in != nil {
			w.instanceBounds(ci, i, &m, in)
			continue
		}
		w.addRange(ci, i, u, u, v, v)
		if fl&world.Extent != 0 {
			w.extents(ci, i, &m, pl.d.Components(int(i)))
		}
	}
	w.keepFootprint()
}

// walk takes entity i, the next of the placer's run: its flags, its
// instance (nil for none), its world matrix and whether it has one (a
// Transform), noting its world position where the rules want it. ok is
// false, the placer failed, for a malformed Transform.
func (w *placer) walk(walk *world.Walker, i int32) (fl world.Flag, in *expand.Instance, m scene.Affine, hasT, ok bool) {
	pl := w.pl
	fl = pl.flags[i]
	if fl&world.Prefab != 0 {
		in = pl.w.Instance(i)
	}
	// An entity without a Transform has no place: it adds nothing to
	// the bounds, and its children's world transforms are their local
	// ones (Estella's TransformSystem never composes through it).
	m, hasT, err := walk.Next(i)
	if err != nil {
		w.failed = true
		return fl, in, m, false, false
	}
	if hasT && fl&world.NeedPos != 0 {
		w.pos[i] = m.Origin()
	}
	return fl, in, m, hasT, true
}

// assign gives entity i, the next of the placer's run, its cell: a
// top-level entity the cell its point u, v on the plane falls in
// (placeRoot), any other its root's. It returns the placer's cell index,
// -1 for the persistent world.
func (w *placer) assign(i int32, fl world.Flag, in *expand.Instance, hasT bool, u, v float64) int32 {
	pl := w.pl
	if pl.parent[i] < 0 {
		pl.doc[i] = w.placeRoot(i, fl, in, hasT, u, v)
		if pl.opts.Levels > 0 {
			w.keepFootprint()
			if pl.doc[i] >= 0 {
				w.fps = append(w.fps, newFootprint(i, pl.doc[i]))
				w.cur = int32(len(w.fps) - 1)
			}
		}
	} else {
		pl.doc[i] = pl.doc[pl.root[i]]
	}
	ci := pl.doc[i]
	if ci >= 0 {
		if id := pl.d.Entities[i].ID; id > w.cells[ci].maxID {
			w.cells[ci].maxID = id
		}
	}
	return ci
}

// placeRoot returns the placer's cell index of top-level entity i, or -1
// for the persistent world.
func (w *placer) placeRoot(i int32, fl world.Flag, in *expand.Instance, hasT bool, u, v float64) int32 {
	pl := w.pl
	if !pl.opts.CellsOK || fl&(world.Persistent|world.StreamedWorld) != 0 || int(i) < len(pl.opts.Persistent) && pl.opts.Persistent[i] {
		return -1
	}
	if in != nil && in.Failed {
		return -1 // reported when it was expanded
	}
	if in != nil && !in.Placed && in.Why != "" {
		w.faults = append(w.faults, Fault{Kind: Unplaced, I: i})
		return -1
	}
	if !hasT {
		return -1
	}
	cs := pl.opts.CellSize
	key, g, ok := grid.Locate(u, v, cs)
	if !ok {
		w.faults = append(w.faults, Fault{Kind: OutOfRange, I: i, U: u, V: v})
		return -1
	}
	if w.spanning {
		// The only cell, folded into the span when the next root starts.
		w.cells = append(w.cells[:0], cellAcc{key: key, grid: g, bounds: g, over: -1, roots: 1})
		return 0
	}
	ci, ok := w.cellKey[key]
	if !ok {
		ci = int32(len(w.cells))
		w.cells = append(w.cells, cellAcc{key: key, grid: g, bounds: g, over: -1})
		w.cellKey[key] = ci
	}
	w.cells[ci].roots++
	return ci
}

// uv projects a world point on the partition plane.
func (pl *Placement) uv(p scene.Vec3) (float64, float64) {
	if pl.opts.XY {
		return p.X, p.Y
	}
	return p.X, p.Z
}

// addPoint grows cell ci to cover world point p of entity i.
func (w *placer) addPoint(ci int32, i int32, p scene.Vec3) {
	u, v := w.pl.uv(p)
	w.addRange(ci, i, u, u, v, v)
}

// addBox grows cell ci to cover the local box [lo, hi] of entity i under
// its world matrix m. The projection of a transformed box on an axis is the
// transformed centre ± the absolute matrix row times the half extents: the
// exact range of its eight transformed corners, rotation and shear
// included, for a few multiplications.
func (w *placer) addBox(ci, i int32, m *scene.Affine, lo, hi scene.Vec3) {
	u0, u1, v0, v1 := w.project(m, lo, hi)
	w.addRange(ci, i, u0, u1, v0, v1)
}

// project returns the range on the partition plane of the local box
// [lo, hi] under m (see addBox).
func (w *placer) project(m *scene.Affine, lo, hi scene.Vec3) (u0, u1, v0, v1 float64) {
	cx, cy, cz := (lo.X+hi.X)/2, (lo.Y+hi.Y)/2, (lo.Z+hi.Z)/2
	ex, ey, ez := (hi.X-lo.X)/2, (hi.Y-lo.Y)/2, (hi.Z-lo.Z)/2
	ru, rv := &m[0], &m[2]
	if w.pl.opts.XY {
		rv = &m[1]
	}
	u := ru[0]*cx + ru[1]*cy + ru[2]*cz + ru[3]
	v := rv[0]*cx + rv[1]*cy + rv[2]*cz + rv[3]
	du := math.Abs(ru[0])*ex + math.Abs(ru[1])*ey + math.Abs(ru[2])*ez
	dv := math.Abs(rv[0])*ex + math.Abs(rv[1])*ey + math.Abs(rv[2])*ez
	return u - du, u + du, v - dv, v + dv
}

// addRange grows cell ci to cover [u0, u1] × [v0, v1] of entity i and
// tracks the entity reaching farthest outside the grid square. A range that
// is not finite (an overflowing transform) never reaches the bounds: it is
// a Fault, once per entity, instead.
func (w *placer) addRange(ci, i int32, u0, u1, v0, v1 float64) {
	if w.rec != nil {
		w.rec.add([4]float64{u0, u1, v0, v1})
		return
	}
	if !geometry.Finite(u0) || !geometry.Finite(u1) || !geometry.Finite(v0) || !geometry.Finite(v1) {
		if !w.nonFinite[i] {
			if w.nonFinite == nil {
				w.nonFinite = map[int32]bool{}
			}
			w.nonFinite[i] = true
			w.faults = append(w.faults, Fault{Kind: NonFinite, I: i})
		}
		return
	}
	if w.cur >= 0 {
		w.fps[w.cur].grow(i, w.sub, u0, u1, v0, v1)
	}
	a := &w.cells[ci]
	b := &a.bounds
	// Plain comparisons: the values are finite, so math.Min's NaN and
	// signed-zero care is not needed on this per-entity path.
	if u0 < b.MinX {
		b.MinX = u0
	}
	if u1 > b.MaxX {
		b.MaxX = u1
	}
	if v0 < b.MinZ {
		b.MinZ = v0
	}
	if v1 > b.MaxZ {
		b.MaxZ = v1
	}
	g := &a.grid
	out := max(g.MinX-u0, u1-g.MaxX, g.MinZ-v0, v1-g.MaxZ)
	if out > a.by || (out == a.by && out > 0 && (i < a.over || i == a.over && w.sub < a.sub)) {
		a.by, a.over, a.sub = out, i, w.sub
	}
}

// Spawns is the cost of keeping root r's subtree loaded, in entities the
// engine spawns for it: its instances expanded, those it cannot expand
// and those with "visible": false counting none (world.SpawnCount). It is
// counted for every root the first time it is asked.
func (pl *Placement) Spawns(r int32) int {
	if pl.spawns == nil {
		pl.spawns = make(map[int32]int)
		for i, ri := range pl.root {
			pl.spawns[ri] += pl.w.SpawnCount(int32(i))
		}
	}
	return pl.spawns[r]
}
