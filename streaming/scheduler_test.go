package streaming

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// rowWorld is n cells of 10×10 in a row along x: cell cNN covers
// x ∈ [10·NN, 10·NN+10], z ∈ [0, 10], 100 bytes each.
func rowWorld(n int) *World {
	w := &World{Scene: "row", CellSize: 10, Plane: "xz"}
	for i := 0; i < n; i++ {
		x := float64(i) * 10
		w.Cells = append(w.Cells, Cell{
			Name:   fmt.Sprintf("c%02d", i),
			X:      int32(i),
			Bounds: Bounds{MinX: x, MaxX: x + 10, MaxZ: 10},
			Bytes:  100, EntityCount: 1,
		})
	}
	return w
}

func src(name string, x, prefetch, load, unload float64) Source {
	return Source{Name: name, X: x, Z: 5, Prefetch: prefetch, Load: load, Unload: unload, Enabled: true}
}

// sim wraps a scheduler for tests: at(x...) steps with the sources at
// those x positions (z = 5).
type sim struct {
	t *testing.T
	s *Scheduler
	m *ModelLoader
}

func newSim(t *testing.T, w *World, sources []Source, set Settings, io ModelIO) *sim {
	t.Helper()
	m := NewModelLoader(io)
	s, err := NewScheduler(w, sources, set, m)
	if err != nil {
		t.Fatal(err)
	}
	return &sim{t: t, s: s, m: m}
}

func (s *sim) at(xs ...float64) FrameReport {
	pos := make([]Point, len(xs))
	for i, x := range xs {
		pos[i] = Point{X: x, Z: 5}
	}
	return s.s.Step(pos)
}

func (s *sim) state(name string, want CellState) {
	s.t.Helper()
	if got := s.s.State(name); got != want {
		s.t.Errorf("frame %d: %s is %v, want %v", s.s.Frame(), name, got, want)
	}
}

