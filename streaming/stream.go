package streaming

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// A Stream is the part of a route's run that does not depend on the
// radii, the budget or the cap: where the enabled sources stand in each
// frame, the cells near them and each cell's distance to each of them.
// Several runs of one route over one world, under one policy and one
// distance, share it: it is computed once, in one pass over the route,
// and each run's scheduler reads the distances from it instead of
// measuring them (Scheduler.UseStream, Estella.UseStream).
//
// A run reads a frame of the stream only when that frame's positions are
// bit for bit where its own sources stand and every radius it queries is
// within the stream's: otherwise it measures as it would without one. The
// distances are computed by the same function on the same numbers, so a
// run fed from a stream gives the figures it gives alone, bit for bit.
type Stream struct {
	kind   streamKind
	geo    []geom
	index  *gridIndex
	radius float64
	// nsrc is the number of enabled sources; x and z hold their positions,
	// nsrc a frame.
	nsrc int
	x, z []float64
	// off: frame k's cells are cells[off[k]:off[k+1]], in index order,
	// each with nsrc distances in d (d[e*nsrc+s] for entry e, source s).
	off   []int32
	cells []int32
	d     []float64
	// wide marks the cells every query visits (gridIndex.wide).
	wide []bool
	// span is the bucket rectangle each cell is filed under, to tell
	// which of a frame's cells a query of a smaller radius visits.
	span [][4]int64
	// first is the route's frame (0-based) the stream's first frame is,
	// next the one after its last; pos are where the sources stand after
	// it. stamp and near are Fill's scratch.
	first, next int
	pos         []Source
	stamp       []uint32
	near        []int32
	// bands says which cells changed for the runs stepped together
	// (bands.go): what they registered, and each frame's changes.
	bands bands
}

type streamKind uint8

const (
	streamBounds  streamKind = iota // budgeted, distance to the grown bounds (squared)
	streamCenter                    // budgeted, distance to the grid centre (squared)
	streamRuntime                   // Estella's runtime: distanceToCell
)

// StreamPolicy says which scheduler and distance a stream is for.
type StreamPolicy struct {
	// Runtime is Estella's runtime scheduler (else the budgeted one).
	Runtime bool
	// Distance is the budgeted scheduler's distance mode.
	Distance DistanceMode
}

// ErrStreamTooLarge is NewStream's answer for a route whose stream would
// hold more than its limit of entries.
var ErrStreamTooLarge = errors.New("the shared stream would be larger than allowed")

// NewStream computes the stream of a route over w for the given sources
// (their positions before the first frame) and frames (each frame's
// positions, as the scheduler's Step takes them), holding every cell a
// query of radius up to radius visits around each enabled source. The
// sources are those the run's scheduler gets: their positions are all
// that is read of them, and whether they are enabled. A stream of more
// than limit distances (a cell's distance to one source in one frame,
// 12 bytes each) is declined with ErrStreamTooLarge: the runs then
// measure on their own.
func NewStream(w *World, sources []Source, frames [][]Point, radius float64, p StreamPolicy, limit int) (*Stream, error) {
	st, err := NewWindow(w, sources, radius, p)
	if err != nil {
		return nil, err
	}
	if err := st.fill(frames, len(frames), limit); err != nil {
		return nil, err
	}
	return st, nil
}

// NewWindow returns a stream of the route over w (see NewStream) that
// holds a window of its frames at a time, none yet: Fill moves it along
// the route. Runs stepped together, frame by frame, share one window,
// and the memory it takes is the window's, not the route's.
func NewWindow(w *World, sources []Source, radius float64, p StreamPolicy) (*Stream, error) {
	f, err := w.checked()
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errors.New("a shared stream is of a frozen world: freeze it first (World.Freeze)")
	}
	if !(radius >= 0) || math.IsInf(radius, 0) {
		return nil, fmt.Errorf("stream radius %v must be finite and not negative", radius)
	}
	st := &Stream{radius: radius}
	var lay *layout
	switch {
	case p.Runtime:
		st.kind = streamRuntime
		lay = f.layout(w, func(f *frozen) *lazyLayout { return &f.runtime }, runtimeLayout)
	default:
		st.kind = streamBounds
		if p.Distance == DistanceCenter {
			st.kind = streamCenter
		}
		lay = f.layout(w, func(f *frozen) *lazyLayout { return &f.budgeted }, budgetedLayout)
	}
	st.geo, st.index = lay.geo, lay.index
	st.span, st.wide = st.index.spans(len(st.geo))
	st.pos = slices.Clone(sources)
	for _, s := range st.pos {
		if s.Enabled {
			st.nsrc++
		}
	}
	st.stamp = make([]uint32, len(st.geo))
	st.off = []int32{0}
	return st, nil
}

