package streaming

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The scenarios below are transcribed by hand from WorldStreamer.ts and
// desiredResidency (cells.ts), reading what each update decides and what
// each promise callback does, frame by frame. They use rowWorld: cell cNN
// covers x ∈ [10·NN, 10·NN+10], and the sources stand at z = 5, so a
// source at x is 10·NN−x from cell NN on its left and x−10·NN−10 on its
// right.

// estellaScenario is one scripted run: the host's timings, the sources,
// each frame's x positions and, for every frame, what it must report.
type estellaScenario struct {
	name    string
	cells   int
	sources []Source
	host    EstellaHost
	// frames[k] are the sources' x positions in frame k+1 and the trace
	// that frame must produce (see estellaTrace).
	frames []estellaStep
	// arrivals, if set, are checked by frame number.
	arrivals map[int][]Arrival
	// counters, if set, are the runtime's counters after the last frame.
	counters *RuntimeReport
	// residency, if set, are cells' residencies at the end of a frame.
	residency map[int]map[string]Residency
}

type estellaStep struct {
	xs    []float64
	trace string
}

// estellaTrace renders a frame compactly: every non-empty list, then the
// resident count, the cells in flight and the holes.
func estellaTrace(r *EstellaFrame) string {
	var b strings.Builder
	list := func(name string, xs []string) {
		if len(xs) > 0 {
			fmt.Fprintf(&b, "%s=[%s] ", name, strings.Join(xs, ","))
		}
	}
	list("req", r.Requested)
	list("done", r.Completed)
	list("prep", r.Prepared)
	list("publishing", r.Publishing)
	list("pub", r.Published)
	list("cncl", r.Cancelled)
	list("unld", r.Unloaded)
	list("fail", r.Failed)
	list("hit", r.Hits)
	list("miss", r.Misses)
	fmt.Fprintf(&b, "res=%d fly=%d", r.Resident, r.InFlight)
	if len(r.Holes) > 0 {
		fmt.Fprintf(&b, " holes=[%s]", strings.Join(r.Holes, ","))
	}
	if r.CancelledRefs > 0 {
		fmt.Fprintf(&b, " refs=%d", r.CancelledRefs)
	}
	return b.String()
}

func steps(xs []float64, traces ...string) []estellaStep {
	out := make([]estellaStep, len(traces))
	for i, t := range traces {
		out[i] = estellaStep{xs: []float64{xs[i]}, trace: t}
	}
	return out
}

