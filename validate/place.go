package validate

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// parallelMin is the world size from which placement is spread over
// several goroutines; below it the goroutines cost more than they save.
const parallelMin = 32 << 10

// maxPlacers caps the goroutines placing subtrees.
const maxPlacers = 8

// placerCount is how many placers share a world of n entities (a variable
// so tests can prove the result does not depend on it).
var placerCount = func(n int) int {
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
	c       *checker
	cells   []cellAcc
	cellKey map[grid.Key]int32
	pos     map[int32]scene.Vec3
	// slot is the walkers' shared slot array (world.Walker).
	slot     []int32
	findings []Finding
	fents    []int32
	misses   []geometry.Miss // see checker.extentMisses
	failed   bool
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
}

func (w *placer) add(i int32, f Finding) {
	w.findings = append(w.findings, w.c.finding(i, f))
	w.fents = append(w.fents, i)
}

// place partitions the world. Entities are grouped by root, each group
// in parents-first order, and the groups are shared out to placers in
// contiguous runs; the placers' cells are then merged. The result does
// not depend on how many placers ran. With levels, the placers keep the
// footprints promote may need (see keepFootprint) and promote moves the
// large roots.
func (c *checker) place() error {
	n := len(c.flags)
	grouped := c.groupByRoot()
	parts := max(1, min(placerCount(n), n))
	bounds := make([]int, 0, parts+1)
	bounds = append(bounds, 0)
	for k := 1; k < parts; k++ {
		j := max(n*k/parts, bounds[len(bounds)-1])
		for j < n && c.parent[grouped[j]] >= 0 {
			j++ // a run starts at a root, so a subtree is never split
		}
		bounds = append(bounds, j)
	}
	bounds = append(bounds, n)

	var bound []bool
	if c.opts.Levels > 0 {
		bound = c.boundRoots()
	}
	c.doc = make([]int32, n)
	slot := c.w.NewSlots()
	placers := make([]placer, parts)
	var wg sync.WaitGroup
	for k := range placers {
		w := &placers[k]
		w.c, w.slot, w.cur, w.bound = c, slot, -1, bound
		w.cellKey = make(map[grid.Key]int32)
		w.pos = make(map[int32]scene.Vec3)
		run := grouped[bounds[k]:bounds[k+1]]
		if parts == 1 {
			w.run(run)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(run)
		}()
	}
	wg.Wait()

	for k := range placers {
		if placers[k].failed {
			// Report the first malformed Transform in authored order, so
			// the error does not depend on which placer met one first.
			for i := range c.flags {
				if c.flags[i]&fTransform != 0 && c.flags[i]&fPrefab == 0 {
					if _, _, err := c.d.Transform(i); err != nil {
						return err
					}
				}
			}
		}
	}

	// Merge the placers' cells and renumber every entity's cell.
	key := make(map[grid.Key]int32)
	c.pos = make(map[int32]scene.Vec3)
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
				g = int32(len(c.cells))
				key[a.key] = g
				c.cells = append(c.cells, *a)
				if c.opts.Levels > 0 {
					stay = append(stay, *w.stayAcc(int32(l)))
				}
			} else {
				c.cells[g].merge(a)
				if c.opts.Levels > 0 {
					stay[g].merge(w.stayAcc(int32(l)))
				}
			}
			remap[l] = g
		}
		for _, i := range grouped[bounds[k]:bounds[k+1]] {
			if ci := c.doc[i]; ci >= 0 {
				c.doc[i] = remap[ci]
			}
		}
		for i, p := range w.pos {
			c.pos[i] = p
		}
		for _, f := range w.fps {
			f.ci = remap[f.ci]
			fps = append(fps, f)
		}
		w.fps, w.stay = nil, nil
		c.plan.Findings = append(c.plan.Findings, w.findings...)
		c.fents = append(c.fents, w.fents...)
		c.extentMisses = append(c.extentMisses, w.misses...)
	}
	if len(fps) > 0 {
		c.promote(fps, stay)
	}
	return nil
}

