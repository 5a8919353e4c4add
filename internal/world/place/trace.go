package place

import (
	"math"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Trace is what placing a world measures that does not depend on how the
// world is cut: each entity's point on the plane, the ranges its content
// covers there, the world matrices of instance roots and the world
// positions the rules want. worldcook init cuts one world many times, at
// several cell sizes and with more roots persistent each round; from a
// trace each cut is a pass over numbers, reading no Transform or extent
// again, and gives the placement Place would (validate's TestModelMatchesEditedCheck).
type Trace struct {
	w       *world.World
	xy      bool
	grouped []int32
	bounds  []int
	runs    []traceRun
	pos     map[int32]scene.Vec3
}

// traceRun is one placer's share of a trace, in its run's order.
type traceRun struct {
	// nev is, per entity, how many ranges of ev it covers; -1 for an
	// entity without a Transform.
	nev []int32
	// ev are the ranges (u0, u1, v0, v1) entities outside instances
	// cover: their point, then their components' extents.
	ev rangeLog
	// rootUV is each top-level entity's point on the plane.
	rootUV [][2]float64
	// rootBox is, per top-level entity, the union (u0, u1, v0, v1) of
	// the finite ranges its subtree covers; a NaN u0 marks a subtree
	// Span must replay: one holding an instance entry with a Transform,
	// whose bounds depend on the grid square.
	rootBox [][4]float64
	// mats are the world matrices of the instance entries with a
	// Transform: an instance's bounds are grown from its template, which
	// is in memory, only when it may leave its grid square.
	mats []scene.Affine
	// misses are the extents' misses of entities outside instances.
	misses []geometry.Miss
}

// Measure measures world w, whose instances are expanded, for placing on
// the plane opts.XY names (the other options are Trace.Place's). The
// error is Place's.
func Measure(w *world.World, opts Options) (*Trace, error) {
	pl := &Placement{w: w, d: w.Doc(), opts: opts, flags: w.FlagWords(), parent: w.Parents(), root: w.Roots()}
	n := len(pl.flags)
	t := &Trace{w: w, xy: opts.XY, grouped: pl.groupByRoot()}
	t.bounds = split(t.grouped, pl.parent, max(1, min(PlacerCount(n), n)))
	parts := len(t.bounds) - 1
	t.runs = make([]traceRun, parts)
	slot := w.NewSlots()
	placers := make([]placer, parts)
	done := make(chan struct{}, parts)
	for k := range placers {
		p := &placers[k]
		p.pl, p.slot, p.cur = pl, slot, -1
		p.pos = make(map[int32]scene.Vec3)
		run := t.grouped[t.bounds[k]:t.bounds[k+1]]
		go func() {
			p.measure(run, &t.runs[k])
			done <- struct{}{}
		}()
	}
	for range placers {
		<-done
	}
	t.pos = make(map[int32]scene.Vec3)
	for k := range placers {
		if placers[k].failed {
			return nil, pl.firstMalformed()
		}
		for i, p := range placers[k].pos {
			t.pos[i] = p
		}
	}
	return t, nil
}

// Place cuts the measured world as Place(w, opts) would.
func (t *Trace) Place(opts Options) (*Placement, error) {
	if opts.XY != t.xy {
		return Place(t.w, opts)
	}
	w := t.w
	pl := &Placement{w: w, d: w.Doc(), opts: opts, flags: w.FlagWords(), parent: w.Parents(), root: w.Roots()}
	if err := pl.cut(t); err != nil {
		return nil, err
	}
	pl.buildCells()
	return pl, nil
}

// measure records run, whole subtrees in parents-first order, as run
// would place it, without cutting it.
func (w *placer) measure(run []int32, tr *traceRun) {
	pl := w.pl
	walk := pl.w.Walker(run, w.slot)
	tr.nev = make([]int32, 0, len(run))
	roots := 0
	for _, i := range run {
		if pl.parent[i] < 0 {
			roots++
		}
	}
	tr.rootUV = make([][2]float64, 0, roots)
	tr.rootBox = make([][4]float64, 0, roots)
	w.rec = tr
	for _, i := range run {
		fl, in, m, hasT, ok := w.walk(walk, i)
		if !ok {
			return
		}
		u, v := pl.uv(m.Origin())
		if pl.parent[i] < 0 {
			tr.rootUV = append(tr.rootUV, [2]float64{u, v})
			tr.rootBox = append(tr.rootBox, [4]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)})
		}
		switch {
		case !hasT:
			tr.nev = append(tr.nev, -1)
		case in != nil:
			tr.mats = append(tr.mats, m)
			tr.nev = append(tr.nev, 0)
			tr.rootBox[len(tr.rootBox)-1][0] = math.NaN()
		default:
			n0 := tr.ev.n
			tr.add([4]float64{u, u, v, v})
			if fl&world.Extent != 0 {
				w.extents(-1, i, &m, pl.d.Components(int(i)))
			}
			tr.nev = append(tr.nev, int32(tr.ev.n-n0))
		}
	}
	tr.misses, w.misses = w.misses, nil
	w.rec = nil
}