var estellaScenarios = []estellaScenario{
	{
		// c02 is prepared by speculation (prefetch 15 reaches it), held
		// while the source stays, and published the frame the source
		// walks close enough to want it: a hit, dwelling one frame.
		name:    "prefetch hit",
		cells:   4,
		sources: []Source{src("camera", 0, 15, 5, 8)},
		host:    EstellaHost{Prepare: ModelIO{LatencyFrames: 1}},
		frames: steps([]float64{5, 5, 16},
			"req=[c00,c01,c02] miss=[c00,c01] res=0 fly=3 holes=[c00,c01]",
			"done=[c00,c01,c02] prep=[c02] publishing=[c00,c01] pub=[c00,c01] res=2 fly=0",
			"req=[c03] publishing=[c02] pub=[c02] hit=[c02] res=3 fly=1",
		),
		arrivals: map[int][]Arrival{
			2: {{Cell: "c00", Delivery: Delivery{Delivery: 1, Prepare: 1, DemandToResident: 1, Outcome: "miss"}},
				{Cell: "c01", Delivery: Delivery{Delivery: 1, Prepare: 1, DemandToResident: 1, Outcome: "miss"}}},
			3: {{Cell: "c02", Delivery: Delivery{Delivery: 2, Prepare: 1, DemandToResident: 0, Dwell: 1, Outcome: "hit"}}},
		},
		counters: &RuntimeReport{LoadCount: 3, PrepareCount: 4, PrefetchRequests: 2, PrefetchHits: 1, PrefetchMisses: 2, LastDemandToResident: 0},
	},
	{
		// With three frames of latency c02 is still preparing when the
		// source wants it: a miss. c00, left in the keep band but not
		// resident, is no longer desired and is held prepared when its
		// preparation lands, because the source still speculates on it.
		name:    "prefetch miss",
		cells:   4,
		sources: []Source{src("camera", 0, 15, 5, 8)},
		host:    EstellaHost{Prepare: ModelIO{LatencyFrames: 3}},
		frames: steps([]float64{5, 16, 16, 16, 16},
			"req=[c00,c01,c02] miss=[c00,c01] res=0 fly=3 holes=[c00,c01]",
			"req=[c03] miss=[c02] res=0 fly=4 holes=[c01,c02]",
			"res=0 fly=4 holes=[c01,c02]",
			"done=[c00,c01,c02] prep=[c00] publishing=[c01,c02] pub=[c01,c02] res=2 fly=1",
			"done=[c03] prep=[c03] res=2 fly=0",
		),
		arrivals: map[int][]Arrival{
			4: {{Cell: "c01", Delivery: Delivery{Delivery: 3, Prepare: 3, DemandToResident: 3, Outcome: "miss"}},
				{Cell: "c02", Delivery: Delivery{Delivery: 3, Prepare: 3, DemandToResident: 2, Outcome: "miss"}}},
		},
		counters: &RuntimeReport{LoadCount: 2, PrepareCount: 4, PrefetchRequests: 2, PrefetchHits: 0, PrefetchMisses: 3, LastDemandToResident: 2},
	},
	{
		// The source walks towards c02 (no speculation: prefetch = load),
		// which starts preparing, then turns back. The runtime cannot
		// cancel a preparation: it finishes, and the callback discards the
		// cell nobody wants or speculates on.
		name:    "source turns back while preparing",
		cells:   4,
		sources: []Source{src("camera", 0, 5, 5, 8)},
		host:    EstellaHost{Prepare: ModelIO{LatencyFrames: 2}},
		frames: steps([]float64{5, 14, 16, 5, 5},
			"req=[c00,c01] miss=[c00,c01] res=0 fly=2 holes=[c00,c01]",
			"res=0 fly=2 holes=[c01,c00]",
			"req=[c02] done=[c00,c01] publishing=[c00,c01] pub=[c00,c01] miss=[c02] res=2 fly=1 holes=[c02]",
			"res=2 fly=1",
			"done=[c02] cncl=[c02] res=2 fly=0",
		),
		counters: &RuntimeReport{LoadCount: 2, PrepareCount: 3, CancelCount: 1, PrefetchMisses: 3, LastDemandToResident: 2},
	},
	{
		// c02 is held prepared; the source jumps away. The update unloads
		// the resident cells and its last pass discards the prepared one,
		// whose references the host reports released.
		name:    "prepared cell discarded",
		cells:   4,
		sources: []Source{src("camera", 0, 15, 5, 8)},
		host: EstellaHost{Prepare: ModelIO{LatencyFrames: 1},
			DiscardRefs: func(cell int) int { return 10 + cell }},
		frames: steps([]float64{5, 5, -20},
			"req=[c00,c01,c02] miss=[c00,c01] res=0 fly=3 holes=[c00,c01]",
			"done=[c00,c01,c02] prep=[c02] publishing=[c00,c01] pub=[c00,c01] res=2 fly=0",
			"cncl=[c02] unld=[c00,c01] res=0 fly=0 refs=12",
		),
		counters: &RuntimeReport{LoadCount: 2, UnloadCount: 2, PrepareCount: 3, CancelCount: 1, CancelledRefs: 12,
			PrefetchRequests: 1, PrefetchMisses: 2, LastDemandToResident: 1},
	},
	{
		// Publishing takes two frames. The source leaves while c00 and c01
		// publish: the update cannot unload a publishing cell, so each is
		// unloaded by its own callback the moment it becomes resident.
		name:    "unload while publishing",
		cells:   4,
		sources: []Source{src("camera", 0, 5, 5, 8)},
		host:    EstellaHost{Prepare: ModelIO{LatencyFrames: 1}, PublishFrames: 2, UnloadFrames: 1},
		frames: steps([]float64{5, 5, 40, 40, 40, 40},
			"req=[c00,c01] miss=[c00,c01] res=0 fly=2 holes=[c00,c01]",
			"done=[c00,c01] publishing=[c00,c01] res=0 fly=2 holes=[c00,c01]",
			"req=[c03] miss=[c03] res=0 fly=3 holes=[c03]",
			"done=[c03] publishing=[c03] pub=[c00,c01] unld=[c00,c01] res=0 fly=1 holes=[c03]",
			"res=0 fly=1 holes=[c03]",
			"pub=[c03] res=1 fly=0",
		),
		arrivals: map[int][]Arrival{
			4: {{Cell: "c00", Delivery: Delivery{Delivery: 3, Prepare: 1, Publish: 2, DemandToResident: 3, Outcome: "miss"}},
				{Cell: "c01", Delivery: Delivery{Delivery: 3, Prepare: 1, Publish: 2, DemandToResident: 3, Outcome: "miss"}}},
			6: {{Cell: "c03", Delivery: Delivery{Delivery: 3, Prepare: 1, Publish: 2, DemandToResident: 3, Outcome: "miss"}}},
		},
		counters: &RuntimeReport{LoadCount: 3, UnloadCount: 2, PrepareCount: 3, PrefetchMisses: 3, LastDemandToResident: 3},
		residency: map[int]map[string]Residency{
			3: {"c00": ResPublishing, "c01": ResPublishing, "c03": ResPreparing},
			4: {"c00": ResUnloading, "c01": ResUnloading, "c03": ResPublishing},
			5: {"c00": ResUnloaded, "c01": ResUnloaded, "c03": ResPublishing},
			6: {"c03": ResResident},
		},
	},
	{
		// Zero-delay operations cascade within the frame: a cell prepared,
		// published and resident in the update's own frame; when the
		// source leaves, unloaded in the same frame too.
		name:    "zero-delay host",
		cells:   3,
		sources: []Source{src("camera", 0, 5, 5, 8)},
		host:    EstellaHost{},
		frames: steps([]float64{5, 25, 25},
			"req=[c00,c01] done=[c00,c01] publishing=[c00,c01] pub=[c00,c01] miss=[c00,c01] res=2 fly=0",
			"req=[c02] done=[c02] publishing=[c02] pub=[c02] unld=[c00] miss=[c02] res=2 fly=0",
			"res=2 fly=0",
		),
		counters: &RuntimeReport{LoadCount: 3, UnloadCount: 1, PrepareCount: 3, PrefetchMisses: 3},
	},
}

