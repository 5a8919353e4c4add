package simulate

import (
	"context"
	"errors"
	"time"

	"github.com/worldcook/worldcook/streaming"
)

// budgeted is a run of the budgeted scheduler, ready to go.
type budgeted struct {
	run   *PolicyRun
	sched *streaming.Scheduler
	pace  time.Duration
}

// newBudgeted binds the route and builds the budgeted scheduler and its
// IO.
func newBudgeted(world *streaming.World, route *streaming.Route, o Options) (*budgeted, error) {
	sources, frames, err := o.bind(route, world.Sources, world.View, world.Plane, false)
	if err != nil {
		return nil, err
	}
	set := o.Settings
	if set.Retry.TimeoutFrames > 0 {
		// Timeouts catch hung reads, not designed latency.
		set.Retry.TimeoutFrames = max(set.Retry.TimeoutFrames, 4*o.Model.LatencyFrames)
	}
	if err := o.needView(sources); err != nil {
		return nil, err
	}
	b := &budgeted{run: &PolicyRun{Policy: Budgeted, World: world, Settings: set, Route: frames,
		Warnings: setupWarnings(world, route, o, streaming.AssumedRadii(world, sources, o.Radii.set()), streaming.OversizeCells(world, set))}}
	var loader streaming.Loader = streaming.NewModelLoader(o.Model)
	if o.Disk != nil {
		if len(world.Assets) > 0 && !set.IgnoreAssets && world.AssetFiles == nil {
			return nil, errors.New("--io disk reads the world's assets, but no project holds it: pass --assets with the project folder, or --asset-costs off")
		}
		loader, err = streaming.NewDiskLoader(streaming.DiskIO{
			Assets:      world.AssetFiles,
			Files:       world.Files,
			Concurrency: o.Disk.Concurrency,
			FrameBudget: o.Disk.FrameBudget,
			Fail:        o.Model.Fail,
		})
		if err != nil {
			return nil, err
		}
		b.pace = o.Disk.FramePeriod
	}
	if b.sched, err = streaming.NewScheduler(world, sources, set, loader); err != nil {
		loader.Close()
		return nil, err
	}
	if o.Stream != nil {
		if err := b.sched.UseStream(o.Stream); err != nil {
			b.sched.Close()
			return nil, err
		}
	}
	b.sched.NumberFrom(route.FirstFrame())
	if o.CellStates {
		b.sched.ReportCellStates()
	}
	b.run.Assets = b.sched.HasAssets()
	return b, nil
}

// startBudgeted sets up the run of the route through the budgeted
// scheduler; its gate is concluded on its frames.
func startBudgeted(ctx context.Context, world *streaming.World, route *streaming.Route, o Options, start time.Time) (*Stepping, error) {
	b, err := newBudgeted(world, route, o)
	if err != nil {
		return nil, err
	}
	run := b.run
	stepping, err := o.begin(run, start)
	if err != nil {
		b.sched.Close()
		return nil, err
	}
	frames := run.Route
	s := &Stepping{ctx: ctx, o: o, run: run, frames: len(frames), stepping: stepping,
		concl: streaming.NewConcluder(o.Gate, run.Settings.Budget, run.Settings.MaxResidentBytes),
		close: func() { b.sched.Close() }}
	if !o.Frameless {
		run.Frames = o.Frames[:0]
		if cap(run.Frames) < len(frames) {
			run.Frames = make([]streaming.FrameReport, 0, len(frames))
		}
	}
	s.step = func(k int) (*streaming.FrameReport, *streaming.RuntimeFrame) {
		t0 := time.Now()
		rep, _ := s.keep(k)
		*rep = b.sched.Step(frames[k])
		rep.Cost = time.Since(t0)
		return rep, nil
	}
	if b.pace > 0 {
		// Real IO runs in real time: each frame lasts at least pace, or
		// no read could finish in time to matter.
		next := time.Now()
		s.pace = func() error {
			next = next.Add(b.pace)
			if d := time.Until(next); d > 0 {
				select {
				case <-time.After(d):
				case <-ctx.Done():
					return ctx.Err()
				}
			} else {
				next = time.Now() // a slow frame does not make the next ones short
			}
			return nil
		}
	}
	s.finish = func(run *PolicyRun) {
		run.Summary = b.sched.Summary()
		run.Sources, run.Loads = b.sched.Sources(), b.sched.Loads()
		run.Fed = b.sched.FedFrames()
		run.Summary.View = streaming.HasView(run.Sources)
	}
	return s, nil
}
