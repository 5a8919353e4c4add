// Package simulate is a run of `worldcook simulate`: it opens a world (a
// cooked one, or a scene cooked in memory), binds a camera route to its
// streaming sources, builds the scheduler of a policy with its IO, runs
// the route through it and concludes the CI gate. The command adapts its
// settings to Options and renders the Result a run returns; the protocol
// lives here, once, for every policy.
//
// A world is opened once and may be run many times, from several
// goroutines at once: a run reads the world and never changes it.
package simulate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// Policy names a scheduling policy.
type Policy string

// The scheduling policies (--policy).
const (
	// Budgeted is worldcook's scheduler (docs: README "simulate"): a
	// per-frame byte budget, a resident cap, pinning, LOD, retries.
	Budgeted Policy = "budgeted"
	// Estella is a model of Estella's runtime (WorldStreamer), over a
	// modelled host.
	Estella Policy = "estella"
)

// policyDef is one scheduling policy: how it runs a route and what it
// refuses. A new policy is one more entry in policies (and its name in
// the --policy enum of internal/config/config.go).
type policyDef struct {
	name Policy
	// start sets up the run of route through world; start is when the
	// run began, for PolicyRun.Setup.
	start func(ctx context.Context, world *streaming.World, route *streaming.Route, o Options, start time.Time) (*Stepping, error)
	// refuse says why o cannot run under the policy alone (nil when it
	// can). A comparison is refused apart: it runs Budgeted and Estella.
	refuse func(o Options) error
}

// policies are the scheduling policies, in the order messages name them.
var policies = []policyDef{
	{Budgeted, startBudgeted, func(Options) error { return nil }},
	{Estella, startEstella, func(o Options) error {
		if o.Disk != nil {
			return errDiskPolicy
		}
		return estellaRefusals(o.Settings)
	}},
}

// policyOf returns the definition of policy p.
func policyOf(p Policy) (policyDef, bool) {
	for _, d := range policies {
		if d.name == p {
			return d, true
		}
	}
	return policyDef{}, false
}

// Policies are the names of the scheduling policies.
func Policies() []Policy {
	out := make([]Policy, len(policies))
	for k, d := range policies {
		out[k] = d.name
	}
	return out
}

// Options are what a run needs besides the world.
type Options struct {
	// Policy is the scheduler ("" is Budgeted). Compare runs the route
	// under both, over the modelled host, the budgeted one with every
	// setting given; Policy is then ignored.
	Policy  Policy
	Compare bool
	// Route is the route CSV.
	Route string
	// Parsed, when set, is the route already read (streaming.ReadRoute),
	// used instead of reading Route again: a caller running one route
	// many times reads it once. Route still names it in messages.
	Parsed *streaming.Route
	// Radii override every source's radii where set.
	Radii Radii
	// PlaneFrom says where the world's plane was set, for the xy-plane
	// warning: the setting that cut a scene opened in memory ("--plane",
	// "worldcook.yaml:1:8: plane"), or "" for a cooked world, whose
	// manifest says it.
	PlaneFrom string
	// View, when set, is every source's view, whatever the scene says
	// (--view-size, --view-distance); nil leaves each source the view of
	// its camera, and a source assumed for a world without authored ones
	// the main camera's.
	View *streaming.View
	// Settings are the budgeted scheduler's; Model times modelled IO (and
	// the runtime's preparations).
	Settings streaming.Settings
	Model    streaming.ModelIO
	// Disk, when set, reads and decodes the cooked files for real (the
	// budgeted policy only).
	Disk *Disk
	// Gate is what fails the run (--fail-on, --warmup); under Compare it
	// judges both policies.
	Gate streaming.Gate
	// PublishFrames and UnloadFrames time the runtime's publishes and
	// unloads.
	PublishFrames, UnloadFrames int
	// CellStates makes every frame report carry the cells resident,
	// prepared, loading and (under Estella's runtime) unloading at its end
	// (streaming.FrameReport.ResidentCells and the others); off, a frame
	// costs nothing for them.
	CellStates bool
	// Watch, when set, sees the run as it goes.
	Watch Watch
	// Frames, when its capacity holds the route's frames, is the array
	// the budgeted policy's frame reports are written into
	// (PolicyRun.Frames shares it): a caller running many short routes
	// and done with each run's frames before the next reuses one.
	Frames []streaming.FrameReport
	// Stream, when set, is the route's shared stream (NewStream, or a
	// window of it, NewWindow, for this world, route and policy): the
	// scheduler reads its distances from it instead of measuring them,
	// with the same figures. Runs of many settings over one route share
	// one.
	Stream *streaming.Stream
	// Frameless makes the run keep no frame reports (PolicyRun.Frames and
	// Runtime nil), its summary and gate concluded as the frames go: for
	// a caller that reads each frame through Watch.Frame and runs many at
	// once (tune), whose memory would otherwise grow with every run's
	// route.
	Frameless bool
}

