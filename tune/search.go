// Package tune searches streaming settings against camera routes and
// recommends the cheapest one that meets the constraints (worldcook tune,
// docs/tune.md). It lays out the space (Space.Lay), runs every candidate
// through an evaluator on every route, in parallel, and ranks the feasible
// ones; how a candidate is run (a simulation of either policy) is the
// evaluator's business, so that the search is tested on its own.
package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"slices"
	"sync"

	"github.com/worldcook/worldcook/streaming"
)

// defaultTop is how many feasible candidates a result lists (--top).
const defaultTop = 10

// batchSize is how many candidates run between two updates of what a
// candidate must beat. It is fixed, never derived from the number of
// workers, so that which runs are stopped early, and so the output, is
// the same on any machine.
const batchSize = 64

// Options are a search's settings besides the space.
type Options struct {
	// Routes name the routes, in the order the evaluator indexes them.
	Routes []string
	// Objective is what is minimized; Require the conditions a feasible
	// candidate meets on every route (for the report: the evaluator
	// applies them).
	Objective Objective
	Require   streaming.Gate
	// Top is how many feasible candidates the result lists (0: DefaultTop).
	Top int
	// Workers is how many candidates run at once (0: GOMAXPROCS).
	Workers int
	// Exhaustive runs every candidate to the end: nothing is stopped
	// early, and every feasible candidate is counted.
	Exhaustive bool
	// Authored, when set, is run first on every route, to the end: the
	// baseline the recommendation is compared with.
	Authored *Candidate
	// Events, when set, is told of the progress after each candidate, one
	// call at a time.
	Events func(Event)
	// JSON, when set, is where the JSON report is written as the search
	// goes (WriteJSON's, docs/json.md#tune): each candidate's line as its
	// batch finishes, never held until the end.
	JSON io.Writer

	// order, when set, replaces the plan's order (tests: any order gives
	// the same answer).
	order func([]Candidate) []int
	// head are the facts of the world searched, known before the search
	// (warnings, view, cover, world), which the result carries.
	head Result
	// seen, when set, is told of every outcome as JSON writes it (tests).
	seen func(*Outcome)
}

// Event is the progress of a search.
type Event struct {
	// Done of Total candidates have run (the authored one included);
	// Feasible of them met the constraints, Pruned were stopped early.
	Done, Total, Feasible, Pruned int
}

// Outcome is what a candidate gave.
type Outcome struct {
	Candidate Candidate `json:"settings"`
	// Routes are the figures per route run, in route order; a pruned
	// candidate has those of the routes it ran, the last one stopped.
	Routes   []Figures `json:"routes"`
	Feasible bool      `json:"feasible"`
	// Pruned says the candidate was stopped early: it provably is neither
	// among the top candidates nor on the Pareto front.
	Pruned bool `json:"pruned,omitempty"`
	// failed says a run was stopped as soon as a --require condition
	// held (Figures.Failed).
	failed bool
}

// PeakResidentBytes is the largest peak over the routes.
func (o *Outcome) PeakResidentBytes() int64 { return o.progress().PeakResidentBytes }

// Loads is the sum of the routes' loads.
func (o *Outcome) Loads() int { return o.progress().Loads }

// MaxRequestedBytes is the most bytes a frame requested on any route.
func (o *Outcome) MaxRequestedBytes() int64 { return o.progress().MaxRequestedBytes }

// MeanResidentBytes is the largest mean over the routes.
func (o *Outcome) MeanResidentBytes() float64 {
	m := 0.0
	for _, f := range o.Routes {
		m = max(m, f.MeanResidentBytes)
	}
	return m
}

// HoleFrames is the sum of the routes' hole frames.
func (o *Outcome) HoleFrames() int {
	n := 0
	for _, f := range o.Routes {
		n += f.HoleFrames
	}
	return n
}

// PopInFrames is the sum of the routes' pop-in frames.
func (o *Outcome) PopInFrames() int {
	n := 0
	for _, f := range o.Routes {
		n += f.PopInFrames
	}
	return n
}

func (o *Outcome) progress() progress {
	var p progress
	for _, f := range o.Routes {
		p = p.add(progress{f.PeakResidentBytes, f.Loads, f.MaxRequestedBytes})
	}
	return p
}

