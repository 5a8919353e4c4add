package streaming

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/worldcook/worldcook/manifest"
)

// This file models Estella's own runtime scheduler, WorldStreamer (the
// engine's residency/WorldStreamer.ts with desiredResidency of cells.ts),
// over a modelled host. The runtime has no byte budget, no resident cap, no
// pinning and no LOD: every update it decides which cells should exist, and
// each cell walks unloaded → preparing → prepared → publishing → resident →
// unloading → unloaded through the host's asynchronous operations.
//
// Assets. The runtime keeps an asset scope per cell (report.ts reads its
// size as assetRefsByCell): the host's prepare loads the cell's assets,
// and they stay held while the cell is prepared, publishing, resident and
// unloading. The sdk does not show the scene manager's side, so this
// model takes the closest reading of WorldStreamer.ts: a cell takes its
// holds when its preparation starts (an asset already held by another
// cell, in flight or resident, costs nothing), its assets become resident
// when the preparation completes (assetsReady), and it lets go when its
// preparation fails, when it is discarded prepared (discardPrepared
// releases the scope and answers how many references it released: the
// runtime's cancelledRefs) and when its unload completes (the scene is
// gone once unload resolves, not when it is asked). The book is the
// budgeted scheduler's (assets.go): counts by reference, the persistent
// world's assets held from frame 1.
//
// Time is counted in frames. An operation the streamer starts during frame
// f completes at frame f+d. A frame g runs, as a host that resolves
// operations between frames (d > 0) or at once (d = 0) makes the runtime's
// promise callbacks run:
//
//  1. every completion due at g, in the order the operations were started;
//     each runs the streamer's callback, and the zero-delay operations a
//     callback starts are delivered right after it, in start order;
//  2. update(sources of frame g);
//  3. the zero-delay operations update started, in start order, cascading
//     the same way;
//  4. the frame's report.

// Residency is where a cell is in the runtime's lifetime.
type Residency uint8

// The runtime's residencies, in the order a cell walks them.
const (
	ResUnloaded Residency = iota
	ResPreparing
	ResPrepared
	ResPublishing
	ResResident
	ResUnloading
)

var residencyNames = [...]string{"unloaded", "preparing", "prepared", "publishing", "resident", "unloading"}

func (r Residency) String() string {
	if int(r) < len(residencyNames) {
		return residencyNames[r]
	}
	return fmt.Sprintf("residency(%d)", int(r))
}

// EstellaHost is the modelled host under the runtime scheduler: how many
// frames each of its operations takes.
type EstellaHost struct {
	// Prepare times preparations: LatencyFrames from start to completion
	// (0: at once), or, with BytesPerFrame, one device serving them in
	// start order (never within the frame that started them). Fail
	// injects failed preparations, which the runtime answers by returning
	// the cell to unloaded.
	Prepare ModelIO
	// PublishFrames and UnloadFrames time loadAdditive and unload.
	PublishFrames, UnloadFrames int
	// DiscardRefs, when set, is what the host's discardPrepared returns for
	// a cell: the references it released. Without it a discard releases
	// the cell's asset scope: as many references as the cell has assets
	// (0 for a world without assets, or with IgnoreAssets).
	DiscardRefs func(cell int) int
	// IgnoreAssets makes the host acquire no assets, as a headless host
	// does: resident bytes count cell documents only (--asset-costs off).
	IgnoreAssets bool
}

func (h EstellaHost) check() error {
	if h.Prepare.LatencyFrames < 0 || h.PublishFrames < 0 || h.UnloadFrames < 0 {
		return errors.New("operation times must not be negative")
	}
	if b := h.Prepare.BytesPerFrame; b != nil && *b <= 0 {
		return fmt.Errorf("prepare bandwidth %d must be positive", *b)
	}
	return nil
}

// Delivery is where one cell's last delivery spent its time, in frames:
// the runtime's CellDelivery.
type Delivery struct {
	// Frames from the start of the preparation to resident.
	Delivery int `json:"deliveryFrames"`
	Prepare  int `json:"prepareFrames"`
	Publish  int `json:"publishFrames"`
	// DemandToResident is the frames from the update that first demanded
	// the cell to its arrival.
	DemandToResident int `json:"demandToResidentFrames"`
	// Dwell is how long a prefetched cell waited prepared before it was
	// demanded (0 for a miss).
	Dwell int `json:"dwellFrames"`
	// Outcome is hit (demanded while prepared), miss (demanded before it
	// was prepared) or "" (published without a prefetch being counted).
	Outcome string `json:"outcome"`
}

// Arrival is a cell that became resident in a frame, with its delivery.
type Arrival struct {
	Cell string `json:"cell"`
	Delivery
}

// EstellaFrame is a frame of the runtime scheduler. The embedded report has
// the budgeted scheduler's fields with the runtime's meanings: Requested are
// the preparations started, Completed those that finished, Prepared the
// cells left prepared by them, Published the cells that became resident,
// Cancelled the prepared cells discarded, Unloaded the unloads started,
// Failed the preparations that failed, InFlight the cells preparing or
// publishing.
type EstellaFrame struct {
	FrameReport
	RuntimeFrame
}

