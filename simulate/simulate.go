// Package simulate is a run of `worldcook simulate`: it opens a world (a
// cooked one, or a scene cooked in memory), binds a camera route to its
// streaming sources, builds the scheduler of a policy with its IO, runs
// the route through it and concludes the CI gate. The command adapts its
// settings to Options and formats what a run returns; the protocol lives
// here, once, for every policy.
package simulate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// Options are what a run needs besides the world.
type Options struct {
	// Route is the route CSV.
	Route string
	// Radii override every source's radii where set.
	Radii Radii
	// Settings are the budgeted scheduler's; Model times modelled IO (and
	// the runtime policy's preparations).
	Settings streaming.Settings
	Model    streaming.ModelIO
	// Disk, when set, reads and decodes the cooked files for real.
	Disk *Disk
	// Gate is what fails the run (--fail-on, --warmup).
	Gate streaming.Gate
	// PublishFrames and UnloadFrames time the runtime policy's publishes
	// and unloads.
	PublishFrames, UnloadFrames int
}

// Radii are radius overrides; nil leaves a source's own.
type Radii struct {
	Load, Unload, Prefetch *float64
}

func (r Radii) apply(s *streaming.Source) {
	if r.Load != nil {
		s.Load = *r.Load
	}
	if r.Unload != nil {
		s.Unload = *r.Unload
	}
	if r.Prefetch != nil {
		s.Prefetch = *r.Prefetch
	}
}

// set says which overrides were given, for the assumed-radii warning.
func (r Radii) set() [3]bool { return [3]bool{r.Load != nil, r.Unload != nil, r.Prefetch != nil} }

// Disk configures real IO.
type Disk struct {
	Concurrency int
	// FrameBudget is the time a frame may spend applying finished loads;
	// FramePeriod how long a frame lasts (real reads take real time).
	FrameBudget, FramePeriod time.Duration
}

// Open opens WORLD: a cooked directory, a manifest, or a scene.
func Open(ctx context.Context, world string, o cook.OpenOptions) (*streaming.World, error) {
	return cook.Open(ctx, world, o)
}

// template is the source a world without authored sources gets for each
// source its route names: the WorldStreamingSource defaults, with the
// overrides applied.
func (o Options) template() streaming.Source {
	s := streaming.Source{Name: "camera", Enabled: true,
		Prefetch: manifest.DefaultPrefetchRadius, Load: manifest.DefaultLoadRadius, Unload: manifest.DefaultUnloadRadius}
	o.Radii.apply(&s)
	return s
}

// bind reads the route and places it on the given sources of a world cut
// on plane, with the radius overrides applied to every source. With onXZ
// the route is read as Estella's runtime samples a source, on x and z
// whatever the plane.
func (o Options) bind(sources []streaming.Source, plane string, onXZ bool) ([]streaming.Source, [][]streaming.Point, error) {
	rt, err := streaming.ReadRoute(o.Route)
	if err != nil {
		return nil, nil, err
	}
	if onXZ {
		rt, plane = rt.OnXZ(), manifest.PlaneXZ
	}
	bound, frames, err := rt.Bind(sources, plane, o.template())
	if err != nil {
		return nil, nil, err
	}
	for i := range bound {
		o.Radii.apply(&bound[i])
	}
	if err := streaming.CheckSources(bound); err != nil {
		return nil, nil, fmt.Errorf("%v (set --load-radius, --unload-radius and --prefetch-radius, or fix the scene's WorldStreamingSource)", err)
	}
	return bound, frames, nil
}

// Seed is a run of the budgeted scheduler (SPEC §5), ready to go.
type Seed struct {
	World   *streaming.World
	Sources []streaming.Source
	Frames  [][]streaming.Point
	// Warnings change how the report reads: radii assumed for a world
	// without sources, cells larger than the per-frame budget.
	Warnings []streaming.Warning
	Sched    *streaming.Scheduler
	pace     time.Duration
	gate     streaming.Gate
}