func eq(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestHysteresisBand(t *testing.T) {
	s := newSim(t, rowWorld(8), []Source{src("cam", 5, 10, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 1})
	eq(t, "frame 1 requested", s.at(5).Requested, []string{"c00", "c01"})
	eq(t, "frame 2 published", s.at(5).Published, []string{"c00", "c01"})
	// Walk right: c00 falls behind, but stays while within the unload
	// radius (distance 17 at x=27)...
	for _, x := range []float64{14, 20, 27} {
		if r := s.at(x); len(r.Unloaded) != 0 {
			t.Fatalf("at x=%v unloaded %v inside the band", x, r.Unloaded)
		}
	}
	s.state("c00", Resident)
	// ...and leaves once beyond it (distance 21).
	eq(t, "unloaded at x=31", s.at(31).Unloaded, []string{"c00"})

	// A source pacing across c05's load border (distances 9 and 11) loads
	// it once and never unloads it: the band absorbs the jitter.
	loads, unloads := 0, 0
	for f := 0; f < 20; f++ {
		x := 39.0
		if f%2 == 1 {
			x = 41
		}
		r := s.at(x)
		for _, n := range r.Requested {
			if n == "c05" {
				loads++
			}
		}
		for _, n := range r.Unloaded {
			if n == "c05" {
				unloads++
			}
		}
	}
	if loads != 1 || unloads != 0 {
		t.Errorf("c05 on the border: %d loads, %d unloads; want 1, 0", loads, unloads)
	}
}

func TestInclusiveRadii(t *testing.T) {
	// c01 is at distance exactly 5 from x=5: within a load radius of 5.
	s := newSim(t, rowWorld(4), []Source{src("cam", 5, 5, 5, 10)}, Settings{}, ModelIO{LatencyFrames: 1})
	eq(t, "requested", s.at(5).Requested, []string{"c00", "c01"})
	s.at(5)
	// At x=0 c01 is at distance exactly 10, the unload radius: it stays.
	if r := s.at(0); len(r.Unloaded) != 0 {
		t.Errorf("unloaded %v at exactly the unload radius", r.Unloaded)
	}
	eq(t, "unloaded just beyond", s.at(-0.001).Unloaded, []string{"c01"})
}

func TestPrefetchIsPreparedThenPublished(t *testing.T) {
	s := newSim(t, rowWorld(8), []Source{src("cam", 5, 30, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 2})
	r := s.at(5)
	eq(t, "requested", r.Requested, []string{"c00", "c01", "c02", "c03"})
	if sum := s.s.Summary(); sum.Prefetches != 2 {
		t.Errorf("prefetches = %d, want 2 (c02, c03)", sum.Prefetches)
	}
	s.at(5)
	r = s.at(5)
	eq(t, "completed", r.Completed, []string{"c00", "c01", "c02", "c03"})
	eq(t, "published", r.Published, []string{"c00", "c01"})
	eq(t, "prepared", r.Prepared, []string{"c02", "c03"})
	if r.Resident != 2 || r.ResidentBytes != 200 || r.PreparedBytes != 200 {
		t.Errorf("resident %d (%d B), prepared %d B; want 2 (200 B), 200 B", r.Resident, r.ResidentBytes, r.PreparedBytes)
	}
	// Prepared cells are not in the world: no hole is filled by them and
	// the residency report does not list them.
	if rr := s.s.Residency(); slices.Contains(rr.ResidentCells, "c02") {
		t.Errorf("prepared c02 listed as resident: %v", rr.ResidentCells)
	}
	// Walking into c02's load radius publishes it without IO.
	r = s.at(12)
	eq(t, "published from prepared", r.Published, []string{"c02"})
	eq(t, "requested", r.Requested, []string{"c04"}) // c04 (d 18) is now a prefetch
	s.state("c03", Prepared)
	// Far away: resident cells unload, prepared ones are dropped.
	r = s.at(-100)
	eq(t, "unloaded", r.Unloaded, []string{"c00", "c01", "c02"})
	eq(t, "dropped", r.Dropped, []string{"c03"})
	eq(t, "cancelled", r.Cancelled, []string{"c04"})
}

func TestPrefetchRecheckedOnCompletion(t *testing.T) {
	s := newSim(t, rowWorld(8), []Source{src("cam", 5, 30, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 2})
	s.at(5)
	s.at(5)
	// The source turned back before the prefetches finished: they are not
	// held just because they are ready.
	r := s.at(-26)
	eq(t, "completed", r.Completed, []string{"c00", "c01", "c02", "c03"})
	eq(t, "dropped", r.Dropped, []string{"c02", "c03"})
	if len(r.Prepared) != 0 {
		t.Errorf("prepared %v for a source that left", r.Prepared)
	}
	// And a prefetch finishing when a source has come within its load
	// radius is published straight away.
	s2 := newSim(t, rowWorld(8), []Source{src("cam", 5, 30, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 2})
	s2.at(5)
	s2.at(5)
	r = s2.at(22)
	eq(t, "published", r.Published, []string{"c00", "c01", "c02", "c03"})
}

func TestUnionOfSources(t *testing.T) {
	w := rowWorld(12)
	s := newSim(t, w, []Source{src("player", 5, 10, 10, 20), src("camera", 115, 10, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 1})
	s.at(5, 115)
	r := s.at(5, 115)
	eq(t, "published", r.Published, []string{"c00", "c11", "c01", "c10"})
	// The second camera roams; the player's cells never go.
	for _, x := range []float64{95, 75, 55, 35, 15, 5, 115} {
		r := s.at(5, x)
		if slices.Contains(r.Unloaded, "c00") || slices.Contains(r.Unloaded, "c01") {
			t.Fatalf("camera at %v unloaded the player's cells: %v", x, r.Unloaded)
		}
	}
	s.state("c00", Resident)
	s.state("c01", Resident)
	// A cell both want stays while either does.
	s.at(5, 5)
	s.at(5, 5)
	s.at(-100, 5) // the player leaves; the camera still stands on c00
	s.state("c00", Resident)
	// A disabled source asks for nothing.
	off := src("off", 55, 10, 10, 20)
	off.Enabled = false
	s3 := newSim(t, w, []Source{off}, Settings{}, ModelIO{LatencyFrames: 1})
	if r := s3.at(55); len(r.Requested) != 0 {
		t.Errorf("disabled source requested %v", r.Requested)
	}
}

func TestCancellation(t *testing.T) {
	s := newSim(t, rowWorld(12), []Source{src("cam", 5, 10, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 5})
	s.at(5)
	r := s.at(105)
	eq(t, "cancelled, in dispatch order", r.Cancelled, []string{"c00", "c01"})
	eq(t, "requested", r.Requested, []string{"c10", "c09", "c11"})
	for f := 0; f < 8; f++ {
		r := s.at(105)
		if slices.Contains(r.Completed, "c00") || slices.Contains(r.Published, "c00") {
			t.Fatalf("cancelled c00 completed at frame %d", r.Frame)
		}
	}
	s.state("c00", Unloaded)
	if n := s.m.InFlight(); n != 0 {
		t.Errorf("IO model still holds %d cancelled requests", n)
	}
}

// staleLoader answers every request delay frames after dispatch and
// ignores cancellation, like an IO layer whose answer was already on its
// way.
type staleLoader struct {
	delay   int
	started []Request
}

func (l *staleLoader) Start(r Request) { l.started = append(l.started, r) }
func (l *staleLoader) Cancel(uint64)   {}
func (l *staleLoader) Poll(frame int) []Result {
	var out []Result
	keep := l.started[:0]
	for _, r := range l.started {
		if r.Frame+l.delay <= frame {
			out = append(out, Result{ID: r.ID, Cell: r.Cell, Entities: -1})
		} else {
			keep = append(keep, r)
		}
	}
	l.started = keep
	return out
}
func (l *staleLoader) Close() error { return nil }

func TestLateResultOfCancelledRequestIgnored(t *testing.T) {
	s, err := NewScheduler(rowWorld(12), []Source{src("cam", 5, 10, 10, 20)}, Settings{}, &staleLoader{delay: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.Step([]Point{{X: 5, Z: 5}})
	r := s.Step([]Point{{X: 105, Z: 5}})
	// The results for c00 and c01 came back in this frame's finish step,
	// before the cancel step could see them: they complete, then unload.
	eq(t, "completed", r.Completed, []string{"c00", "c01"})
	eq(t, "unloaded", r.Unloaded, []string{"c00", "c01"})

	// Results for a cancelled request that arrive after the cancellation
	// are ignored.
	s, _ = NewScheduler(rowWorld(12), []Source{src("cam", 5, 10, 10, 20)}, Settings{}, &staleLoader{delay: 2})
	s.Step([]Point{{X: 5, Z: 5}})
	r = s.Step([]Point{{X: 105, Z: 5}})
	eq(t, "cancelled", r.Cancelled, []string{"c00", "c01"})
	r = s.Step([]Point{{X: 105, Z: 5}})
	if slices.Contains(r.Completed, "c00") {
		t.Errorf("late result for cancelled c00 was applied: %v", r.Completed)
	}
	if got := s.State("c00"); got != Unloaded {
		t.Errorf("c00 is %v, want unloaded", got)
	}
}

func TestEvictionFarthestFirstAndPinned(t *testing.T) {
	set := Settings{MaxResidentBytes: Int64(350), PinnedRadius: Float(10)}
	s := newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, set, ModelIO{LatencyFrames: 1})
	eq(t, "requested", s.at(5).Requested, []string{"c00", "c01", "c02", "c03", "c04", "c05"})
	r := s.at(5)
	eq(t, "evicted, farthest first", r.Evicted, []string{"c05", "c04", "c03"})
	if r.ResidentBytes != 300 {
		t.Errorf("resident bytes = %d, want 300", r.ResidentBytes)
	}
	// With cooldown 0 the evicted cells are wanted again at once.
	eq(t, "re-requested", r.Requested, []string{"c03", "c04", "c05"})

	// A cap of 0 evicts every unpinned cell; the pinned ones (distance
	// ≤ 10) stay, over the cap, rather than open a hole under the source.
	set.MaxResidentBytes = Int64(0)
	s = newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, set, ModelIO{LatencyFrames: 1})
	s.at(5)
	r = s.at(5)
	eq(t, "evicted", r.Evicted, []string{"c05", "c04", "c03", "c02"})
	if r.ResidentBytes != 200 || s.s.Summary().FramesOverResidentCap != 1 {
		t.Errorf("resident %d B, frames over cap %d; want 200 B, 1", r.ResidentBytes, s.s.Summary().FramesOverResidentCap)
	}

	// A pinned radius of 0 pins only the cell the source stands in.
	set.PinnedRadius = Float(0)
	s = newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, set, ModelIO{LatencyFrames: 1})
	s.at(5)
	eq(t, "evicted", s.at(5).Evicted, []string{"c05", "c04", "c03", "c02", "c01"})
	s.state("c00", Resident)

	// Unset, nothing is pinned.
	set.PinnedRadius = nil
	s = newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, set, ModelIO{LatencyFrames: 1})
	s.at(5)
	eq(t, "evicted", s.at(5).Evicted, []string{"c05", "c04", "c03", "c02", "c01", "c00"})
}

func TestEvictionTieGoesToFirstResident(t *testing.T) {
	set := Settings{MaxResidentBytes: Int64(100)}
	s := newSim(t, rowWorld(6), []Source{src("cam", 25, 4, 4, 100)}, set, ModelIO{LatencyFrames: 1})
	s.at(25) // c02
	s.at(15) // c02 resident; c01 requested
	r := s.at(20)
	// c01 arrives; c01 and c02 are both at distance 0. Name order would
	// pick c01, but the tie goes to the cell resident first: c02.
	eq(t, "published", r.Published, []string{"c01"})
	eq(t, "evicted", r.Evicted, []string{"c02"})
}

func TestEvictCooldown(t *testing.T) {
	for _, tc := range []struct {
		cooldown  int
		reRequest int // frame c05 is requested again
	}{{0, 2}, {1, 3}, {3, 5}} {
		t.Run(fmt.Sprint("cooldown=", tc.cooldown), func(t *testing.T) {
			set := Settings{MaxResidentBytes: Int64(500), EvictCooldown: tc.cooldown}
			s := newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, set, ModelIO{LatencyFrames: 1})
			s.at(5)
			for f := 2; f <= 6; f++ {
				r := s.at(5)
				if f == 2 {
					eq(t, "evicted", r.Evicted, []string{"c05"})
				}
				if slices.Contains(r.Requested, "c05") {
					if f != tc.reRequest {
						t.Errorf("c05 requested again in frame %d, want %d", f, tc.reRequest)
					}
					return
				}
			}
			t.Errorf("c05 never requested again")
		})
	}
}

func TestBudget(t *testing.T) {
	big := rowWorld(10)
	big.Cells[2].Bytes = 250
	big.Cells[3].Bytes = 10
	for _, tc := range []struct {
		name   string
		world  *World
		budget *int64
		want   []string
	}{
		{"unset", rowWorld(10), nil, []string{"c00", "c01", "c02", "c03", "c04", "c05"}},
		{"smaller than one cell", rowWorld(10), Int64(50), []string{"c00"}},
		{"zero still admits one", rowWorld(10), Int64(0), []string{"c00"}},
		{"exactly one cell", rowWorld(10), Int64(100), []string{"c00"}},
		{"two and a half cells", rowWorld(10), Int64(250), []string{"c00", "c01"}},
		{"exactly three cells", rowWorld(10), Int64(300), []string{"c00", "c01", "c02"}},
		// c02 does not fit; c03 would, but nearest-first stops at c02.
		{"stop at the first that does not fit", big, Int64(250), []string{"c00", "c01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.world, []Source{src("cam", 5, 50, 50, 60)}, Settings{Budget: tc.budget}, ModelIO{LatencyFrames: 1})
			eq(t, "frame 1 requested", s.at(5).Requested, tc.want)
		})
	}
}

func TestNearestFirstThenByteOrder(t *testing.T) {
	// A plus of cells around a source at the centre cell: the four
	// neighbours are at the same distance and go in byte order of name
	// (upper case before lower case).
	w := &World{Scene: "plus", CellSize: 10}
	for _, c := range []struct {
		name string
		x, z int32
	}{{"mid", 1, 1}, {"b", 0, 1}, {"a", 2, 1}, {"B", 1, 0}, {"_", 1, 2}} {
		fx, fz := float64(c.x)*10, float64(c.z)*10
		w.Cells = append(w.Cells, Cell{Name: c.name, X: c.x, Z: c.z, Bounds: Bounds{MinX: fx, MinZ: fz, MaxX: fx + 10, MaxZ: fz + 10}, Bytes: 1})
	}
	s, err := NewScheduler(w, []Source{{Name: "cam", X: 15, Z: 15, Prefetch: 20, Load: 20, Unload: 30, Enabled: true}}, Settings{}, NewModelLoader(ModelIO{LatencyFrames: 1}))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "requested", s.Step(nil).Requested, []string{"mid", "B", "_", "a", "b"})
}

func TestMaxInFlight(t *testing.T) {
	s := newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, Settings{MaxInFlight: Int(2)}, ModelIO{LatencyFrames: 3})
	for f := 1; f <= 6; f++ {
		if r := s.at(5); r.InFlight > 2 {
			t.Fatalf("frame %d: %d in flight, cap 2", f, r.InFlight)
		}
	}
	s = newSim(t, rowWorld(10), []Source{src("cam", 5, 50, 50, 60)}, Settings{MaxInFlight: Int(0)}, ModelIO{LatencyFrames: 1})
	if r := s.at(5); len(r.Requested) != 0 {
		t.Errorf("max in flight 0 requested %v", r.Requested)
	}
}

func TestLODChoice(t *testing.T) {
	w := rowWorld(4)
	for i := range w.Cells {
		w.Cells[i].ProxyBytes, w.Cells[i].HasProxy = 10, true
	}
	w.Cells[3].HasProxy = false // no far representation: always full
	for _, tc := range []struct {
		name  string
		lod   *float64
		bytes int64 // requested at x=5: c00 d0, c01 d5, c02 d15, c03 d25
	}{
		{"unset: full everywhere", nil, 400},
		{"0: proxies beyond distance 0", Float(0), 100 + 10 + 10 + 100},
		{"5: inclusive", Float(5), 100 + 100 + 10 + 100},
		{"20", Float(20), 100 + 100 + 100 + 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, w, []Source{src("cam", 5, 30, 30, 40)}, Settings{LODRadius: tc.lod}, ModelIO{LatencyFrames: 1})
			if r := s.at(5); r.RequestedBytes != tc.bytes {
				t.Errorf("requested %d B, want %d", r.RequestedBytes, tc.bytes)
			}
			// The representation is fixed at dispatch: walking closer does
			// not grow a proxy already requested.
			if r := s.at(25); r.ResidentBytes != tc.bytes {
				t.Errorf("resident %d B, want %d", r.ResidentBytes, tc.bytes)
			}
		})
	}
}