// add combines two routes' progress as the objectives do over routes: the
// maximum of peaks, the sum of loads.
func (p progress) add(q progress) progress {
	return progress{max(p.PeakResidentBytes, q.PeakResidentBytes), p.Loads + q.Loads, max(p.MaxRequestedBytes, q.MaxRequestedBytes)}
}

// Value is the outcome's objective over the routes: the maximum of peaks
// (and of means, and of frame bytes), the sum of loads.
func (o Objective) Value(out *Outcome) float64 {
	switch o {
	case MeanResident:
		return out.MeanResidentBytes()
	case Loads:
		return float64(out.Loads())
	case MaxFrameBytes:
		return float64(out.MaxRequestedBytes())
	}
	return float64(out.PeakResidentBytes())
}

// bound is the lower bound progress p puts on the objective, and whether
// it has one (a mean can still fall).
func (o Objective) bound(p progress) (float64, bool) {
	switch o {
	case MeanResident:
		return 0, false
	case Loads:
		return float64(p.Loads), true
	case MaxFrameBytes:
		return float64(p.MaxRequestedBytes), true
	}
	return float64(p.PeakResidentBytes), true
}

// Better reports whether a ranks before b: the smaller objective, then
// fewer loads, then smaller load, unload and prefetch radii, a smaller
// budget (unset is the largest), a larger cell size, a smaller cap (unset
// the largest), and last the earlier in the enumeration.
func (o Objective) Better(a, b *Outcome) bool {
	return o.compare(a, b) < 0
}

