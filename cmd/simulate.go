package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/config"
	simreport "github.com/worldcook/worldcook/internal/report"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// simulateOptions is everything a simulate run needs, resolved from flags
// and config.
type simulateOptions struct {
	IO IO
	// World is the WORLD argument: a cooked directory, a manifest or a
	// scene; without one, cook's output (cook.out, default cooked/).
	World string
	// Defaulted says World is cook's output, not an argument.
	Defaulted  bool
	Cfg        config.Simulate
	Components map[string]config.Component
	AssetRefs  config.AssetRefs
	Quiet      bool
	JSON       bool
	// ConfigFile is the configuration file read, an input of the run.
	ConfigFile string
	// PlaneFrom says where simulate's plane was set ("" for the default).
	PlaneFrom string
	// Args is the command line, for advice that repeats it.
	Args []string
	// Tune says the run is tune's, whose advice names tune.
	Tune bool
	// Set is the route set Cfg.Path is one of (simulate --path DIR): its
	// files are inputs of the run too, and its pages list each other.
	Set *routeSet

	// side guards the run's drawings: claimed before the world is
	// opened, told every file Open reads.
	side *sidefile.Guard
}

// diskFramePeriod is how long a frame lasts with --io disk: real reads
// take real time, so frames must too (60 Hz). Tests shorten it.
var diskFramePeriod = time.Second / 60

func newSimulateCmd(a *app) *cobra.Command {
	opts := &simulateOptions{}
	cmd := &cobra.Command{
		Use:   "simulate --path ROUTE.csv [WORLD]",
		Short: "Replay a route through the streaming scheduler: holes, hitches, memory",
		Long: `Simulate replays a camera route through the streaming scheduler and reports, frame by frame,
what it loaded, evicted and cancelled, and where the player would see a hole: a cell within
some source's load radius that is not resident.

WORLD is a cooked directory (default: cook.out, cooked/), a world manifest or a scene
(.esscene), cooked in memory. The route, given with --path, is a CSV file: a header, then x
and z on every row (y, frame and source optional). It drives the sources its source column
names, or the first enabled one; the others stay where they were authored (a warning says
so). Sources are the world's authored WorldStreamingSources; the radius flags override every
source.

IO is modelled (byte-identical reports) or real (--io disk); failed loads are retried.
--policy budgeted (seed is an alias) is worldcook's scheduler; --policy estella runs Estella's
own runtime scheduler instead, --compare both. A setting given as 0 means 0; leave it out for
no budget, cap, pinning or LOD. --fail-on makes the run a CI gate (exit 1); with --compare it
fails when a condition holds under either policy, naming it. --cell-states lists each
frame's cells by state in jsonl.

Exit status: 'worldcook help exit-codes'. Everything else: docs/simulate.md.`,
		Example: `  # replay the demo camera through the cooked demo world
  worldcook simulate --path testdata/demo/route.csv out/demo

  # CI: fail on pop-in after the warm-up and on memory over 64 MiB
  worldcook simulate --path route.csv --max-resident-bytes 64MiB \
    --fail-on holes,over-cap --summary-only cooked

  # what Estella's runtime would do on the route, and what a budget buys
  worldcook simulate --path route.csv --policy estella cooked
  worldcook simulate --path route.csv --budget 16KiB --compare cooked`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "simulate")
			if err != nil {
				return err
			}
			a.machine = cfg.JSON || cfg.Simulate.Format == simreport.FormatJSONL
			opts.IO = a.io
			opts.Args = a.args
			// Without WORLD, the world is what cook writes: cook.out.
			opts.World, opts.Defaulted = cfg.Simulate.DefaultWorld, true
			if len(args) == 1 {
				opts.World, opts.Defaulted = args[0], false
			}
			opts.Cfg = cfg.Simulate
			opts.Components = cfg.Components
			opts.AssetRefs = cfg.AssetRefs
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
			opts.ConfigFile = cfg.File
			opts.PlaneFrom = cfg.PlaneFrom("simulate")
			return runSimulate(cmd.Context(), opts)
		},
	}
	settings(cmd, "simulate", cmd.Flags())
	return cmd
}

