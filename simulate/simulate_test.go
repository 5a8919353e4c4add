package simulate

import (
	"context"
	"reflect"
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

// TestSeedRun: a run of the budgeted scheduler over the demo is
// deterministic, applies the radius overrides to every source, and
// concludes the gate on its frames.
func TestSeedRun(t *testing.T) {
	world := demoWorld(t)
	budget := int64(16 << 10)
	load := 1200.0
	warm := 0
	o := Options{Route: demoRoute, Settings: streaming.Settings{Budget: &budget}, Model: streaming.ModelIO{LatencyFrames: 1},
		Radii: Radii{Load: &load}, Gate: streaming.Gate{FailOn: []string{streaming.FailHoles}, Warmup: &warm}}
	var sums []streaming.Summary
	for range 2 {
		seed, err := NewSeed(world, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seed.Sources {
			if s.Load != load {
				t.Fatalf("source %s has load radius %v, want the override %v", s.Name, s.Load, load)
			}
		}
		frames := 0
		_, sum, err := seed.Run(context.Background(), func(*streaming.FrameReport) error { frames++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if frames != len(seed.Frames) || sum.Frames != frames {
			t.Fatalf("%d frames reported, %d in the route, summary says %d", frames, len(seed.Frames), sum.Frames)
		}
		sums = append(sums, sum)
	}
	if !reflect.DeepEqual(sums[0], sums[1]) {
		t.Error("two runs of the same route differ")
	}
	if g := sums[0].Gate; g == nil || !g.Failed || sums[0].HoleFrames == 0 {
		t.Errorf("the demo has holes on its first frames, and a 0-frame warm-up must fail: %+v", g)
	}
}

// TestRuntimeAndCompare: the runtime policy runs the same route, and a
// comparison holds both policies' summaries of it.
func TestRuntimeAndCompare(t *testing.T) {
	world := demoWorld(t)
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 1}}
	rt, err := NewRuntime(world, o)
	if err != nil {
		t.Fatal(err)
	}
	frames, sum, err := rt.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(rt.Sampled) || sum.Frames != len(frames) || rt.Actual != nil {
		t.Fatalf("%d frames for a route of %d (actual positions %v)", len(frames), len(rt.Sampled), rt.Actual != nil)
	}
	cmp, err := Compare(context.Background(), world, o)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Seed.Frames != len(frames) || cmp.Estella.Frames != len(frames) || cmp.Estella.HoleFrames != sum.HoleFrames {
		t.Errorf("comparison: seed %d frames, estella %d frames and %d hole frames; the runtime alone had %d hole frames",
			cmp.Seed.Frames, cmp.Estella.Frames, cmp.Estella.HoleFrames, sum.HoleFrames)
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
	o := Options{Route: demoRoute, Model: streaming.ModelIO{LatencyFrames: 1}}
	cmp, err := Compare(context.Background(), world, o)
	if err != nil {
		t.Fatal(err)
	}
	s, e := cmp.Seed.Assets, cmp.Estella.Assets
	if s == nil || e == nil {
		t.Fatalf("both sides must count assets: seed %v, estella %v", s, e)
	}
	if s.Distinct != len(world.Assets) || e.Distinct != len(world.Assets) || s.PeakResidentAssetBytes == 0 || e.PeakResidentAssetBytes == 0 {
		t.Errorf("asset summaries: seed %+v, estella %+v", s, e)
	}
	o.Settings.IgnoreAssets = true
	off, err := Compare(context.Background(), world, o)
	if err != nil {
		t.Fatal(err)
	}
	if off.Seed.Assets != nil || off.Estella.Assets != nil || off.Estella.Runtime.AssetRefsByCell != nil {
		t.Error("--asset-costs off still counts assets")
	}
	for _, side := range []struct {
		name     string
		with     int64
		without  int64
		assetTop int64
	}{
		{"seed", cmp.Seed.PeakResidentBytes, off.Seed.PeakResidentBytes, s.PeakResidentAssetBytes},
		{"estella", cmp.Estella.PeakResidentBytes, off.Estella.PeakResidentBytes, e.PeakResidentAssetBytes},
	} {
		if side.with <= side.without || side.with > side.without+side.assetTop {
			t.Errorf("%s: peak resident %d with assets, %d without, asset peak %d", side.name, side.with, side.without, side.assetTop)
		}
	}
}
