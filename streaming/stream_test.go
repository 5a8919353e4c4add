package streaming

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// streamWorld is an n×n grid of cells of side 10, some of them grown past
// their square (as a root that overhangs does), one wide enough to be
// filed apart from the grid.
func streamWorld(n int, rng *rand.Rand) *World {
	w := &World{Scene: "s", CellSize: 10, Plane: "xz"}
	for x := range n {
		for z := range n {
			b := Bounds{MinX: float64(x) * 10, MinZ: float64(z) * 10, MaxX: float64(x+1) * 10, MaxZ: float64(z+1) * 10}
			switch rng.IntN(8) {
			case 0:
				b.MaxX += float64(rng.IntN(15))
				b.MinZ -= float64(rng.IntN(7))
			case 1:
				// Bounds off the grid square, its centre outside them: the
				// budgeted index files the cell under both.
				b.MinX, b.MaxX = b.MinX+12, b.MaxX+20
			}
			w.Cells = append(w.Cells, Cell{Name: fmt.Sprintf("s.cell_%d_%d", x, z), X: int32(x), Z: int32(z), Bounds: b,
				Bytes: 100 + int64(rng.IntN(400)), EntityCount: 1})
		}
	}
	w.Cells[0].Bounds.MaxX = float64(n) * 10 * 20 // wide: every query visits it
	return w
}

// streamRoute walks the sources about the world, on cell edges now and
// then (where the inclusive radius tests are decided by the last bit),
// with a position left out or not finite now and then: the source then
// keeps its last one.
// windowSize is the frames a window of the stream tests holds: not a
// divisor of their routes' length, so that the last window is short.
const windowSize = 7

// streamCase is the frozen n×n world, the route of one or two viewing
// sources (as seed is even or odd) and those sources that the stream
// tests draw from seed, salt telling one test's draws from another's;
// and the generator, for what the test draws next.
func streamCase(t *testing.T, seed, salt uint64, n, frames int) (*World, [][]Point, []Source, *rand.Rand) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, salt))
	w := streamWorld(n, rng)
	if err := w.Freeze(); err != nil {
		t.Fatal(err)
	}
	nsrc := 1 + int(seed%2)
	route := streamRoute(frames, nsrc, n, rng)
	base := make([]Source, nsrc)
	for s := range base {
		base[s] = Source{Name: fmt.Sprintf("src%d", s), Enabled: true, View: &View{HalfWidth: 7, HalfHeight: 5}}
	}
	return w, route, base, rng
}

func streamRoute(frames, sources, n int, rng *rand.Rand) [][]Point {
	out := make([][]Point, frames)
	pos := make([]Point, sources)
	for s := range pos {
		pos[s] = Point{X: rng.Float64() * float64(n) * 10, Z: rng.Float64() * float64(n) * 10}
	}
	for f := range out {
		row := make([]Point, sources)
		for s := range pos {
			pos[s].X = min(max(pos[s].X+rng.Float64()*6-3, -5), float64(n)*10+5)
			pos[s].Z = min(max(pos[s].Z+rng.Float64()*6-3, -5), float64(n)*10+5)
			row[s] = pos[s]
			switch rng.IntN(20) {
			case 0:
				row[s] = Point{X: math.Round(pos[s].X/10) * 10, Z: math.Round(pos[s].Z/10) * 10}
			case 1:
				row[s] = Point{X: math.NaN(), Z: 0}
			}
		}
		if rng.IntN(50) == 0 {
			row = row[:0]
		}
		out[f] = row
	}
	return out
}