func runSimulate(ctx context.Context, opts *simulateOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Cfg.Path == "" {
		return runSimulateOne(ctx, opts)
	}
	files, err := routeFiles(opts.Cfg.Path)
	if err != nil {
		return inputErr(err)
	}
	if len(files) == 1 && files[0] == opts.Cfg.Path {
		return runSimulateOne(ctx, opts)
	}
	return runRouteSet(ctx, opts, files)
}

func runSimulateOne(ctx context.Context, opts *simulateOptions) error {
	c := opts.Cfg
	run, err := simulateRun(opts)
	if err != nil {
		return inputErr(err)
	}
	format := c.Format
	if opts.JSON {
		format = simreport.FormatJSONL
	}
	if c.Path == "" {
		return inputErr(errors.New("simulate needs a route: pass --path route.csv (a CSV file with a header and x,z columns)"))
	}
	if err := run.Check(); err != nil {
		return inputErr(err)
	}
	if c.Compare && (c.Plot != "" || c.Map != "") {
		return inputErr(errors.New("--compare prints a comparison only; drop --plot and --map, or draw each policy in its own run"))
	}
	rep, err := simreport.New(opts.IO.Out, opts.IO.Err, simreport.Options{Format: format, Terminal: opts.IO.OutTerminal, SummaryOnly: c.SummaryOnly, Rows: c.Rows})
	if err != nil {
		return inputErr(fmt.Errorf("%s: %v", c.Name(&c.Format), err))
	}
	side := simulateSide(opts)
	if opts.Set != nil {
		side.Inputs(opts.Set.files...)
	}
	for _, o := range []struct{ file, flag string }{{c.HTML, "--html"}, {c.Plot, "--plot"}, {c.Map, "--map"}} {
		if err := side.Claim(o.file, o.flag); err != nil {
			return inputErr(err)
		}
	}
	opts.side = side
	openStart := time.Now()
	world, err := openWorld(ctx, opts)
	if err != nil {
		return inputErr(worldAdvice(opts, err))
	}
	openTime := time.Since(openStart)
	// Before a long run, not after it: none of the drawings may be a
	// file the world was read from (its scene, a material, a texture).
	if err := drawings(opts, world).Recheck(); err != nil {
		return inputErr(err)
	}
	if !opts.Quiet {
		run.Watch = rep.Watch(run)
	}
	res, err := simulate.Run(ctx, world, run)
	switch {
	case err != nil && (rep.Err() != nil || ctx.Err() != nil):
		return fmt.Errorf("writing the report: %v", err)
	case err != nil:
		return inputErr(err)
	}
	if !opts.Quiet {
		if err := rep.Finish(res); err != nil {
			return err
		}
		if c.Timings && !res.Compare && res.Runs[0].Policy == simulate.Budgeted {
			p := res.Runs[0]
			writeSimulateTimings(opts.IO.Err, openTime+p.Setup, p.Stepping, p.Frames)
		}
	}
	if !res.Compare {
		if err := draw(opts, run, res.Runs[0]); err != nil {
			return err
		}
	}
	if opts.Set != nil {
		opts.Set.ran(res)
	}
	if c.HTML != "" {
		if err := writeTimeline(opts, run, res); err != nil {
			return err
		}
	}
	if v := res.Verdict; v != nil && v.Failed {
		return &ExitError{Code: ExitFindings, Err: fmt.Errorf("simulate %s", v.Message)}
	}
	return nil
}

// draw writes the run's --plot and --map, whichever were asked for.
func draw(opts *simulateOptions, o simulate.Options, p *simulate.PolicyRun) error {
	c := opts.Cfg
	if c.Plot == "" && c.Map == "" {
		return nil
	}
	side := drawings(opts, p.World)
	if c.Plot != "" {
		if err := side.WriteFile(c.Plot, "--plot", simreport.PlotRun(p, o).WriteSVG); err != nil {
			return inputErr(err)
		}
	}
	if c.Map != "" {
		if err := side.WriteFile(c.Map, "--map", simreport.MapRun(p, o).WriteSVG); err != nil {
			return inputErr(err)
		}
	}
	return nil
}

