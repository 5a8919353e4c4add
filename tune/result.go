package tune

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/worldcook/worldcook/streaming"
)

// plotSample is how many of the candidates run to the end the plot draws
// at most: enough to show the cloud, few enough that the drawing and the
// search's memory do not grow with the count.
const plotSample = 2000

// keeper is what a search keeps of the outcomes it is told of, in the
// order they run: what the outputs read, never every outcome, so that a
// search's memory is that of its batch, its --top candidates, its front
// and its plot's sample whatever the number of candidates.
type keeper struct {
	o           Objective
	top, routes int
	// ranked are the feasible outcomes in rank order, at most top; front
	// those no other feasible one precedes on (peak resident, loads).
	ranked, front       []*Outcome
	evaluated, feasible int
	// frameCount is each route's frames, from the first outcome run to
	// the end.
	frameCount []int
	// pruned are the stopped runs, failed those stopped because a
	// condition held, which a rerun replaces (rerunFailed).
	pruned, prunedFailed prunedTally
	// whole are the conditions that held in the runs not stopped on one,
	// failedFirst in those stopped on one, rerun in the same run again to
	// the end.
	whole, failedFirst, rerun failing
	// failed are the candidates stopped because a condition held, while
	// no candidate is feasible (a bit a candidate): those a rerun runs
	// again. Dropped once one is feasible.
	failed    bitset
	count     int
	rerunDone bool
	sample    reservoir
}

func newKeeper(o Options, count int) *keeper {
	return &keeper{o: o.Objective, top: o.Top, routes: len(o.Routes), count: count, sample: reservoir{state: 0x5eed}}
}

// frames notes the routes' frame counts from an outcome run to the end.
func (k *keeper) frames(out *Outcome) {
	if k.frameCount != nil || out.Pruned {
		return
	}
	k.frameCount = make([]int, len(out.Routes))
	for i, f := range out.Routes {
		k.frameCount[i] = f.Frames
	}
}

// add keeps what the outputs read of a candidate's outcome; rerun says it
// is the whole run of a candidate added before as stopped on a condition.
func (k *keeper) add(out *Outcome, rerun bool) {
	// What is kept is a copy: the outcome is its batch's, which it would
	// otherwise keep alive.
	var own *Outcome
	kept := func() *Outcome {
		if own == nil {
			c := *out
			own = &c
		}
		return own
	}
	k.frames(out)
	switch {
	case rerun:
		k.rerun.add(k.o, out, kept)
	case out.failed:
		k.evaluated++
		k.failedFirst.add(k.o, out, kept)
		k.prunedFailed.add(out, k.routes)
		if k.feasible == 0 {
			if k.failed == nil {
				k.failed = make(bitset, (k.count+63)/64)
			}
			k.failed.set(out.Candidate.Index)
		}
	default:
		k.evaluated++
		k.whole.add(k.o, out, kept)
		if out.Pruned {
			k.pruned.add(out, k.routes)
		}
	}
	if out.Feasible {
		k.feasible++
		k.failed = nil
		k.rank(kept())
		k.onFront(kept())
	}
	if !out.Pruned {
		k.sample.offer(plotPoint{c: out.Candidate, peak: out.PeakResidentBytes(), loads: out.Loads(), feasible: out.Feasible})
	}
}

// rank puts a feasible outcome among the top ones, if it is.
func (k *keeper) rank(out *Outcome) {
	i, _ := slices.BinarySearchFunc(k.ranked, out, k.o.compare)
	if i >= k.top {
		return
	}
	k.ranked = slices.Insert(k.ranked, i, out)
	if len(k.ranked) > k.top {
		k.ranked[k.top] = nil
		k.ranked = k.ranked[:k.top]
	}
}

// onFront puts a feasible outcome on the Pareto front on (peak resident,
// loads), if no outcome on it precedes it, and takes off those it
// precedes. a precedes b when it is no worse on both figures and better
// on one, or equal on both and first in rank order: the front is the
// outcomes nothing precedes, whatever order they come in.
func (k *keeper) onFront(out *Outcome) {
	precedes := func(a, b *Outcome) bool {
		pa, pb := a.progress(), b.progress()
		return pa.PeakResidentBytes <= pb.PeakResidentBytes && pa.Loads <= pb.Loads &&
			(pa.PeakResidentBytes != pb.PeakResidentBytes || pa.Loads != pb.Loads || k.o.compare(a, b) < 0)
	}
	for _, f := range k.front {
		if precedes(f, out) {
			return
		}
	}
	k.front = slices.DeleteFunc(k.front, func(f *Outcome) bool { return precedes(out, f) })
	k.front = append(k.front, out)
}

