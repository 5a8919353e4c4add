package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/manifest"
	simreport "github.com/worldcook/worldcook/report"
	"github.com/worldcook/worldcook/sideout"
	"github.com/worldcook/worldcook/simulate"
	"github.com/worldcook/worldcook/streaming"
)

// simulateOptions is everything a simulate run needs, resolved from flags
// and config.
type simulateOptions struct {
	IO IO
	// World is the WORLD argument: a cooked directory, a manifest or a
	// scene ("" means cooked/).
	World      string
	Cfg        config.Simulate
	Components map[string]config.Component
	AssetRefs  config.AssetRefs
	Quiet      bool
	JSON       bool
	// ConfigFile is the configuration file read, an input of the run.
	ConfigFile string
}

// diskFramePeriod is how long a frame lasts with --io disk: real reads
// take real time, so frames must too (60 Hz). Tests shorten it.
var diskFramePeriod = time.Second / 60

// defaultWorld is the WORLD used when none is given: cook's default output.
const defaultWorld = "cooked"

func newSimulateCmd(a *app) *cobra.Command {
	opts := &simulateOptions{}
	cmd := &cobra.Command{
		Use:   "simulate --path ROUTE.csv [WORLD]",
		Short: "Replay a route through the streaming scheduler: holes, hitches, memory",
		Long: `Simulate answers the question a world builder asks before shipping: with
these cells, these radii and this budget, will the player see holes,
hitches or a memory spike along this path?

WORLD is a cooked directory (default cooked/, its manifest found as
world/*.world.json), a world manifest, or a scene (.esscene), which is cooked
in memory. A cooked world is checked before the first frame: it is refused
while an interrupted cook has left it mid-commit, and unless every file its
manifest lists has the manifest's size and blake3. The route is a CSV file
with a header: x and z on every row (x and y for a plane "xy" world);
optional columns y, frame and source. With a source column there is one
row per source per frame; a route may span 1000000 frames and hold
4194304 source positions (frames × sources). With --io disk a cell file
is read only from inside the cooked directory, only if it is a regular
file, and only up to its manifest size plus 4 KiB and a sixteenth (a
larger one is a failed load). Sources are the world's authored
WorldStreamingSources; --load-radius, --unload-radius and --prefetch-radius
override every source. A world without sources gets one per source named
in the route (3000/2000/3000 unless overridden; the report warns).

Each frame runs finish, evict, unload/cancel, publish and dispatch, as the
runtime does, and reports what it did; holes are cells within some source's
load radius that are not resident. IO is modelled (--latency-frames,
--io-bytes-per-frame; byte-identical reports across runs) or real (--io
disk: cell files read and decoded by --concurrency workers at 60 frames a
second, applied within --frame-budget-ms). Failed loads (--fail-rate,
--seed, or a missing or corrupt file) are retried --retries times (3) with
exponential backoff from --retry-backoff frames (2) and a --retry-timeout
(300 frames), then given up and reported.

--policy estella replaces this scheduler with Estella's own runtime one
(WorldStreamer): no budget, cap, pinning or LOD; every update it decides
which cells should exist and steps each through preparing, prepared,
publishing, resident and unloading over a modelled host, where a prepare
takes --latency-frames (or the --io-bytes-per-frame bandwidth), a publish
--publish-frames and an unload --unload-frames (0: at once, within the
frame). Settings it does not have are refused. The report adds prefetch
hits and misses, publishes started and each arrival's demand-to-resident
and dwell frames; the summary ends with the runtime's worldResidencyReport.
Both policies count the assets the manifest lists, shared between cells
by reference count (the runtime holds a cell's from the start of its
preparation until a discard or its unload completes); --asset-costs off
counts cell documents only. --compare runs the route under both policies
(the seed one with every setting given) and prints holes, peaks, loads
and asset peaks side by side.

A setting given as 0 means 0: --budget 0 still admits one request a frame,
--max-resident-bytes 0 evicts every unpinned cell, --pinned-radius 0 pins
only cells a source stands in, --lod-radius 0 gives proxies to every cell
not at distance 0. Leave a setting out for no budget, cap, pinning or LOD.

As a CI gate, --fail-on LIST fails the run (exit 1) when a condition
holds: holes (a hole after the warm-up: the frames up to the first one
at which every source's position is fully resident, or --warmup N
frames), over-budget (a frame dispatched more than --budget; the first
request of a frame always goes, so one cell larger than the budget is
enough), over-cap (a frame ended with more resident than
--max-resident-bytes, eviction notwithstanding) and failures (a load
given up after its retries). The warm-up excuses holes only. The summary
names the conditions that held, their frames and cells, and lists every
hole episode (frames, where the sources were, the missing cells and the
likely cause: start, latency, prefetch-radius, budget, in-flight,
eviction or failure); stderr gets the verdict in one line.

The report opens with warnings that change how it reads (cells larger
than the budget; radii assumed for a world without authored sources).
On a terminal the summary comes next, then the per-frame rows with sizes
in binary units; into a file or a pipe the rows come as they are made,
with exact byte counts, and the summary last. --summary-only leaves the
rows out. --timings prints to stderr how long loading the world and the
route, and the frames, took, and a frame's mean and p99 cost.

EXIT STATUS
  0  simulated; no --fail-on condition held
  1  a --fail-on condition held (holes, over-budget, over-cap, failures)
  2  unreadable, malformed, damaged or half-committed world, bad route, or bad usage`,
		Example: `  # replay the demo camera through the cooked demo world
  worldcook simulate --path testdata/demo/route.csv out/demo

  # CI: fail on pop-in after the warm-up and on memory over 64 MiB
  worldcook simulate --path route.csv --max-resident-bytes 67108864 \
    --fail-on holes,over-cap --summary-only cooked

  # the reference scheduler's model: centre distance, fixed latency, LOD
  worldcook simulate --path route.csv --distance center --latency-frames 3 \
    --budget 4096 --max-resident-bytes 12000 --pinned-radius 4 --lod-radius 7 cooked

  # what Estella's runtime would do on the route, and what a budget buys
  worldcook simulate --path route.csv --policy estella cooked
  worldcook simulate --path route.csv --budget 16384 --compare cooked

  # real reads with 4 workers and injected failures, plus drawings
  worldcook simulate --path route.csv --io disk --concurrency 4 --fail-rate 0.05 \
    --seed 7 --plot plot.svg --map map.svg cooked/world/main.world.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "simulate")
			if err != nil {
				return err
			}
			a.machine = cfg.JSON || cfg.Simulate.Format == simreport.FormatJSONL
			opts.IO = a.io
			opts.World = defaultWorld
			if len(args) == 1 {
				opts.World = args[0]
			}
			opts.Cfg = cfg.Simulate
			opts.Components = cfg.Components
			opts.AssetRefs = cfg.AssetRefs
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
			opts.ConfigFile = cfg.File
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
	rep, err := simreport.New(opts.IO.Out, opts.IO.Err, simreport.Options{Format: format, Terminal: opts.IO.OutTerminal, SummaryOnly: c.SummaryOnly})
	if err != nil {
		return inputErr(fmt.Errorf("%s: %v", c.Name(&c.Format), err))
	}
	openStart := time.Now()
	world, err := openWorld(ctx, opts)
	if err != nil {
		return inputErr(err)
	}
	openTime := time.Since(openStart)
	if world.Plane == manifest.PlaneXY && (run.Policy == simulate.Estella || run.Compare) && !opts.Quiet {
		fmt.Fprintf(opts.IO.Err, "worldcook: warning: %s is cut on x and y: %s; this run shows the cells the runtime would stream, and the holes where the sources really stand\n", world.Scene, manifest.XYRuntimeNote)
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

// drawings is where simulate's pictures are written: never over a file the
// run read (the configuration, the route, the world's manifests and cells).
func drawings(opts *simulateOptions, world *streaming.World) *sideout.Guard {
	side := sideout.New(opts.ConfigFile, opts.Cfg.Path, opts.World)
	manifests, _ := filepath.Glob(filepath.Join(opts.World, manifest.WorldDir, "*.world.json"))
	side.Inputs(manifests...)
	for _, cell := range world.Cells {
		side.InputsIn(world.Files, cell.Path)
	}
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
	o := simulate.Options{
		Policy: simulate.Policy(c.Policy), Compare: c.Compare,
		Route: c.Path, Settings: set, Model: model, Gate: gate,
		Radii:         simulate.Radii{Load: c.LoadRadius, Unload: c.UnloadRadius, Prefetch: c.PrefetchRadius},
		PublishFrames: c.PublishFrames, UnloadFrames: c.UnloadFrames,
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

// openWorld resolves WORLD: a cooked directory, a manifest, or a scene.
func openWorld(ctx context.Context, opts *simulateOptions) (*streaming.World, error) {
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, false, opts.Components)
	if err != nil {
		return nil, err
	}
	assetOptions(&vopts, opts.AssetRefs)
	o := cook.OpenOptions{Validate: vopts, ScenesRoot: opts.Cfg.ScenesRoot}
	if len(opts.Cfg.Assets) > 0 {
		o.Project = opts.Cfg.Assets[0]
	}
	if opts.World == defaultWorld {
		o.Missing = "cook a scene first (worldcook cook SCENE) or pass the world to simulate"
	}
	return simulate.Open(ctx, opts.World, o)
}

// warnPlane tells a user cooking or validating a world cut on X and Y that
// Estella's own runtime will not stream it as cut.
func warnPlane(w io.Writer, plane string, quiet bool) {
	if plane == manifest.PlaneXY && !quiet {
		fmt.Fprintf(w, "worldcook: warning: --plane xy: %s\n", manifest.XYRuntimeNote)
	}
}
