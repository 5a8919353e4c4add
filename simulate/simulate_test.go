package simulate

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

const (
	demoScene = "../testdata/demo/main.esscene"
	demoRoute = "../testdata/demo/route.csv"
)

func demoWorld(t *testing.T) *streaming.World {
	t.Helper()
	w, err := Open(context.Background(), demoScene, cook.OpenOptions{
		Validate: validate.Options{Components: map[string]validate.ComponentFields{"FollowTarget": {Entity: []string{"target"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func run(t *testing.T, world *streaming.World, o Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), world, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBudgetedRun: a run of the budgeted scheduler over the demo is
// deterministic, applies the radius overrides to every source, hands
// every frame to the watch and concludes the gate on its frames.
func TestBudgetedRun(t *testing.T) {
	world := demoWorld(t)
	budget := int64(16 << 10)
	load := 1200.0
	warm := 0
	var begun, frames int
	o := Options{Route: demoRoute, Settings: streaming.Settings{Budget: &budget}, Model: streaming.ModelIO{LatencyFrames: 1},
		Radii: Radii{Load: &load}, Gate: streaming.Gate{FailOn: []string{streaming.FailHoles}, Warmup: &warm},
		Watch: Watch{
			Begin: func(p *PolicyRun) error { begun++; return nil },
			Frame: func(p *PolicyRun, f *streaming.FrameReport, rt *streaming.RuntimeFrame) error {
				if rt != nil {
					t.Error("the budgeted policy reports runtime additions")
				}
				frames++
				return nil
			},
		}}
	var runs []*PolicyRun
	for range 2 {
		res := run(t, world, o)
		if len(res.Runs) != 1 || res.Compare {
			t.Fatalf("%d runs, compare %v", len(res.Runs), res.Compare)
		}
		p := res.Runs[0]
		if p.Policy != Budgeted || p.Runtime != nil || p.RuntimeReport != nil {
			t.Fatalf("policy %s with runtime additions %v", p.Policy, p.Runtime != nil)
		}
		for _, s := range p.Sources {
			if s.Load != load {
				t.Fatalf("source %s has load radius %v, want the override %v", s.Name, s.Load, load)
			}
		}
		if len(p.Frames) != len(p.Route) || p.Summary.Frames != len(p.Frames) || len(p.Loads) != len(world.Cells) {
			t.Fatalf("%d frames reported, %d in the route, summary says %d; %d loads for %d cells",
				len(p.Frames), len(p.Route), p.Summary.Frames, len(p.Loads), len(world.Cells))
		}
		for i := range p.Frames {
			p.Frames[i].Cost = 0 // real time, not part of the run's outcome
		}
		runs = append(runs, p)
	}
	if begun != 2 || frames != 2*len(runs[0].Frames) {
		t.Errorf("the watch began %d times and saw %d frames, want 2 and %d", begun, frames, 2*len(runs[0].Frames))
	}
	if !reflect.DeepEqual(runs[0].Frames, runs[1].Frames) || !reflect.DeepEqual(runs[0].Summary, runs[1].Summary) {
		t.Error("two runs of the same route differ")
	}
	if g := runs[0].Summary.Gate; g == nil || !g.Failed || runs[0].Summary.HoleFrames == 0 {
		t.Errorf("the demo has holes on its first frames, and a 0-frame warm-up must fail: %+v", g)
	}
}

// TestEstellaAndCompare: the runtime runs the same route, and a
// comparison holds both policies' runs of it.
func TestEstellaAndCompare(t *testing.T) {
	world := demoWorld(t)
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 1}, Policy: Estella}
	rt := run(t, world, o).Runs[0]
	if rt.Policy != Estella || len(rt.Frames) != len(rt.Route) || len(rt.Runtime) != len(rt.Frames) || rt.Summary.Frames != len(rt.Frames) || rt.RuntimeReport == nil {
		t.Fatalf("policy %s: %d frames, %d runtime frames, for a route of %d", rt.Policy, len(rt.Frames), len(rt.Runtime), len(rt.Route))
	}
	o.Compare = true
	cmp := run(t, world, o)
	if !cmp.Compare || len(cmp.Runs) != 2 || cmp.Runs[0].Policy != Budgeted || cmp.Runs[1].Policy != Estella {
		t.Fatalf("comparison of %d runs", len(cmp.Runs))
	}
	b, e := cmp.Runs[0].Summary, cmp.Runs[1].Summary
	if b.Frames != len(rt.Frames) || e.Frames != len(rt.Frames) || e.HoleFrames != rt.Summary.HoleFrames {
		t.Errorf("comparison: budgeted %d frames, estella %d frames and %d hole frames; the runtime alone had %d hole frames",
			b.Frames, e.Frames, e.HoleFrames, rt.Summary.HoleFrames)
	}
}

// TestCompareCountsAssets: with the demo's shared assets, both policies
// count them, and their asset peaks agree with their resident peaks (no
// asset bytes on one side only); --asset-costs off leaves them out of
// both.
func TestCompareCountsAssets(t *testing.T) {
	world := demoWorld(t)
	if len(world.Assets) == 0 {
		t.Fatal("the demo world has no assets")
	}
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 1}, Compare: true}
	cmp := run(t, world, o)
	s, e := cmp.Runs[0].Summary.Assets, cmp.Runs[1].Summary.Assets
	if s == nil || e == nil {
		t.Fatalf("both sides must count assets: budgeted %v, estella %v", s, e)
	}
	if s.Distinct != len(world.Assets) || e.Distinct != len(world.Assets) || s.PeakResidentAssetBytes == 0 || e.PeakResidentAssetBytes == 0 {
		t.Errorf("asset summaries: budgeted %+v, estella %+v", s, e)
	}
	o.Settings.IgnoreAssets = true
	off := run(t, world, o)
	if off.Runs[0].Summary.Assets != nil || off.Runs[1].Summary.Assets != nil || off.Runs[1].RuntimeReport.AssetRefsByCell != nil {
		t.Error("--asset-costs off still counts assets")
	}
	for i, side := range []struct {
		name     string
		assetTop int64
	}{{"budgeted", s.PeakResidentAssetBytes}, {"estella", e.PeakResidentAssetBytes}} {
		with, without := cmp.Runs[i].Summary.PeakResidentBytes, off.Runs[i].Summary.PeakResidentBytes
		if with <= without || with > without+side.assetTop {
			t.Errorf("%s: peak resident %d with assets, %d without, asset peak %d", side.name, with, without, side.assetTop)
		}
	}
}

// TestVerdict: the gate judges every policy of a run and names, under
// --compare, the ones that failed.
func TestVerdict(t *testing.T) {
	world := demoWorld(t)
	one := 1
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 1}}
	if v := run(t, world, o).Verdict; v != nil {
		t.Errorf("a run without --fail-on has a verdict: %+v", v)
	}
	// Under a 16 KiB budget the demo's budgeted run has holes after its
	// first frame, the runtime's on its first frame only.
	budget := int64(16 << 10)
	o.Gate = streaming.Gate{FailOn: []string{streaming.FailHoles}, Warmup: &one}
	for _, tc := range []struct {
		policy  Policy
		compare bool
		failed  []Policy
		prefix  string
	}{
		{Budgeted, false, []Policy{Budgeted}, "--fail-on: holes in frames "},
		{Estella, false, nil, "--policy estella --fail-on: no --fail-on condition held"},
		{"", true, []Policy{Budgeted}, "--compare --fail-on: budgeted: holes in frames "},
	} {
		o.Policy, o.Compare, o.Settings.Budget = tc.policy, tc.compare, nil
		if tc.policy != Estella {
			o.Settings.Budget = &budget
		}
		v := run(t, world, o).Verdict
		if v == nil || v.Failed != (len(tc.failed) > 0) || !reflect.DeepEqual(v.FailedPolicies, tc.failed) || !strings.HasPrefix(v.Message, tc.prefix) {
			t.Errorf("%s (compare %v): verdict %+v, want %v failed and a message starting %q", tc.policy, tc.compare, v, tc.failed, tc.prefix)
		}
		if tc.compare && strings.Contains(v.Message, "estella:") {
			t.Errorf("the runtime passed but is named: %s", v.Message)
		}
	}
	zero := 0
	o.Gate.Warmup = &zero
	v := run(t, world, o).Verdict
	if !reflect.DeepEqual(v.FailedPolicies, []Policy{Budgeted, Estella}) || !strings.Contains(v.Message, "; estella: holes in frames 1") {
		t.Errorf("with no warm-up both fail: %+v", v)
	}
}

// TestRunRefuses: options no run can honour are refused before the world
// is read, by Check and by Run.
func TestRunRefuses(t *testing.T) {
	budget := int64(1)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Policy: "greedy"}, `policy "greedy" must be budgeted or estella`},
		{Options{Policy: Estella, Settings: streaming.Settings{Budget: &budget}}, "drop --budget (flag"},
		{Options{Policy: Estella, Settings: streaming.Settings{Retry: streaming.RetryPolicy{Retries: 1}}}, "drop --retries, --retry-backoff, --retry-timeout (flag"},
		{Options{Compare: true, Disk: &Disk{}}, "drop --io disk"},
	} {
		err := tc.o.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
		if _, err := Run(context.Background(), nil, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run %+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	// The command's default retry policy, or none, is no setting given.
	for _, r := range []streaming.RetryPolicy{{}, streaming.DefaultRetry()} {
		if err := (Options{Policy: Estella, Settings: streaming.Settings{Retry: r}}).Check(); err != nil {
			t.Errorf("retry %+v: %v", r, err)
		}
	}
}

// TestRunConcurrently: one opened world runs under every policy from
// several goroutines at once, each run as it would be alone (run with
// -race, it also shows that a run never writes to the world).
func TestRunConcurrently(t *testing.T) {
	world := demoWorld(t)
	budget := int64(16 << 10)
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 2, Fail: streaming.FailureModel{Rate: 0.2, Seed: 3}},
		Settings: streaming.Settings{Budget: &budget, Retry: streaming.DefaultRetry()}, Compare: true,
		Gate: streaming.Gate{FailOn: []string{streaming.FailHoles, streaming.FailFailures}}}
	alone := run(t, world, o)
	const n = 4
	results := make([]*Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i], errs[i] = Run(context.Background(), world, o) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		for k, p := range results[i].Runs {
			if !reflect.DeepEqual(p.Summary, alone.Runs[k].Summary) || !reflect.DeepEqual(p.Loads, alone.Runs[k].Loads) {
				t.Errorf("run %d, %s: differs from the run alone", i, p.Policy)
			}
		}
	}
}