// RuntimeFrame is what a frame of the runtime scheduler reports beyond the
// budgeted scheduler's fields.
type RuntimeFrame struct {
	// Publishing are the publishes (loadAdditive) started.
	Publishing []string `json:"publishing"`
	// Hits and Misses are the cells demanded this frame that were, or were
	// not yet, prepared.
	Hits   []string `json:"prefetchHits"`
	Misses []string `json:"prefetchMisses"`
	// CancelledRefs is what the discards of this frame released.
	CancelledRefs int `json:"cancelledRefs"`
	// Arrived are the cells that became resident, with their timings.
	Arrived []Arrival `json:"arrived"`
	// Desired and Speculated count the cells the update wanted and the
	// cells within some source's max(load, prefetch) radius.
	Desired    int `json:"desired"`
	Speculated int `json:"speculated"`
}

// CellRef is a cell's name and grid coordinate.
type CellRef struct {
	Name string `json:"name"`
	X    int32  `json:"x"`
	Z    int32  `json:"z"`
}

// RuntimeReport is the runtime's worldResidencyReport as far as a headless
// model can know it: everything but what needs live entities (render
// counts, entity rows, persistent handles) and render readiness.
type RuntimeReport struct {
	Streamed         bool      `json:"streamed"`
	CellCount        int       `json:"cellCount"`
	Cells            []CellRef `json:"cells"`
	CellSize         float64   `json:"cellSize"`
	SourceCount      int       `json:"sourceCount"`
	DesiredCells     []string  `json:"desiredCells"`
	PrefetchCells    []string  `json:"prefetchCells"`
	ResidentCells    []string  `json:"residentCells"`
	PreparedCells    []string  `json:"preparedCells"`
	LoadingCells     []string  `json:"loadingCells"`
	UnloadingCells   []string  `json:"unloadingCells"`
	LoadCount        int       `json:"loadCount"`
	UnloadCount      int       `json:"unloadCount"`
	PrepareCount     int       `json:"prepareCount"`
	CancelCount      int       `json:"cancelCount"`
	PrefetchRequests int       `json:"prefetchRequests"`
	CancelledRefs    int       `json:"cancelledRefs"`
	PrefetchHits     int       `json:"prefetchHits"`
	PrefetchMisses   int       `json:"prefetchMisses"`
	// LastDemandToResident is in frames (the runtime counts milliseconds).
	LastDemandToResident int            `json:"lastDemandToResidentFrames"`
	CellEntityCounts     map[string]int `json:"cellEntityCounts"`
	// AssetRefsByCell is the size of each resident cell's asset scope:
	// the number of assets it holds, for the cells cellEntityCounts has
	// (the runtime reads both from the cells' scene contexts). Nil, and
	// absent from JSON, when assets are not modelled (a world without
	// assets, --asset-costs off), so that such a report is what it was
	// before assets were counted.
	AssetRefsByCell          *map[string]int     `json:"assetRefsByCell,omitempty"`
	AuthoredCellEntityCounts map[string]int      `json:"authoredCellEntityCounts"`
	Delivery                 map[string]Delivery `json:"delivery"`
}

// EstellaSummary totals a run of the runtime scheduler: the budgeted summary's
// fields (Loads are preparations, Prefetches the preparations started for
// speculation, Published the cells that became resident, Cancellations the
// discards) and the runtime's own report at the end.
type EstellaSummary struct {
	Summary
	Runtime RuntimeReport `json:"runtime"`
}

// estCell is a cell's runtime state: CellState of WorldStreamer.ts, with
// frames for times.
type estCell struct {
	res                  Residency
	desired, speculated  bool
	delivered            bool
	issuedAt, demandedAt int
	preparedAt, pubAt    int
	d                    Delivery
	prepares             int
	// stamp and hstamp are the last frames the cell was gathered for an
	// update and for the holes.
	stamp, hstamp int
}

type opKind uint8

const (
	opPrepare opKind = iota
	opPublish
	opUnload
)

// op is a host operation in flight.
type op struct {
	seq  uint64
	kind opKind
	cell int32
	due  int
	fail bool
}