func TestRetriesWithBackoffThenGiveUp(t *testing.T) {
	set := Settings{Retry: RetryPolicy{Retries: 3, BackoffFrames: 2, MaxBackoffFrames: 64}}
	s := newSim(t, rowWorld(4), []Source{src("cam", 5, 4, 4, 20)}, set, ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 1}})
	var requested, failed []int
	for f := 1; f <= 30; f++ {
		r := s.at(5)
		if len(r.Requested) > 0 {
			requested = append(requested, f)
		}
		if len(r.Failed) > 0 {
			failed = append(failed, f)
		}
		if s.s.State("c00") == Loading && f-requested[len(requested)-1] > 1 {
			t.Fatalf("c00 stuck loading at frame %d", f)
		}
	}
	// Attempts at 1, 4, 9, 18: waits of 2, 4, 8 frames after each failure.
	if !slices.Equal(requested, []int{1, 4, 9, 18}) || !slices.Equal(failed, []int{2, 5, 10, 19}) {
		t.Errorf("requests at %v, failures at %v; want [1 4 9 18], [2 5 10 19]", requested, failed)
	}
	s.state("c00", Failed)
	sum := s.s.Summary()
	if sum.Failures != 4 || sum.Retries != 3 || len(sum.GaveUp) != 1 || sum.GaveUp[0].Attempts != 4 {
		t.Errorf("failures %d, retries %d, gave up %+v", sum.Failures, sum.Retries, sum.GaveUp)
	}
	if !strings.Contains(sum.GaveUp[0].Err, "injected") {
		t.Errorf("gave-up error %q does not say why", sum.GaveUp[0].Err)
	}
	// Once every source has left it, a given-up cell is tried afresh.
	s.at(500)
	s.state("c00", Unloaded)
	if r := s.at(5); !slices.Equal(r.Requested, []string{"c00"}) {
		t.Errorf("requested %v on return, want [c00]", r.Requested)
	}
}

