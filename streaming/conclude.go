package streaming

import (
	"fmt"
	"slices"
)

// A Concluder completes a run's summary one frame at a time, as Conclude
// does from every frame's report afterwards (Conclude is a Concluder fed
// every frame): a run that does not keep its frames still gets its hole
// and pop-in episodes and its gate's verdict, and learns as soon as a
// condition has surely held (Breached).
type Concluder struct {
	gate                              Gate
	holes, popIn                      episodes
	popInFrames, maxPopIn, firstPopIn int
	watch                             gateWatch
}

// NewConcluder returns the concluder of a run judged by gate, whose
// budget and cap (nil: none) the over-budget and over-cap conditions
// read: the run's Settings.
func NewConcluder(gate Gate, budget, cap *int64) *Concluder {
	return &Concluder{gate: gate,
		holes: episodes{missing: func(r *FrameReport) ([]string, []HoleCause) { return r.Holes, r.HoleCauses }},
		popIn: episodes{missing: func(r *FrameReport) ([]string, []HoleCause) { return r.PopInCells, r.PopInCauses }},
		watch: newGateWatch(gate, budget, cap)}
}

// Add takes the run's next frame report.
func (c *Concluder) Add(r *FrameReport) {
	c.holes.add(r)
	c.popIn.add(r)
	if n := r.PopIn; n > 0 {
		if c.popInFrames == 0 {
			c.firstPopIn = r.Frame
		}
		c.popInFrames++
		c.maxPopIn = max(c.maxPopIn, n)
	}
	if len(c.gate.FailOn) > 0 {
		c.watch.add(r)
	}
}

// Breached reports whether a condition of the gate has surely held in
// the frames so far, whatever the frames still to come: the run fails.
// Failures (loads given up) are in the summary, not the frames, and
// are not counted here.
func (c *Concluder) Breached() bool { return len(c.gate.FailOn) > 0 && c.watch.breached() }

// Conclude completes sum (the run's summary after its last frame) with
// the episodes, the pop-in counts and the gate's verdict when it has
// conditions.
func (c *Concluder) Conclude(sum *Summary) {
	sum.HoleEpisodes = c.holes.list()
	sum.PopInEpisodes = c.popIn.list()
	sum.PopInFrames, sum.MaxPopIn, sum.FirstPopInFrame = c.popInFrames, c.maxPopIn, c.firstPopIn
	sum.Gate = nil
	if len(c.gate.FailOn) > 0 {
		verdict := c.watch.verdict(sum)
		sum.Gate = &verdict
	}
}

// gateWatch judges a run's frames as they come: evaluateGate is one fed
// every frame.
type gateWatch struct {
	gate   Gate
	frames int
	// holes and popIn are the conditions with a warm-up: what counts
	// depends on where the warm-up ends.
	holes, popIn warmWatch
	over         [2]overWatch // over-budget, over-cap
}

func newGateWatch(g Gate, budget, cap *int64) gateWatch {
	return gateWatch{gate: g,
		holes: warmWatch{given: g.Warmup,
			missing: func(r *FrameReport) (bool, []string) { return len(r.Holes) > 0, r.Holes }},
		popIn: warmWatch{given: g.Warmup,
			missing: func(r *FrameReport) (bool, []string) { return r.PopIn > 0, r.PopInCells }},
		over: [2]overWatch{
			{limit: budget, get: func(r *FrameReport) (int64, []string) { return r.RequestedBytes, r.Requested }},
			{limit: cap, get: func(r *FrameReport) (int64, []string) { return r.ResidentBytes, r.Published }},
		}}
}

func (w *gateWatch) add(r *FrameReport) {
	w.holes.add(r, w.frames)
	if slices.Contains(w.gate.FailOn, FailPopIn) {
		w.popIn.add(r, w.frames)
	}
	w.over[0].add(r)
	w.over[1].add(r)
	w.frames++
}

// breached reports whether some condition surely held.
func (w *gateWatch) breached() bool {
	for _, cond := range w.gate.FailOn {
		switch cond {
		case FailHoles:
			if w.holes.surely() {
				return true
			}
		case FailPopIn:
			if w.popIn.surely() {
				return true
			}
		case FailOverBudget:
			if w.over[0].b.FrameCount > 0 {
				return true
			}
		case FailOverCap:
			if w.over[1].b.FrameCount > 0 {
				return true
			}
		}
	}
	return false
}