// Estella is Estella's runtime scheduler over a modelled host.
type Estella struct {
	cells    []Cell
	cellSize float64
	geo      []geom
	index    *gridIndex
	sources  []Source
	host     EstellaHost
	prepIO   *ModelLoader // times preparations; nil: they complete at once

	st    []estCell
	frame int
	seq   uint64
	// pending holds the publishes and unloads that take time, in start
	// order; now collects the zero-delay operations a callback or the
	// update starts, until it returns.
	pending, now []op
	// prepOps are the preparations prepIO holds, by seq.
	prepOps map[uint64]op
	// live are the cells not unloaded, or desired or speculated: with the
	// cells near the sources, every cell an update can act on.
	live []int32

	// Counters of WorldStreamerStatus.
	sourceCount, loadCount, unloadCount, prepareCount, cancelCount int
	prefetchRequests, cancelledRefs, prefetchHits, prefetchMisses  int
	lastDemandToResident                                           int

	// actual is where the sources stand this frame, for holes; seen keeps
	// it for sources a frame does not place.
	actual, seen []Point
	// apart says the frame gave where the sources stand apart from where
	// the runtime samples them (a world cut on x and y).
	apart bool

	// book counts the cells' asset scopes; nil for a world without
	// assets or when the host ignores them.
	book *assetBook

	rep    *EstellaFrame
	repBuf EstellaFrame
	stats  stats
	// cellStates makes every report carry its cell states.
	cellStates bool
	first      []int32
	// scratch
	cand, near []int32
	// merged, decisions and toLoad are update's scratch.
	merged    []int32
	decisions []decision
	toLoad    []decision
	viewers   []viewer
	viewed    []int32
	pendDue   []op
	// feed, when set, gives the frames' distances from a shared stream.
	feed *streamFeed
}

// UseStream makes the runtime read its distances, and the cells near its
// sources, from st (NewStream, computed for this world, these sources and
// route under the runtime's policy) wherever st holds them, rather than
// measuring them (see Scheduler.UseStream). Call it before the first
// step.
func (e *Estella) UseStream(st *Stream) error {
	r := 0.0
	for _, s := range e.sources {
		if s.Enabled {
			r = max(r, s.Load, s.Unload, s.Prefetch)
		}
	}
	fd, err := attach(st, streamRuntime, e.geo, e.index, r)
	if err != nil {
		return err
	}
	e.feed = fd
	return nil
}

// enabledAt returns the position of the k-th enabled source, as the
// runtime samples it.
func (e *Estella) enabledAt(k int) (x, z float64) {
	for _, s := range e.sources {
		if s.Enabled {
			if k == 0 {
				return s.X, s.Z
			}
			k--
		}
	}
	return math.NaN(), math.NaN()
}

// fed returns cell i's distances to the enabled sources from the stream,
// where the frame reads one (nil: measure).
func (e *Estella) fed(i int32) []float64 {
	if e.feed == nil {
		return nil
	}
	d, _ := e.feed.dist(i, e.frame)
	return d
}

// NewEstella returns the runtime scheduler over w's cells with the given
// sources (positions before the first frame) and host. Only enabled sources
// are handed to the update, as the runtime's residency system does.
func NewEstella(w *World, sources []Source, host EstellaHost) (*Estella, error) {
	f, err := w.checked()
	if err != nil {
		return nil, err
	}
	if err := CheckSources(sources); err != nil {
		return nil, err
	}
	if err := host.check(); err != nil {
		return nil, err
	}
	if len(w.Cells) > math.MaxInt32 {
		return nil, fmt.Errorf("%d cells is more than the scheduler indexes", len(w.Cells))
	}
	e := &Estella{
		cells:    w.Cells,
		cellSize: w.CellSize,
		sources:  slices.Clone(sources),
		host:     host,
		st:       make([]estCell, len(w.Cells)),
		prepOps:  map[uint64]op{},
	}
	lay := f.layout(w, func(f *frozen) *lazyLayout { return &f.runtime }, runtimeLayout)
	e.geo, e.index = lay.geo, lay.index
	e.book = newAssetBook(w, host.IgnoreAssets)
	if host.Prepare.BytesPerFrame != nil || host.Prepare.LatencyFrames > 0 {
		e.prepIO = NewModelLoader(host.Prepare)
	}
	e.stats.numberFrom(1)
	return e, nil
}

// NumberFrom makes first the number the reports give the first frame,
// before the first step (see Scheduler.NumberFrom).
func (e *Estella) NumberFrom(first int) { e.stats.numberFrom(first) }

// HasAssets reports whether the model counts the cells' asset scopes: the
// world lists assets and the host does not ignore them.
func (e *Estella) HasAssets() bool { return e.book != nil }

// Sources returns the sources with their current positions.
func (e *Estella) Sources() []Source { return slices.Clone(e.sources) }

// ResidencyOf returns the named cell's residency (a lookup over all cells,
// for tests and inspection).
func (e *Estella) ResidencyOf(name string) Residency {
	for i := range e.cells {
		if e.cells[i].Name == name {
			return e.st[i].res
		}
	}
	return ResUnloaded
}

// Step runs one frame with the sources at the given positions (a source
// without a position keeps its last one).
func (e *Estella) Step(positions []Point) EstellaFrame {
	return e.StepSeen(positions, nil)
}