// writeTimeline writes the --html page, and says what it leaves out.
func writeTimeline(opts *simulateOptions, o simulate.Options, res *simulate.Result) error {
	tl, err := simreport.NewTimeline(res, o)
	if err != nil {
		return err
	}
	if opts.Set != nil {
		// Written when the whole set has run: each page lists them all.
		opts.Set.pages = append(opts.Set.pages, pendingPage{opts: opts, tl: tl, world: res.Runs[0].World})
		return nil
	}
	if err := drawings(opts, res.Runs[0].World).WriteFile(opts.Cfg.HTML, "--html", tl.WriteHTML); err != nil {
		return inputErr(err)
	}
	for _, l := range tl.LeftOut {
		if !opts.Quiet {
			fmt.Fprintf(opts.IO.Err, "worldcook: warning: --html %s: %s\n", opts.Cfg.HTML, l)
		}
	}
	return nil
}

// drawings is where simulate's pictures are written: never over a file the
// run read (the configuration, the routes, the world's manifests, cells
// and persistent world, its scene, prefabs, assets and their sidecars).
func drawings(opts *simulateOptions, world *streaming.World) *sidefile.Guard {
	side := opts.side
	if side == nil {
		side = simulateSide(opts)
		opts.side = side
	}
	manifests, _ := filepath.Glob(filepath.Join(opts.World, manifest.WorldDir, "*.world.json"))
	side.Inputs(manifests...)
	for _, cell := range world.Cells {
		side.InputsIn(world.Files, cell.Path)
	}
	return side
}

// simulateSide is the guard of simulate's side outputs: over the
// configuration, the routes and the world, and the names any cook keeps
// in the cooked world read and in the folders the outputs go to.
func simulateSide(opts *simulateOptions) *sidefile.Guard {
	side := sidefile.New(opts.ConfigFile, opts.Cfg.Path, opts.World)
	c := opts.Cfg
	cook.ReserveAround(side, opts.World, c.HTML, c.Plot, c.Map)
	return side
}

// writeSimulateTimings prints where the time went: loading (the world
// opened, checked and the route read), the frames, and one frame.
func writeSimulateTimings(w io.Writer, load, run time.Duration, reports []streaming.FrameReport) {
	cost := streaming.Costs(reports)
	fmt.Fprintf(w, "timings\n")
	fmt.Fprintf(w, "  %-10s %10s (open and check the world, read the route)\n", "load", duration(load))
	fmt.Fprintf(w, "  %-10s %10s (%d frames, writing the report included)\n", "frames", duration(run), cost.Frames)
	fmt.Fprintf(w, "  %-10s %10s mean, %s p99, %s max (stepping only)\n", "per frame", duration(cost.Mean), duration(cost.P99), duration(cost.Max))
}

// duration renders a time in ms, or in µs below a millisecond.
func duration(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
	}
	return fmt.Sprintf("%.3f ms", float64(d.Nanoseconds())/1e6)
}

// simulateGate reads --fail-on and --warmup.
func simulateGate(c config.Simulate, set streaming.Settings) (streaming.Gate, error) {
	var g streaming.Gate
	failOn, err := streaming.ParseFailOn(c.FailOn)
	if err != nil {
		return g, fmt.Errorf("%s: %v", c.Name(&c.FailOn), err)
	}
	g.FailOn, g.Warmup = failOn, c.Warmup
	if err := g.Check(set); err != nil {
		return g, fmt.Errorf("%s: %v", c.Name(&c.FailOn), err)
	}
	return g, nil
}

// simulateSettings turns the settings into the scheduler's rules and the
// IO model; the scheduler checks its own rules again for callers that do
// not come through the command line.
func simulateSettings(c config.Simulate) (streaming.Settings, streaming.ModelIO, error) {
	dist, err := streaming.ParseDistance(c.Distance)
	if err != nil {
		return streaming.Settings{}, streaming.ModelIO{}, fmt.Errorf("%s: %v", c.Name(&c.Distance), err)
	}
	retry := streaming.DefaultRetry()
	retry.Retries, retry.BackoffFrames, retry.TimeoutFrames = c.Retries, c.RetryBackoff, c.RetryTimeout
	set := streaming.Settings{
		Distance:         dist,
		Budget:           c.Budget,
		MaxInFlight:      c.MaxInFlight,
		LODRadius:        c.LODRadius,
		MaxResidentBytes: c.MaxResidentBytes,
		PinnedRadius:     c.PinnedRadius,
		EvictCooldown:    c.EvictCooldown,
		Retry:            retry,
	}
	model := streaming.ModelIO{
		LatencyFrames: c.LatencyFrames,
		BytesPerFrame: c.IOBytesPerFrame,
		Fail:          streaming.FailureModel{Rate: c.FailRate, Seed: c.Seed},
	}
	return set, model, nil
}

