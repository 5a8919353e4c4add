package tune

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/streaming"
)

// TestMeterAgreesWithSummary: the figures a meter follows frame by frame
// are the summary's, so that a run stopped on them is stopped on what
// simulate prints.
func TestMeterAgreesWithSummary(t *testing.T) {
	e := newSchedulerEval(8)
	budget := int64(2048)
	for _, c := range []Candidate{
		{CellSize: 8, Load: 8, Unload: 12, Prefetch: 8},
		{CellSize: 8, Load: 12, Unload: 20, Prefetch: 16, Budget: &budget},
	} {
		for route := range e.routes {
			var m *meter
			full, err := e.eval(context.Background(), c, route, func(progress) bool { return false })
			if err != nil {
				t.Fatal(err)
			}
			src := e.authored
			src.Load, src.Unload, src.Prefetch = c.Load, c.Unload, c.Prefetch
			sched, err := streaming.NewScheduler(e.worlds[8], []streaming.Source{src}, streaming.Settings{Budget: c.Budget}, streaming.NewModelLoader(e.model))
			if err != nil {
				t.Fatal(err)
			}
			m = newMeter(nil)
			if _, err := streaming.Run(context.Background(), sched, e.routes[route], 0, m.Frame); err != nil {
				t.Fatal(err)
			}
			sched.Close()
			got := m.Partial()
			got.Stopped, got.Held = false, full.Held
			if !equalFigures(got, full) {
				t.Errorf("%s route %d: meter %+v, summary %+v", c.Describe(), route, got, full)
			}
			if full.Loads == 0 || full.PeakResidentBytes == 0 {
				t.Errorf("%s route %d: an empty run proves nothing: %+v", c.Describe(), route, full)
			}
		}
	}
}

func equalFigures(a, b Figures) bool {
	return a.Frames == b.Frames && a.PeakResidentBytes == b.PeakResidentBytes && a.MeanResidentBytes == b.MeanResidentBytes &&
		a.Loads == b.Loads && a.MaxRequestedBytes == b.MaxRequestedBytes && a.HoleFrames == b.HoleFrames &&
		slices.Equal(a.Held, b.Held) && a.Stopped == b.Stopped
}

// randomSpace draws a small space, routes and objective.
func randomSpace(rng *rand.Rand) (Space, *synthEval, Options) {
	pick := func(n int, unit float64) []float64 {
		var vs []float64
		for range n {
			vs = append(vs, float64(rng.IntN(8))*unit)
		}
		slices.Sort(vs)
		return slices.Compact(vs)
	}
	sp := Space{CellSizes: pick(1+rng.IntN(2), 4)}
	for i := range sp.CellSizes {
		sp.CellSizes[i] += 4
	}
	if rng.IntN(2) == 0 {
		sp.Load = pick(1+rng.IntN(4), 2)
	}
	if rng.IntN(2) == 0 {
		sp.Unload = pick(1+rng.IntN(4), 3)
	}
	if rng.IntN(3) == 0 {
		a, b := int64(rng.IntN(600)), int64(rng.IntN(600))
		sp.Budget = []*int64{&a, &b, nil}
		if a == b {
			sp.Budget = sp.Budget[1:]
		}
	}
	routes := 1 + rng.IntN(3)
	e := &synthEval{routes: routes, gate: streaming.Gate{FailOn: []string{streaming.FailHoles}}}
	if rng.IntN(3) == 0 {
		e.gate.FailOn = append(e.gate.FailOn, streaming.FailOverBudget)
	}
	var names []string
	for r := range routes {
		e.frames = append(e.frames, 10+rng.IntN(40))
		names = append(names, string(rune('a'+r))+".csv")
	}
	o := Options{Routes: names, Objective: Objective(rng.IntN(4)), Require: e.gate, Top: 1 + rng.IntN(6), Workers: 1 + rng.IntN(3)}
	return sp, e, o
}