// groupByRoot returns the entities grouped by root (roots in authored
// order), each group in the topological order: a stable counting sort.
func (c *checker) groupByRoot() []int32 {
	n := len(c.flags)
	start := make([]int32, n+1)
	for _, r := range c.root {
		start[r+1]++
	}
	for k := 1; k <= n; k++ {
		start[k] += start[k-1]
	}
	out := make([]int32, n)
	for _, i := range c.w.Order() {
		r := c.root[i]
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
	c := w.c
	d := c.d
	walk := c.w.Walker(run, w.slot)
	for _, i := range run {
		fl := c.flags[i]
		var in *expand.Instance
		if fl&fPrefab != 0 {
			in = c.w.Instance(i)
		}
		// An entity without a Transform has no place: it adds nothing to
		// the bounds, and its children's world transforms are their local
		// ones (Estella's TransformSystem never composes through it).
		m, hasT, err := walk.Next(i)
		if err != nil {
			w.failed = true
			return
		}
		if hasT && fl&fNeedPos != 0 {
			w.pos[i] = m.Origin()
		}
		p := c.parent[i]
		if p < 0 {
			c.doc[i] = w.placeRoot(i, fl, in, hasT, &m)
			if c.opts.Levels > 0 {
				w.keepFootprint()
				if c.doc[i] >= 0 {
					w.fps = append(w.fps, newFootprint(i, c.doc[i]))
					w.cur = int32(len(w.fps) - 1)
				}
			}
		} else {
			c.doc[i] = c.doc[c.root[i]]
		}
		ci := c.doc[i]
		if ci >= 0 {
			if id := d.Entities[i].ID; id > w.cells[ci].maxID {
				w.cells[ci].maxID = id
			}
		}
		if ci < 0 || !hasT {
			continue
		}
		if in == nil {
			w.addPoint(ci, i, m.Origin())
		}
		switch {
		case in != nil:
			w.instanceBounds(ci, i, &m, in)
			continue
		case fl&fExtent != 0:
			w.extents(ci, i, &m, d.Components(int(i)))
		}
	}
	w.keepFootprint()
}

// placeRoot returns the placer's cell index of top-level entity i, or -1
// for the persistent world.
func (w *placer) placeRoot(i int32, fl world.Flag, in *expand.Instance, hasT bool, m *scene.Affine) int32 {
	c := w.c
	if !c.cellsOK || fl&(fPersistent|fStreamedWorld) != 0 {
		return -1
	}
	if in != nil && in.Failed {
		return -1 // reported when it was expanded
	}
	if in != nil && !in.Placed && in.Why != "" {
		w.add(i, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeUnplaceablePrefab,
			Message: fmt.Sprintf("prefab instance %s of %s cannot be placed: %s", c.who(i), prefabRef(c.d, i), in.Why),
			Subject: diag.Subject{
				Field: "prefab",
			},
			Hint: in.Fix,
		}})
		return -1
	}
	if !hasT {
		return -1
	}
	u, v := c.uv(m.Origin())
	cs := c.cellSize
	key, g, ok := grid.Locate(u, v, cs)
	if !ok {
		w.add(i, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeBadCellSize,
			Message: fmt.Sprintf("%s at %s lies beyond the cell index range of a 32-bit integer for cellSize %s; it stays in the persistent world", c.who(i), c.planeText(u, v), fmtNum(cs)),
			Subject: diag.Subject{
				Field: "Transform.position",
			},
			Hint: "move the entity nearer the origin or increase StreamedWorld.cellSize",
		}})
		return -1
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
func (c *checker) uv(p scene.Vec3) (float64, float64) {
	if c.xy {
		return p.X, p.Y
	}
	return p.X, p.Z
}

func (c *checker) planeText(u, v float64) string {
	if c.xy {
		return "x=" + fmtNum(u) + ", y=" + fmtNum(v)
	}
	return "x=" + fmtNum(u) + ", z=" + fmtNum(v)
}

// addPoint grows cell ci to cover world point p of entity i.
func (w *placer) addPoint(ci int32, i int32, p scene.Vec3) {
	u, v := w.c.uv(p)
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
	if w.c.xy {
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
// reported once per entity instead.
func (w *placer) addRange(ci, i int32, u0, u1, v0, v1 float64) {
	c := w.c
	if !geometry.Finite(u0) || !geometry.Finite(u1) || !geometry.Finite(v0) || !geometry.Finite(v1) {
		if !w.nonFinite[i] {
			if w.nonFinite == nil {
				w.nonFinite = map[int32]bool{}
			}
			w.nonFinite[i] = true
			w.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeBadCellSize,
				Message: c.who(i) + " has a world position or extent that is not a finite number (its transforms overflow); it is left out of the cell bounds",
				Subject: diag.Subject{
					Field: "Transform",
				},
				Hint: "bring the Transform position and scale of " + c.who(i) + " and its ancestors into a sensible range",
			}})
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

// prefabRef is the asset reference of prefab-instance entry i.
func prefabRef(d *scene.Document, i int32) string {
	ref, _ := d.Prefab(int(i))
	return ref
}
