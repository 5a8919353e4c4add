package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/streaming"
)

// told collects every outcome a search tells of (Options.seen), by the
// candidate's index; a rerun's replaces the first run's.
type told map[int]Outcome

// watch makes o tell t of every outcome.
func (t told) watch(o *Options) {
	o.seen = func(out *Outcome) { t[out.Candidate.Index] = *out }
}

// bestIndex is the index of the recommendation (-1: none).
func bestIndex(r *Result) int {
	if r.Best == nil {
		return -1
	}
	return r.Best.Candidate.Index
}

// indexes are the candidates' indexes.
func indexes(outs []*Outcome) []int {
	ks := []int{}
	for _, out := range outs {
		ks = append(ks, out.Candidate.Index)
	}
	return ks
}

// TestMemoryDoesNotGrowWithCandidates: a search holds the same heap
// whether its space has 4,000 candidates or 40,000, feasible or not (when
// none is, every candidate is stopped at its breach and runs again): it
// enumerates its plan and keeps only what its outputs read. Keeping every
// outcome, or listing the plan, costs megabytes more at the larger count.
func TestMemoryDoesNotGrowWithCandidates(t *testing.T) {
	live := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	heap := func(n int, feasible bool) uint64 {
		budgets := make([]*int64, n)
		for i := range budgets {
			b := int64(i + 1)
			budgets[i] = &b
		}
		gate := streaming.Gate{FailOn: []string{streaming.FailHoles}}
		base := live()
		plan, err := Space{Load: []float64{4}, Unload: []float64{10}, Prefetch: []float64{4}, Budget: budgets}.Lay(world{CellSize: 8}, MaxCandidatesCeiling)
		if err != nil {
			t.Fatal(err)
		}
		var peak uint64
		total := 0
		res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, stop stopFunc) (Figures, error) {
			b := *c.Budget
			f := Figures{Frames: 10, PeakResidentBytes: 1000 + b*7919%5000, Loads: 50 + int(b*104729%300)}
			if !feasible {
				f.Held = []Held{{Condition: streaming.FailHoles, FrameCount: 1, FirstFrame: 3}}
				if stop != nil {
					f.Frames, f.Failed = 3, true
				}
			}
			return f, nil
		}), Options{Routes: []string{"a.csv"}, Require: gate, Workers: 1, Events: func(e Event) {
			if total = e.Total; e.Done == e.Total {
				peak = max(peak, live())
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if total != n {
			t.Fatalf("%d candidates, want %d", total, n)
		}
		peak = max(peak, live())
		runtime.KeepAlive(res)
		runtime.KeepAlive(plan)
		if peak < base {
			return 0
		}
		return peak - base
	}
	for _, feasible := range []bool{true, false} {
		small, large := heap(4000, feasible), heap(40000, feasible)
		t.Logf("feasible %v: %d KB live at 4,000 candidates, %d KB at 40,000", feasible, small>>10, large>>10)
		if large > small+1<<20 {
			t.Errorf("feasible %v: %d KB live at 4,000 candidates, %d KB at 40,000: the search's memory grows with its candidates", feasible, small>>10, large>>10)
		}
	}
}

// TestOrderedIsEvalOrder: on random spaces (cell sizes, default and
// given radii, budgets, caps, skipped and uncovered radii), the plan
// enumerates its candidates in evalOrder's order without sorting them,
// each with its index in the plan's order, and All enumerates them in
// that order.
func TestOrderedIsEvalOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(n int, unit float64) []float64 {
		var vs []float64
		for range n {
			vs = append(vs, float64(1+rng.IntN(12))*unit)
		}
		slices.Sort(vs)
		return slices.Compact(vs)
	}
	sizes := func(n int) []*int64 {
		var vs []*int64
		for i := range n {
			v := int64(100 * (i + 1))
			vs = append(vs, &v)
		}
		if rng.IntN(2) == 0 {
			vs = append(vs, nil)
		}
		return vs
	}
	for trial := range 300 {
		sp := Space{CellSizes: pick(1+rng.IntN(3), 4)}
		if rng.IntN(3) > 0 {
			sp.Load = pick(1+rng.IntN(5), 3)
		}
		if rng.IntN(2) == 0 {
			sp.Unload = pick(1+rng.IntN(5), 5)
		}
		if rng.IntN(2) == 0 {
			sp.Prefetch = pick(1+rng.IntN(5), 4)
		}
		if rng.IntN(2) == 0 {
			sp.Budget = sizes(1 + rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			sp.MaxResidentBytes = sizes(1 + rng.IntN(2))
		}
		w := world{CellSize: 8}
		if rng.IntN(3) == 0 {
			w.Cover = func(cs float64) float64 { return cs }
		}
		plan, err := sp.Lay(w, defaultMaxCandidates)
		if err != nil {
			continue // a space of only uncovered radii
		}
		all := slices.Collect(plan.All())
		if len(all) != plan.Count {
			t.Fatalf("trial %d: %d candidates enumerated, count %d", trial, len(all), plan.Count)
		}
		for i, c := range all {
			if c.Index != i {
				t.Fatalf("trial %d: candidate %d has index %d", trial, i, c.Index)
			}
		}
		var want []Candidate
		for _, k := range evalOrder(all) {
			want = append(want, all[k])
		}
		if got := slices.Collect(plan.Ordered()); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%+v): ordered\n%v\nwant\n%v", trial, sp, got, want)
		}
	}
}

