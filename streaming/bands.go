package streaming

import (
	"math"
	"slices"
	"sync"
)

// bands is what a stream keeps for the budgeted runs stepped together on
// it (Scheduler.UseStream before the first Fill): the squared radii they
// test distances against and the prefetch radii they query with, and,
// frame by frame, which cells changed for them — entered or left the
// window, crossed one of those radii or entered or left one of those
// queries for some source. A cell that did not change has, for every
// such run, the radius flags and the place in the prefetch query it had
// the frame before, so a run stepping incrementally (Scheduler.inc) looks
// at the changed cells and at the cells its own state changed, not at
// every cell it holds.
type bands struct {
	mu sync.Mutex
	// on: some run registered; sealed: the first Fill came, and no run
	// may register any more (its radii would be missing from the frames
	// already computed).
	on, sealed bool
	// sq are the squared radii, sorted and unique once sealed; pre the
	// prefetch radii (a visit bit each, in registration order).
	sq, pre []float64
	// sig[e*nsrc+s] is entry e's signature for source s: how many of sq
	// are below its distance, and a bit per prefetch radius whose query
	// from s visits it.
	sig []uint64
	// last are each cell's signatures the last frame it was in the
	// window (nsrc a cell), in the frame (0-based) plus two it was.
	last []uint64
	in   []uint32
	// prev are the previous frame's cells.
	prev []int32
	// frame k's changes are chg[off[k]:off[k+1]]: a cell and its entry,
	// -1 for a cell that left the window.
	off      []int32
	chg, ent []int32
	rect     [][4]int64
}

// sigBandBits bounds the radii a signature holds: a band index below
// 2^sigBandBits, a visit bit each for at most 64-sigBandBits prefetch radii.
const sigBandBits = 16

// register adds a run's squared radii and prefetch radii, and returns
// the visit bit of each prefetch radius, or false once the stream was
// filled or the radii do not fit.
func (b *bands) register(sq, pre []float64) ([]uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sealed {
		return nil, false
	}
	bits := make([]uint64, len(pre))
	for k, p := range pre {
		j := slices.Index(b.pre, p)
		if j < 0 {
			if len(b.pre) >= 64-sigBandBits {
				return nil, false
			}
			j = len(b.pre)
			b.pre = append(b.pre, p)
		}
		bits[k] = 1 << (sigBandBits + j)
	}
	for _, v := range sq {
		if !slices.Contains(b.sq, v) {
			if len(b.sq) >= 1<<sigBandBits-1 {
				return nil, false
			}
			b.sq = append(b.sq, v)
		}
	}
	b.on = true
	return bits, true
}

// seal closes the registration at the first fill, for a world of n
// cells and nsrc sources.
func (b *bands) seal(n, nsrc int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sealed {
		return
	}
	b.sealed = true
	if b.on {
		slices.Sort(b.sq)
		b.last = make([]uint64, n*max(nsrc, 1))
		b.in = make([]uint32, n)
		b.rect = make([][4]int64, len(b.pre)*max(nsrc, 1))
	}
	b.off = []int32{0}
}

// reach is the radius the stream's window queries with: a run's flags
// are read from the window alone, so a cell it leaves out must be beyond
// every radius of every run, whatever the rounding of the index's bucket
// arithmetic; a margin far above that rounding (a billionth of the
// coordinates' scale) makes it so.
func (b *bands) reach(radius, x, z, size float64) float64 {
	if !b.on {
		return radius
	}
	return radius + (radius+math.Abs(x)+math.Abs(z)+size)*1e-9
}

// changes computes frame k's signatures and changes: near are its cells
// (entries from the stream's current length on), base the frame's first
// position.
func (st *Stream) changes(k, base int, near []int32) {
	b := &st.bands
	if k == st.first {
		b.sig, b.chg, b.ent = b.sig[:0], b.chg[:0], b.ent[:0]
		b.off = b.off[:1]
	}
	n := st.nsrc
	g := st.index
	for s := range n {
		x, z := st.x[base+s], st.z[base+s]
		for j, r := range b.pre {
			// The bucket rectangle of the query of radius r (feed.query's).
			b.rect[s*len(b.pre)+j] = [4]int64{max(g.bucketOf(x-r), g.minBX), min(g.bucketOf(x+r), g.maxBX),
				max(g.bucketOf(z-r), g.minBZ), min(g.bucketOf(z+r), g.maxBZ)}
		}
	}
	e0 := len(st.cells)
	// in holds the frame plus two, so that no cell was in the window
	// before the first frame.
	mark := uint32(k + 2)
	for j, i := range near {
		e := e0 + j
		changed := b.in[i] != mark-1 // not in the window the frame before
		for s := range n {
			d := st.d[e*n+s]
			sig := uint64(bandOf(b.sq, d))
			for p := range b.pre {
				rc := &b.rect[s*len(b.pre)+p]
				if st.wide[i] {
					sig |= 1 << (sigBandBits + p)
					continue
				}
				sp := &st.span[i]
				if rc[0] <= rc[1] && rc[2] <= rc[3] && sp[0] <= rc[1] && sp[2] >= rc[0] && sp[1] <= rc[3] && sp[3] >= rc[2] {
					sig |= 1 << (sigBandBits + p)
				}
			}
			b.sig = append(b.sig, sig)
			if b.last[int(i)*n+s] != sig {
				b.last[int(i)*n+s] = sig
				changed = true
			}
		}
		b.in[i] = mark
		if changed {
			b.chg, b.ent = append(b.chg, i), append(b.ent, int32(e))
		}
	}
	for _, i := range b.prev {
		if b.in[i] != mark {
			b.chg, b.ent = append(b.chg, i), append(b.ent, -1)
		}
	}
	b.prev = append(b.prev[:0], near...)
	b.off = append(b.off, int32(len(b.chg)))
}

// bandOf is how many of the sorted sq are below d: two distances of one
// band are within the same of them (d <= v for the same v of sq).
func bandOf(sq []float64, d float64) int {
	lo, hi := 0, len(sq)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sq[m] < d {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