// StepSeen runs one frame in which the runtime samples the sources at
// sampled while they really stand at actual on the world's partition
// plane; holes are counted where they stand. The two differ for a world
// cut on X and Y: the runtime reads X and Z whatever the plane. A nil
// actual means the runtime sees the sources where they are.
func (e *Estella) StepSeen(sampled, actual []Point) EstellaFrame {
	e.frame++
	for i := range e.sources {
		if i < len(sampled) && finite(sampled[i].X, sampled[i].Z) {
			e.sources[i].X, e.sources[i].Z = sampled[i].X, sampled[i].Z
		}
	}
	e.actual = e.actual[:0]
	for i, s := range e.sources {
		p := Point{X: s.X, Z: s.Z}
		if actual != nil {
			if i < len(e.seen) {
				p = e.seen[i]
			}
			if i < len(actual) && finite(actual[i].X, actual[i].Z) {
				p = actual[i]
			}
		}
		e.actual = append(e.actual, p)
	}
	e.seen = append(e.seen[:0], e.actual...)
	e.apart = actual != nil
	if e.feed != nil {
		n := 0
		for _, s := range e.sources {
			if s.Enabled {
				n++
			}
		}
		e.feed.begin(e.frame, func(k int) float64 { x, _ := e.enabledAt(k); return x },
			func(k int) float64 { _, z := e.enabledAt(k); return z }, n)
	}
	// The frame is built in the scheduler's own report, not one that
	// escapes to the heap every frame.
	e.repBuf = EstellaFrame{FrameReport: FrameReport{Frame: e.stats.label(e.frame)}}
	e.rep = &e.repBuf
	e.deliverDue()
	e.update()
	e.drain()
	e.finishReport()
	e.rep = nil
	return e.repBuf
}

// start begins a host operation for cell i. A zero-delay operation waits in
// now until the callback or update that started it returns. A preparation
// moves bytes: the cell's document and its assets that nothing held.
func (e *Estella) start(kind opKind, i int32, bytes int64) {
	e.seq++
	o := op{seq: e.seq, kind: kind, cell: i}
	switch kind {
	case opPrepare:
		st := &e.st[i]
		st.prepares++
		if e.prepIO != nil {
			e.prepIO.Start(Request{ID: o.seq, Cell: int(i), Name: e.cells[i].Name, Bytes: bytes,
				Attempt: st.prepares, Frame: e.frame})
			e.prepOps[o.seq] = o
			return
		}
		o.fail = e.host.Prepare.Fail.Fails(e.cells[i].Name, st.prepares)
		e.now = append(e.now, o)
		return
	case opPublish:
		o.due = e.frame + e.host.PublishFrames
	case opUnload:
		o.due = e.frame + e.host.UnloadFrames
	}
	if o.due == e.frame {
		e.now = append(e.now, o)
	} else {
		e.pending = append(e.pending, o)
	}
}

// deliverDue is step 1: the completions due this frame, in start order,
// each followed by the zero-delay operations its callback started.
func (e *Estella) deliverDue() {
	due := e.pendDue[:0]
	keep := e.pending[:0]
	for _, o := range e.pending {
		if o.due <= e.frame {
			due = append(due, o)
		} else {
			keep = append(keep, o)
		}
	}
	e.pending = keep
	if e.prepIO != nil {
		for _, r := range e.prepIO.Poll(e.frame) {
			o := e.prepOps[r.ID]
			delete(e.prepOps, r.ID)
			o.fail = r.Err != nil
			due = append(due, o)
		}
		// Both lists are in start order; merge them.
		slices.SortFunc(due, func(a, b op) int { return cmp.Compare(a.seq, b.seq) })
	}
	for _, o := range due {
		e.deliver(o)
	}
	e.pendDue = due[:0]
}

// drain is step 3: the zero-delay operations update started, in start
// order, each delivered with its cascade.
func (e *Estella) drain() {
	started := e.now
	e.now = nil
	for _, o := range started {
		e.deliver(o)
	}
}

// deliver completes o, then, right after and before anything else, the
// zero-delay operations its callback started, in start order, each with
// its own cascade. A cell's chain is short (prepare, publish, unload,
// prepare), so the recursion is shallow.
func (e *Estella) deliver(o op) {
	outer := e.now
	e.now = nil
	e.complete(o)
	started := e.now
	e.now = outer
	for _, s := range started {
		e.deliver(s)
	}
}

// complete runs the streamer's callback for a finished operation.
func (e *Estella) complete(o op) {
	i := o.cell
	st := &e.st[i]
	name := e.cells[i].Name
	switch o.kind {
	case opPrepare:
		if o.fail {
			// The runtime logs the failure and forgets the attempt; the
			// next update asks again if the cell is still wanted.
			st.res = ResUnloaded
			e.releaseAssets(i)
			e.rep.Failed = append(e.rep.Failed, name)
			e.stats.sum.Failures++
			return
		}
		e.rep.Completed = append(e.rep.Completed, name)
		if e.book != nil {
			e.book.complete(i)
		}
		// No render-readiness host: assets ready means prepared.
		st.res = ResPrepared
		st.preparedAt = e.frame
		st.d.Prepare = st.preparedAt - st.issuedAt
		e.step(i)
		if st.res == ResPrepared {
			e.rep.Prepared = append(e.rep.Prepared, name)
		}
	case opPublish:
		st.res = ResResident
		st.d.Delivery = e.frame - st.issuedAt
		st.d.Publish = e.frame - st.pubAt
		if st.demandedAt > 0 {
			st.d.DemandToResident = e.frame - st.demandedAt
			e.lastDemandToResident = st.d.DemandToResident
		}
		st.delivered = true
		e.rep.Published = append(e.rep.Published, name)
		e.rep.Arrived = append(e.rep.Arrived, Arrival{Cell: name, Delivery: st.d})
		e.stats.sum.Published++
		e.step(i)
	case opUnload:
		st.res = ResUnloaded
		e.releaseAssets(i)
		e.step(i)
	}
}