func TestEstellaScenarios(t *testing.T) {
	for _, sc := range estellaScenarios {
		t.Run(sc.name, func(t *testing.T) {
			e, err := NewEstella(rowWorld(sc.cells), sc.sources, sc.host)
			if err != nil {
				t.Fatal(err)
			}
			for k, f := range sc.frames {
				pos := make([]Point, len(f.xs))
				for i, x := range f.xs {
					pos[i] = Point{X: x, Z: 5}
				}
				r := e.Step(pos)
				if got := estellaTrace(&r); got != f.trace {
					t.Errorf("frame %d:\n got %s\nwant %s", k+1, got, f.trace)
				}
				for name, want := range sc.residency[k+1] {
					if got := e.ResidencyOf(name); got != want {
						t.Errorf("frame %d: %s is %v, want %v", k+1, name, got, want)
					}
				}
				if want, ok := sc.arrivals[k+1]; ok && !reflect.DeepEqual(r.Arrived, want) {
					t.Errorf("frame %d arrivals:\n got %+v\nwant %+v", k+1, r.Arrived, want)
				}
			}
			if sc.counters != nil {
				got := e.Report()
				c := *sc.counters
				type kv struct {
					name      string
					got, want int
				}
				for _, x := range []kv{
					{"loadCount", got.LoadCount, c.LoadCount},
					{"unloadCount", got.UnloadCount, c.UnloadCount},
					{"prepareCount", got.PrepareCount, c.PrepareCount},
					{"cancelCount", got.CancelCount, c.CancelCount},
					{"cancelledRefs", got.CancelledRefs, c.CancelledRefs},
					{"prefetchRequests", got.PrefetchRequests, c.PrefetchRequests},
					{"prefetchHits", got.PrefetchHits, c.PrefetchHits},
					{"prefetchMisses", got.PrefetchMisses, c.PrefetchMisses},
					{"lastDemandToResident", got.LastDemandToResident, c.LastDemandToResident},
				} {
					if x.got != x.want {
						t.Errorf("%s = %d, want %d", x.name, x.got, x.want)
					}
				}
			}
		})
	}
}