func TestTimeoutNeverStuckLoading(t *testing.T) {
	set := Settings{Retry: RetryPolicy{Retries: 1, TimeoutFrames: 3, BackoffFrames: 2}}
	s := newSim(t, rowWorld(4), []Source{src("cam", 5, 4, 4, 20)}, set, ModelIO{LatencyFrames: 10})
	var failed []int
	for f := 1; f <= 12; f++ {
		if r := s.at(5); len(r.Failed) > 0 {
			failed = append(failed, f)
		}
	}
	// Dispatched at 1, timed out at 4, retried at 6, timed out at 9.
	if !slices.Equal(failed, []int{4, 9}) {
		t.Errorf("timeouts at %v, want [4 9]", failed)
	}
	s.state("c00", Failed)
	if sum := s.s.Summary(); sum.Timeouts != 2 {
		t.Errorf("timeouts = %d, want 2", sum.Timeouts)
	}
	if n := s.m.InFlight(); n != 0 {
		t.Errorf("timed-out attempts still at the IO layer: %d", n)
	}
}

func TestRetriesSpendTheBudget(t *testing.T) {
	// Every first attempt fails (attempt-dependent failures are seeded);
	// retries go through dispatch, nearest first, one cell per frame.
	set := Settings{Budget: Int64(100), Retry: RetryPolicy{Retries: 5}}
	s := newSim(t, rowWorld(4), []Source{src("cam", 5, 30, 30, 40)}, set, ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 0.5, Seed: 3}})
	for f := 1; f <= 40; f++ {
		if r := s.at(5); r.RequestedBytes > 100 {
			t.Fatalf("frame %d requested %d B over a budget of 100", f, r.RequestedBytes)
		}
	}
	sum := s.s.Summary()
	if sum.Failures == 0 || sum.Retries != sum.Failures-len(sum.GaveUp) {
		t.Errorf("failures %d, retries %d, gave up %d", sum.Failures, sum.Retries, len(sum.GaveUp))
	}
	for _, c := range []string{"c00", "c01", "c02", "c03"} {
		if st := s.s.State(c); st != Resident && st != Failed {
			t.Errorf("%s ended %v", c, st)
		}
	}
}

