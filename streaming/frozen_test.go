package streaming

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// runOver steps a fresh scheduler over w along route and returns its
// reports, summary, per-cell loads and residency, then closes it.
func runOver(t *testing.T, w *World, route [][]Point, set Settings) ([]FrameReport, Summary, []int, ResidencyReport) {
	t.Helper()
	s, err := NewScheduler(w, benchSources(), set, NewModelLoader(ModelIO{LatencyFrames: 2, Fail: FailureModel{Rate: 0.1, Seed: 3}}))
	if err != nil {
		t.Fatal(err)
	}
	var reps []FrameReport
	for _, pos := range route {
		rep := s.Step(pos)
		rep.Cost = 0
		reps = append(reps, rep)
	}
	sum, loads, res := s.Summary(), s.Loads(), s.Residency()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return reps, sum, loads, res
}

// TestFrozenWorldRunsAlike runs the same routes over a world and over a
// frozen copy of it, one after the other and several at once: the frozen
// world's schedulers share its layout and reuse each other's records, and
// every run must give what a scheduler of its own gives, and leave the
// records it hands on all zero.
func TestFrozenWorldRunsAlike(t *testing.T) {
	plain := gridWorld(48)
	frozenW := gridWorld(48)
	if err := frozenW.Freeze(); err != nil {
		t.Fatal(err)
	}
	routes := [][][]Point{benchRoute(300), benchRoute(120), benchRoute(500)}
	sets := []Settings{benchSettings(), {Retry: DefaultRetry()}, {Budget: Int64(3000), Distance: DistanceCenter, Retry: DefaultRetry()}}
	type run struct {
		reps  []FrameReport
		sum   Summary
		loads []int
		res   ResidencyReport
	}
	want := make([]run, len(routes)*len(sets))
	for k := range want {
		r, s := routes[k%len(routes)], sets[k/len(routes)]
		want[k].reps, want[k].sum, want[k].loads, want[k].res = runOver(t, plain, r, s)
	}
	check := func(what string, k int, got run) {
		t.Helper()
		if !reflect.DeepEqual(got, want[k]) {
			t.Errorf("%s run %d over the frozen world differs from its own scheduler's", what, k)
		}
	}
	for k := range want {
		var got run
		got.reps, got.sum, got.loads, got.res = runOver(t, frozenW, routes[k%len(routes)], sets[k/len(routes)])
		check("sequential", k, got)
	}
	var wg sync.WaitGroup
	got := make([]run, len(want))
	for k := range want {
		wg.Go(func() {
			got[k].reps, got[k].sum, got[k].loads, got[k].res = runOver(t, frozenW, routes[k%len(routes)], sets[k/len(routes)])
		})
	}
	wg.Wait()
	for k := range want {
		check("concurrent", k, got[k])
	}
	f := frozenW.frozen
	if len(f.free) == 0 {
		t.Fatal("no records were handed back")
	}
	for n, rt := range f.free {
		for i := range rt {
			if rt[i] != (cellRT{}) {
				t.Fatalf("handed-back records %d: cell %d is %+v, not reset", n, i, rt[i])
			}
		}
	}
}

// TestFrozenWorldChanged recognises a frozen world given other cells, and
// a frozen world that fails its check fails every scheduler.
func TestFrozenWorldChanged(t *testing.T) {
	w := gridWorld(4)
	if err := w.Freeze(); err != nil {
		t.Fatal(err)
	}
	if w.frozenState() == nil {
		t.Fatal("a frozen world is not recognised")
	}
	copyW := *w
	copyW.Cells = gridWorld(5).Cells
	if copyW.frozenState() != nil {
		t.Error("a copy given other cells still uses the frozen layout")
	}
	copyW = *w
	copyW.CellSize = 50
	if copyW.frozenState() != nil {
		t.Error("a copy given another cell size still uses the frozen layout")
	}
	bad := gridWorld(3)
	bad.Cells[1].Name = bad.Cells[0].Name
	err := bad.Freeze()
	if err == nil {
		t.Fatal("a world listing a cell twice froze without error")
	}
	for range 2 {
		if _, e := NewScheduler(bad, benchSources(), benchSettings(), NewModelLoader(ModelIO{})); fmt.Sprint(e) != err.Error() {
			t.Errorf("scheduler over the bad frozen world: %v, want %v", e, err)
		}
	}
}