// TestEstellaTwoSources: two sources are a union, and what to publish is
// ordered nearest first with manifest order among equals (the runtime's
// stable sort), while every other list follows manifest order.
func TestEstellaTwoSources(t *testing.T) {
	a, b := src("a", 0, 5, 5, 8), src("b", 0, 5, 5, 8)
	e, err := NewEstella(rowWorld(6), []Source{a, b}, EstellaHost{Prepare: ModelIO{LatencyFrames: 1}})
	if err != nil {
		t.Fatal(err)
	}
	frames := []struct {
		a, b  float64
		trace string
	}{
		{5, 55, "req=[c00,c05,c01,c04] miss=[c00,c01,c04,c05] res=0 fly=4 holes=[c00,c05,c01,c04]"},
		{5, 55, "done=[c00,c05,c01,c04] publishing=[c00,c05,c01,c04] pub=[c00,c05,c01,c04] res=4 fly=0"},
		// b walks to the far side of c00: a cell both want stays, the
		// cells only b wanted go.
		{5, -5, "unld=[c04,c05] res=2 fly=0"},
		{5, -5, "res=2 fly=0"},
	}
	for k, f := range frames {
		r := e.Step([]Point{{X: f.a, Z: 5}, {X: f.b, Z: 5}})
		if got := estellaTrace(&r); got != f.trace {
			t.Errorf("frame %d:\n got %s\nwant %s", k+1, got, f.trace)
		}
	}
	for name, want := range map[string]Residency{"c00": ResResident, "c01": ResResident, "c04": ResUnloaded, "c05": ResUnloaded} {
		if got := e.ResidencyOf(name); got != want {
			t.Errorf("%s is %v, want %v", name, got, want)
		}
	}
	if got := e.Report().SourceCount; got != 2 {
		t.Errorf("sourceCount = %d, want 2", got)
	}
}

// TestEstellaHostTiming: with a bandwidth the device serves preparations
// in start order, never within the frame that started them, and a failed
// preparation returns the cell to unloaded for the next update to ask
// again, as the runtime's rejection handler does.
func TestEstellaHostTiming(t *testing.T) {
	// 100-byte cells, 150 bytes a frame: c00 is through in frame 2, c01
	// in frame 3.
	e, err := NewEstella(rowWorld(3), []Source{src("camera", 0, 5, 5, 8)},
		EstellaHost{Prepare: ModelIO{BytesPerFrame: Int64(150)}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"req=[c00,c01] miss=[c00,c01] res=0 fly=2 holes=[c00,c01]",
		"done=[c00] publishing=[c00] pub=[c00] res=1 fly=1 holes=[c01]",
		"done=[c01] publishing=[c01] pub=[c01] res=2 fly=0",
	}
	for k, w := range want {
		r := e.Step([]Point{{X: 5, Z: 5}})
		if got := estellaTrace(&r); got != w {
			t.Errorf("bandwidth frame %d:\n got %s\nwant %s", k+1, got, w)
		}
	}

	e, err = NewEstella(rowWorld(3), []Source{src("camera", 0, 5, 5, 8)},
		EstellaHost{Prepare: ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"req=[c00] miss=[c00] res=0 fly=1 holes=[c00]",
		"req=[c00] fail=[c00] res=0 fly=1 holes=[c00]",
		"req=[c00] fail=[c00] res=0 fly=1 holes=[c00]",
	}
	for k, w := range want {
		r := e.Step([]Point{{X: 2, Z: 5}})
		if got := estellaTrace(&r); got != w {
			t.Errorf("failures frame %d:\n got %s\nwant %s", k+1, got, w)
		}
	}
	if s := e.Summary(); s.Failures != 2 || s.Runtime.PrepareCount != 3 {
		t.Errorf("failures %d, prepareCount %d; want 2 and 3", s.Failures, s.Runtime.PrepareCount)
	}
}

// TestEstellaCostFollowsTheSources: an update looks at the cells near the
// sources and the live ones, not at the whole world.
func TestEstellaCostFollowsTheSources(t *testing.T) {
	e, err := NewEstella(rowWorld(10000), []Source{src("camera", 0, 15, 5, 8)}, EstellaHost{Prepare: ModelIO{LatencyFrames: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 200; f++ {
		e.Step([]Point{{X: float64(f) * 3, Z: 5}})
		if len(e.cand) > 12 {
			t.Fatalf("frame %d looked at %d cells of 10000", f+1, len(e.cand))
		}
	}
	if got := e.Report(); len(got.ResidentCells) == 0 || got.PrepareCount < 50 {
		t.Errorf("the source should have streamed its way along the row: %+v", got.ResidentCells)
	}
}