// begin marks the end of a policy's setup and calls the Watch's Begin.
func (o Options) begin(run *PolicyRun, start time.Time) (stepping time.Time, err error) {
	run.Setup = time.Since(start)
	if o.Watch.Begin != nil {
		if err := o.Watch.Begin(run); err != nil {
			return time.Time{}, err
		}
	}
	return time.Now(), nil
}

// Watch follows a run as it goes, for a report that writes its rows as
// they are made. Either hook may be nil, and either may stop the run by
// returning an error, which Run returns.
type Watch struct {
	// Begin is called once per policy, before its first frame, with the
	// policy's run set up: its warnings and whether it counts assets are
	// known, its frames not yet.
	Begin func(p *PolicyRun) error
	// Frame is called with each frame's report as it is made; rt holds
	// the runtime's additions under the Estella policy (nil otherwise).
	Frame func(p *PolicyRun, f *streaming.FrameReport, rt *streaming.RuntimeFrame) error
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

// Open opens WORLD: a cooked directory, a manifest, or a scene. Open a
// world once and Run it as often as needed.
func Open(ctx context.Context, world string, o cook.OpenOptions) (*streaming.World, error) {
	return cook.Open(ctx, world, o)
}

// Result is what a run did.
type Result struct {
	// Runs holds one run per policy: the policy asked for, or under
	// Compare the budgeted one and then Estella's runtime.
	Runs []*PolicyRun
	// Compare says the runs are a comparison.
	Compare bool
	// Verdict is the gate's conclusion over every run (nil without
	// --fail-on conditions).
	Verdict *Verdict
}

// PolicyRun is the route run under one policy: the frame reports, the
// summary with its gate, and what the drawings need.
type PolicyRun struct {
	Policy Policy
	World  *streaming.World
	// Warnings change how the report reads: a world cut on x and y, a
	// world that streams nothing, a route outside the world, authored
	// sources the route does not drive, radii assumed for a world
	// without sources, cells larger than the per-frame budget (the last
	// two under the budgeted policy).
	Warnings []streaming.Warning
	// Assets says the run counts the world's assets.
	Assets bool
	// Settings are the settings the policy ran with (the budgeted
	// scheduler's; zero under Estella's runtime).
	Settings streaming.Settings
	// Frames are every frame's report; Runtime, under Estella's runtime,
	// the runtime's additions to each (nil otherwise).
	Frames  []streaming.FrameReport
	Runtime []streaming.RuntimeFrame
	// Summary totals the run, its hole episodes and gate concluded;
	// RuntimeReport is Estella's worldResidencyReport at the end (nil
	// under the budgeted policy).
	Summary       streaming.Summary
	RuntimeReport *streaming.RuntimeReport
	// Sources are the sources as the scheduler holds them, Route where
	// they stood frame by frame, and Loads how often each of the world's
	// cells was requested: what the map draws.
	Sources []streaming.Source
	Route   [][]streaming.Point
	Loads   []int
	// Sampled, under Estella's runtime on a world cut on x and y, are
	// where the runtime samples each source frame by frame: on X and Z,
	// whatever the plane, while Route holds where they stand on it (nil
	// when the two are the same).
	Sampled [][]streaming.Point
	// Setup is the time the run took to read and bind the route and
	// build the scheduler, Stepping the time its frames took (the Watch's
	// included): real times, for --timings, never part of a report.
	Setup, Stepping time.Duration
	// Fed is the number of frames whose distances the run read from
	// Options.Stream rather than measured.
	Fed int
}

// EstellaSummary is the run's summary in the shape of the runtime
// scheduler's (Estella's runtime only; the zero value otherwise).
func (p *PolicyRun) EstellaSummary() streaming.EstellaSummary {
	s := streaming.EstellaSummary{Summary: p.Summary}
	if p.RuntimeReport != nil {
		s.Runtime = *p.RuntimeReport
	}
	return s
}

// Run runs the route through world under the policy of o, or both with
// o.Compare, and concludes the gate. world is only read: one opened
// world may be run many times, concurrently. A cancelled ctx stops the
// run between frames with ctx's error.
func Run(ctx context.Context, world *streaming.World, o Options) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	policies := []Policy{o.policy()}
	if o.Compare {
		policies = []Policy{Budgeted, Estella}
	}
	start := time.Now()
	route, err := o.route(world)
	if err != nil {
		return nil, err
	}
	res := &Result{Compare: o.Compare}
	for _, p := range policies {
		def, _ := policyOf(p) // Check knows it
		s, err := def.start(ctx, world, route, o, start)
		if err != nil {
			return nil, err
		}
		run, err := s.stepAll()
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, run)
		start = time.Now()
	}
	res.Verdict = verdict(res)
	return res, nil
}

// route is o's route, read unless given, and refused when drawn on a
// plane world is not cut on.
func (o Options) route(world *streaming.World) (*streaming.Route, error) {
	route := o.Parsed
	if route == nil {
		var err error
		if route, err = streaming.ReadRoute(o.Route); err != nil {
			return nil, err
		}
	}
	if err := drawnOnOtherPlane(world, route); err != nil {
		return nil, err
	}
	return route, nil
}