// TestRunCancelled: a cancelled context stops a run between frames.
func TestRunCancelled(t *testing.T) {
	world := demoWorld(t)
	for _, p := range []Policy{Budgeted, Estella} {
		ctx, cancel := context.WithCancel(context.Background())
		frames := 0
		o := Options{Route: demoRoute, Policy: p, Watch: Watch{Frame: func(*PolicyRun, *streaming.FrameReport, *streaming.RuntimeFrame) error {
			if frames++; frames == 3 {
				cancel()
			}
			return nil
		}}}
		res, err := Run(ctx, world, o)
		if !errors.Is(err, context.Canceled) || res != nil || frames != 3 {
			t.Errorf("%s: cancelled after 3 frames: %v after %d frames", p, err, frames)
		}
		cancel()
	}
}

// TestRunIntoLentFrames: a run given an array for its frames writes them
// there, and gives what it gives without one, even when the array holds
// an earlier run's frames; an array too small is not used.
func TestRunIntoLentFrames(t *testing.T) {
	world := demoWorld(t)
	budget := int64(16 << 10)
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 2}, Settings: streaming.Settings{Budget: &budget},
		Gate: streaming.Gate{FailOn: []string{streaming.FailHoles}}}
	want := run(t, world, o).Runs[0]
	other := o
	other.Settings.Budget = nil
	buf := run(t, world, other).Runs[0].Frames
	o.Frames = buf[:0]
	got := run(t, world, o).Runs[0]
	if &got.Frames[0] != &buf[0] {
		t.Error("the run did not write its frames into the lent array")
	}
	noCost := func(fs []streaming.FrameReport) {
		for i := range fs {
			fs[i].Cost = 0
		}
	}
	noCost(got.Frames)
	noCost(want.Frames)
	if !reflect.DeepEqual(got.Frames, want.Frames) || !reflect.DeepEqual(got.Summary, want.Summary) {
		t.Error("a run into a lent array differs from one without")
	}
	o.Frames = make([]streaming.FrameReport, 0, 3)
	if got := run(t, world, o).Runs[0]; len(got.Frames) != len(want.Frames) || &got.Frames[0] == &o.Frames[:1][0] {
		t.Errorf("a lent array too small: %d frames, want %d in an array of their own", len(got.Frames), len(want.Frames))
	}
}
