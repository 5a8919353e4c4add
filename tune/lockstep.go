package tune

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// windowFrames is how many frames of a route the shared window holds:
// the runs of a group step these frames, then the window moves on. Large
// enough that a worker's share of a window outweighs the barrier between
// two, small enough that the window's memory stays small.
const windowFrames = 256

// groupBytes bounds the per-cell state the runs stepped together hold
// (each run its scheduler's state of every cell and its reading of the
// window, about perCellBytes a cell): on a world of a million cells a
// group is a few runs, not a batch.
const groupBytes, perCellBytes = 512 << 20, 160

// lockstep is the evaluate of e: the candidates of one cell size run on
// the route together, frame by frame. One pass over the route computes
// each frame's shared part once for all of them — where the sources
// stand, the cells near them and their distances (a window of the
// route's shared stream, simulate.NewWindow) — and every candidate's
// scheduler is fed from it (simulate.Start, Options.Stream): the figures
// are those simulate gives each alone, bit for bit. A candidate stops as
// soon as stop says it cannot win, or, when it has a stop, as soon as a
// --require condition surely held (it cannot be feasible: its figures
// say Failed).
func (e *evaluator) lockstep(ctx context.Context, cs []Candidate, route int, stops []stopFunc, workers int) ([]Figures, []error) {
	figs := make([]Figures, len(cs))
	errs := make([]error, len(cs))
	if len(cs) == 0 {
		return figs, errs
	}
	w := e.worlds[cs[0].CellSize]
	if w == nil {
		for k := range errs {
			errs[k] = fmt.Errorf("no world of cell size %s was opened", num(cs[0].CellSize))
		}
		return figs, errs
	}
	size := max(1, groupBytes/max(1, perCellBytes*len(w.Cells)))
	for from := 0; from < len(cs); from += size {
		to := min(from+size, len(cs))
		e.group(ctx, w, cs[from:to], route, stops[from:to], workers, figs[from:to], errs[from:to])
	}
	return figs, errs
}

// member is a candidate of a group under way.
type member struct {
	run   *simulate.Stepping
	meter *meter
	stop  stopFunc
	// over says the run is over: stopped, failed or at its end.
	over bool
	fig  *Figures
	err  *error
}

// group runs cs together on route r of world w, writing each one's
// figures or error.
func (e *evaluator) group(ctx context.Context, w *streaming.World, cs []Candidate, r int, stops []stopFunc, workers int, figs []Figures, errs []error) {
	probe := Candidate{CellSize: w.CellSize, Authored: true}
	st, frames, err := simulate.NewWindow(w, e.options(&probe, r), e.reach(w, cs))
	if err != nil {
		// Sources a run refuses, and says why: each run measures on
		// its own and gives its error.
		st = nil
	}
	ms := make([]*member, len(cs))
	for k := range cs {
		m := &member{meter: newMeter(stops[k]), stop: stops[k], fig: &figs[k], err: &errs[k]}
		ms[k] = m
		o := e.options(&cs[k], r)
		o.Frameless = true
		if st != nil {
			o.Stream = st
		}
		o.Watch = simulate.Watch{Frame: func(_ *simulate.PolicyRun, f *streaming.FrameReport, _ *streaming.RuntimeFrame) error {
			return m.meter.Frame(f)
		}}
		if m.run, err = simulate.Start(ctx, w, o); err != nil {
			errs[k], m.over = err, true
		}
	}
	defer func() {
		for _, m := range ms {
			if m.run != nil {
				m.run.Close()
			}
		}
	}()
	n := 0
	for _, m := range ms {
		if m.run != nil {
			n = max(n, m.run.Frames())
		}
	}
	for from := 0; from < n && ctx.Err() == nil; from += windowFrames {
		if st != nil {
			st.Fill(frames, windowFrames)
		}
		var live []*member
		for _, m := range ms {
			if !m.over {
				live = append(live, m)
			}
		}
		if len(live) == 0 {
			break
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range max(1, min(workers, len(live))) {
			wg.Go(func() {
				for {
					k := int(next.Add(1)) - 1
					if k >= len(live) {
						return
					}
					live[k].window(from + windowFrames)
				}
			})
		}
		wg.Wait()
	}
	for _, m := range ms {
		if m.over {
			continue
		}
		if err := ctx.Err(); err != nil {
			*m.err = err
			continue
		}
		run, err := m.run.Finish()
		if err != nil {
			*m.err = err
			continue
		}
		if e.fed != nil {
			e.fed.Add(int64(run.Fed))
		}
		*m.fig = figuresFrom(&run.Summary, m.meter.mean())
	}
}

// window steps m's run up to frame end (or its end), stopping it once
// it cannot win or cannot be feasible.
func (m *member) window(end int) {
	for m.run.Frames() > 0 && !m.run.Done() {
		if err := m.run.Step(); err != nil {
			m.over = true
			if errors.Is(err, errStopped) {
				*m.fig = m.meter.Partial()
				return
			}
			*m.err = err
			return
		}
		if m.stop != nil && m.run.Breached() {
			// A --require condition held: the candidate cannot be
			// feasible, whatever its frames to come.
			m.over = true
			f := m.meter.Partial()
			f.Failed = true
			for _, b := range m.run.Held() {
				h := Held{Condition: b.Condition, FrameCount: b.FrameCount}
				if len(b.Frames) > 0 {
					h.FirstFrame = b.Frames[0].First
				}
				f.Held = append(f.Held, h)
			}
			*m.fig = f
			return
		}
		if m.meter.frames >= end {
			return
		}
	}
}

// reach is the largest radius a run of cs queries: the shared window
// holds every cell within it of the sources.
func (e *evaluator) reach(w *streaming.World, cs []Candidate) float64 {
	r := 0.0
	for _, c := range cs {
		r = max(r, c.Load, c.Unload, c.Prefetch)
		if c.Authored {
			// The authored settings keep each source's own radii.
			for _, src := range append(slices.Clone(w.Sources), w.RuntimeSources...) {
				r = max(r, src.Load, src.Unload, src.Prefetch)
			}
			r = max(r, manifest.DefaultLoadRadius, manifest.DefaultUnloadRadius, manifest.DefaultPrefetchRadius)
			for _, rad := range []*float64{e.base.Radii.Load, e.base.Radii.Unload, e.base.Radii.Prefetch} {
				if rad != nil {
					r = max(r, *rad)
				}
			}
		}
	}
	return r
}
