package streaming

import (
	"math"
	"sync"
	"unsafe"

	"github.com/worldcook/worldcook/grid"
)

// Freeze declares that w will not change any more, so that the schedulers
// made over it from now on (either policy's, any number, at once) share
// one check of the world and one copy of what each derives from its cells
// alone — the cells' geometry and the spatial index — instead of each
// building its own. For a world of a million cells that setup costs far
// more than stepping a route, and a search that runs the same world many
// times (worldcook tune) pays it once. It returns the world's check, as
// NewScheduler would.
//
// Once frozen, w's cells, cell size and assets must not be changed in
// place. A world whose Cells, CellSize or Assets were replaced afterwards
// (or a copy of w that did so) is recognised and set up afresh, as an
// unfrozen one is. Freeze before making schedulers, not while they run.
// The budgeted schedulers' per-cell records handed back by Close stay
// with w for the next ones, as long as w does.
func (w *World) Freeze() error {
	f := &frozen{cells: w.Cells, size: w.CellSize, assets: w.Assets, err: w.check()}
	w.frozen = f
	return f.err
}

// frozen is what Freeze shares: set once, read by any number of
// schedulers; each layout is built by the first scheduler that needs it.
type frozen struct {
	// cells, size and assets are the world's when frozen, to recognise a
	// world changed since.
	cells  []Cell
	size   float64
	assets []Asset
	err    error

	budgeted, runtime lazyLayout

	// free holds budgeted schedulers' per-cell records given back by
	// Close, reset to zero, for the next scheduler over the world.
	mu   sync.Mutex
	free [][]cellRT
}

// records returns n zeroed per-cell records: a set given back by a closed
// scheduler when f has one, else new ones.
func (f *frozen) records(n int) []cellRT {
	if f != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
		if k := len(f.free); k > 0 {
			rt := f.free[k-1]
			f.free = f.free[:k-1]
			return rt
		}
	}
	return make([]cellRT, n)
}

// recycle resets the records a scheduler touched (the others are still
// zero) and keeps them for the next scheduler: for a large world the
// cells near a route are few, and clearing them costs a fraction of
// clearing every cell's.
func (f *frozen) recycle(rt []cellRT, touched []int32) {
	for _, i := range touched {
		rt[i] = cellRT{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.free = append(f.free, rt)
}

// lazyLayout is a layout built on first use.
type lazyLayout struct {
	once sync.Once
	lay  *layout
}

// layout is a policy's read-only view of the cells' geometry: one geom per
// cell and the index over them.
type layout struct {
	geo   []geom
	index *gridIndex
}

// frozenState returns w's frozen state when w was frozen and has not been
// given other cells, cell size or assets since (nil otherwise).
func (w *World) frozenState() *frozen {
	f := w.frozen
	if f == nil || f.size != w.CellSize || !sameSlice(f.cells, w.Cells) || !sameSlice(f.assets, w.Assets) {
		return nil
	}
	return f
}

func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// checked returns w's check, made once when w is frozen, and w's frozen
// state (nil when there is none).
func (w *World) checked() (*frozen, error) {
	if w == nil {
		return nil, w.check()
	}
	if f := w.frozenState(); f != nil {
		return f, f.err
	}
	return nil, w.check()
}

// layout returns what build makes of w: shared through slot when w is
// frozen (f, from checked), built afresh otherwise.
func (f *frozen) layout(w *World, slot func(*frozen) *lazyLayout, build func(*World) *layout) *layout {
	if f == nil {
		return build(w)
	}
	l := slot(f)
	l.once.Do(func() { l.lay = build(w) })
	return l.lay
}

// budgetedLayout is the budgeted scheduler's geometry: distances are to
// the grown bounds, but each cell is filed in the index under the union
// of its bounds and its grid square, so that a centre distance never
// falls outside what the index covers.
func budgetedLayout(w *World) *layout {
	geo := make([]geom, len(w.Cells))
	for i, c := range w.Cells {
		ctr := grid.Center(grid.Key{Level: c.Level, X: c.X, Z: c.Z}, w.CellSize)
		cx, cz := ctr.X, ctr.Z
		b := c.Bounds
		geo[i] = geom{
			minX: math.Min(b.MinX, cx), minZ: math.Min(b.MinZ, cz),
			maxX: math.Max(b.MaxX, cx), maxZ: math.Max(b.MaxZ, cz),
			cx: cx, cz: cz,
		}
	}
	index := newGridIndex(geo, w.CellSize)
	for i, c := range w.Cells {
		geo[i].minX, geo[i].minZ = c.Bounds.MinX, c.Bounds.MinZ
		geo[i].maxX, geo[i].maxZ = c.Bounds.MaxX, c.Bounds.MaxZ
	}
	return &layout{geo: geo, index: index}
}

// runtimeLayout is the Estella model's geometry: the grown bounds, filed
// as they are.
func runtimeLayout(w *World) *layout {
	geo := make([]geom, len(w.Cells))
	for i, c := range w.Cells {
		b := c.Bounds
		geo[i] = geom{minX: b.MinX, minZ: b.MinZ, maxX: b.MaxX, maxZ: b.MaxZ}
	}
	return &layout{geo: geo, index: newGridIndex(geo, w.CellSize)}
}