// TestJSONAsBatchesFinish: a candidate's line is written when its batch
// finishes, before the next batch runs, not at the end of the search.
func TestJSONAsBatchesFinish(t *testing.T) {
	plan, err := Space{Load: []float64{4}, Unload: []float64{10, 11, 12, 13}, Prefetch: []float64{4, 5, 6, 7, 8, 9, 10, 11}, Budget: make([]*int64, 8)}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	batches := map[int]int{} // lines written when a candidate ran, by its batch
	runs := 0
	_, err = search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, _ stopFunc) (Figures, error) {
		batches[runs/batchSize] = max(batches[runs/batchSize], strings.Count(js.String(), `"message_type":"candidate"`))
		runs++
		return Figures{Frames: 1, PeakResidentBytes: int64(c.Index), Loads: 1}, nil
	}), Options{Routes: []string{"a.csv"}, Workers: 1, JSON: &js})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Count != 256 || len(batches) != 4 {
		t.Fatalf("%d candidates in %d batches", plan.Count, len(batches))
	}
	for b, n := range batches {
		if n != b*batchSize {
			t.Errorf("batch %d ran with %d lines written, want %d", b, n, b*batchSize)
		}
	}
}

// TestRerunWrittenAgain: when no candidate is feasible, the candidates
// stopped at a breach run again to the end, and each one's line is
// written again, the whole run's, after the first lines.
func TestRerunWrittenAgain(t *testing.T) {
	plan, err := Space{Load: []float64{4, 5, 6}, Unload: []float64{10}, Prefetch: []float64{6}}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, stop stopFunc) (Figures, error) {
		f := Figures{Frames: 10, Held: []Held{{Condition: streaming.FailHoles, FrameCount: 2, FirstFrame: 3}}}
		if stop != nil && c.Load != 5 {
			f.Frames, f.Failed, f.Held[0].FrameCount = 4, true, 1
		}
		return f, nil
	}), Options{Routes: []string{"a.csv"}, Require: streaming.Gate{FailOn: []string{streaming.FailHoles}}, JSON: &js})
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Type   string `json:"message_type"`
		Index  int    `json:"index"`
		Pruned bool   `json:"pruned"`
		Routes []struct {
			Frames int `json:"frames"`
		} `json:"routes"`
	}
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(js.String()), "\n") {
		var v line
		if !strings.Contains(l, `"message_type":"candidate"`) {
			continue
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, v)
	}
	var got []string
	for _, l := range lines {
		if l.Type == "candidate" {
			got = append(got, fmt.Sprintf("%d:%v:%d", l.Index, l.Pruned, l.Routes[0].Frames))
		}
	}
	if want := []string{"0:true:4", "1:false:10", "2:true:4", "0:false:10", "2:false:10"}; !slices.Equal(got, want) {
		t.Errorf("candidate lines %v, want %v", got, want)
	}
	if res.Evaluated != 3 || res.Pruned != 0 || res.PrunedFrames != 0 {
		t.Errorf("evaluated %d, pruned %d, frames saved %d; want 3, 0, 0", res.Evaluated, res.Pruned, res.PrunedFrames)
	}
	if want := "no candidate is feasible: of 3 candidates, holes held in 3; holes held least often, nearest: cell size 8, load 4, unload 10, prefetch 6 (on a.csv in 2 frames from frame 3)"; res.Infeasible() != want {
		t.Errorf("Infeasible() =\n%s\nwant\n%s", res.Infeasible(), want)
	}
}

// TestPlotDrawsASample: of more candidates run to the end than
// plotSample, the plot draws a fixed sample of them, and every one on the
// front and among the top; the same on every run.
func TestPlotDrawsASample(t *testing.T) {
	budgets := make([]*int64, 5000)
	for i := range budgets {
		b := int64(i + 1)
		budgets[i] = &b
	}
	plan, err := Space{Load: []float64{4}, Unload: []float64{10}, Prefetch: []float64{4}, Budget: budgets}.Lay(world{CellSize: 8}, defaultMaxCandidates)
	if err != nil {
		t.Fatal(err)
	}
	var svgs []string
	for range 2 {
		res, err := search(context.Background(), plan, oneByOne(func(_ context.Context, c Candidate, _ int, _ stopFunc) (Figures, error) {
			b := *c.Budget
			return Figures{Frames: 10, PeakResidentBytes: 1000 + b*7919%5000, Loads: 50 + int(b*104729%300)}, nil
		}), Options{Routes: []string{"a.csv"}, Exhaustive: true})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePlot(&b, res); err != nil {
			t.Fatal(err)
		}
		svg := b.String()
		svgs = append(svgs, svg)
		drawn := strings.Count(svg, " B, ")
		if drawn < plotSample || drawn > plotSample+len(res.Pareto)+len(res.Top) {
			t.Errorf("%d candidates drawn, want %d and the front's and top's", drawn, plotSample)
		}
		if !strings.Contains(svg, fmt.Sprintf("a sample: %d of the", drawn)) || !strings.Contains(svg, "5000 run to the end") {
			t.Errorf("the plot does not say it is a sample of %d", drawn)
		}
		for _, out := range slices.Concat(res.Pareto, res.Top) {
			if !strings.Contains(svg, "<title>"+out.Candidate.Describe()+":") {
				t.Errorf("%s is not drawn", out.Candidate.Describe())
			}
		}
	}
	if svgs[0] != svgs[1] {
		t.Error("two plots of the same search differ")
	}
}