// add records range b of the entity being measured and grows its root's
// box over it (rootBox) when it is finite.
func (tr *traceRun) add(b [4]float64) {
	tr.ev.add(b)
	box := &tr.rootBox[len(tr.rootBox)-1]
	if !geometry.Finite(b[0]) || !geometry.Finite(b[1]) || !geometry.Finite(b[2]) || !geometry.Finite(b[3]) {
		return // a fault, never in a cell's bounds (addRange)
	}
	box[0], box[1], box[2], box[3] = min(box[0], b[0]), max(box[1], b[1]), min(box[2], b[2]), max(box[3], b[3])
}

// replay places run from its trace as run places it.
func (w *placer) replay(run []int32, tr *traceRun) {
	pl := w.pl
	r, mk, ms := 0, 0, 0
	ev := tr.ev.read()
	for x := 0; x < len(run); x++ {
		i := run[x]
		if w.spanning && pl.parent[i] < 0 && !math.IsNaN(tr.rootBox[r][0]) {
			// The span needs only the root's grid square and its
			// subtree's box: the rest of the subtree is skipped. The
			// root is no instance entry with a Transform (its box would
			// be NaN); one without stays persistent with or without
			// its instance, so none is passed.
			w.fold()
			ci := w.placeRoot(i, pl.flags[i], nil, tr.nev[x] >= 0, tr.rootUV[r][0], tr.rootUV[r][1])
			if b := tr.rootBox[r]; ci >= 0 && b[0] <= b[1] {
				c := &w.cells[ci].bounds
				c.MinX, c.MaxX, c.MinZ, c.MaxZ = min(c.MinX, b[0]), max(c.MaxX, b[1]), min(c.MinZ, b[2]), max(c.MaxZ, b[3])
			}
			r++
			for {
				ev.skip(int(max(tr.nev[x], 0)))
				for ms < len(tr.misses) && tr.misses[ms].Ent == run[x] {
					ms++
				}
				if x+1 == len(run) || pl.parent[run[x+1]] < 0 {
					break
				}
				x++
			}
			continue
		}
		fl := pl.flags[i]
		var in *expand.Instance
		if fl&world.Prefab != 0 {
			in = pl.w.Instance(i)
		}
		nev := tr.nev[x]
		hasT := nev >= 0
		var u, v float64
		if pl.parent[i] < 0 {
			u, v = tr.rootUV[r][0], tr.rootUV[r][1]
			r++
			if w.spanning {
				w.fold()
			}
		}
		ci := w.assign(i, fl, in, hasT, u, v)
		var m *scene.Affine
		if hasT && in != nil {
			m = &tr.mats[mk]
			mk++
		}
		m0 := ms
		for ms < len(tr.misses) && tr.misses[ms].Ent == i {
			ms++
		}
		if ci < 0 || !hasT {
			ev.skip(int(max(nev, 0)))
			continue
		}
		if in != nil {
			w.instanceBounds(ci, i, m, in)
			continue
		}
		for range nev {
			b := ev.next()
			w.addRange(ci, i, b[0], b[1], b[2], b[3])
		}
		w.misses = append(w.misses, tr.misses[m0:ms]...)
	}
	w.keepFootprint()
	if w.spanning {
		w.fold()
	}
}