// Fill moves the window on to the route's next n frames (fewer at its
// end): the window then holds them, and no earlier frame. frames are the
// whole route's, as NewStream takes them; the window starts at its first
// frame and moves only forward.
func (st *Stream) Fill(frames [][]Point, n int) {
	st.fill(frames, min(st.next+n, len(frames)), math.MaxInt)
}

// fill computes frames [st.next, to) into the stream, replacing the
// frames it held, or declines with ErrStreamTooLarge once it would hold
// more than limit distances.
func (st *Stream) fill(frames [][]Point, to, limit int) error {
	st.first = st.next
	st.x, st.z, st.cells, st.d = st.x[:0], st.z[:0], st.cells[:0], st.d[:0]
	st.off = st.off[:1]
	st.bands.seal(len(st.geo), st.nsrc)
	near := st.near[:0]
	for k := st.next; k < to; k++ {
		fr := frames[k]
		for i := range st.pos {
			if i < len(fr) && finite(fr[i].X, fr[i].Z) {
				st.pos[i].X, st.pos[i].Z = fr[i].X, fr[i].Z
			}
		}
		near = near[:0]
		mark := uint32(k + 1)
		for _, s := range st.pos {
			if !s.Enabled {
				continue
			}
			st.x, st.z = append(st.x, s.X), append(st.z, s.Z)
			st.index.query(s.X, s.Z, st.bands.reach(st.radius, s.X, s.Z, st.index.size), func(i int32) {
				if st.stamp[i] != mark {
					st.stamp[i] = mark
					near = append(near, i)
				}
			})
		}
		slices.Sort(near)
		if (len(st.cells)+len(near))*max(st.nsrc, 1) > limit {
			return ErrStreamTooLarge
		}
		base := len(st.x) - st.nsrc
		for _, i := range near {
			g := &st.geo[i]
			for s := range st.nsrc {
				st.d = append(st.d, st.measure(g, st.x[base+s], st.z[base+s]))
			}
		}
		if st.bands.on {
			st.changes(k, base, near)
		}
		st.cells = append(st.cells, near...)
		st.off = append(st.off, int32(len(st.cells)))
	}
	st.near = near
	st.next = to
	return nil
}

// measure is the distance the stream's scheduler measures from (x, z) to
// g, by the scheduler's own function.
func (st *Stream) measure(g *geom, x, z float64) float64 {
	switch st.kind {
	case streamRuntime:
		return g.runtimeDistance(x, z)
	case streamCenter:
		return g.dist2(x, z, true)
	}
	return g.dist2(x, z, false)
}

// Frames is the number of frames the stream holds.
func (st *Stream) Frames() int { return len(st.off) - 1 }

// Entries is the number of (frame, cell) entries the stream holds.
func (st *Stream) Entries() int { return len(st.cells) }

// streamFeed is a scheduler's reading of a stream: for the current frame,
// which entry holds each cell (ent, valid where at is the frame).
type streamFeed struct {
	st    *Stream
	ok    bool // the current frame is read from the stream
	frame int  // 0-based stream frame of the current frame
	ent   []int32
	at    []uint32
	// queries says the run's queries are all within the stream's radius.
	queries bool
	// fed counts the frames read from the stream.
	fed int
	// inc says the run registered its radii with the stream (bands) and
	// may step incrementally; pbit is the visit bit of each enabled
	// source's prefetch radius. lazy makes begin leave the frame's
	// entries unmarked: dist then looks a cell up in the frame's sorted
	// cells, which is cheaper for a run that measures a few cells.
	inc  bool
	pbit []uint64
	lazy bool
}