// step is WorldStreamer.step_: move cell i on by one transition, if its
// residency and wants call for one.
func (e *Estella) step(i int32) {
	st := &e.st[i]
	switch {
	case st.res == ResPreparing, st.res == ResPublishing, st.res == ResUnloading:
		// Waiting for the host. (A preparing cell whose assets are ready
		// would settle its render readiness here; a headless host has none.)
	case st.res == ResUnloaded && (st.desired || st.speculated):
		e.beginPrepare(i)
	case st.res == ResPrepared && st.desired:
		e.beginPublish(i)
	case st.res == ResPrepared && !st.speculated:
		refs := 0
		switch {
		case e.host.DiscardRefs != nil:
			refs = e.host.DiscardRefs(int(i))
		case e.book != nil:
			refs = e.book.scope(i)
		}
		e.releaseAssets(i)
		e.cancelledRefs += refs
		e.rep.CancelledRefs += refs
		st.res = ResUnloaded
		e.cancelCount++
		e.rep.Cancelled = append(e.rep.Cancelled, e.cells[i].Name)
	case st.res == ResResident && !st.desired:
		st.res = ResUnloading
		e.unloadCount++
		e.rep.Unloaded = append(e.rep.Unloaded, e.cells[i].Name)
		e.start(opUnload, i, 0)
	}
}

func (e *Estella) beginPrepare(i int32) {
	st := &e.st[i]
	st.res = ResPreparing
	st.issuedAt = e.frame
	st.d.Prepare, st.d.Publish, st.d.DemandToResident = 0, 0, 0
	e.prepareCount++
	if !st.desired {
		e.prefetchRequests++
		e.stats.sum.Prefetches++
		st.d.Outcome = ""
		st.d.Dwell = 0
	}
	c := &e.cells[i]
	// The preparation loads the cell's assets that nothing holds, and
	// takes its scope's holds.
	bytes := c.Bytes
	if e.book != nil {
		fresh, _ := e.book.fresh(i)
		bytes += fresh
		e.book.acquire(i)
	}
	e.rep.Requested = append(e.rep.Requested, c.Name)
	e.rep.RequestedBytes += bytes
	e.stats.sum.Loads++
	e.start(opPrepare, i, bytes)
}

// releaseAssets lets go of cell i's asset scope; the assets nothing else
// holds are freed now.
func (e *Estella) releaseAssets(i int32) {
	if e.book != nil {
		e.book.release(i)
	}
}

func (e *Estella) beginPublish(i int32) {
	st := &e.st[i]
	st.res = ResPublishing
	st.pubAt = e.frame
	e.loadCount++
	e.rep.Publishing = append(e.rep.Publishing, e.cells[i].Name)
	e.start(opPublish, i, 0)
}

// demand is WorldStreamer.demand_: a cell the update newly wants counts a
// prefetch hit if it was already prepared, a miss if it was not resident.
func (e *Estella) demand(i int32) {
	st := &e.st[i]
	st.demandedAt = e.frame
	switch st.res {
	case ResResident, ResPublishing:
	case ResPrepared:
		e.prefetchHits++
		st.d.Outcome = "hit"
		st.d.Dwell = e.frame - st.preparedAt
		e.rep.Hits = append(e.rep.Hits, e.cells[i].Name)
	default:
		e.prefetchMisses++
		st.d.Outcome = "miss"
		st.d.Dwell = 0
		e.rep.Misses = append(e.rep.Misses, e.cells[i].Name)
	}
}

// decision is desiredResidency's answer for one cell.
type decision struct {
	cell                         int32
	wanted, speculated, resident bool
	target                       bool
	nearest                      float64
}