// verdict is the gate's verdict on the frames seen; sum is the run's
// summary (its first frame's number and the cells given up).
func (w *gateWatch) verdict(sum *Summary) GateResult {
	n := w.frames
	res := GateResult{FailOn: slices.Clone(w.gate.FailOn), Breaches: []Breach{}}
	if res.FailOn == nil {
		res.FailOn = []string{}
	}
	res.Warmup, res.WarmupEnded = w.holes.warmup(n)
	res.WarmupAuto = w.gate.Warmup == nil
	if slices.Contains(res.FailOn, FailPopIn) {
		res.PopInWarmup, res.PopInWarmupEnded = w.popIn.warmup(n)
	}
	for _, cond := range res.FailOn {
		var b Breach
		switch cond {
		case FailHoles:
			b = w.holes.breach()
			switch {
			case b.FrameCount == 0:
			case !res.WarmupEnded:
				b.Detail = fmt.Sprintf("no frame of %d was free of holes: the warm-up never ended", n)
			case res.WarmupAuto:
				b.Detail = fmt.Sprintf("%d %s with holes after the warm-up, which lasted %s (until the first frame without holes)", b.FrameCount, frameWord(b.FrameCount), warmupSpan(res.Warmup, sum.FirstFrame))
			default:
				b.Detail = fmt.Sprintf("%d %s with holes after the %d-frame warm-up", b.FrameCount, frameWord(b.FrameCount), res.Warmup)
			}
		case FailPopIn:
			b = w.popIn.breach()
			switch {
			case b.FrameCount == 0:
			case !res.PopInWarmupEnded:
				b.Detail = fmt.Sprintf("no frame of %d was free of pop-in: the view never showed its cells all resident", n)
				if n <= shortRoute {
					// A load takes a frame at least: such a route is its cold
					// start alone, and no setting would pass it.
					b.Detail += "; the route ends before the first load is resident: give a longer route"
				}
			case res.WarmupAuto:
				b.Detail = fmt.Sprintf("%d %s with pop-in after the warm-up, which lasted %s (until the first frame without pop-in)", b.FrameCount, frameWord(b.FrameCount), warmupSpan(res.PopInWarmup, sum.FirstFrame))
			default:
				b.Detail = fmt.Sprintf("%d %s with pop-in after the %d-frame warm-up", b.FrameCount, frameWord(b.FrameCount), res.PopInWarmup)
			}
		case FailOverBudget:
			b = w.over[0].breach("dispatched more than the budget of")
		case FailOverCap:
			b = w.over[1].breach("ended with more resident than the cap of")
		case FailFailures:
			b = failureBreach(sum)
		}
		if b.FrameCount > 0 {
			b.Condition = cond
			res.Breaches = append(res.Breaches, b)
		}
	}
	res.Failed = len(res.Breaches) > 0
	return res
}

// warmWatch follows a condition excused during a warm-up: given frames
// (Gate.Warmup) or, unset, until the first frame it does not hold. Until
// that frame comes, the frames so far are all the breach holds should it
// never come (then every frame counts); once it comes they are dropped.
type warmWatch struct {
	given   *int
	missing func(*FrameReport) (bool, []string)
	// ended says the warm-up is over, after end frames.
	ended bool
	end   int
	b     Breach
	cells cellSet
}

func (w *warmWatch) add(r *FrameReport, i int) {
	held, names := w.missing(r)
	switch {
	case w.given != nil:
		if i < *w.given {
			return
		}
	case !w.ended && !held:
		// The first frame free of it ends the warm-up: what the warm-up
		// held is excused.
		w.ended, w.end = true, i+1
		w.b, w.cells = Breach{}, cellSet{}
		return
	}
	if !held {
		return
	}
	w.b.Frames = ranges(w.b.Frames, r.Frame)
	w.b.FrameCount++
	w.cells.add(names...)
}

// surely reports whether the condition held past the warm-up.
func (w *warmWatch) surely() bool { return (w.given != nil || w.ended) && w.b.FrameCount > 0 }

// warmup is the warm-up's length over n frames, and whether it ended.
func (w *warmWatch) warmup(n int) (int, bool) {
	switch {
	case w.given != nil:
		return min(*w.given, n), true
	case w.ended:
		return w.end, true
	}
	return n, false
}

func (w *warmWatch) breach() Breach {
	b := w.b
	b.Frames = slices.Clone(b.Frames)
	b.Cells = slices.Clone(w.cells.list())
	return b
}

// overWatch follows a frame figure against a limit.
type overWatch struct {
	limit     *int64
	get       func(*FrameReport) (int64, []string)
	b         Breach
	cells     cellSet
	peak      int64
	peakFrame int
}

func (w *overWatch) add(r *FrameReport) {
	if w.limit == nil {
		return
	}
	v, names := w.get(r)
	if v <= *w.limit {
		return
	}
	w.b.Frames = ranges(w.b.Frames, r.Frame)
	w.b.FrameCount++
	w.cells.add(names...)
	if v > w.peak {
		w.peak, w.peakFrame = v, r.Frame
	}
}

func (w *overWatch) breach(what string) Breach {
	if w.limit == nil {
		return Breach{}
	}
	b := w.b
	b.Frames = slices.Clone(b.Frames)
	b.Cells = slices.Clone(w.cells.list())
	if b.FrameCount > 0 {
		b.Detail = fmt.Sprintf("%d frames %s %s (at most %s, in frame %d)", b.FrameCount, what, ByteSize(*w.limit), ByteSize(w.peak), w.peakFrame)
	}
	return b
}

// Held are the conditions that surely held in the frames so far (see
// Breached), in reporting order, each with its frames so far: what a run
// stopped at its first breach can say of why it failed.
func (c *Concluder) Held() []Breach {
	var out []Breach
	w := &c.watch
	for _, cond := range FailConditions {
		if !slices.Contains(c.gate.FailOn, cond) {
			continue
		}
		var b Breach
		switch cond {
		case FailHoles:
			if w.holes.surely() {
				b = w.holes.breach()
			}
		case FailPopIn:
			if w.popIn.surely() {
				b = w.popIn.breach()
			}
		case FailOverBudget:
			b = w.over[0].breach("")
		case FailOverCap:
			b = w.over[1].breach("")
		}
		if b.FrameCount > 0 {
			b.Condition, b.Detail = cond, ""
			out = append(out, b)
		}
	}
	return out
}