// simulateRun maps the settings onto a run's options. Each value was
// checked when it was resolved (config declares each setting's rules, and
// names the flag, variable or file line a bad value came from).
func simulateRun(opts *simulateOptions) (simulate.Options, error) {
	c := opts.Cfg
	set, model, err := simulateSettings(c)
	if err != nil {
		return simulate.Options{}, err
	}
	set.IgnoreAssets = c.AssetCosts == "off"
	gate, err := simulateGate(c, set)
	if err != nil {
		return simulate.Options{}, err
	}
	view, err := viewSetting(&c)
	if err != nil {
		return simulate.Options{}, err
	}
	o := simulate.Options{
		View:   view,
		Policy: simulate.Policy(c.Policy), Compare: c.Compare,
		Route: c.Path, Settings: set, Model: model, Gate: gate,
		Radii:         simulate.Radii{Load: c.LoadRadius, Unload: c.UnloadRadius, Prefetch: c.PrefetchRadius},
		PublishFrames: c.PublishFrames, UnloadFrames: c.UnloadFrames,
		CellStates: c.CellStates || c.HTML != "", // the page shows them
		PlaneFrom:  "its manifest, as it was cooked",
	}
	if strings.HasSuffix(opts.World, ".esscene") {
		// A scene is cut in memory with simulate's plane.
		o.PlaneFrom = opts.PlaneFrom
	}
	if c.IO == "disk" {
		o.Disk = &simulate.Disk{
			Concurrency: c.Concurrency,
			FrameBudget: time.Duration(c.FrameBudgetMS * float64(time.Millisecond)),
			FramePeriod: diskFramePeriod,
		}
	}
	return o, nil
}

// viewSetting is the view --view-size or --view-distance gives every
// source (nil when neither is set).
func viewSetting(c *config.Simulate) (*streaming.View, error) {
	switch {
	case c.ViewSize != nil && c.ViewDistance != nil:
		return nil, fmt.Errorf("%s and %s both set the view: give a rectangle (an orthographic camera) or a distance (a perspective one), not both", c.Name(&c.ViewSize), c.Name(&c.ViewDistance))
	case c.ViewSize != nil:
		w, h, err := config.ParseExtent(*c.ViewSize)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name(&c.ViewSize), err)
		}
		return &streaming.View{HalfWidth: w / 2, HalfHeight: h / 2}, nil
	case c.ViewDistance != nil:
		if !(*c.ViewDistance > 0) {
			return nil, fmt.Errorf("%s must be above 0: a view of radius 0 shows nothing", c.Name(&c.ViewDistance))
		}
		return &streaming.View{Disc: true, Radius: *c.ViewDistance}, nil
	}
	return nil, nil
}

// openWorld resolves WORLD: a cooked directory, a manifest, or a scene.
func openWorld(ctx context.Context, opts *simulateOptions) (*streaming.World, error) {
	o, err := openOptions(opts)
	if err != nil {
		return nil, err
	}
	return simulate.Open(ctx, opts.World, o)
}

// openOptions says how WORLD is opened: a scene is cooked in memory with
// the simulate section's plane, levels, scenes root and assets.
func openOptions(opts *simulateOptions) (cook.OpenOptions, error) {
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, false, opts.Components)
	if err != nil {
		return cook.OpenOptions{}, err
	}
	assetOptions(&vopts, opts.AssetRefs)
	vopts.Levels = opts.Cfg.Levels
	o := cook.OpenOptions{Validate: vopts, ScenesRoot: opts.Cfg.ScenesRoot}
	if opts.side != nil {
		o.Read = opts.side.Inputs
	}
	if len(opts.Cfg.Assets) > 0 {
		o.Project = opts.Cfg.Assets[0]
	}
	if opts.Defaulted {
		o.Missing = missingWorldAdvice(opts)
	}
	return o, nil
}

// warnPlane tells a user cooking, validating or making a world cut on X
// and Y, once a command, that Estella's own runtime will not stream it as
// cut, and where the plane was set.
func warnPlane(io IO, plane, from string, quiet bool) {
	if plane == manifest.PlaneXY && !quiet {
		printDiagnostic(io, diag.Diagnostic{Code: "xy-plane", Severity: diag.SeverityWarning, Message: manifest.XYPlane(from, false)})
	}
}