// update is WorldStreamer.update(sources) over desiredResidency. It looks
// only at the cells near some source and the live ones: every other cell
// is unloaded, unwanted and unspeculated, and would produce nothing.
func (e *Estella) update() {
	type src struct{ x, z, load, keep, spec float64 }
	var srcs []src
	for _, s := range e.sources {
		if s.Enabled {
			srcs = append(srcs, src{s.X, s.Z, s.Load, math.Max(s.Load, s.Unload), math.Max(s.Load, s.Prefetch)})
		}
	}
	e.sourceCount = len(srcs)
	if len(e.cells) == 0 {
		return
	}
	// Gather, in manifest order: the runtime walks every cell in it.
	cand := e.cand[:0]
	mark := func(i int32) {
		if e.st[i].stamp != e.frame {
			e.st[i].stamp = e.frame
			cand = append(cand, i)
		}
	}
	for _, i := range e.live {
		mark(i)
	}
	live := len(cand)
	// A single query the stream answers visits its cells in manifest
	// order, and the live list is in it (finishReport): the two runs are
	// merged rather than sorted. Anything else is sorted.
	fed := len(srcs) == 1
	for _, s := range srcs {
		if r := math.Max(s.keep, s.spec); e.feed == nil || !e.feed.query(s.x, s.z, r, mark) {
			e.index.query(s.x, s.z, r, mark)
			fed = false
		}
	}
	if fed && slices.IsSorted(cand[:live]) {
		e.merged = mergeRuns(e.merged[:0], cand[:live], cand[live:])
		cand, e.merged = e.merged, cand
	} else {
		slices.Sort(cand)
	}
	e.cand = cand

	decisions := e.decisions[:0]
	pending := e.toLoad[:0] // toLoad before sorting
	for _, i := range cand {
		g := &e.geo[i]
		d := decision{cell: i, nearest: math.Inf(1)}
		kept := false
		fed := e.fed(i)
		for k, s := range srcs {
			var dist float64
			if fed != nil {
				dist = fed[k]
			} else {
				dist = g.runtimeDistance(s.x, s.z)
			}
			if dist < d.nearest {
				d.nearest = dist
			}
			if dist <= s.load {
				d.wanted = true
			} else if dist <= s.keep {
				kept = true
			}
			if dist <= s.spec {
				d.speculated = true
			}
		}
		r := e.st[i].res
		d.resident = r == ResResident || r == ResPublishing
		d.target = d.wanted || (kept && d.resident)
		if d.target && !d.resident {
			pending = append(pending, d)
		}
		decisions = append(decisions, d)
	}
	// Nearest first; a stable sort keeps manifest order among equals, as
	// the runtime's Array.prototype.sort does.
	slices.SortStableFunc(pending, func(a, b decision) int { return cmp.Compare(a.nearest, b.nearest) })

	for _, d := range decisions {
		st := &e.st[d.cell]
		if d.target && !st.desired {
			e.demand(d.cell)
		}
		st.desired = d.target
		st.speculated = d.speculated
		if d.target {
			e.rep.Desired++
		}
		if d.speculated {
			e.rep.Speculated++
		}
	}
	for _, d := range pending {
		e.step(d.cell)
	}
	for _, d := range decisions {
		if d.speculated && !d.target {
			e.step(d.cell)
		}
	}
	for _, d := range decisions {
		if d.resident && !d.target {
			e.step(d.cell)
		}
	}
	for _, d := range decisions {
		if st := &e.st[d.cell]; st.res == ResPrepared && !st.desired && !st.speculated {
			e.step(d.cell)
		}
	}
	e.decisions, e.toLoad = decisions[:0], pending[:0]
}