// attach checks that st is for a scheduler of kind over geo and index,
// and returns its feed. maxRadius is the largest radius the scheduler
// queries with.
func attach(st *Stream, kind streamKind, geo []geom, index *gridIndex, maxRadius float64) (*streamFeed, error) {
	if st.kind != kind || !sameSlice(st.geo, geo) || st.index != index {
		return nil, fmt.Errorf("the stream was computed for another world, policy or distance")
	}
	return &streamFeed{st: st, ent: make([]int32, len(geo)), at: make([]uint32, len(geo)),
		queries: maxRadius <= st.radius}, nil
}

// begin readies frame (1-based) whose enabled sources stand at xs, zs:
// the stream is read for it only if it holds the frame and its positions
// are those.
func (fd *streamFeed) begin(frame int, xs, zs func(k int) float64, n int) {
	st := fd.st
	k := frame - 1 - st.first
	fd.ok = false
	if k < 0 || k >= st.Frames() || n != st.nsrc {
		return
	}
	for s := range n {
		if xs(s) != st.x[k*n+s] || zs(s) != st.z[k*n+s] {
			return
		}
	}
	fd.ok, fd.frame = true, k
	fd.fed++
	if fd.lazy {
		return
	}
	mark := uint32(frame)
	for e := st.off[k]; e < st.off[k+1]; e++ {
		i := st.cells[e]
		fd.ent[i], fd.at[i] = e, mark
	}
}

// dist returns the distances of cell i to the sources this frame, from
// the stream (ok false: the stream does not hold them).
func (fd *streamFeed) dist(i int32, frame int) ([]float64, bool) {
	if !fd.ok {
		return nil, false
	}
	st := fd.st
	var e int
	if fd.lazy {
		lo, hi := int(st.off[fd.frame]), int(st.off[fd.frame+1])
		k, found := slices.BinarySearch(st.cells[lo:hi], i)
		if !found {
			return nil, false
		}
		e = lo + k
	} else {
		if fd.at[i] != uint32(frame) {
			return nil, false
		}
		e = int(fd.ent[i])
	}
	n := st.nsrc
	return st.d[e*n : e*n+n], true
}

// entry returns the distances of the frame's entry e (its cell's).
func (fd *streamFeed) entry(e int32) []float64 {
	n := fd.st.nsrc
	return fd.st.d[int(e)*n : int(e)*n+n]
}

// query visits the cells of this frame a gridIndex query of radius r
// around (x, z) visits, and reports whether it could (false: the caller
// queries the index itself).
func (fd *streamFeed) query(x, z, r float64, visit func(int32)) bool {
	if !fd.ok || !fd.queries || r > fd.st.radius {
		return false
	}
	st := fd.st
	g := st.index
	bx0, bx1 := max(g.bucketOf(x-r), g.minBX), min(g.bucketOf(x+r), g.maxBX)
	bz0, bz1 := max(g.bucketOf(z-r), g.minBZ), min(g.bucketOf(z+r), g.maxBZ)
	for _, i := range st.cells[st.off[fd.frame]:st.off[fd.frame+1]] {
		if st.wide[i] {
			visit(i)
			continue
		}
		sp := &st.span[i]
		if bx0 <= bx1 && bz0 <= bz1 && sp[0] <= bx1 && sp[2] >= bx0 && sp[1] <= bz1 && sp[3] >= bz0 {
			visit(i)
		}
	}
	return true
}

// FedFrames is the number of frames the scheduler read from its stream
// (0 without one): the frames whose distances it did not measure.
func (s *Scheduler) FedFrames() int {
	if s.feed == nil {
		return 0
	}
	return s.feed.fed
}

// FedFrames is the number of frames the runtime read from its stream.
func (e *Estella) FedFrames() int {
	if e.feed == nil {
		return 0
	}
	return e.feed.fed
}