// conclude puts the counts, the top candidates, the front, the plot's
// sample and the tally of what failed on r.
func (k *keeper) conclude(r *Result) {
	r.Evaluated, r.Feasible = k.evaluated, k.feasible
	pruned, failing := k.pruned, k.whole.merge(k.o, k.rerun)
	if !k.rerunDone {
		// A rerun that did not finish (an interrupted search) tells
		// nothing: the first runs stand.
		pruned, failing = pruned.plus(k.prunedFailed), k.whole.merge(k.o, k.failedFirst)
	}
	r.Pruned = pruned.n
	r.PrunedRuns, r.PrunedFrames = pruned.saved(k.frameCount)
	r.failing = failing
	r.Top = slices.Clip(k.ranked)
	if r.Top == nil {
		r.Top = []*Outcome{}
	}
	if len(r.Top) > 0 {
		r.Best = r.Top[0]
	}
	r.Pareto = slices.Clone(k.front)
	if r.Pareto == nil {
		r.Pareto = []*Outcome{}
	}
	slices.SortFunc(r.Pareto, func(a, b *Outcome) int {
		return cmp.Or(cmp.Compare(a.PeakResidentBytes(), b.PeakResidentBytes()), cmp.Compare(a.Loads(), b.Loads()))
	})
	r.sample = slices.SortedFunc(slices.Values(k.sample.points), func(a, b plotPoint) int { return cmp.Compare(a.c.Index, b.c.Index) })
	r.sampled = k.sample.seen
}

// prunedTally counts the runs stopped early: how many, and per route how
// many never started it and the frames those that did ran.
type prunedTally struct {
	n            int
	missing, ran []int
}

func (t *prunedTally) add(out *Outcome, routes int) {
	if t.ran == nil {
		t.ran, t.missing = make([]int, routes), make([]int, routes)
	}
	t.n++
	for k := range routes {
		if k < len(out.Routes) {
			t.ran[k] += out.Routes[k].Frames
		} else {
			t.missing[k]++
		}
	}
}

func (t prunedTally) plus(u prunedTally) prunedTally {
	sum := prunedTally{n: t.n + u.n}
	for _, x := range []prunedTally{t, u} {
		if x.ran == nil {
			continue
		}
		if sum.ran == nil {
			sum.ran, sum.missing = make([]int, len(x.ran)), make([]int, len(x.ran))
		}
		for k := range x.ran {
			sum.ran[k] += x.ran[k]
			sum.missing[k] += x.missing[k]
		}
	}
	return sum
}

// saved are the route runs the stopped runs never started and the frames
// they did not step, given each route's frame count.
func (t prunedTally) saved(frameCount []int) (runs, frames int) {
	for k := range t.ran {
		runs += t.missing[k]
		n := 0
		if k < len(frameCount) {
			n = frameCount[k]
		}
		frames += t.n*n - t.ran[k]
	}
	return runs, frames
}

// failing is what the explanation of an infeasible search reads: for
// each condition (by its place in streaming.FailConditions), how many
// candidates it held in, and the best ranked of those it alone held in
// and of all it held in.
type failing struct {
	count      []int
	alone, any []*Outcome
}

// add counts the conditions that held in out; kept is the copy of out to
// keep.
func (f *failing) add(o Objective, out *Outcome, kept func() *Outcome) {
	for c, cond := range streaming.FailConditions {
		if !held(out, cond) {
			continue
		}
		if f.count == nil {
			n := len(streaming.FailConditions)
			f.count, f.alone, f.any = make([]int, n), make([]*Outcome, n), make([]*Outcome, n)
		}
		f.count[c]++
		if f.any[c] == nil || o.Better(out, f.any[c]) {
			f.any[c] = kept()
		}
		if heldAlone(out, cond) && (f.alone[c] == nil || o.Better(out, f.alone[c])) {
			f.alone[c] = kept()
		}
	}
}

// merge is the tally of both f's candidates and g's.
func (f failing) merge(o Objective, g failing) failing {
	if f.count == nil {
		return g
	}
	if g.count == nil {
		return f
	}
	n := len(f.count)
	m := failing{count: make([]int, n), alone: make([]*Outcome, n), any: make([]*Outcome, n)}
	better := func(a, b *Outcome) *Outcome {
		if a == nil || b != nil && o.Better(b, a) {
			return b
		}
		return a
	}
	for c := range n {
		m.count[c] = f.count[c] + g.count[c]
		m.alone[c], m.any[c] = better(f.alone[c], g.alone[c]), better(f.any[c], g.any[c])
	}
	return m
}