// TestPrunedEqualsExhaustive: on many random spaces, the search that stops
// runs early gives the exhaustive search's best, top and front, and the
// same figures for every candidate it ran to the end; and so does one that
// runs the candidates in a random order (which stops other runs).
func TestPrunedEqualsExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pruned, savedFrames, inOrder := 0, 0, 0
	for trial := range 300 {
		sp, e, o := randomSpace(rng)
		plan, err := sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
		if err != nil {
			t.Fatal(err)
		}
		wantOuts, gotOuts := told{}, told{}
		o.Exhaustive = true
		wantOuts.watch(&o)
		want, err := search(context.Background(), plan, oneByOne(e.eval), o)
		if err != nil {
			t.Fatal(err)
		}
		o.Exhaustive = false
		gotOuts.watch(&o)
		got, err := search(context.Background(), plan, oneByOne(e.eval), o)
		if err != nil {
			t.Fatal(err)
		}
		o.seen = nil
		if want.Pruned != 0 {
			t.Fatalf("trial %d: the exhaustive search pruned %d", trial, want.Pruned)
		}
		if bestIndex(got) != bestIndex(want) || !slices.Equal(indexes(got.Top), indexes(want.Top)) || !slices.Equal(indexes(got.Pareto), indexes(want.Pareto)) {
			t.Fatalf("trial %d (%s, top %d): pruned best %d top %v front %v, exhaustive best %d top %v front %v",
				trial, o.Objective, o.Top, bestIndex(got), indexes(got.Top), indexes(got.Pareto), bestIndex(want), indexes(want.Top), indexes(want.Pareto))
		}
		if len(gotOuts) != plan.Count || len(wantOuts) != plan.Count {
			t.Fatalf("trial %d: %d and %d outcomes told of %d candidates", trial, len(gotOuts), len(wantOuts), plan.Count)
		}
		for i := range gotOuts {
			g, w := gotOuts[i], wantOuts[i]
			if g.Pruned {
				continue
			}
			if len(g.Routes) != len(w.Routes) || g.Feasible != w.Feasible {
				t.Fatalf("trial %d candidate %d: %+v, exhaustive %+v", trial, i, g, w)
			}
			for k := range g.Routes {
				if !equalFigures(g.Routes[k], w.Routes[k]) {
					t.Fatalf("trial %d candidate %d route %d: %+v, exhaustive %+v", trial, i, k, g.Routes[k], w.Routes[k])
				}
			}
		}
		if got.Evaluated != want.Evaluated || got.Feasible+countFeasiblePruned(gotOuts, wantOuts) != want.Feasible {
			t.Fatalf("trial %d: counts %d/%d, exhaustive %d/%d", trial, got.Evaluated, got.Feasible, want.Evaluated, want.Feasible)
		}
		pruned += got.Pruned
		savedFrames += got.PrunedFrames
		o.order = func(cands []Candidate) []int { return rng.Perm(len(cands)) }
		shuffled, err := search(context.Background(), plan, oneByOne(e.eval), o)
		if err != nil {
			t.Fatal(err)
		}
		if bestIndex(shuffled) != bestIndex(want) || !slices.Equal(indexes(shuffled.Top), indexes(want.Top)) || !slices.Equal(indexes(shuffled.Pareto), indexes(want.Pareto)) {
			t.Fatalf("trial %d (%s, top %d), random order: best %d top %v front %v, exhaustive best %d top %v front %v",
				trial, o.Objective, o.Top, bestIndex(shuffled), indexes(shuffled.Top), indexes(shuffled.Pareto), bestIndex(want), indexes(want.Top), indexes(want.Pareto))
		}
		inOrder += shuffled.Pruned
	}
	// The test proves nothing unless pruning happened.
	if pruned == 0 || savedFrames == 0 {
		t.Fatalf("no candidate was pruned in any space")
	}
	t.Logf("pruned %d candidates, %d frames not run (%d in random orders)", pruned, savedFrames, inOrder)
}

// countFeasiblePruned counts the candidates pruned in got that the
// exhaustive search found feasible.
func countFeasiblePruned(got, want told) int {
	n := 0
	for i := range got {
		if got[i].Pruned && want[i].Feasible {
			n++
		}
	}
	return n
}