// Span is the union of the bounds of the cells Place(opts) would make:
// of every placed top-level entity's grid square and of what its subtree
// covers. Measuring an extent on a grid cut very finely, it makes no
// cells: each root's is folded into the union as the next root starts.
// Levels, which move roots to other squares, are cut in full.
func (t *Trace) Span(opts Options) (grid.Rect, bool, error) {
	if opts.Levels > 0 || opts.XY != t.xy {
		pl, err := t.Place(opts)
		if err != nil {
			return grid.Rect{}, false, err
		}
		return pl.span()
	}
	w := t.w
	pl := &Placement{w: w, d: w.Doc(), opts: opts, flags: w.FlagWords(), parent: w.Parents(), root: w.Roots()}
	pl.doc = make([]int32, len(pl.flags))
	parts := len(t.bounds) - 1
	placers := make([]placer, parts)
	done := make(chan struct{}, parts)
	for k := range placers {
		p := &placers[k]
		p.pl, p.cur, p.spanning = pl, -1, true
		run := t.grouped[t.bounds[k]:t.bounds[k+1]]
		go func() {
			p.replay(run, &t.runs[k])
			done <- struct{}{}
		}()
	}
	var u grid.Rect
	ok := false
	for range placers {
		<-done
	}
	for k := range placers {
		if p := &placers[k]; p.spanOK {
			u, ok = unite(u, ok, p.spanRect), true
		}
	}
	return u, ok, nil
}

// fold adds the cell being grown, the placer's only one while spanning,
// to its span, and forgets it.
func (w *placer) fold() {
	if len(w.cells) == 0 {
		return
	}
	w.spanRect, w.spanOK = unite(w.spanRect, w.spanOK, w.cells[0].bounds), true
	w.cells = w.cells[:0]
}

// span is the union of the placement's cell bounds.
func (pl *Placement) span() (grid.Rect, bool, error) {
	var u grid.Rect
	ok := false
	for k := range pl.Cells {
		u, ok = unite(u, ok, pl.Cells[k].Bounds), true
	}
	return u, ok, nil
}

// unite is the union of a (when ok) and b.
func unite(a grid.Rect, ok bool, b grid.Rect) grid.Rect {
	if !ok {
		return b
	}
	return a.Union(b)
}

// rangeLog is an append-only list of ranges kept in blocks, so that a
// trace of millions of them is never copied to grow.
type rangeLog struct {
	blocks [][][4]float64
	n      int
}

// rangeBlock is how many ranges a block of a rangeLog holds.
const rangeBlock = 1 << 12

func (l *rangeLog) add(r [4]float64) {
	if k := len(l.blocks); k == 0 || len(l.blocks[k-1]) == rangeBlock {
		l.blocks = append(l.blocks, make([][4]float64, 0, rangeBlock))
	}
	b := &l.blocks[len(l.blocks)-1]
	*b = append(*b, r)
	l.n++
}

// read returns a reader of the log from its start.
func (l *rangeLog) read() *rangeReader { return &rangeReader{l: l} }

// rangeReader reads a rangeLog in order.
type rangeReader struct {
	l    *rangeLog
	b, k int
}

func (r *rangeReader) next() [4]float64 {
	if r.k == len(r.l.blocks[r.b]) {
		r.b, r.k = r.b+1, 0
	}
	v := r.l.blocks[r.b][r.k]
	r.k++
	return v
}

func (r *rangeReader) skip(n int) {
	for n > 0 {
		if r.k == len(r.l.blocks[r.b]) {
			r.b, r.k = r.b+1, 0
		}
		step := min(n, len(r.l.blocks[r.b])-r.k)
		r.k += step
		n -= step
	}
}