func (o Objective) compare(a, b *Outcome) int {
	if c := cmpFloat(o.Value(a), o.Value(b)); c != 0 {
		return c
	}
	if c := a.Loads() - b.Loads(); c != 0 {
		return sign(c)
	}
	x, y := &a.Candidate, &b.Candidate
	for _, c := range []int{
		cmpFloat(x.Load, y.Load), cmpFloat(x.Unload, y.Unload), cmpFloat(x.Prefetch, y.Prefetch),
		cmpSize(x.Budget, y.Budget), cmpFloat(y.CellSize, x.CellSize), cmpSize(x.MaxResidentBytes, y.MaxResidentBytes),
	} {
		if c != 0 {
			return c
		}
	}
	return sign(x.Index - y.Index)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpSize orders sizes with unset (nil) above every one.
func cmpSize(a, b *int64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	case *a < *b:
		return -1
	case *a > *b:
		return 1
	}
	return 0
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// Result is what a search found.
type Result struct {
	Routes    []string
	Objective Objective
	Require   streaming.Gate
	// Total, Skipped and Dimensions are the plan's.
	Total, Skipped int
	Dimensions     []Dimension
	// Evaluated candidates ran (Pruned of them stopped early); Feasible of
	// them met the constraints on every route.
	Evaluated, Feasible, Pruned int
	// PrunedRuns are the route runs pruning never started, PrunedFrames
	// the frames it did not step (in those and in the stopped runs).
	PrunedRuns, PrunedFrames int
	// Candidates is how many candidates the plan runs (the authored
	// settings aside).
	Candidates int
	// Best is the recommendation (nil: none is feasible); Top the --top
	// feasible candidates in rank order, Best first; Pareto the front of
	// the feasible ones on (peak resident, loads) by increasing peak. A
	// search keeps these, never every candidate's outcome: those are
	// written as they are known (Options.JSON).
	Best        *Outcome
	Top, Pareto []*Outcome
	// Authored is the baseline's outcome, when Options.Authored was set.
	Authored *Outcome
	// Partial says the search was cancelled: the result is the best of
	// the candidates that ran.
	Partial bool
	// Warnings change how the result reads (the view unknown).
	Warnings []streaming.Warning
	// ViewReach is how far the widest view reaches from its source (0:
	// none is known); Uncovered counts the combinations never run because
	// their load radius leaves it uncovered.
	ViewReach float64
	Uncovered int
	// Cover is the least load radius covering the view at the authored
	// cell size (0: no view).
	Cover float64
	// EstellaXY says the search ran Estella's runtime on a world cut on x
	// and y, which it does not stream as cut whatever the radii.
	EstellaXY bool
	// World is the world searched and Scene says it is a scene file;
	// Driven are the entity ids of its authored sources the routes move
	// (Edit puts the recommendation on them).
	World  string
	Scene  bool
	Driven []int64

	// sample are the candidates run to the end the plot draws (a bounded
	// sample of them); failing is what the explanation of an infeasible
	// search reads (Infeasible).
	sample  []plotPoint
	sampled int
	failing failing
}

// search runs plan's candidates through eval and ranks them. A candidate
// runs its routes in order; unless the search is exhaustive, a run is
// stopped (Stop) once the candidate provably can neither rank among the
// top ones nor be on the Pareto front, judged against the candidates of
// the batches already finished, which makes the answer the exhaustive
// search's, and the output the same on every run and any GOMAXPROCS.
// Candidates run in the plan's Ordered order, batch after batch
// (runBatch). The search keeps what its outputs read (keeper), never
// every outcome: each is written to o.JSON as its batch finishes.
//
// When ctx is cancelled the search stops and returns the result so far
// with Partial set (and no error).
func search(ctx context.Context, plan *searchPlan, eval evaluate, o Options) (*Result, error) {
	if len(o.Routes) == 0 {
		return nil, errors.New("no route to tune against: give --path")
	}
	if o.Top <= 0 {
		o.Top = defaultTop
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	head := o.head
	o.head = Result{}
	res := &head
	res.Routes, res.Objective, res.Require = o.Routes, o.Objective, o.Require
	res.Total, res.Skipped, res.Dimensions, res.Candidates = plan.Total, plan.Skipped, plan.Dimensions, plan.Count
	s := &searcher{eval: eval, o: o, res: res, workers: workers, keep: newKeeper(o, plan.Count)}
	if o.JSON != nil {
		s.json = newJSONStream(o.JSON, o.Routes)
		s.json.warnings(res.Warnings)
	}
	s.total = plan.Count
	// The authored baseline runs to the end in the first batch: judged
	// against nothing, it needs no batch before it, and it shares the
	// work of the candidates of its cell size.
	var authored *Candidate
	if o.Authored != nil {
		s.total++
		a := *o.Authored
		a.Authored = true
		authored = &a
	}
	known := bar{top: o.Top}
	order := plan.Ordered()
	if o.order != nil {
		list := slices.Collect(plan.All())
		ks := o.order(list)
		order = func(yield func(Candidate) bool) {
			for _, k := range ks {
				if !yield(list[k]) {
					return
				}
			}
		}
	}
	next, stop := iter.Pull(order)
	defer stop()
	for first := true; ; first = false {
		cands := make([]Candidate, 0, 1+batchSize)
		extra := 0
		if first && authored != nil {
			cands, extra = append(cands, *authored), 1
		}
		for len(cands) < extra+batchSize {
			c, ok := next()
			if !ok {
				break
			}
			cands = append(cands, c)
		}
		if len(cands) == 0 {
			break
		}
		var snap *bar
		if !o.Exhaustive {
			snap = &known
		}
		outs := make([]*Outcome, len(cands))
		errs := s.runBatch(ctx, cands, extra, snap, func(k int, out *Outcome) {
			outs[k] = out
			s.event(out)
		})
		if ctx.Err() != nil {
			res.Partial = true
		} else if err := batchError(cands, extra, errs); err != nil {
			return nil, err
		}
		for k, out := range outs {
			switch {
			case out == nil:
			case k < extra:
				res.Authored = out
				s.keep.frames(out)
			default:
				s.record(out, false)
				if !o.Exhaustive && out.Feasible {
					known.add(o.Objective, out)
				}
			}
		}
		if err := s.flush(); err != nil {
			return nil, err
		}
		if res.Partial {
			break
		}
	}
	if !res.Partial && !o.Exhaustive {
		if err := s.rerunFailed(ctx, plan); err != nil {
			return nil, err
		}
	}
	s.keep.conclude(res)
	if s.json != nil {
		if err := s.json.finish(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// batchError is the first error of a batch's candidates, naming it.
func batchError(cands []Candidate, authored int, errs []error) error {
	for k, err := range errs {
		switch {
		case err == nil:
		case k < authored:
			return fmt.Errorf("the authored settings: %v", err)
		default:
			c := cands[k]
			return fmt.Errorf("candidate %d (%s): %v", c.Index, c.Describe(), err)
		}
	}
	return nil
}

// record keeps what the outputs read of a candidate's outcome and writes
// its JSON line; rerun says it is a run again to the end of a candidate
// recorded before (rerunFailed).
func (s *searcher) record(out *Outcome, rerun bool) {
	s.keep.add(out, rerun)
	if s.json != nil {
		s.json.candidate(out)
	}
	if s.o.seen != nil {
		s.o.seen(out)
	}
}

// flush writes out the JSON lines of the batch just recorded.
func (s *searcher) flush() error {
	if s.json == nil {
		return nil
	}
	return s.json.flush()
}

// rerunFailed runs again to the end, when no candidate is feasible, the
// candidates stopped as soon as a condition held: what failed, and the
// nearest candidate (Result.Infeasible), is then told from whole runs,
// as the exhaustive search tells it. With a feasible candidate, they
// stay stopped. They run in the plan's order, and each one's JSON line is
// written again, the whole run's.
func (s *searcher) rerunFailed(ctx context.Context, plan *searchPlan) error {
	if s.keep.feasible > 0 || s.keep.failed == nil {
		return nil
	}
	failed := s.keep.failed
	next, stop := iter.Pull(plan.All())
	defer stop()
	for {
		var cands []Candidate
		for len(cands) < batchSize {
			c, ok := next()
			if !ok {
				break
			}
			if failed.has(c.Index) {
				cands = append(cands, c)
			}
		}
		if len(cands) == 0 {
			break
		}
		outs := make([]*Outcome, len(cands))
		errs := s.runBatch(ctx, cands, len(cands), nil, func(k int, out *Outcome) { outs[k] = out })
		if ctx.Err() != nil {
			s.res.Partial = true
			return nil
		}
		if err := batchError(cands, 0, errs); err != nil {
			return err
		}
		for _, out := range outs {
			s.record(out, true)
		}
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.keep.rerunDone = true
	return nil
}

// runBatch runs one batch's candidates, those of one cell size together
// (the evaluator shares their work: one pass over each route serves
// them all), and calls done with each one's outcome as it is known. The
// first free candidates run to the end; the others are judged against b
// (nil: none is). It returns each candidate's error (nil when it ran).
//
// A candidate runs its routes in order, each route once for every
// candidate still running: before a route, a candidate b already beats
// on the routes it ran is stopped; during one, the evaluator stops it
// as soon as it is beaten. What each candidate gives depends only on its
// own runs and on b, never on the others of the batch, so that the
// outcome is the one running it alone gives.
func (s *searcher) runBatch(ctx context.Context, cands []Candidate, free int, b *bar, done func(k int, out *Outcome)) []error {
	errs := make([]error, len(cands))
	var sizes []float64
	groups := map[float64][]int{}
	for k, c := range cands {
		if _, ok := groups[c.CellSize]; !ok {
			sizes = append(sizes, c.CellSize)
		}
		groups[c.CellSize] = append(groups[c.CellSize], k)
	}
	outs := make([]Outcome, len(cands))
	prior := make([]progress, len(cands))
	for _, cs := range sizes {
		group := groups[cs]
		for _, k := range group {
			outs[k] = Outcome{Candidate: cands[k], Routes: make([]Figures, 0, len(s.o.Routes))}
		}
		running := group
		for r := range s.o.Routes {
			var ks []int
			var cs []Candidate
			var stops []stopFunc
			for _, k := range running {
				var stop stopFunc
				if b != nil && k >= free {
					if r > 0 && b.beaten(s.o.Objective, prior[k]) {
						outs[k].Pruned = true
						continue
					}
					p := prior[k]
					stop = func(q progress) bool { return b.beaten(s.o.Objective, p.add(q)) }
				}
				ks, cs, stops = append(ks, k), append(cs, cands[k]), append(stops, stop)
			}
			if len(ks) == 0 {
				break
			}
			figs, ferrs := s.eval(ctx, cs, r, stops, s.workers)
			running = running[:0:0]
			for j, k := range ks {
				if ferrs[j] != nil {
					errs[k] = ferrs[j]
					continue
				}
				f := figs[j]
				if f.Held == nil {
					f.Held = []Held{}
				}
				got := progress{f.PeakResidentBytes, f.Loads, f.MaxRequestedBytes}
				prior[k] = prior[k].add(got)
				outs[k].Routes = append(outs[k].Routes, f)
				if f.Failed {
					if stops[j] == nil {
						errs[k] = fmt.Errorf("route %s: the evaluator stopped a run that was to run to the end", s.o.Routes[r])
						continue
					}
					outs[k].Pruned, outs[k].failed = true, true
					continue
				}
				if f.Stopped {
					if stops[j] == nil || !stops[j](got) {
						errs[k] = fmt.Errorf("route %s: the evaluator stopped a run that could still win", s.o.Routes[r])
						continue
					}
					outs[k].Pruned = true
					continue
				}
				running = append(running, k)
			}
		}
		for _, k := range group {
			if errs[k] != nil {
				continue
			}
			out := &outs[k]
			out.Feasible = !out.Pruned
			for _, f := range out.Routes {
				if len(f.Held) > 0 {
					out.Feasible = false
				}
			}
			done(k, out)
		}
	}
	return errs
}

// evalOrder is the order candidates run in, as indices into cands: the
// smallest radii in cells first (load, then prefetch, then unload, each
// divided by the cell size), then the smallest budget and cap, then the
// plan's order. Small radii hold few cells, so those candidates tend to
// have the smallest peaks and loads; run first, they make the bar the
// later, larger ones are stopped against. The order decides only which
// runs stop early, never the answer (every comparison is total), and it
// is fixed, so the output is the same on every run. A plan enumerates
// its candidates in this order without sorting them (Ordered).
func evalOrder(cands []Candidate) []int {
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return evalCompare(&cands[i], &cands[j]) })
	return order
}

// evalCompare orders two candidates as they run.
func evalCompare(a, b *Candidate) int {
	return cmp.Or(
		cmp.Compare(a.Load/a.CellSize, b.Load/b.CellSize),
		cmp.Compare(a.Prefetch/a.CellSize, b.Prefetch/b.CellSize),
		cmp.Compare(a.Unload/a.CellSize, b.Unload/b.CellSize),
		cmpSize(a.Budget, b.Budget),
		cmpSize(a.MaxResidentBytes, b.MaxResidentBytes),
		cmp.Compare(a.Index, b.Index),
	)
}

// searcher is a search under way.
type searcher struct {
	eval    evaluate
	o       Options
	res     *Result
	total   int
	workers int
	keep    *keeper
	json    *jsonStream

	mu                     sync.Mutex
	done, feasible, pruned int
}

func (s *searcher) event(out *Outcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done++
	if out.Feasible {
		s.feasible++
	}
	if out.Pruned {
		s.pruned++
	}
	if s.o.Events != nil {
		s.o.Events(Event{Done: s.done, Total: s.total, Feasible: s.feasible, Pruned: s.pruned})
	}
}

// bar is what a candidate must beat, from the feasible candidates of the
// finished batches: the objective values of the best top ones, and the
// Pareto front on (peak resident, loads).
type bar struct {
	top   int
	best  []float64 // ascending, at most top
	front []progress
}

func (b *bar) add(o Objective, out *Outcome) {
	v := o.Value(out)
	i, _ := slices.BinarySearch(b.best, v)
	b.best = slices.Insert(b.best, i, v)
	if len(b.best) > b.top {
		b.best = b.best[:b.top]
	}
	p := out.progress()
	for _, f := range b.front {
		if f.PeakResidentBytes <= p.PeakResidentBytes && f.Loads <= p.Loads {
			return
		}
	}
	b.front = slices.DeleteFunc(b.front, func(f progress) bool {
		return p.PeakResidentBytes <= f.PeakResidentBytes && p.Loads <= f.Loads
	})
	b.front = append(b.front, p)
}

// beaten reports whether a candidate whose figures will be at least lb
// can be neither among the top (a full list of candidates with strictly
// smaller objectives is known) nor on the front (a known candidate is
// strictly better on one of peak and loads and no worse on the other).
func (b *bar) beaten(o Objective, lb progress) bool {
	v, ok := o.bound(lb)
	if !ok || len(b.best) < b.top || !(b.best[len(b.best)-1] < v) {
		return false
	}
	for _, f := range b.front {
		if f.PeakResidentBytes < lb.PeakResidentBytes && f.Loads <= lb.Loads ||
			f.PeakResidentBytes <= lb.PeakResidentBytes && f.Loads < lb.Loads {
			return true
		}
	}
	return false
}