func TestFailureModelDeterministic(t *testing.T) {
	f := FailureModel{Rate: 0.3, Seed: 42}
	same := FailureModel{Rate: 0.3, Seed: 42}
	other := FailureModel{Rate: 0.3, Seed: 43}
	n, differ := 0, 0
	for i := 0; i < 10000; i++ {
		name := fmt.Sprintf("cell_%d", i)
		if f.Fails(name, 1) != same.Fails(name, 1) {
			t.Fatal("not deterministic")
		}
		if f.Fails(name, 1) {
			n++
		}
		if f.Fails(name, 1) != other.Fails(name, 1) || f.Fails(name, 1) != f.Fails(name, 2) {
			differ++
		}
	}
	if n < 2700 || n > 3300 {
		t.Errorf("%d of 10000 failed at rate 0.3", n)
	}
	if differ < 3000 {
		t.Errorf("seed and attempt barely change the outcome (%d of 10000 differ)", differ)
	}
	if (FailureModel{Rate: 0}).Fails("x", 1) || !(FailureModel{Rate: 1}).Fails("x", 1) {
		t.Error("rates 0 and 1 are not exact")
	}
}

func TestBoundsDistanceAndGrownBounds(t *testing.T) {
	// c01's content overhangs 25 units to the left, over c00 and past the
	// world's edge: a source at x=-2 stands inside c01's grown bounds,
	// though its grid square is 12 away. The index must find c01 from a
	// bucket it does not belong to by grid.
	w := rowWorld(6)
	w.Cells[1].Bounds.MinX = -15
	s := newSim(t, w, []Source{src("cam", -2, 5, 5, 10)}, Settings{}, ModelIO{LatencyFrames: 1})
	eq(t, "requested by bounds", s.at(-2).Requested, []string{"c01", "c00"})
	// By centre only the grid-square centres count: c00's (5, 5) is 7
	// away, c01's (15, 5) is 17, whatever its bounds.
	s2 := newSim(t, w, []Source{src("cam", -2, 8, 8, 12)}, Settings{Distance: DistanceCenter}, ModelIO{LatencyFrames: 1})
	eq(t, "requested by centre", s2.at(-2).Requested, []string{"c00"})
}