// mergeRuns appends to dst the merge of a and b, each in increasing order
// without repeats and with none in common.
func mergeRuns(dst, a, b []int32) []int32 {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// runtimeDistance is the runtime's distanceToCell: the ground-plane
// distance from a point to the cell's box, zero inside it.
func (g *geom) runtimeDistance(x, z float64) float64 {
	dx := math.Max(math.Max(g.minX-x, 0), x-g.maxX)
	dz := math.Max(math.Max(g.minZ-z, 0), z-g.maxZ)
	return math.Hypot(dx, dz)
}

// finishReport fills in the frame's totals and refreshes the live list.
func (e *Estella) finishReport() {
	rep := &e.rep.FrameReport
	live := e.live[:0]
	// The live list is rebuilt from this frame's candidates, which hold
	// every cell that was live or near a source, plus the cells started by
	// callbacks (already live last frame or candidates).
	for _, i := range e.cand {
		st := &e.st[i]
		if st.res != ResUnloaded || st.desired || st.speculated {
			live = append(live, i)
		}
	}
	e.live = live
	if e.cellStates {
		e.reportCellStates(rep)
	}
	var holes []int32
	for _, i := range e.live {
		st := &e.st[i]
		c := &e.cells[i]
		switch st.res {
		case ResResident:
			rep.Resident++
			rep.ResidentBytes += c.Bytes
		case ResPrepared:
			rep.PreparedBytes += c.Bytes
		case ResPreparing, ResPublishing:
			rep.InFlight++
		}
	}
	// Holes: cells within some source's load radius, measured where the
	// sources stand, that are not resident.
	near := e.near[:0]
	for k, s := range e.sources {
		if !s.Enabled {
			continue
		}
		p := e.actual[k]
		visit := func(i int32) {
			if e.st[i].hstamp != e.frame {
				e.st[i].hstamp = e.frame
				near = append(near, i)
			}
		}
		if e.apart || e.feed == nil || !e.feed.query(p.X, p.Z, s.Load, visit) {
			e.index.query(p.X, p.Z, s.Load, visit)
		}
	}
	e.near = near
	for _, i := range near {
		if !e.withinLoad(i) {
			continue
		}
		if e.frame == 1 {
			e.first = append(e.first, i)
		}
		if e.st[i].res != ResResident {
			holes = append(holes, i)
		}
	}
	if len(holes) > 0 {
		dist := func(i int32) float64 { return e.nearest(i) }
		slices.SortFunc(holes, func(a, b int32) int {
			if c := cmp.Compare(dist(a), dist(b)); c != 0 {
				return c
			}
			return cmp.Compare(e.cells[a].Name, e.cells[b].Name)
		})
		rep.Holes = make([]string, len(holes))
		rep.HoleCauses = make([]HoleCause, len(holes))
		for k, i := range holes {
			rep.Holes[k] = e.cells[i].Name
			rep.HoleCauses[k] = e.holeCause(i)
		}
	}
	// Pop-in: what the views show, where the sources stand.
	e.viewers = viewers(e.sources, e.actual, e.viewers)
	popIn(rep, e.viewers, e.index, e.geo, e.cells, &e.viewed,
		func(i int32) bool { return e.st[i].res == ResResident },
		func(i int32) HoleCause {
			switch {
			case e.withinLoad(i):
				return e.holeCause(i)
			case e.apart && !e.st[i].desired:
				return CausePlane
			}
			return CauseLoadRadius
		})
	for k, s := range e.sources {
		if s.Enabled {
			rep.Positions = append(rep.Positions, SourcePosition{Source: s.Name, X: e.actual[k].X, Z: e.actual[k].Z})
		}
	}
	if e.book != nil {
		rep.ResidentBytes += e.book.resident
		e.book.report(rep)
	}
	e.stats.add(rep)
	if e.stats.sum.FirstResidentFrame == nil {
		all := true
		for _, i := range e.first {
			if e.st[i].res != ResResident {
				all = false
				break
			}
		}
		if all {
			e.stats.resident(e.frame)
		}
	}
}

// ReportCellStates makes every frame's report from now on carry the cells
// resident, prepared, loading (preparing or publishing) and unloading at
// its end, as the runtime's status() lists them (FrameReport.ResidentCells).
// Off by default: collecting and sorting them costs a frame time.
func (e *Estella) ReportCellStates() { e.cellStates = true }

// reportCellStates lists the live cells by residency: every cell not
// unloaded is live.
func (e *Estella) reportCellStates(rep *FrameReport) {
	var resident, prepared, loading, unloading []string
	for _, i := range e.live {
		name := e.cells[i].Name
		switch e.st[i].res {
		case ResResident:
			resident = append(resident, name)
		case ResPrepared:
			prepared = append(prepared, name)
		case ResPreparing, ResPublishing:
			loading = append(loading, name)
		case ResUnloading:
			unloading = append(unloading, name)
		}
	}
	rep.ResidentCells, rep.PreparedCells = sortedNames(resident), sortedNames(prepared)
	rep.LoadingCells, rep.UnloadingCells = sortedNames(loading), sortedNames(unloading)
}

// holeCause is the likely reason a wanted cell is not resident, in the
// terms of the budgeted scheduler's causes that the runtime has: it has no
// budget, in-flight cap or eviction, so a hole is the start of the route,
// a preparation that had a lead but not enough (latency), or one started
// only when the cell was demanded (the prefetch radius gave no lead). On
// a world cut on x and y, a cell the runtime does not want where it
// samples the sources is missing for the plane, whatever else held it.
func (e *Estella) holeCause(i int32) HoleCause {
	st := &e.st[i]
	switch {
	case e.apart && !st.desired:
		return CausePlane
	case st.issuedAt == 1 && st.demandedAt == 1:
		// Wanted and asked for since the first frame: the start of the
		// route. A cell prefetched then and demanded later had a lead.
		return CauseStart
	case st.res == ResPreparing || st.res == ResPublishing || st.res == ResPrepared:
		if st.issuedAt < st.demandedAt {
			return CauseLatency
		}
		return CausePrefetchRadius
	}
	return CauseUnknown
}

// withinLoad and nearest measure from where the sources stand.
// Where the sources stand is where the runtime samples them unless the
// frame gave them apart, and then the stream does not hold the distances.
func (e *Estella) withinLoad(i int32) bool {
	var fed []float64
	if !e.apart {
		fed = e.fed(i)
	}
	j := 0
	for k, s := range e.sources {
		if !s.Enabled {
			continue
		}
		var d float64
		if fed != nil {
			d = fed[j]
		} else {
			p := e.actual[k]
			d = e.geo[i].runtimeDistance(p.X, p.Z)
		}
		j++
		if d <= s.Load {
			return true
		}
	}
	return false
}

func (e *Estella) nearest(i int32) float64 {
	var fed []float64
	if !e.apart {
		fed = e.fed(i)
	}
	best := math.Inf(1)
	j := 0
	for k, s := range e.sources {
		if !s.Enabled {
			continue
		}
		if fed != nil {
			best = min(best, fed[j])
		} else {
			p := e.actual[k]
			best = min(best, e.geo[i].runtimeDistance(p.X, p.Z))
		}
		j++
	}
	return best
}

// Report is the runtime's worldResidencyReport at this moment.
func (e *Estella) Report() RuntimeReport {
	r := RuntimeReport{
		Streamed: true, CellCount: len(e.cells), Cells: make([]CellRef, len(e.cells)),
		SourceCount:  e.sourceCount,
		DesiredCells: []string{}, PrefetchCells: []string{}, ResidentCells: []string{},
		PreparedCells: []string{}, LoadingCells: []string{}, UnloadingCells: []string{},
		LoadCount: e.loadCount, UnloadCount: e.unloadCount, PrepareCount: e.prepareCount,
		CancelCount: e.cancelCount, PrefetchRequests: e.prefetchRequests, CancelledRefs: e.cancelledRefs,
		PrefetchHits: e.prefetchHits, PrefetchMisses: e.prefetchMisses,
		LastDemandToResident:     e.lastDemandToResident,
		CellEntityCounts:         map[string]int{},
		AuthoredCellEntityCounts: map[string]int{},
		Delivery:                 map[string]Delivery{},
	}
	r.CellSize = e.cellSize
	refs := map[string]int{}
	if e.book != nil {
		r.AssetRefsByCell = &refs
	}
	for i := range e.cells {
		c, st := &e.cells[i], &e.st[i]
		r.Cells[i] = CellRef{Name: c.Name, X: c.X, Z: c.Z}
		r.AuthoredCellEntityCounts[c.Name] = c.EntityCount
		if st.desired {
			r.DesiredCells = append(r.DesiredCells, c.Name)
		}
		if st.speculated {
			r.PrefetchCells = append(r.PrefetchCells, c.Name)
		}
		switch st.res {
		case ResResident:
			r.ResidentCells = append(r.ResidentCells, c.Name)
			r.CellEntityCounts[c.Name] = c.EntityCount
			if e.book != nil {
				refs[c.Name] = e.book.scope(int32(i))
			}
		case ResPrepared:
			r.PreparedCells = append(r.PreparedCells, c.Name)
		case ResPreparing, ResPublishing:
			r.LoadingCells = append(r.LoadingCells, c.Name)
		case ResUnloading:
			r.UnloadingCells = append(r.UnloadingCells, c.Name)
		}
		if st.delivered {
			r.Delivery[c.Name] = st.d
		}
	}
	return r
}

// Summary returns the totals of the frames stepped so far.
func (e *Estella) Summary() EstellaSummary {
	sum := e.stats.sum
	sum.GaveUp = []GaveUp{}
	rt := e.Report()
	sum.Residency = ResidencyReport{ResidentCells: rt.ResidentCells, CellEntityCounts: rt.CellEntityCounts, LoadCount: sum.Published}
	if e.book != nil {
		sum.Assets = e.book.summary()
	}
	return EstellaSummary{Summary: sum, Runtime: rt}
}

// Loads returns how many preparations each cell had, indexed like the
// world's cells.
func (e *Estella) Loads() []int {
	out := make([]int, len(e.st))
	for i := range e.st {
		out[i] = e.st[i].prepares
	}
	return out
}

// RunEstella steps e through frames (each frame's source positions, as the
// runtime samples them) and returns every frame's report. actual, when not
// nil, holds where the sources really stand in each frame (see StepSeen).
// each, when not nil, sees every report as it is made and may stop the
// run by returning an error.
func RunEstella(ctx context.Context, e *Estella, frames, actual [][]Point, each func(*EstellaFrame) error) ([]EstellaFrame, error) {
	reports := make([]EstellaFrame, 0, len(frames))
	for k, pos := range frames {
		if err := ctx.Err(); err != nil {
			return reports, err
		}
		var at []Point
		if actual != nil && k < len(actual) {
			at = actual[k]
		}
		reports = append(reports, e.StepSeen(pos, at))
		if each != nil {
			if err := each(&reports[len(reports)-1]); err != nil {
				return reports, err
			}
		}
	}
	return reports, nil
}

// runtimeSources are a manifest's sources as the runtime samples them: on X
// and Z, whatever plane the world was cut on.
func runtimeSources(m *manifest.Manifest) []Source {
	out := sourcesFromManifest(m)
	if m.Plane == manifest.PlaneXY {
		for i := range out {
			out[i].Z = m.Sources[i].Position.Z
		}
	}
	return out
}

// OnXZ returns the route as the runtime reads a source's position: x and
// z, whatever plane the world was cut on; a route without a z column
// stands at z = 0.
func (rt *Route) OnXZ() *Route {
	c := *rt
	c.HasZ = true
	return &c
}