// TestSameOutputAnyGOMAXPROCS: the text and JSON are byte-identical with
// one worker and with four (run it with -race).
func TestSameOutputAnyGOMAXPROCS(t *testing.T) {
	e := newSchedulerEval(8, 16)
	sp, err := ParseSpace(Spec{CellSize: "8,16", Budget: "1KiB..4KiBx2,none"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		var js bytes.Buffer
		res, err := search(context.Background(), plan, oneByOne(e.eval), Options{Routes: []string{"east.csv", "west.csv"}, Require: e.gate,
			Authored: &Candidate{CellSize: 8, Load: 8, Unload: 12, Prefetch: 8}, JSON: &js})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteText(&b, res); err != nil {
			t.Fatal(err)
		}
		b.Write(js.Bytes())
		if err := WritePlot(&b, res); err != nil {
			t.Fatal(err)
		}
		if res.Pruned == 0 {
			t.Errorf("GOMAXPROCS %d: nothing pruned; the test would not see pruning differ", procs)
		}
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("output differs between GOMAXPROCS 1 and 4")
	}
}

// TestCancelReturnsBestSoFar: a cancelled search returns what ran, marked
// partial.
func TestCancelReturnsBestSoFar(t *testing.T) {
	e := &synthEval{frames: []int{30}, gate: streaming.Gate{FailOn: []string{streaming.FailHoles}}}
	sp := Space{Load: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Unload: []float64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, Prefetch: []float64{8, 9, 10, 11, 12, 13, 14, 15, 16, 17}}
	plan, err := sp.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	res, err := search(ctx, plan, oneByOne(e.eval), Options{Routes: []string{"a.csv"}, Require: e.gate, Workers: 2,
		Events: func(ev Event) {
			if seen++; ev.Done == 100 {
				cancel()
			}
			if ev.Total != plan.Count {
				t.Errorf("event total %d, want %d", ev.Total, plan.Count)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Evaluated < 100 || res.Evaluated >= plan.Count || seen != res.Evaluated {
		t.Errorf("partial %v, evaluated %d of %d, %d events", res.Partial, res.Evaluated, plan.Count, seen)
	}
	if res.Best == nil {
		t.Errorf("no best among the candidates run")
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "cancelled: the best of the") {
		t.Errorf("the text does not say the search was cancelled:\n%s", b.String())
	}
}

// TestEvaluatorErrorsEndTheSearch, naming the candidate.
func TestEvaluatorErrorsEndTheSearch(t *testing.T) {
	plan, err := Space{Load: []float64{4, 8}}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("route.csv:3: x is not a number")
	_, err = search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, _ stopFunc) (Figures, error) {
		if c.Load == 8 {
			return Figures{}, boom
		}
		return Figures{}, nil
	}), Options{Routes: []string{"route.csv"}})
	if !errors.Is(err, boom) && (err == nil || !strings.Contains(err.Error(), "load 8") || !strings.Contains(err.Error(), boom.Error())) {
		t.Errorf("error %v, want one naming the candidate and the cause", err)
	}
	if _, err := search(context.Background(), plan, nil, Options{}); err == nil {
		t.Error("a search without routes ran")
	}
}

// TestInfeasibleSaysWhatFailedLeast: with no feasible candidate, the
// message names the condition that held least often and where.
func TestInfeasibleSaysWhatFailedLeast(t *testing.T) {
	plan, err := Space{Load: []float64{4, 8}, Unload: []float64{20}, Prefetch: []float64{10}}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	gate := streaming.Gate{FailOn: []string{streaming.FailHoles, streaming.FailOverBudget}}
	res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, r int, _ stopFunc) (Figures, error) {
		f := Figures{Frames: 10, Held: []Held{{Condition: streaming.FailOverBudget, FrameCount: 2, FirstFrame: 5}}}
		if c.Load == 4 {
			f.Held = append([]Held{{Condition: streaming.FailHoles, FrameCount: 3, FirstFrame: 7}}, f.Held...)
		}
		return f, nil
	}), Options{Routes: []string{"a.csv"}, Require: gate})
	if err != nil {
		t.Fatal(err)
	}
	want := "no candidate is feasible: of 2 candidates, holes held in 1, over-budget held in 2; holes held least often, nearest: cell size 8, load 4, unload 20, prefetch 10 (on a.csv in 3 frames from frame 7)"
	if got := res.Infeasible(); got != want {
		t.Errorf("Infeasible() =\n%s\nwant\n%s", got, want)
	}
}

// TestStoppingWithoutCauseIsAnError: an evaluator that stops a run the
// search did not ask to stop would change the answer.
func TestStoppingWithoutCauseIsAnError(t *testing.T) {
	plan, _ := Space{Load: []float64{4}}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	_, err := search(context.Background(), plan, oneByOne(func(context.Context, Candidate, int, stopFunc) (Figures, error) {
		return Figures{Stopped: true}, nil
	}), Options{Routes: []string{"a.csv"}})
	if err == nil || !strings.Contains(err.Error(), "could still win") {
		t.Errorf("error %v", err)
	}
}

// TestEvalOrder: candidates run smallest radii in cells first, then the
// smaller budget and cap (none last), then in the plan's order.
func TestEvalOrder(t *testing.T) {
	b := func(n int64) *int64 { return &n }
	cands := []Candidate{
		{Index: 0, CellSize: 10, Load: 20, Prefetch: 20, Unload: 30},
		{Index: 1, CellSize: 20, Load: 20, Prefetch: 20, Unload: 30},
		{Index: 2, CellSize: 10, Load: 10, Prefetch: 20, Unload: 15},
		{Index: 3, CellSize: 10, Load: 10, Prefetch: 10, Unload: 15, Budget: nil},
		{Index: 4, CellSize: 10, Load: 10, Prefetch: 10, Unload: 15, Budget: b(512)},
		{Index: 5, CellSize: 20, Load: 20, Prefetch: 20, Unload: 30},
		{Index: 6, CellSize: 10, Load: 10, Prefetch: 10, Unload: 12, MaxResidentBytes: b(4096)},
	}
	if got, want := evalOrder(cands), []int{6, 4, 1, 3, 5, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestInfeasibleOnAShortRoute: a route whose every frame fails and that is
// over before a load can be resident is named too short, since no setting
// would pass it; a longer route failing throughout is not.
func TestInfeasibleOnAShortRoute(t *testing.T) {
	plan, err := Space{Load: []float64{8}, Unload: []float64{20}, Prefetch: []float64{10}}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	for _, frames := range []int{1, 10} {
		res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, r int, _ stopFunc) (Figures, error) {
			return Figures{Frames: frames, Held: []Held{{Condition: streaming.FailPopIn, FrameCount: frames, FirstFrame: 0}}}, nil
		}), Options{Routes: []string{"tour.csv"}, Require: streaming.Gate{FailOn: []string{streaming.FailPopIn}}})
		if err != nil {
			t.Fatal(err)
		}
		if msg := res.Infeasible(); strings.Contains(msg, "give a longer route") != (frames == 1) {
			t.Errorf("%d frames: %s", frames, msg)
		}
	}
}