// NewSeed binds the route and builds the scheduler and its IO.
func NewSeed(world *streaming.World, o Options) (*Seed, error) {
	sources, frames, err := o.bind(world.Sources, world.Plane, false)
	if err != nil {
		return nil, err
	}
	s := &Seed{World: world, Sources: sources, Frames: frames, gate: o.Gate,
		Warnings: append(streaming.AssumedRadii(world, sources, o.Radii.set()), streaming.OversizeCells(world, o.Settings)...)}
	var loader streaming.Loader = streaming.NewModelLoader(o.Model)
	if o.Disk != nil {
		if len(world.Assets) > 0 && !o.Settings.IgnoreAssets && world.AssetFiles == nil {
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
		s.pace = o.Disk.FramePeriod
	}
	if s.Sched, err = streaming.NewScheduler(world, sources, o.Settings, loader); err != nil {
		loader.Close()
		return nil, err
	}
	return s, nil
}

// Run replays the route, handing each frame's report to each (which may
// be nil), and returns the reports and the summary, the gate concluded.
// The scheduler is closed afterwards; Close is for a run never started.
func (s *Seed) Run(ctx context.Context, each func(*streaming.FrameReport) error) ([]streaming.FrameReport, streaming.Summary, error) {
	reports, err := streaming.Run(ctx, s.Sched, s.Frames, s.pace, each)
	s.Sched.Close()
	if err != nil {
		return nil, streaming.Summary{}, err
	}
	sum := s.Sched.Summary()
	streaming.Conclude(&sum, reports, s.gate)
	return reports, sum, nil
}

// Close releases a run that was not started.
func (s *Seed) Close() { s.Sched.Close() }

// Runtime is a run of Estella's own scheduler (WorldStreamer) over a
// modelled host.
type Runtime struct {
	World *streaming.World
	Sched *streaming.Estella
	// Sampled are the positions the runtime samples; Actual, for a world
	// cut on x and y, where the sources really stand (nil otherwise).
	Sampled, Actual [][]streaming.Point
	gate            streaming.Gate
}

// NewRuntime binds the route as the runtime samples it and builds its
// scheduler.
func NewRuntime(world *streaming.World, o Options) (*Runtime, error) {
	sources := world.RuntimeSources
	if sources == nil {
		sources = world.Sources
	}
	bound, sampled, err := o.bind(sources, world.Plane, true)
	if err != nil {
		return nil, err
	}
	r := &Runtime{World: world, Sampled: sampled, gate: o.Gate}
	if world.Plane == manifest.PlaneXY {
		if _, r.Actual, err = o.bind(world.Sources, world.Plane, false); err != nil {
			return nil, err
		}
	}
	host := streaming.EstellaHost{Prepare: o.Model, PublishFrames: o.PublishFrames, UnloadFrames: o.UnloadFrames,
		IgnoreAssets: o.Settings.IgnoreAssets}
	if r.Sched, err = streaming.NewEstella(world, bound, host); err != nil {
		return nil, err
	}
	return r, nil
}

// Route is where the sources stood, frame by frame: what the drawings
// show.
func (r *Runtime) Route() [][]streaming.Point {
	if r.Actual != nil {
		return r.Actual
	}
	return r.Sampled
}

// Run replays the route through the runtime's scheduler, the gate
// concluded on its frames as on the seed scheduler's.
func (r *Runtime) Run(ctx context.Context, each func(*streaming.EstellaFrame) error) ([]streaming.EstellaFrame, streaming.EstellaSummary, error) {
	frames, err := streaming.RunEstella(ctx, r.Sched, r.Sampled, r.Actual, each)
	if err != nil {
		return nil, streaming.EstellaSummary{}, err
	}
	sum := r.Sched.Summary()
	streaming.Conclude(&sum.Summary, streaming.FrameReports(frames), r.gate)
	return frames, sum, nil
}

// Compare runs the route under both policies, for a side-by-side view.
func Compare(ctx context.Context, world *streaming.World, o Options) (*streaming.Comparison, error) {
	rt, err := NewRuntime(world, o)
	if err != nil {
		return nil, err
	}
	// Both over the modelled host; both count the world's assets, or
	// neither (--asset-costs off).
	o.Disk = nil
	seed, err := NewSeed(world, o)
	if err != nil {
		return nil, err
	}
	if _, _, err := seed.Run(ctx, nil); err != nil {
		return nil, err
	}
	if _, _, err := rt.Run(ctx, nil); err != nil {
		return nil, err
	}
	return &streaming.Comparison{Seed: seed.Sched.Summary(), Estella: rt.Sched.Summary()}, nil
}