// TestStreamFedRunsAreExact: a run of either scheduler that reads its
// distances from a shared stream makes every frame's report, and its
// summary, exactly as the same run measuring them itself, for radii,
// budgets and caps of every kind up to the stream's radius, and reads
// every frame from the stream (a run that fell back to measuring would
// pass without testing the stream).
func TestStreamFedRunsAreExact(t *testing.T) {
	for seed := range uint64(6) {
		const n, frames = 12, 200
		w, route, base, rng := streamCase(t, seed, 11, n, frames)
		nsrc := len(base)
		if seed == 4 {
			base = append(base, Source{Name: "off", X: 40, Z: 40, Load: 10, Unload: 20, Prefetch: 15})
		}
		const radius = 40
		center := seed == 5
		mode := DistanceBounds
		if center {
			mode = DistanceCenter
		}
		bud, err := NewStream(w, base, route, radius, StreamPolicy{Distance: mode}, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := NewStream(w, base, route, radius, StreamPolicy{Runtime: true}, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		for c := range 4 {
			load := 5 + rng.Float64()*15
			if c == 0 {
				load = 10 // on the cell edges the route visits
			}
			unload := load + rng.Float64()*15
			prefetch := load + rng.Float64()*(radius-load)
			if c == 1 {
				prefetch = radius
			}
			sources := make([]Source, len(base))
			copy(sources, base)
			for s := range sources {
				sources[s].Load, sources[s].Unload, sources[s].Prefetch = load, unload, prefetch
			}
			name := fmt.Sprintf("seed %d candidate %d (load %.2f unload %.2f prefetch %.2f)", seed, c, load, unload, prefetch)
			set := Settings{Distance: mode, Retry: RetryPolicy{Retries: 1, BackoffFrames: 2}}
			if c%2 == 1 {
				b, m := int64(600), int64(1500+rng.IntN(2000))
				set.Budget, set.MaxResidentBytes = &b, &m
				if c == 3 {
					p := load / 2
					set.PinnedRadius = &p
				}
			}
			io := ModelIO{LatencyFrames: 1 + c%3, Fail: FailureModel{Rate: 0.05, Seed: seed}}
			t.Run(name+" budgeted", func(t *testing.T) {
				// window, when set, is filled every windowSize frames.
				run := func(st *Stream, window bool) ([]FrameReport, Summary, int, int) {
					s, err := NewScheduler(w, sources, set, NewModelLoader(io))
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					if st != nil {
						if err := s.UseStream(st); err != nil {
							t.Fatal(err)
						}
					}
					var reps []FrameReport
					for k, pos := range route {
						if window && k%windowSize == 0 {
							st.Fill(route, windowSize)
						}
						reps = append(reps, s.Step(pos))
					}
					return reps, s.Summary(), s.FedFrames(), s.inc.frames
				}
				want, wantSum, _, _ := run(nil, false)
				win, err := NewWindow(w, base, radius, StreamPolicy{Distance: mode})
				if err != nil {
					t.Fatal(err)
				}
				for _, fedBy := range []struct {
					st     *Stream
					window bool
				}{{bud, false}, {win, true}} {
					got, gotSum, fed, incremental := run(fedBy.st, fedBy.window)
					if fed != frames {
						t.Fatalf("window %v: %d of %d frames read from the stream", fedBy.window, fed, frames)
					}
					if fedBy.window && incremental != frames {
						// A window filled after the run registered steps it incrementally.
						t.Fatalf("%d of %d frames stepped incrementally", incremental, frames)
					}
					same(t, got, want)
					if !reflect.DeepEqual(gotSum, wantSum) {
						t.Errorf("window %v: summary\n%+v\nwant\n%+v", fedBy.window, gotSum, wantSum)
					}
				}
			})
			if center {
				continue
			}
			host := EstellaHost{Prepare: io, PublishFrames: c % 2, UnloadFrames: c % 3}
			t.Run(name+" estella", func(t *testing.T) {
				run := func(st *Stream, actual [][]Point) ([]EstellaFrame, EstellaSummary, int) {
					e, err := NewEstella(w, sources, host)
					if err != nil {
						t.Fatal(err)
					}
					if st != nil {
						if err := e.UseStream(st); err != nil {
							t.Fatal(err)
						}
					}
					var reps []EstellaFrame
					for k, pos := range route {
						if st != nil && st != rt && k%windowSize == 0 {
							st.Fill(route, windowSize)
						}
						var at []Point
						if actual != nil {
							at = actual[k]
						}
						reps = append(reps, e.StepSeen(pos, at))
					}
					return reps, e.Summary(), e.FedFrames()
				}
				for _, actual := range [][][]Point{nil, streamRoute(frames, nsrc, n, rand.New(rand.NewPCG(seed, 12)))} {
					want, wantSum, _ := run(nil, actual)
					win, err := NewWindow(w, base, radius, StreamPolicy{Runtime: true})
					if err != nil {
						t.Fatal(err)
					}
					for _, st := range []*Stream{rt, win} {
						got, gotSum, fed := run(st, actual)
						if fed != frames {
							t.Fatalf("%d of %d frames read from the stream", fed, frames)
						}
						if !reflect.DeepEqual(got, want) {
							for k := range want {
								if !reflect.DeepEqual(got[k], want[k]) {
									t.Fatalf("frame %d (apart %v):\n%+v\nwant\n%+v", k+1, actual != nil, got[k], want[k])
								}
							}
						}
						if !reflect.DeepEqual(gotSum, wantSum) {
							t.Errorf("summary\n%+v\nwant\n%+v", gotSum, wantSum)
						}
					}
				}
			})
		}
	}
}

func same(t *testing.T, got, want []FrameReport) {
	t.Helper()
	for k := range want {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Fatalf("frame %d:\n%+v\nwant\n%+v", k+1, got[k], want[k])
		}
	}
}

// TestStreamNotReadWhereItDoesNotHold: a stream of another route, or of
// too small a radius, is not read where it does not hold the run's
// frames, and the run is still exact; a stream of another world or
// policy is refused.
func TestStreamNotReadWhereItDoesNotHold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	w := streamWorld(8, rng)
	if err := w.Freeze(); err != nil {
		t.Fatal(err)
	}
	route := streamRoute(100, 1, 8, rng)
	other := streamRoute(100, 1, 8, rng)
	sources := []Source{{Name: "a", Enabled: true, Load: 10, Unload: 20, Prefetch: 15}}
	run := func(st *Stream, route [][]Point) ([]FrameReport, int) {
		s, err := NewScheduler(w, sources, Settings{}, NewModelLoader(ModelIO{LatencyFrames: 1}))
		if err != nil {
			t.Fatal(err)
		}
		if st != nil {
			if err := s.UseStream(st); err != nil {
				t.Fatal(err)
			}
		}
		var reps []FrameReport
		for _, pos := range route {
			reps = append(reps, s.Step(pos))
		}
		return reps, s.FedFrames()
	}
	want, _ := run(nil, route)
	wrong, err := NewStream(w, sources, other, 30, StreamPolicy{}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	got, fed := run(wrong, route)
	same(t, got, want)
	if fed != 0 {
		t.Errorf("%d frames read from another route's stream", fed)
	}
	short, err := NewStream(w, sources, route[:40], 5, StreamPolicy{}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	got, fed = run(short, route)
	same(t, got, want)
	if fed != 40 {
		t.Errorf("%d frames read from a 40-frame stream", fed)
	}
	rt, err := NewStream(w, sources, route, 30, StreamPolicy{Runtime: true}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScheduler(w, sources, Settings{}, NewModelLoader(ModelIO{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UseStream(rt); err == nil {
		t.Error("the budgeted scheduler took the runtime's stream")
	}
	if _, err := NewStream(w, sources, route, 30, StreamPolicy{}, 10); err != ErrStreamTooLarge {
		t.Errorf("error %v, want ErrStreamTooLarge", err)
	}
}

// TestLockstepRunsMatchLoneRuns: budgeted runs of different radii,
// budgets and caps stepped together, frame by frame, over one window
// they registered with step incrementally and make every frame's report
// and their summary exactly as each run alone, measuring itself; a run
// whose route leaves the window's (its positions moved off it halfway)
// goes back to measuring and stays exact.
func TestLockstepRunsMatchLoneRuns(t *testing.T) {
	for seed := range uint64(4) {
		const n, frames, radius = 12, 240, 40
		w, route, base, rng := streamCase(t, seed, 29, n, frames)
		nsrc := len(base)
		mode := DistanceBounds
		if seed == 3 {
			mode = DistanceCenter
		}
		type runSpec struct {
			sources []Source
			set     Settings
			io      ModelIO
			route   [][]Point
		}
		var specs []runSpec
		for c := range 6 {
			load := 5 + rng.Float64()*15
			if c == 0 {
				load = 10
			}
			unload, prefetch := load+rng.Float64()*15, load+rng.Float64()*(radius-load)
			if c == 2 {
				prefetch = radius // the window's own radius
			}
			sources := make([]Source, len(base))
			copy(sources, base)
			for s := range sources {
				sources[s].Load, sources[s].Unload, sources[s].Prefetch = load, min(unload, radius), prefetch
				if s == 1 {
					sources[s].Prefetch = min(prefetch+3, radius)
				}
			}
			set := Settings{Distance: mode, Retry: RetryPolicy{Retries: 1, BackoffFrames: 2, TimeoutFrames: 3 * (c % 2)}, EvictCooldown: c % 3}
			if c%2 == 1 {
				b, m := int64(500), int64(1200+rng.IntN(2000))
				set.Budget, set.MaxResidentBytes = &b, &m
			}
			r := route
			if c == 5 {
				// Off the window's route from frame 100 on.
				r = append(slices.Clone(route[:100]), streamRoute(frames-100, nsrc, n, rng)...)
			}
			specs = append(specs, runSpec{sources, set, ModelIO{LatencyFrames: 1 + c%3, Fail: FailureModel{Rate: 0.08, Seed: seed}}, r})
		}
		start := func(sp runSpec) *Scheduler {
			s, err := NewScheduler(w, sp.sources, sp.set, NewModelLoader(sp.io))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		win, err := NewWindow(w, base, radius, StreamPolicy{Distance: mode})
		if err != nil {
			t.Fatal(err)
		}
		var together []*Scheduler
		for _, sp := range specs {
			s := start(sp)
			defer s.Close()
			if err := s.UseStream(win); err != nil {
				t.Fatal(err)
			}
			together = append(together, s)
		}
		alone := make([]*Scheduler, len(specs))
		for c, sp := range specs {
			alone[c] = start(sp)
			defer alone[c].Close()
		}
		for k := range frames {
			if k%windowSize == 0 {
				win.Fill(route, windowSize)
			}
			for c, sp := range specs {
				got, want := together[c].Step(sp.route[k]), alone[c].Step(sp.route[k])
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d run %d frame %d:\n%+v\nwant\n%+v", seed, c, k+1, got, want)
				}
			}
		}
		for c := range specs {
			if got, want := together[c].Summary(), alone[c].Summary(); !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d run %d: summary\n%+v\nwant\n%+v", seed, c, got, want)
			}
			inc := together[c].inc.frames
			if c == 5 {
				if inc != 100 {
					t.Errorf("seed %d: the run off the route stepped %d frames incrementally, want 100", seed, inc)
				}
			} else if inc != frames {
				t.Errorf("seed %d run %d: %d of %d frames stepped incrementally", seed, c, inc, frames)
			}
		}
	}
}