func (f *failing) held(c int) int {
	if f.count == nil {
		return 0
	}
	return f.count[c]
}

// held says whether cond held on some route of out.
func held(out *Outcome, cond string) bool {
	for _, f := range out.Routes {
		for _, h := range f.Held {
			if h.Condition == cond {
				return true
			}
		}
	}
	return false
}

// heldAlone says whether no other condition than cond held on any route.
func heldAlone(out *Outcome, cond string) bool {
	for _, f := range out.Routes {
		for _, h := range f.Held {
			if h.Condition != cond {
				return false
			}
		}
	}
	return true
}

// plotPoint is a candidate as the plot draws it.
type plotPoint struct {
	c        Candidate
	peak     int64
	loads    int
	feasible bool
}

// reservoir is a uniform sample of at most plotSample of the points it is
// offered (Vitter's algorithm R), drawn from a fixed seed: the same
// offers give the same sample on every run and machine.
type reservoir struct {
	state  uint64
	seen   int
	points []plotPoint
}

func (r *reservoir) offer(p plotPoint) {
	r.seen++
	if len(r.points) < plotSample {
		r.points = append(r.points, p)
		return
	}
	if j := r.next() % uint64(r.seen); j < plotSample {
		r.points[j] = p
	}
}

// next is splitmix64: stated here, so that the sample never changes with
// a library's generator.
func (r *reservoir) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// bitset is a set of candidate indices, a bit each.
type bitset []uint64

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// Describe names a candidate's settings in one line.
func (c *Candidate) Describe() string {
	parts := []string{
		"cell size " + num(c.CellSize),
		"load " + num(c.Load), "unload " + num(c.Unload), "prefetch " + num(c.Prefetch),
	}
	if c.Budget != nil {
		parts = append(parts, "budget "+bytesText(*c.Budget))
	}
	if c.MaxResidentBytes != nil {
		parts = append(parts, "cap "+bytesText(*c.MaxResidentBytes))
	}
	return strings.Join(parts, ", ")
}

// Infeasible explains a search that found no feasible candidate: how often
// each required condition held, the one that held least often, and where
// it held for the nearest candidate (the best ranked of those it alone
// failed, else of those it failed). It is "" when a candidate is feasible.
// shortRoute is the length under which a route whose every frame fails
// is called too short: a load takes a frame at least, so a route of a
// frame or two is its cold start alone.
const shortRoute = 2

func (r *Result) Infeasible() string {
	if r.Best != nil {
		return ""
	}
	if r.Evaluated == 0 {
		return "no candidate was run"
	}
	f := &r.failing
	least := -1
	var parts []string
	for c, cond := range streaming.FailConditions {
		if !slices.Contains(r.Require.FailOn, cond) || f.held(c) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s held in %d", cond, f.held(c)))
		if least < 0 || f.held(c) < f.held(least) {
			least = c
		}
	}
	msg := fmt.Sprintf("no candidate is feasible: of %d candidates, %s", r.Evaluated, strings.Join(parts, ", "))
	if r.EstellaXY {
		msg = fmt.Sprintf("no candidate is feasible: Estella's runtime samples the streaming sources on X and Z, so on this world cut on X and Y it wants the cells under (x, z), not those around where the sources stand, and no radius changes that (simulate --policy estella names the cause plane); cut the world on X and Z for Estella's runtime, or tune --policy budgeted. Of %d candidates, %s",
			r.Evaluated, strings.Join(parts, ", "))
	}
	if least < 0 {
		return msg
	}
	cond := streaming.FailConditions[least]
	nearest := f.alone[least]
	if nearest == nil {
		nearest = f.any[least]
	}
	var where []string
	for k, fig := range nearest.Routes {
		for _, h := range fig.Held {
			if h.Condition == cond {
				w := fmt.Sprintf("on %s in %d %s from frame %d", r.Routes[k], h.FrameCount, english.Plural(h.FrameCount, "frame"), h.FirstFrame)
				if h.FrameCount == fig.Frames && fig.Frames <= shortRoute {
					// A route over before anything loads: the start's
					// cold frames are all it has, and no setting helps.
					w += fmt.Sprintf(", every frame of a route of %d: it ends before the first load is resident; give a longer route (a tour of a one-cell world is one frame)", fig.Frames)
				}
				where = append(where, w)
			}
		}
	}
	return fmt.Sprintf("%s; %s held least often, nearest: %s (%s)", msg, cond, nearest.Candidate.Describe(), strings.Join(where, ", "))
}