// drawnOnOtherPlane refuses a route drawn on the plane a world is laid
// out on but not cut on (a 2D route of x,y on a 2D world cut on x and z),
// saying what to cut it on: the route's own error would only ask for the
// missing column.
func drawnOnOtherPlane(world *streaming.World, route *streaming.Route) error {
	other, says := world.Layout.Mismatch(world.Plane, world.CellSize)
	switch {
	case other == manifest.PlaneXY && route.HasY && !route.HasZ,
		other == manifest.PlaneXZ && route.HasZ && !route.HasY:
		return fmt.Errorf("%s: the route is drawn on %s, and %s %s: set plane: %s at the top of worldcook.yaml (worldcook init --plane %s --write writes it there), and cook a cooked world again",
			route.File, map[string]string{manifest.PlaneXY: "x and y", manifest.PlaneXZ: "x and z"}[other], world.Scene, says, other, other)
	}
	return nil
}

// setupWarnings are the warnings every policy's run of route over world
// gives (the plane, sources the route leaves standing), then the policy's
// own. Both policies give the shared ones alike, so that a comparison
// shows each once.
func setupWarnings(world *streaming.World, route *streaming.Route, o Options, own ...[]streaming.Warning) []streaming.Warning {
	// Under a comparison both runs say it as the runtime's, once.
	runtime := o.policy() == Estella || o.Compare
	ws := append(streaming.PlaneXY(world, o.PlaneFrom, runtime), streaming.PlaneMismatch(world)...)
	ws = append(ws, streaming.NothingStreams(world)...)
	if w := route.Outside(world); w != nil {
		ws = append(ws, *w)
	}
	ws = append(ws, route.Undriven(world.Sources, world.Plane)...)
	for _, w := range own {
		ws = append(ws, w...)
	}
	return ws
}

// Warnings are the warnings of a result's runs, each once, in run order:
// what a comparison shows above its table.
func (r *Result) Warnings() []streaming.Warning {
	var out []streaming.Warning
	for _, run := range r.Runs {
		for _, w := range run.Warnings {
			if !slices.ContainsFunc(out, func(o streaming.Warning) bool {
				return o.Code == w.Code && o.Message == w.Message && slices.Equal(o.Cells, w.Cells)
			}) {
				out = append(out, w)
			}
		}
	}
	return out
}

// policy is the policy asked for.
func (o Options) policy() Policy {
	if o.Policy == "" {
		return Budgeted
	}
	return o.Policy
}

// Check refuses options no run can honour, before any world is opened:
// an unknown policy, real IO under Estella's runtime or a comparison,
// and settings the runtime does not have. Run checks them too.
func (o Options) Check() error {
	p := o.policy()
	def, ok := policyOf(p)
	switch {
	case !ok:
		names := make([]string, len(policies))
		for k, d := range policies {
			names[k] = string(d.name)
		}
		return fmt.Errorf("policy %q must be %s or %s", p, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	case o.Compare && o.Disk != nil:
		return errDiskPolicy
	case o.Compare:
		return nil // the budgeted policy gets every setting
	}
	return def.refuse(o)
}

// template is the source a world without authored sources gets for each
// source its route names: the WorldStreamingSource defaults, with the
// overrides applied.
func (o Options) template(view *streaming.View) streaming.Source {
	s := streaming.Source{Name: "camera", Enabled: true,
		Prefetch: manifest.DefaultPrefetchRadius, Load: manifest.DefaultLoadRadius, Unload: manifest.DefaultUnloadRadius,
		View: view}
	o.Radii.apply(&s)
	return s
}

// bind places the route on the given sources of a world cut on plane,
// with the radius overrides applied to every source. With onXZ the route
// is read as Estella's runtime samples a source, on x and z whatever the
// plane.
func (o Options) bind(rt *streaming.Route, sources []streaming.Source, view *streaming.View, plane string, onXZ bool) ([]streaming.Source, [][]streaming.Point, error) {
	if onXZ {
		rt, plane = rt.OnXZ(), manifest.PlaneXZ
	}
	bound, frames, err := rt.Bind(sources, plane, o.template(view))
	if err != nil {
		return nil, nil, err
	}
	for i := range bound {
		o.Radii.apply(&bound[i])
		if o.View != nil {
			bound[i].View = o.View
		}
	}
	if err := streaming.CheckSources(bound); err != nil {
		return nil, nil, fmt.Errorf("%v (set --load-radius, --unload-radius and --prefetch-radius, or fix the scene's WorldStreamingSource)", err)
	}
	return bound, frames, nil
}

// needView refuses a gate on pop-in where no source has a view: it could
// never fail, and would pass a CI job that meant to check the player's
// view.
func (o Options) needView(sources []streaming.Source) error {
	if slices.Contains(o.Gate.FailOn, streaming.FailPopIn) && !streaming.HasView(sources) {
		return streaming.ErrNoView
	}
	return nil
}
