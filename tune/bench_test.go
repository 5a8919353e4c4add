package tune

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSearch measures a search three ways: every candidate's runs one
// after the other (their CPU time: the floor), the search run to the end
// on every core, and the search as the command runs it (pruned). It
// reports the exhaustive search's wall time against the floor divided by
// the cores (docs/benchmarks.md: at most 1.2), and the runs pruning saved.
// Beside them: the floor's wall time and the exhaustive search's CPU time
// and the cores it used, which tell a machine busy with other work (wall
// above CPU in the floor too, fewer cores used than GOMAXPROCS) from a
// search that costs more than its runs (CPU above the floor).
func benchSearch(b *testing.B, plan *searchPlan, e *evaluator, routes []string) {
	ctx := context.Background()
	var floor, floorWall, exhaustive, exhaustiveCPU, pruned time.Duration
	var saved, total int
	for b.Loop() {
		c0, t0 := cpuTime(), time.Now()
		for c := range plan.All() {
			for r := range routes {
				if _, err := e.eval(ctx, c, r, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		floor += cpuTime() - c0
		floorWall += time.Since(t0)
		c0, t0 = cpuTime(), time.Now()
		if _, err := search(ctx, plan, oneByOne(e.eval), Options{Routes: routes, Require: e.gate, Exhaustive: true}); err != nil {
			b.Fatal(err)
		}
		exhaustive += time.Since(t0)
		exhaustiveCPU += cpuTime() - c0
		t0 = time.Now()
		res, err := search(ctx, plan, oneByOne(e.eval), Options{Routes: routes, Require: e.gate})
		if err != nil {
			b.Fatal(err)
		}
		pruned += time.Since(t0)
		saved, total = res.PrunedRuns, plan.Count*len(routes)
		b.ReportMetric(float64(res.PrunedFrames), "frames-saved")
	}
	n, cores := float64(b.N), runtime.GOMAXPROCS(0)
	b.ReportMetric(floor.Seconds()/n, "s-cpu-sequential")
	b.ReportMetric(floorWall.Seconds()/n, "s-wall-sequential")
	b.ReportMetric(exhaustive.Seconds()/n, "s-wall-exhaustive")
	b.ReportMetric(exhaustiveCPU.Seconds()/n, "s-cpu-exhaustive")
	b.ReportMetric(pruned.Seconds()/n, "s-wall-pruned")
	b.ReportMetric(exhaustive.Seconds()/(floor.Seconds()/float64(cores)), "ratio")
	// The cores the machine gave the search (its CPU time over its wall
	// time), against GOMAXPROCS: below it, other work held the cores.
	b.ReportMetric(exhaustiveCPU.Seconds()/exhaustive.Seconds(), "cores-used")
	b.ReportMetric(float64(saved), "runs-saved")
	b.ReportMetric(float64(total), "runs")
}

// BenchmarkTuneDemo is the default search on the demo at three cell
// sizes (5×3×3 radii each) on its 318-frame route.
func BenchmarkTuneDemo(b *testing.B) {
	sp, err := ParseSpace(Spec{CellSize: "700,1000,2000"})
	if err != nil {
		b.Fatal(err)
	}
	s := demoSetup(b, Spec{})
	s.Space = sp
	plan, err := sp.Lay(world{CellSize: 1000}, defaultMaxCandidates)
	if err != nil {
		b.Fatal(err)
	}
	e := &evaluator{base: s.Base, routes: s.Routes, gate: holes, worlds: map[float64]*streaming.World{}}
	for _, cs := range plan.CellSizes() {
		w, err := simulate.Open(context.Background(), demoScene, cook.OpenOptions{Validate: validate.Options{CellSize: cs}})
		if err != nil {
			b.Fatal(err)
		}
		e.worlds[cs] = w
	}
	rt, err := streaming.ReadRoute(demoRoute)
	if err != nil {
		b.Fatal(err)
	}
	e.parsed = []*streaming.Route{rt}
	if err := freeze(e.worlds); err != nil {
		b.Fatal(err)
	}
	benchSearch(b, plan, e, s.Routes)
	// The whole command's library call, the worlds cooked included.
	t0 := time.Now()
	if _, err := Run(context.Background(), s, Options{Require: holes}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(t0).Seconds(), "s-run")
}

// BenchmarkTuneLarge is a search of two candidates on a 1024² cell world
// over ten random-walk routes of 6,000 frames: few candidates, since each
// run of a million-cell world costs its scheduler's setup besides its
// frames.
func BenchmarkTuneLarge(b *testing.B) {
	const side, frames, nRoutes = 1024, 6000, 10
	w := gridWorld(side, 1)
	w.Sources = []streaming.Source{{Name: "camera", Enabled: true, Load: 8, Unload: 12, Prefetch: 8}}
	dir := b.TempDir()
	var routes []string
	var parsed []*streaming.Route
	for k := range nRoutes {
		rng := rand.New(rand.NewPCG(uint64(k), 7))
		x, z := rng.Float64()*side, rng.Float64()*side
		var sb strings.Builder
		sb.WriteString("x,z\n")
		for range frames {
			x = min(max(x+rng.Float64()*0.8-0.4, 0), side)
			z = min(max(z+rng.Float64()*0.8-0.4, 0), side)
			fmt.Fprintf(&sb, "%.3f,%.3f\n", x, z)
		}
		file := filepath.Join(dir, fmt.Sprintf("walk%d.csv", k))
		if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		rt, err := streaming.ReadRoute(file)
		if err != nil {
			b.Fatal(err)
		}
		routes, parsed = append(routes, file), append(parsed, rt)
	}
	sp, err := ParseSpace(Spec{Load: "2,3", Unload: "4", Prefetch: "3"})
	if err != nil {
		b.Fatal(err)
	}
	plan, err := sp.Lay(world{CellSize: 1, Cooked: true}, defaultMaxCandidates)
	if err != nil {
		b.Fatal(err)
	}
	e := &evaluator{base: simulate.Options{Model: streaming.ModelIO{LatencyFrames: 2}}, routes: routes, parsed: parsed,
		gate: holes, worlds: map[float64]*streaming.World{1: w}}
	if err := freeze(e.worlds); err != nil {
		b.Fatal(err)
	}
	benchSearch(b, plan, e, routes)
}

// BenchmarkTuneShared is the search of 25 candidates (5 load × 5
// prefetch radii, 1 to 4 cells) on a 64² cell world over one 20,000-frame random walk,
// under each policy, against what a user's own loop costs: simulate run
// once per candidate, two at a time, each run measuring on its own (the
// in-process runs, without the processes' start and the world's opening
// that `worldcook simulate` adds, so the loop measured is the cheaper
// one). The two are interleaved in each round. It reports `ratio`, the
// search's wall time (its candidates stepped together over the route's
// shared window, as tune runs them) over the loop's, `cpu-ratio` the
// same of CPU times (docs/benchmarks.md: at most 0.5), each one's wall
// and CPU time, and the allocations and bytes allocated of each, which
// a busy machine does not change.
func BenchmarkTuneShared(b *testing.B) {
	const side, frames = 64, 20000
	w := gridWorld(side, 1)
	rng := rand.New(rand.NewPCG(29, 3))
	x, z := float64(side)/2, float64(side)/2
	var sb strings.Builder
	sb.WriteString("x,z\n")
	for range frames {
		x = min(max(x+rng.Float64()*0.5-0.25, 0), side)
		z = min(max(z+rng.Float64()*0.5-0.25, 0), side)
		fmt.Fprintf(&sb, "%.3f,%.3f\n", x, z)
	}
	file := filepath.Join(b.TempDir(), "walk.csv")
	if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	rt, err := streaming.ReadRoute(file)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := ParseSpace(Spec{Load: "1,1.5,2,2.5,3", Unload: "5", Prefetch: "3,3.25,3.5,3.75,4"})
	if err != nil {
		b.Fatal(err)
	}
	plan, err := sp.Lay(world{CellSize: 1, Cooked: true}, defaultMaxCandidates)
	if err != nil {
		b.Fatal(err)
	}
	if plan.Count != 25 {
		b.Fatalf("%d candidates", plan.Count)
	}
	cands := slices.Collect(plan.All())
	if err := freeze(map[float64]*streaming.World{1: w}); err != nil {
		b.Fatal(err)
	}
	for _, policy := range []simulate.Policy{simulate.Estella, simulate.Budgeted} {
		b.Run(string(policy), func(b *testing.B) {
			base := simulate.Options{Policy: policy, Model: streaming.ModelIO{LatencyFrames: 2}}
			ctx := context.Background()
			var loop, loopCPU, tune, tuneCPU time.Duration
			var loopAllocs, loopBytes, tuneAllocs, tuneBytes uint64
			var ms runtime.MemStats
			allocs := func() (uint64, uint64) { runtime.ReadMemStats(&ms); return ms.Mallocs, ms.TotalAlloc }
			for b.Loop() {
				// The user's loop: every candidate on its own, two at a time.
				a0, y0 := allocs()
				c0, t0 := cpuTime(), time.Now()
				alone := &evaluator{base: base, routes: []string{file}, parsed: []*streaming.Route{rt}, gate: holes,
					worlds: map[float64]*streaming.World{1: w}}
				_, errs := oneByOne(alone.eval)(ctx, cands, 0, make([]stopFunc, len(cands)), 2)
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				loop += time.Since(t0)
				loopCPU += cpuTime() - c0
				a1, y1 := allocs()
				loopAllocs, loopBytes = loopAllocs+a1-a0, loopBytes+y1-y0
				// tune: the search as the command runs it.
				c0, t0 = cpuTime(), time.Now()
				e := &evaluator{base: base, routes: []string{file}, parsed: []*streaming.Route{rt}, gate: holes,
					worlds: map[float64]*streaming.World{1: w}}
				res, err := search(ctx, plan, e.lockstep, Options{Routes: []string{file}, Require: holes, Workers: 2})
				if err != nil {
					b.Fatal(err)
				}
				tune += time.Since(t0)
				tuneCPU += cpuTime() - c0
				a2, y2 := allocs()
				tuneAllocs, tuneBytes = tuneAllocs+a2-a1, tuneBytes+y2-y1
				b.ReportMetric(float64(res.Pruned), "pruned")
				b.ReportMetric(float64(res.Feasible), "feasible")
			}
			n := float64(b.N)
			b.ReportMetric(loop.Seconds()/n, "s-wall-loop")
			b.ReportMetric(loopCPU.Seconds()/n, "s-cpu-loop")
			b.ReportMetric(tune.Seconds()/n, "s-wall-tune")
			b.ReportMetric(tuneCPU.Seconds()/n, "s-cpu-tune")
			b.ReportMetric(tune.Seconds()/loop.Seconds(), "ratio")
			b.ReportMetric(tuneCPU.Seconds()/loopCPU.Seconds(), "cpu-ratio")
			b.ReportMetric(float64(loopAllocs)/n, "allocs-loop")
			b.ReportMetric(float64(tuneAllocs)/n, "allocs-tune")
			b.ReportMetric(float64(loopBytes)/n, "B-loop")
			b.ReportMetric(float64(tuneBytes)/n, "B-tune")
		})
	}
}
