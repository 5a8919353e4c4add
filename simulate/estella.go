package simulate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// errDiskPolicy refuses real IO where the runtime's model runs.
var errDiskPolicy = errors.New("--policy estella and --compare run over a modelled host; drop --io disk")

// estellaRefusals names the settings that Estella's runtime does not
// have, so that a run under it never silently ignores one.
func estellaRefusals(set streaming.Settings) error {
	var given []string
	add := func(set bool, flag string) {
		if set {
			given = append(given, flag)
		}
	}
	add(set.Budget != nil, "--budget")
	add(set.MaxResidentBytes != nil, "--max-resident-bytes")
	add(set.PinnedRadius != nil, "--pinned-radius")
	add(set.LODRadius != nil, "--lod-radius")
	add(set.MaxInFlight != nil, "--max-in-flight")
	add(set.EvictCooldown != 0, "--evict-cooldown")
	add(set.Distance == streaming.DistanceCenter, "--distance center")
	// The runtime does not retry: a failed preparation returns the cell to
	// unloaded and the next update asks again. No retry policy, or the
	// command's default one, stands for none given.
	if r, def := set.Retry, streaming.DefaultRetry(); r != (streaming.RetryPolicy{}) && r != def {
		add(r.Retries != def.Retries, "--retries")
		add(r.BackoffFrames != def.BackoffFrames, "--retry-backoff")
		add(r.TimeoutFrames != def.TimeoutFrames, "--retry-timeout")
	}
	if len(given) == 0 {
		return nil
	}
	return fmt.Errorf("--policy estella: Estella's runtime scheduler has no byte budget, resident cap, pinning, LOD, in-flight limit, eviction, centre distance or retry policy; drop %s (flag, WORLDCOOK_SIMULATE_* or simulate: in worldcook.yaml), or pass --compare to see what they would do under --policy budgeted", strings.Join(given, ", "))
}

// startEstella binds the route as the runtime samples it and sets up its
// run through a model of Estella's runtime; its gate is concluded on its
// frames as on the budgeted scheduler's.
func startEstella(ctx context.Context, world *streaming.World, route *streaming.Route, o Options, start time.Time) (*Stepping, error) {
	sources := world.RuntimeSources
	if sources == nil {
		sources = world.Sources
	}
	bound, sampled, err := o.bind(route, sources, world.View, world.Plane, true)
	if err != nil {
		return nil, err
	}
	if err := o.needView(bound); err != nil {
		return nil, err
	}
	run := &PolicyRun{Policy: Estella, World: world, Route: sampled, Warnings: setupWarnings(world, route, o)}
	// In a world cut on x and y, the holes are where the sources really
	// stand.
	var actual [][]streaming.Point
	if world.Plane == manifest.PlaneXY {
		if _, actual, err = o.bind(route, world.Sources, world.View, world.Plane, false); err != nil {
			return nil, err
		}
		run.Route, run.Sampled = actual, sampled
	}
	host := streaming.EstellaHost{Prepare: o.Model, PublishFrames: o.PublishFrames, UnloadFrames: o.UnloadFrames,
		IgnoreAssets: o.Settings.IgnoreAssets}
	sched, err := streaming.NewEstella(world, bound, host)
	if err != nil {
		return nil, err
	}
	if o.Stream != nil {
		if err := sched.UseStream(o.Stream); err != nil {
			return nil, err
		}
	}
	sched.NumberFrom(route.FirstFrame())
	if o.CellStates {
		sched.ReportCellStates()
	}
	run.Assets = sched.HasAssets()
	stepping, err := o.begin(run, start)
	if err != nil {
		return nil, err
	}
	s := &Stepping{ctx: ctx, o: o, run: run, frames: len(sampled), stepping: stepping,
		concl: streaming.NewConcluder(o.Gate, nil, nil)}
	if !o.Frameless {
		run.Frames = make([]streaming.FrameReport, 0, len(sampled))
		run.Runtime = make([]streaming.RuntimeFrame, 0, len(sampled))
	}
	s.step = func(k int) (*streaming.FrameReport, *streaming.RuntimeFrame) {
		var at []streaming.Point
		if actual != nil && k < len(actual) {
			at = actual[k]
		}
		f := sched.StepSeen(sampled[k], at)
		rep, rt := s.keep(k)
		*rep, *rt = f.FrameReport, f.RuntimeFrame
		return rep, rt
	}
	s.finish = func(run *PolicyRun) {
		sum := sched.Summary()
		sum.Summary.View = streaming.HasView(bound)
		run.Summary, run.RuntimeReport = sum.Summary, &sum.Runtime
		run.Sources, run.Loads = sched.Sources(), sched.Loads()
		run.Fed = sched.FedFrames()
	}
	return s, nil
}
