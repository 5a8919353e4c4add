package streaming

import (
	"slices"
	"testing"
)

// statesOf lists the cells in each state by a scan of every cell, the
// slow way the frame's sets must agree with.
func statesOf(names []string, state func(i int) string) map[string][]string {
	out := map[string][]string{}
	for i, n := range names {
		if st := state(i); st != "" {
			out[st] = append(out[st], n)
		}
	}
	for _, l := range out {
		slices.Sort(l)
	}
	return out
}

func cellNames(w *World) []string {
	names := make([]string, len(w.Cells))
	for i, c := range w.Cells {
		names[i] = c.Name
	}
	return names
}

func checkSet(t *testing.T, frame int, what string, got, want []string) {
	t.Helper()
	if got == nil {
		t.Fatalf("frame %d: %s is nil with cell states asked for", frame, what)
	}
	if !slices.Equal(got, want) {
		t.Errorf("frame %d: %s = %v, want %v", frame, what, got, want)
	}
}

// TestSchedulerCellStates: with cell states asked for, every frame of the
// busy scenario (eviction, LOD, failures and retries, prefetch) lists the
// cells resident, prepared and in flight at its end, sorted, as a scan of
// every cell finds them; without, a frame carries none.
func TestSchedulerCellStates(t *testing.T) {
	w := gridWorld(24)
	sources := []Source{
		{Name: "player", Prefetch: 500, Load: 300, Unload: 450, Enabled: true},
		{Name: "drone", X: 2000, Z: 2000, Prefetch: 250, Load: 250, Unload: 400, Enabled: true},
	}
	set := Settings{Budget: Int64(5000), MaxInFlight: Int(12), LODRadius: Float(150), MaxResidentBytes: Int64(40000),
		PinnedRadius: Float(50), EvictCooldown: 2, Retry: DefaultRetry()}
	run := func(states bool, each func(*Scheduler, *FrameReport)) {
		s, err := NewScheduler(w, sources, set, NewModelLoader(ModelIO{LatencyFrames: 2, BytesPerFrame: Int64(6000), Fail: FailureModel{Rate: 0.1, Seed: 7}}))
		if err != nil {
			t.Fatal(err)
		}
		if states {
			s.ReportCellStates()
		}
		for f := 0; f < 300; f++ {
			r := s.Step([]Point{{X: float64(f) * 7, Z: 1200}, {X: 2000 - float64(f)*5, Z: 2000 - float64(f)*3}})
			each(s, &r)
		}
	}
	names := cellNames(w)
	seen := map[string]bool{}
	var plain []FrameReport
	run(false, func(_ *Scheduler, r *FrameReport) {
		if r.HasCellStates() || r.PreparedCells != nil || r.LoadingCells != nil || r.UnloadingCells != nil {
			t.Fatalf("frame %d carries cell states nobody asked for", r.Frame)
		}
		plain = append(plain, *r)
	})
	run(true, func(s *Scheduler, r *FrameReport) {
		want := statesOf(names, func(i int) string {
			switch s.rt[i].state {
			case Resident, Prepared, Loading:
				return s.rt[i].state.String()
			}
			return ""
		})
		checkSet(t, r.Frame, "residentCells", r.ResidentCells, want["resident"])
		checkSet(t, r.Frame, "preparedCells", r.PreparedCells, want["prepared"])
		checkSet(t, r.Frame, "loadingCells", r.LoadingCells, want["loading"])
		if r.UnloadingCells != nil {
			t.Fatalf("frame %d: the budgeted scheduler has no unloading cells, got %v", r.Frame, r.UnloadingCells)
		}
		if len(r.ResidentCells) != r.Resident || len(r.LoadingCells) != r.InFlight {
			t.Errorf("frame %d: %d resident and %d loading cells, counts say %d and %d", r.Frame, len(r.ResidentCells), len(r.LoadingCells), r.Resident, r.InFlight)
		}
		for _, p := range r.Prepared {
			if !slices.Contains(r.PreparedCells, p) {
				t.Errorf("frame %d: %s was prepared this frame but is not in preparedCells", r.Frame, p)
			}
		}
		for k, l := range map[string][]string{"resident": r.ResidentCells, "prepared": r.PreparedCells, "loading": r.LoadingCells} {
			if len(l) > 0 {
				seen[k] = true
			}
		}
		// Asking for the sets changes nothing else.
		p := plain[r.Frame-1]
		if p.Resident != r.Resident || p.ResidentBytes != r.ResidentBytes || !slices.Equal(p.Holes, r.Holes) || !slices.Equal(p.Requested, r.Requested) {
			t.Fatalf("frame %d differs with cell states asked for", r.Frame)
		}
	})
	for _, k := range []string{"resident", "prepared", "loading"} {
		if !seen[k] {
			t.Errorf("no frame had a %s cell: the scenario does not test that set", k)
		}
	}
}

// TestEstellaCellStates: under the runtime every frame's sets are those
// of status() (the runtime report, which scans every cell) at the end of
// the frame, unloading included, with publishes and unloads that take
// time.
func TestEstellaCellStates(t *testing.T) {
	w := gridWorld(24)
	sources := []Source{{Name: "player", Prefetch: 500, Load: 300, Unload: 450, Enabled: true}}
	host := EstellaHost{Prepare: ModelIO{LatencyFrames: 3}, PublishFrames: 2, UnloadFrames: 3}
	e, err := NewEstella(w, sources, host)
	if err != nil {
		t.Fatal(err)
	}
	e.ReportCellStates()
	seen := map[string]bool{}
	for f := 0; f < 300; f++ {
		r := e.Step([]Point{{X: float64(f) * 9, Z: 1200 + float64(f%40)*10}})
		st := e.Report()
		sorted := func(l []string) []string { l = slices.Clone(l); slices.Sort(l); return l }
		checkSet(t, r.Frame, "residentCells", r.ResidentCells, sorted(st.ResidentCells))
		checkSet(t, r.Frame, "preparedCells", r.PreparedCells, sorted(st.PreparedCells))
		checkSet(t, r.Frame, "loadingCells", r.LoadingCells, sorted(st.LoadingCells))
		checkSet(t, r.Frame, "unloadingCells", r.UnloadingCells, sorted(st.UnloadingCells))
		for k, l := range map[string][]string{"resident": r.ResidentCells, "prepared": r.PreparedCells, "loading": r.LoadingCells, "unloading": r.UnloadingCells} {
			if len(l) > 0 {
				seen[k] = true
			}
		}
		for _, h := range r.Holes {
			if slices.Contains(r.ResidentCells, h) {
				t.Errorf("frame %d: hole %s is resident", r.Frame, h)
			}
		}
	}
	for _, k := range []string{"resident", "prepared", "loading", "unloading"} {
		if !seen[k] {
			t.Errorf("no frame had a %s cell: the scenario does not test that set", k)
		}
	}
}

// BenchmarkStepCellStates is BenchmarkStep's 1024² world with the cell
// states asked for: what --cell-states costs a frame (BenchmarkStep is
// the frame without them).
func BenchmarkStepCellStates(b *testing.B) {
	route := benchRoute(720)
	s, err := NewScheduler(gridWorld(1024), benchSources(), benchSettings(), NewModelLoader(ModelIO{LatencyFrames: 2}))
	if err != nil {
		b.Fatal(err)
	}
	s.ReportCellStates()
	for _, pos := range route {
		s.Step(pos)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.Step(route[i%len(route)])
	}
}
