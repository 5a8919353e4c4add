package streaming

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
)

// CellState is where a cell is in its life.
type CellState uint8

const (
	// Unloaded: nothing of the cell is held.
	Unloaded CellState = iota
	// Loading: an attempt is in flight at the IO layer.
	Loading
	// Prepared: a prefetch finished; the document is held but no entity
	// exists, so nothing can observe the cell.
	Prepared
	// Resident: published; the cell's entities exist.
	Resident
	// Retrying: an attempt failed and the cell waits out its backoff.
	Retrying
	// Failed: every attempt failed; the cell is not asked for again until
	// every source has left it behind.
	Failed
)

var stateNames = [...]string{"unloaded", "loading", "prepared", "resident", "retrying", "failed"}

func (s CellState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// geom is a cell's shape, laid out for the distance test.
type geom struct {
	minX, minZ, maxX, maxZ float64
	// cx, cz is the centre of the grid square, for DistanceCenter.
	cx, cz float64
}

// dist2 is the squared distance from (x, z) to the cell. Squares are
// compared with squared radii throughout, as the reference does, so that
// the inclusive "within r" tests agree with it bit for bit.
func (g *geom) dist2(x, z float64, center bool) float64 {
	if center {
		dx, dz := g.cx-x, g.cz-z
		return dx*dx + dz*dz
	}
	var dx, dz float64
	if x < g.minX {
		dx = g.minX - x
	} else if x > g.maxX {
		dx = x - g.maxX
	}
	if z < g.minZ {
		dz = g.minZ - z
	} else if z > g.maxZ {
		dz = z - g.maxZ
	}
	return dx*dx + dz*dz
}

// Flags a cell's measurement carries: which kinds of radius of some source
// it lies within this frame.
const (
	inLoad     uint8 = 1 << iota // some source within loadRadius
	inPrefetch                   // some source within prefetchRadius
	inUnload                     // some source within unloadRadius
	inKeep                       // some source within max(prefetch, unload)
)

// cellRT is a cell's runtime state. It is kept small and in one array so
// that the cells near a source sit close together in memory.
type cellRT struct {
	// d2 is the squared distance to the nearest enabled source, valid when
	// mstamp is the current frame.
	d2 float64
	// seq changes on every state change; list entries and requests carry
	// the seq they were made under, so stale ones are recognised.
	seq   uint64
	bytes int64 // bytes held (resident or prepared) or requested
	// mstamp and nstamp are the frame of the last measurement and the last
	// time the cell joined the near list.
	mstamp, nstamp uint32
	dispatched     int32 // frame of the current attempt's dispatch
	due            int32 // Retrying: first frame the retry may go
	cooldown       int32 // first frame an evicted cell may be dispatched
	entities       int32 // as the IO layer counted them, when counted is set
	loads          int32 // requests dispatched for the cell, for the map
	// wantStamp is the last frame the cell was within some source's
	// prefetch radius; a gap starts a new stretch of being wanted.
	wantStamp uint32
	state     CellState
	flags     uint8
	failures  uint8 // failed attempts since the cell was last settled
	prefetch  bool  // the current attempt is a prefetch
	counted   bool  // entities holds the IO layer's count (else the cell's own)
	// why is the strongest reason seen, in the current stretch of being
	// wanted, that the cell was kept from becoming resident (see holeCause).
	why HoleCause
	// mark is the cell's place in an incremental run's sets (incNear,
	// incReady, incHole).
	mark uint8
}

// entry is a cell in one of the ordered lists, valid while the cell's seq
// is unchanged.
type entry struct {
	cell int32
	seq  uint64
}

// activeSource is an enabled source this frame, with its radii squared
// (keep2 is max(prefetch, unload) squared: how far prepared cells and
// prefetches are held).
type activeSource struct {
	x, z                      float64
	load2, prefetch2, unload2 float64
	keep2                     float64
	prefetch                  float64
}

// frameTimer is implemented by IO layers that spend real time on the
// frame's thread (disk IO): how long the last Poll applied results, how
// many finished results it left queued, and its per-frame time budget.
type frameTimer interface {
	frameTiming() (apply time.Duration, backlog int, budget time.Duration)
}

// Scheduler advances a streamed world one frame at a time.
type Scheduler struct {
	cells   []Cell
	geo     []geom
	rt      []cellRT
	index   *gridIndex
	sources []Source
	active  []activeSource
	set     Settings
	center  bool
	loader  Loader

	frame int
	seq   uint64

	// Ordered lists: resident in the order cells became resident, inflight
	// in dispatch order, prepared in the order prefetches were held,
	// waiting in the order attempts failed, failed in the order cells were
	// given up. Entries go stale when a cell changes state and are
	// dropped by the next pass.
	resident, inflight, prepared, waiting, failed []entry
	nInflight                                     int
	// residentBytes are the resident cells' document bytes; the resident
	// assets' are the book's (see residentTotal).
	residentBytes, preparedBytes int64

	near, cand []int32 // per-frame scratch
	// touched lists every cell whose record rt has changed from zero
	// (each at least once): a cell's record changes first when the index
	// offers it to gatherNear or when it is measured. Loads reads only
	// them, and Close clears only them when the records go back to the
	// frozen world (frozen non-nil).
	touched []int32
	frozen  *frozen

	// Arenas of the reports' small slices (see carve).
	posArena   []SourcePosition
	causeArena []HoleCause

	// first holds the cells the first frame's sources wanted within their
	// load radius, until all of them are resident.
	first []int32

	stats stats
	// book counts asset holds; nil for a world without assets or when
	// their costs are ignored.
	book *assetBook
	// viewers and viewed are per-frame scratch of popIn.
	viewers []viewer
	viewed  []int32
	// measured counts distance evaluations, a size-independent proxy for
	// the work a frame does (see the cost test).
	measured uint64
	// cellStates makes every report carry its cell states.
	cellStates bool
	// feed, when set, gives the frames' distances from a shared stream.
	feed *streamFeed
	// nState counts the cells in each state (Unloaded's only its changes).
	nState [Failed + 1]int
	// inc is the run stepping incrementally (incremental.go).
	inc inc
}

// UseStream makes the scheduler read its distances, and the cells near
// its sources, from st (NewStream, computed for this world, the
// scheduler's sources and route and its distance mode) wherever st holds
// them, rather than measuring them: the same numbers, measured once for
// every run that shares st. Call it before the first Step.
func (s *Scheduler) UseStream(st *Stream) error {
	kind := streamBounds
	if s.center {
		kind = streamCenter
	}
	r := 0.0
	for _, src := range s.sources {
		if src.Enabled {
			r = max(r, src.Prefetch)
		}
	}
	fd, err := attach(st, kind, s.geo, s.index, r)
	if err != nil {
		return err
	}
	s.feed = fd
	s.register()
	return nil
}

// NewScheduler returns a scheduler over w's cells with the given sources
// (their positions are the positions before the first frame), settings and
// IO layer.
func NewScheduler(w *World, sources []Source, set Settings, loader Loader) (*Scheduler, error) {
	f, err := w.checked()
	if err != nil {
		return nil, err
	}
	if err := CheckSources(sources); err != nil {
		return nil, err
	}
	if err := set.Check(); err != nil {
		return nil, err
	}
	if loader == nil {
		return nil, fmt.Errorf("no IO layer")
	}
	if len(w.Cells) > math.MaxInt32 {
		return nil, fmt.Errorf("%d cells is more than the scheduler indexes", len(w.Cells))
	}
	lay := f.layout(w, func(f *frozen) *lazyLayout { return &f.budgeted }, budgetedLayout)
	s := &Scheduler{
		cells:   w.Cells,
		geo:     lay.geo,
		index:   lay.index,
		rt:      f.records(len(w.Cells)),
		frozen:  f,
		sources: slices.Clone(sources),
		set:     set,
		center:  set.Distance == DistanceCenter,
		loader:  loader,
	}
	s.stats.init(set)
	s.book = newAssetBook(w, set.IgnoreAssets)
	return s, nil
}

// Sources returns the sources with their current positions.
func (s *Scheduler) Sources() []Source { return slices.Clone(s.sources) }

// Frame returns the number of the last frame stepped (0 before the first).
func (s *Scheduler) Frame() int { return s.frame }

// NumberFrom makes first the number the reports give the first frame
// (the route's frame column), before the first Step: frame k is reported
// as first+k-1.
func (s *Scheduler) NumberFrom(first int) { s.stats.numberFrom(first) }

// Close closes the IO layer.
//
// Over a frozen world (World.Freeze) Close also hands the per-cell
// records to the next scheduler: the scheduler is not to be used after.
func (s *Scheduler) Close() error {
	if s.frozen != nil && s.rt != nil {
		s.frozen.recycle(s.rt, s.touched)
		s.rt, s.touched = nil, nil
	}
	return s.loader.Close()
}

// State returns the state of the named cell. It looks the name up among
// all cells: for tests and inspection, not for every frame.
func (s *Scheduler) State(name string) CellState {
	for i := range s.cells {
		if s.cells[i].Name == name {
			return s.rt[i].state
		}
	}
	return Unloaded
}

// Step advances one frame with the sources at the given positions:
// positions[i] is where sources[i] stands; a source without a position
// keeps its last one. The frame runs finish, evict, unload/cancel, publish
// and dispatch, in that order.
func (s *Scheduler) Step(positions []Point) FrameReport {
	s.frame++
	s.move(positions)
	if s.feed != nil {
		s.feed.lazy = s.inc.on || (s.frame == 1 && s.feed.inc)
		s.feed.begin(s.frame, func(k int) float64 { return s.active[k].x }, func(k int) float64 { return s.active[k].z }, len(s.active))
		s.changed()
	}
	rep := FrameReport{Frame: s.stats.label(s.frame), Positions: s.positions()}
	s.finish(&rep)
	s.evict(&rep)
	s.release(&rep)
	s.publish(&rep)
	s.gatherNear()
	s.dispatch(&rep)
	s.holes(&rep)
	s.popIn(&rep)
	rep.Resident = len(s.resident)
	if s.inc.on {
		// Its lists keep stale entries (sweepChanged).
		rep.Resident = s.nState[Resident]
	}
	rep.InFlight = s.nInflight
	rep.ResidentBytes = s.residentTotal()
	rep.PreparedBytes = s.preparedBytes
	if s.book != nil {
		s.book.report(&rep)
	}
	if t, ok := s.loader.(frameTimer); ok {
		apply, backlog, budget := t.frameTiming()
		rep.Timing = &FrameTiming{ApplyMS: float64(apply.Microseconds()) / 1000, Backlog: backlog}
		s.stats.timing(rep.Timing, apply, budget)
	}
	if s.cellStates {
		s.reportCellStates(&rep)
	}
	s.stats.add(&rep)
	s.checkFirst()
	return rep
}

// ReportCellStates makes every frame's report from now on carry the cells
// resident, prepared and loading at its end (FrameReport.ResidentCells).
// Off by default: collecting and sorting them costs a frame time.
func (s *Scheduler) ReportCellStates() { s.cellStates = true }

// reportCellStates lists the cells resident, prepared (prefetched, held)
// and in flight at the end of the frame. The lists hold every cell in
// those states; entries gone stale are skipped.
func (s *Scheduler) reportCellStates(rep *FrameReport) {
	names := func(list []entry, st CellState) []string {
		var out []string
		for _, e := range list {
			if s.valid(e, st) {
				out = append(out, s.name(e.cell))
			}
		}
		return sortedNames(out)
	}
	rep.ResidentCells = names(s.resident, Resident)
	rep.PreparedCells = names(s.prepared, Prepared)
	rep.LoadingCells = names(s.inflight, Loading)
}

// residentTotal is what is resident: the cells' documents and the assets
// held by anything.
func (s *Scheduler) residentTotal() int64 {
	if s.book != nil {
		return s.residentBytes + s.book.resident
	}
	return s.residentBytes
}

func (s *Scheduler) stamp() uint32 { return uint32(s.frame) }

// positions are where the enabled sources stand this frame.
func (s *Scheduler) positions() []SourcePosition {
	n := 0
	for i := range s.sources {
		if s.sources[i].Enabled {
			n++
		}
	}
	out := carve(&s.posArena, n)
	for _, src := range s.sources {
		if src.Enabled {
			out = append(out, SourcePosition{Source: src.Name, X: src.X, Z: src.Z})
		}
	}
	return out
}

// arenaFrames is how many frames' worth of report slices one arena
// allocation holds.
const arenaFrames = 64

// carve returns an empty slice with room for n from the arena, which
// grows by a block at a time. Each frame's positions and hole causes are
// small slices that every report keeps; carving them from blocks makes
// one allocation serve many frames, which the per-frame cost target
// notices. A carved slice is capped at n, so appending to it cannot
// reach into the next one.
func carve[T any](arena *[]T, n int) []T {
	if n == 0 {
		return nil
	}
	if cap(*arena)-len(*arena) < n {
		*arena = make([]T, 0, max(n*arenaFrames, 64))
	}
	k := len(*arena)
	*arena = (*arena)[:k+n]
	return (*arena)[k : k : k+n]
}

// move places the sources and precomputes their squared radii.
func (s *Scheduler) move(positions []Point) {
	for i := range s.sources {
		if i < len(positions) && finite(positions[i].X, positions[i].Z) {
			s.sources[i].X, s.sources[i].Z = positions[i].X, positions[i].Z
		}
	}
	s.active = s.active[:0]
	for _, src := range s.sources {
		if !src.Enabled {
			continue
		}
		keep := math.Max(src.Prefetch, src.Unload)
		s.active = append(s.active, activeSource{
			x: src.X, z: src.Z,
			load2: sq(src.Load), prefetch2: sq(src.Prefetch), unload2: sq(src.Unload), keep2: sq(keep),
			prefetch: src.Prefetch,
		})
	}
}

// measure returns cell i's runtime record with this frame's distance and
// radius flags, computing them once per frame.
func (s *Scheduler) measure(i int32) *cellRT {
	r := &s.rt[i]
	if r.mstamp == s.stamp() {
		return r
	}
	if r.mstamp == 0 && r.nstamp == 0 {
		s.touched = append(s.touched, i)
	}
	s.measured++
	r.mstamp = s.stamp()
	var fed []float64
	if s.feed != nil {
		fed, _ = s.feed.dist(i, s.frame)
	}
	s.measureFrom(r, &s.geo[i], fed)
	return r
}

// measureFrom sets r's distance and flags from the sources, or from
// fed, the frame's distances of its cell to them.
func (s *Scheduler) measureFrom(r *cellRT, g *geom, fed []float64) {
	best := math.Inf(1)
	var fl uint8
	for k := range s.active {
		a := &s.active[k]
		var d2 float64
		if fed != nil {
			d2 = fed[k]
		} else {
			d2 = g.dist2(a.x, a.z, s.center)
		}
		best = min(best, d2)
		if d2 <= a.load2 {
			fl |= inLoad
		}
		if d2 <= a.prefetch2 {
			fl |= inPrefetch
		}
		if d2 <= a.unload2 {
			fl |= inUnload
		}
		if d2 <= a.keep2 {
			fl |= inKeep
		}
	}
	r.d2, r.flags = best, fl
}

// setState moves a cell to a new state under a fresh seq, which makes the
// cell's entries in every list stale.
func (s *Scheduler) setState(i int32, st CellState) *cellRT {
	if s.book != nil && (st == Unloaded || st == Retrying || st == Failed) {
		// The cell holds nothing any more: its assets may be freed.
		s.book.release(i)
	}
	s.seq++
	r := &s.rt[i]
	s.nState[r.state]--
	s.nState[st]++
	r.state, r.seq = st, s.seq
	if s.inc.on {
		s.note(i)
	}
	return r
}

func (s *Scheduler) valid(e entry, st CellState) bool {
	r := &s.rt[e.cell]
	return r.seq == e.seq && r.state == st
}

func (s *Scheduler) name(i int32) string { return s.cells[i].Name }

// makeResident publishes cell i; its bytes were fixed at dispatch.
func (s *Scheduler) makeResident(i int32) {
	r := s.setState(i, Resident)
	r.failures = 0
	r.why = CauseNone // whatever held it back is over
	s.residentBytes += r.bytes
	s.resident = append(s.resident, entry{i, r.seq})
	s.stats.sum.Published++
}

// finish applies the attempts the IO layer finished (step 1), then
// abandons attempts that ran past their timeout.
func (s *Scheduler) finish(rep *FrameReport) {
	for _, res := range s.loader.Poll(s.frame) {
		s.stats.io(res)
		if res.Cell < 0 || res.Cell >= len(s.rt) {
			continue
		}
		i := int32(res.Cell)
		r := &s.rt[i]
		if r.state != Loading || r.seq != res.ID {
			continue // cancelled or superseded
		}
		s.nInflight--
		if res.Err != nil {
			s.fail(i, res.Err, rep)
			continue
		}
		if res.Entities >= 0 {
			r.entities, r.counted = int32(min(res.Entities, math.MaxInt32)), true
		}
		rep.Completed = append(rep.Completed, s.name(i))
		if s.book != nil {
			s.book.complete(i)
		}
		if !r.prefetch {
			s.makeResident(i)
			rep.Published = append(rep.Published, s.name(i))
			continue
		}
		// A prefetch asks again whether the cell is still wanted: the
		// answer at dispatch may be stale by now.
		switch m := s.measure(i); {
		case m.flags&inLoad != 0:
			s.makeResident(i)
			rep.Published = append(rep.Published, s.name(i))
		case m.flags&inPrefetch != 0:
			r := s.setState(i, Prepared)
			r.failures = 0
			s.preparedBytes += r.bytes
			s.prepared = append(s.prepared, entry{i, r.seq})
			rep.Prepared = append(rep.Prepared, s.name(i))
		default:
			s.setState(i, Unloaded).failures = 0
			rep.Dropped = append(rep.Dropped, s.name(i))
		}
	}
	if t := s.set.Retry.TimeoutFrames; t > 0 {
		for _, e := range s.inflight {
			if !s.valid(e, Loading) || s.frame-int(s.rt[e.cell].dispatched) < t {
				continue
			}
			s.loader.Cancel(e.seq)
			s.nInflight--
			s.stats.sum.Timeouts++
			s.fail(e.cell, fmt.Errorf("timed out after %d frames", t), rep)
		}
	}
}

// fail records a failed attempt and schedules a retry after the backoff,
// or gives the cell up once its retries are spent.
func (s *Scheduler) fail(i int32, err error, rep *FrameReport) {
	r := &s.rt[i]
	if r.failures < math.MaxUint8 {
		r.failures++
	}
	s.stats.sum.Failures++
	r.why = max(r.why, CauseFailure)
	rep.Failed = append(rep.Failed, s.name(i))
	if int(r.failures) > s.set.Retry.Retries {
		s.setState(i, Failed)
		s.failed = append(s.failed, entry{i, r.seq})
		s.stats.giveUp(s.frame, s.name(i), int(r.failures), err)
		return
	}
	s.setState(i, Retrying)
	r.due = int32(min(s.frame+s.set.Retry.backoff(int(r.failures)), math.MaxInt32))
	s.waiting = append(s.waiting, entry{i, r.seq})
}

// evict enforces the resident-bytes cap (step 2): the resident cell
// farthest from its nearest source goes first, never one within the pinned
// radius; ties go to the cell that became resident first.
func (s *Scheduler) evict(rep *FrameReport) {
	if s.set.MaxResidentBytes == nil {
		return
	}
	limit := *s.set.MaxResidentBytes
	pinned := s.set.PinnedRadius != nil
	var pin2 float64
	if pinned {
		pin2 = sq(*s.set.PinnedRadius)
	}
	for s.residentTotal() > limit {
		victim, worst := int32(-1), -1.0
		for _, e := range s.resident {
			if !s.valid(e, Resident) {
				continue
			}
			m := s.measure(e.cell)
			if pinned && m.d2 <= pin2 {
				continue
			}
			if m.d2 > worst {
				victim, worst = e.cell, m.d2
			}
		}
		if victim < 0 {
			break // everything left is pinned: over the cap beats a hole
		}
		r := s.setState(victim, Unloaded)
		s.residentBytes -= r.bytes
		r.why = max(r.why, CauseEviction)
		r.cooldown = int32(min(s.frame+s.set.EvictCooldown, math.MaxInt32))
		rep.Evicted = append(rep.Evicted, s.name(victim))
	}
}

// release is step 3: unload resident cells beyond every unload radius,
// cancel loads beyond every unload radius, and drop prepared cells and
// prefetches beyond every max(prefetch, unload) radius.
func (s *Scheduler) release(rep *FrameReport) {
	s.resident = s.sweep(s.resident, Resident, pendResident, func(i int32, m *cellRT) bool {
		if m.flags&inUnload != 0 {
			return true
		}
		s.setState(i, Unloaded)
		s.residentBytes -= m.bytes
		rep.Unloaded = append(rep.Unloaded, s.name(i))
		return false
	})
	s.inflight = s.sweep(s.inflight, Loading, pendInflight, func(i int32, m *cellRT) bool {
		if s.wanted(m) {
			return true
		}
		s.loader.Cancel(m.seq)
		s.nInflight--
		s.setState(i, Unloaded).failures = 0
		rep.Cancelled = append(rep.Cancelled, s.name(i))
		return false
	})
	s.waiting = s.sweep(s.waiting, Retrying, pendWaiting, func(i int32, m *cellRT) bool {
		if s.wanted(m) {
			return true
		}
		s.setState(i, Unloaded).failures = 0
		rep.Cancelled = append(rep.Cancelled, s.name(i))
		return false
	})
	s.prepared = s.sweep(s.prepared, Prepared, pendPrepared, func(i int32, m *cellRT) bool {
		if m.flags&inKeep != 0 {
			return true
		}
		s.setState(i, Unloaded)
		s.preparedBytes -= m.bytes
		rep.Dropped = append(rep.Dropped, s.name(i))
		return false
	})
	// A given-up cell is tried afresh once every source has left it.
	s.failed = s.sweep(s.failed, Failed, pendFailed, func(i int32, m *cellRT) bool {
		if m.flags&inKeep != 0 {
			return true
		}
		s.setState(i, Unloaded).failures = 0
		return false
	})
}

// wanted reports whether a load or prefetch in flight (or waiting to be
// retried) is still wanted by some source.
func (s *Scheduler) wanted(m *cellRT) bool {
	if m.prefetch {
		return m.flags&inKeep != 0
	}
	return m.flags&inUnload != 0
}

// sweep walks a list in order, measuring each live cell, and keeps the
// entries for which keep returns true. Stale entries are dropped.
//
// A run stepping incrementally walks only the cells of the list that
// changed (pending p), in the list's order (sweepChanged).
func (s *Scheduler) sweep(list []entry, st CellState, p pending, keep func(int32, *cellRT) bool) []entry {
	if s.inc.on {
		return s.sweepChanged(list, st, p, keep)
	}
	out := list[:0]
	for _, e := range list {
		if !s.valid(e, st) {
			continue
		}
		if keep(e.cell, s.measure(e.cell)) {
			out = append(out, e)
		}
	}
	clear(list[len(out):])
	return out
}

// publish is step 4: prepared cells a source now wants within its load
// radius enter the world.
func (s *Scheduler) publish(rep *FrameReport) {
	s.prepared = s.sweep(s.prepared, Prepared, pendPublish, func(i int32, m *cellRT) bool {
		if m.flags&inLoad == 0 {
			return true
		}
		s.preparedBytes -= m.bytes
		s.makeResident(i)
		rep.Published = append(rep.Published, s.name(i))
		return false
	})
}

// gatherNear collects the cells within some source's prefetch radius by
// asking the spatial index, so the cost follows the cells near the
// sources, not the size of the world.
func (s *Scheduler) gatherNear() {
	if s.inc.on {
		s.gatherFresh()
		return
	}
	s.near = s.near[:0]
	st := s.stamp()
	visit := func(i int32) {
		r := &s.rt[i]
		if r.nstamp == st {
			return
		}
		if r.mstamp == 0 && r.nstamp == 0 {
			s.touched = append(s.touched, i)
		}
		r.nstamp = st
		if s.measure(i).flags&inPrefetch != 0 {
			if r.wantStamp == 0 || r.wantStamp != st-1 {
				r.why = CauseNone // wanted afresh: old reasons are stale
			}
			r.wantStamp = st
			s.near = append(s.near, i)
		}
	}
	for k := range s.active {
		a := &s.active[k]
		if s.feed == nil || !s.feed.query(a.x, a.z, a.prefetch, visit) {
			s.index.query(a.x, a.z, a.prefetch, visit)
		}
	}
}

// byDistance orders cells nearest first, then by name in byte order.
func (s *Scheduler) byDistance(a, b int32) int {
	if c := cmp.Compare(s.rt[a].d2, s.rt[b].d2); c != 0 {
		return c
	}
	return cmp.Compare(s.cells[a].Name, s.cells[b].Name)
}

// dispatch is step 5: start requests for wanted cells that hold nothing,
// nearest first, within the byte budget and the in-flight cap.
func (s *Scheduler) dispatch(rep *FrameReport) {
	s.cand = s.cand[:0]
	f := int32(min(s.frame, math.MaxInt32))
	if s.inc.on {
		s.readyCandidates(f)
	}
	for _, i := range s.near {
		if s.inc.on {
			break
		}
		r := &s.rt[i]
		ready := r.state == Unloaded || (r.state == Retrying && r.due <= f)
		if ready && r.cooldown <= f {
			s.cand = append(s.cand, i)
		}
	}
	slices.SortFunc(s.cand, s.byDistance)
	budget := s.set.Budget
	var lod2 float64
	if s.set.LODRadius != nil {
		lod2 = sq(*s.set.LODRadius)
	}
	// held marks the candidates a limit kept back this frame, so that a
	// hole can say what delayed it.
	held := func(from int, why HoleCause) {
		for _, i := range s.cand[from:] {
			s.rt[i].why = max(s.rt[i].why, why)
		}
	}
	for k, i := range s.cand {
		if s.set.MaxInFlight != nil && s.nInflight >= *s.set.MaxInFlight {
			held(k, CauseInFlight)
			break
		}
		c, r := &s.cells[i], &s.rt[i]
		bytes, proxy := c.Bytes, false
		if s.set.LODRadius != nil && c.HasProxy && r.d2 > lod2 {
			bytes, proxy = c.ProxyBytes, true
		}
		// A full load pays for the cell's assets that nothing holds yet.
		var assetBytes int64
		var assetPaths []string
		if s.book != nil && !proxy {
			assetBytes, assetPaths = s.book.fresh(i)
		}
		// The first request of a frame always goes, so a cell larger than
		// the budget still loads; after it, stop at the first that does
		// not fit, keeping nearest-first order strict.
		if budget != nil && len(rep.Requested) > 0 && rep.RequestedBytes+bytes+assetBytes > *budget {
			held(k, CauseBudget)
			break
		}
		retry := r.state == Retrying
		r = s.setState(i, Loading)
		r.prefetch = r.flags&inLoad == 0
		r.bytes, r.dispatched = bytes, f
		r.loads++
		if s.book != nil && !proxy {
			s.book.acquire(i)
		}
		s.inflight = append(s.inflight, entry{i, r.seq})
		s.nInflight++
		rep.Requested = append(rep.Requested, c.Name)
		rep.RequestedBytes += bytes + assetBytes
		s.stats.dispatched(r.prefetch, retry, proxy)
		s.loader.Start(Request{
			ID: r.seq, Cell: int(i), Name: c.Name, Path: c.Path,
			Bytes: bytes + assetBytes, Proxy: proxy, Prefetch: r.prefetch,
			Attempt: int(r.failures) + 1, Frame: s.frame, Distance: r.d2,
			Assets: assetPaths,
		})
		// A frame whose requests reach the budget exactly is full, as in
		// the reference (this matters only for zero-byte cells).
		if budget != nil && rep.RequestedBytes >= *budget {
			held(k+1, CauseBudget)
			break
		}
	}
}

// holes lists the cells within some source's load radius that are not
// resident at the end of the frame: what a player would see missing.
func (s *Scheduler) holes(rep *FrameReport) {
	var holes []int32
	if s.inc.on {
		holes = s.incHoles()
	}
	for _, i := range s.near {
		if s.inc.on {
			break
		}
		r := &s.rt[i]
		if r.flags&inLoad == 0 {
			continue
		}
		if s.frame == 1 {
			// The first frame's wanted cells, for "frames until the first
			// position is fully resident".
			s.first = append(s.first, i)
		}
		if r.state != Resident {
			holes = append(holes, i)
		}
	}
	if len(holes) == 0 {
		return
	}
	slices.SortFunc(holes, s.byDistance)
	rep.Holes = make([]string, len(holes))
	rep.HoleCauses = carve(&s.causeArena, len(holes))
	for k, i := range holes {
		rep.Holes[k] = s.cells[i].Name
		rep.HoleCauses = append(rep.HoleCauses, s.holeCause(i))
	}
}

// popIn lists the cells the sources' views show that are not resident
// at the end of the frame. A cell within a load radius is a hole too and
// has its cause; one beyond every load radius is never published while
// it shows.
func (s *Scheduler) popIn(rep *FrameReport) {
	s.viewers = viewers(s.sources, nil, s.viewers)
	popIn(rep, s.viewers, s.index, s.geo, s.cells, &s.viewed,
		func(i int32) bool { return s.rt[i].state == Resident },
		func(i int32) HoleCause {
			if s.measure(i).flags&inLoad != 0 {
				return s.holeCause(i)
			}
			return CauseLoadRadius
		})
}

// holeCause says why cell i, wanted within a load radius, is not resident.
//
// The heuristic reads the cell's own story since it was last wanted
// afresh (entered some prefetch radius after being outside all of them)
// or last became resident. A failed load outranks an eviction, which
// outranks a limit (budget, in-flight cap) that kept the cell waiting
// among the candidates, because each explains the ones after it: an
// evicted cell that then waits on the budget is missing because it was
// evicted. With none of these, the cell is in flight and was dispatched
// the first frame it could be: a request that went out as a load (the
// source was already within the load radius when it first wanted the
// cell) had no lead at all, so the prefetch radius is too small for the
// source's speed; a prefetch had a lead that the IO latency outlasted.
// Loads (not prefetches) sent in the first frame are the start of the
// route, which no setting avoids.
func (s *Scheduler) holeCause(i int32) HoleCause {
	r := &s.rt[i]
	switch {
	case r.why != CauseNone:
		return r.why
	case r.state == Loading && r.dispatched == 1 && !r.prefetch:
		// Loaded since the first frame, the source within the load radius
		// from the start: a prefetch sent then had a lead.
		return CauseStart
	case r.state == Loading && r.prefetch:
		return CauseLatency
	case r.state == Loading:
		return CausePrefetchRadius
	}
	return CauseUnknown
}

func (s *Scheduler) checkFirst() {
	if s.stats.sum.FirstResidentFrame != nil {
		return
	}
	for _, i := range s.first {
		if s.rt[i].state != Resident {
			return
		}
	}
	s.stats.resident(s.frame)
}

// Residency returns the residency report: the resident cells in the order
// they became resident, their entity counts, and how many places were
// brought into the world since the start.
func (s *Scheduler) Residency() ResidencyReport {
	rr := ResidencyReport{
		ResidentCells:    []string{},
		CellEntityCounts: map[string]int{},
		LoadCount:        s.stats.sum.Published,
	}
	for _, e := range s.resident {
		if s.valid(e, Resident) {
			name := s.name(e.cell)
			rr.ResidentCells = append(rr.ResidentCells, name)
			n := min(s.cells[e.cell].EntityCount, math.MaxInt32)
			if r := &s.rt[e.cell]; r.counted {
				n = int(r.entities)
			}
			rr.CellEntityCounts[name] = n
		}
	}
	return rr
}

// Loads returns how many requests each cell had, indexed like the world's
// cells.
func (s *Scheduler) Loads() []int {
	out := make([]int, len(s.rt))
	for _, i := range s.touched {
		out[i] = int(s.rt[i].loads)
	}
	return out
}