func TestHolesAndFirstResident(t *testing.T) {
	s := newSim(t, rowWorld(6), []Source{src("cam", 5, 10, 10, 20)}, Settings{Budget: Int64(100)}, ModelIO{LatencyFrames: 2})
	r := s.at(5)
	eq(t, "holes, nearest first", r.Holes, []string{"c00", "c01"})
	s.at(5)
	eq(t, "holes", s.at(5).Holes, []string{"c01"})
	if r := s.at(5); len(r.Holes) != 0 {
		t.Errorf("holes %v after both arrived", r.Holes)
	}
	sum := s.s.Summary()
	if sum.HoleFrames != 3 || sum.FirstResidentFrame == nil || *sum.FirstResidentFrame != 4 || sum.MaxHoles != 2 || sum.FirstHoleFrame != 1 {
		t.Errorf("hole frames %d, first resident %v, max holes %d, first hole %d; want 3, 4, 2, 1",
			sum.HoleFrames, sum.FirstResidentFrame, sum.MaxHoles, sum.FirstHoleFrame)
	}
}

func TestResidencyReport(t *testing.T) {
	w := rowWorld(4)
	w.Cells[1].EntityCount = 7
	s := newSim(t, w, []Source{src("cam", 5, 10, 10, 20)}, Settings{}, ModelIO{LatencyFrames: 1})
	s.at(5)
	s.at(5)
	s.at(100)
	s.at(5)
	s.at(5)
	rr := s.s.Residency()
	eq(t, "resident cells", rr.ResidentCells, []string{"c00", "c01"})
	if rr.CellEntityCounts["c01"] != 7 || rr.LoadCount != 4 {
		t.Errorf("entity counts %v, load count %d; want c01=7, 4", rr.CellEntityCounts, rr.LoadCount)
	}
}

func TestBadInputIsAnErrorNotAPanic(t *testing.T) {
	good := src("cam", 0, 10, 10, 20)
	for _, tc := range []struct {
		name    string
		world   *World
		sources []Source
		set     Settings
		want    string
	}{
		{"no world", nil, nil, Settings{}, "no world"},
		{"zero cell size", &World{}, nil, Settings{}, "cell size"},
		{"inverted bounds", &World{CellSize: 1, Cells: []Cell{{Name: "a", Bounds: Bounds{MinX: 1, MinZ: 0, MaxX: 0, MaxZ: 1}}}}, nil, Settings{}, "inverted"},
		{"duplicate cell", &World{CellSize: 1, Cells: []Cell{{Name: "a"}, {Name: "a"}}}, nil, Settings{}, "twice"},
		{"unload not above load", rowWorld(1), []Source{src("cam", 0, 10, 10, 10)}, Settings{}, "must exceed load"},
		{"prefetch below load", rowWorld(1), []Source{src("cam", 0, 5, 10, 20)}, Settings{}, "prefetch radius"},
		{"negative budget", rowWorld(1), []Source{good}, Settings{Budget: Int64(-1)}, "budget"},
		{"negative cap", rowWorld(1), []Source{good}, Settings{MaxResidentBytes: Int64(-1)}, "resident"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewScheduler(tc.world, tc.sources, tc.set, NewModelLoader(ModelIO{}))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	// Steps with too few, too many or non-finite positions do not panic.
	s := newSim(t, rowWorld(4), []Source{good}, Settings{}, ModelIO{})
	s.s.Step(nil)
	s.s.Step([]Point{{X: 1, Z: 1}, {X: 2, Z: 2}})
	s.s.Step([]Point{{X: 1 / zero(), Z: 0}})
}

func zero() float64 { return 0 }

func TestBandwidthModel(t *testing.T) {
	// 150 bytes a frame through one FIFO device: c00 (100 B) finishes
	// after one frame, c01 after two, c02 after three... in dispatch order.
	s := newSim(t, rowWorld(6), []Source{src("cam", 5, 30, 30, 40)}, Settings{}, ModelIO{LatencyFrames: 1, BytesPerFrame: Int64(150)})
	s.at(5)
	var done [][]string
	for f := 2; f <= 5; f++ {
		done = append(done, s.at(5).Completed)
	}
	want := [][]string{{"c00"}, {"c01", "c02"}, {"c03"}, nil}
	for i := range want {
		eq(t, fmt.Sprintf("frame %d completed", i+2), done[i], want[i])
	}
}
