package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/regular"
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
	Quiet      bool
	JSON       bool
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
in the route (3000/2000/3000 unless overridden).

Each frame runs finish, evict, unload/cancel, publish and dispatch, as the
runtime does, and reports what it did; holes are cells within some source's
load radius that are not resident. IO is modelled (--latency-frames,
--io-bytes-per-frame; byte-identical reports across runs) or real (--io
disk: cell files read and decoded by --concurrency workers at 60 frames a
second, applied within --frame-budget-ms). Failed loads (--fail-rate,
--seed, or a missing or corrupt file) are retried --retries times (3) with
exponential backoff from --retry-backoff frames (2) and a --retry-timeout
(300 frames), then given up and reported.

A setting given as 0 means 0: --budget 0 still admits one request a frame,
--max-resident-bytes 0 evicts every unpinned cell, --pinned-radius 0 pins
only cells a source stands in, --lod-radius 0 gives proxies to every cell
not at distance 0. Leave a setting out for no budget, cap, pinning or LOD.

EXIT STATUS
  0  simulated
  2  unreadable, malformed, damaged or half-committed world, bad route, or bad usage`,
		Example: `  # replay the demo camera through the cooked demo world
  worldcook simulate --path testdata/demo/route.csv out/demo

  # the reference scheduler's model: centre distance, fixed latency, LOD
  worldcook simulate --path route.csv --distance center --latency-frames 3 \
    --budget 4096 --max-resident-bytes 12000 --pinned-radius 4 --lod-radius 7 cooked

  # real reads with 4 workers and injected failures, plus drawings
  worldcook simulate --path route.csv --io disk --concurrency 4 --fail-rate 0.05 \
    --seed 7 --plot plot.svg --map map.svg cooked/world/main.world.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "simulate")
			if err != nil {
				return err
			}
			opts.IO = a.io
			opts.World = defaultWorld
			if len(args) == 1 {
				opts.World = args[0]
			}
			opts.Cfg = cfg.Simulate
			opts.Components = cfg.Components
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
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
	set, model, err := simulateSettings(c)
	if err != nil {
		return inputErr(err)
	}
	format := c.Format
	if opts.JSON {
		format = streaming.FormatJSONL
	}
	if format == "" {
		format = streaming.FormatTable
	}
	report, err := streaming.NewReportWriter(format, opts.IO.Out)
	if err != nil {
		return inputErr(fmt.Errorf("%s: %v", c.Name(&c.Format), err))
	}
	if c.Path == "" {
		return inputErr(errors.New("simulate needs a route: pass --path route.csv (a CSV file with a header and x,z columns)"))
	}
	world, err := openWorld(ctx, opts)
	if err != nil {
		return inputErr(err)
	}
	sources, frames, err := readRoute(c, world)
	if err != nil {
		return inputErr(err)
	}

	var loader streaming.Loader = streaming.NewModelLoader(model)
	pace := time.Duration(0)
	if c.IO == "disk" {
		loader, err = streaming.NewDiskLoader(streaming.DiskIO{
			Files:       world.Files,
			Concurrency: c.Concurrency,
			FrameBudget: time.Duration(c.FrameBudgetMS * float64(time.Millisecond)),
			Fail:        model.Fail,
		})
		if err != nil {
			return inputErr(err)
		}
		pace = diskFramePeriod
	}
	sched, err := streaming.NewScheduler(world, sources, set, loader)
	if err != nil {
		loader.Close()
		return inputErr(err)
	}
	each := func(r *streaming.FrameReport) error { return report.Frame(r) }
	if opts.Quiet {
		each = nil
	}
	reports, err := streaming.Run(ctx, sched, frames, pace, each)
	sched.Close()
	if err != nil {
		return fmt.Errorf("writing the report: %v", err)
	}
	sum := sched.Summary()
	if !opts.Quiet {
		if err := report.Summary(&sum); err != nil {
			return err
		}
		if err := report.Flush(); err != nil {
			return err
		}
		if format == streaming.FormatCSV {
			// A CSV holds frames only; the totals go to stderr for a person.
			if err := streaming.WriteSummary(opts.IO.Err, &sum); err != nil {
				return err
			}
		}
	}
	title := fmt.Sprintf("%s along %s", world.Scene, filepath.Base(c.Path))
	subtitle := describe(c, set, len(reports))
	if c.Plot != "" {
		chart := streaming.Chart(title, subtitle, reports, &sum, set)
		if err := writeSVG(c.Plot, chart.WriteSVG); err != nil {
			return err
		}
	}
	if c.Map != "" {
		m := streaming.Map(title, subtitle, world, sched.Loads(), sched.Sources(), frames)
		if err := writeSVG(c.Map, m.WriteSVG); err != nil {
			return err
		}
	}
	return nil
}

// simulateSettings turns the settings into the scheduler's rules and the
// IO model. Each value was checked when it was resolved (config declares
// each setting's rules, and names the flag, variable or file line a bad
// value came from); the scheduler checks its own rules again for callers
// that do not come through the command line.
func simulateSettings(c config.Simulate) (streaming.Settings, streaming.ModelIO, error) {
	dist, err := streaming.ParseDistance(c.Distance)
	if err != nil {
		return streaming.Settings{}, streaming.ModelIO{}, fmt.Errorf("%s: %v", c.Name(&c.Distance), err)
	}
	retry := streaming.DefaultRetry()
	retry.Retries, retry.BackoffFrames, retry.TimeoutFrames = c.Retries, c.RetryBackoff, c.RetryTimeout
	if retry.TimeoutFrames > 0 {
		// Timeouts catch hung reads, not designed latency.
		retry.TimeoutFrames = max(retry.TimeoutFrames, 4*c.LatencyFrames)
	}
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

// readRoute reads the route and places it on the world's sources, with the
// radius overrides applied to every source.
func readRoute(c config.Simulate, world *streaming.World) ([]streaming.Source, [][]streaming.Point, error) {
	f, _, err := regular.Open(c.Path, "route CSV")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rt, err := streaming.ParseRoute(f, c.Path)
	if err != nil {
		return nil, nil, err
	}
	template := streaming.Source{Name: "camera", Enabled: true,
		Prefetch: streaming.DefaultPrefetchRadius, Load: streaming.DefaultLoadRadius, Unload: streaming.DefaultUnloadRadius}
	sources, frames, err := rt.Bind(world.Sources, world.Plane, template)
	if err != nil {
		return nil, nil, err
	}
	for i := range sources {
		s := &sources[i]
		if c.LoadRadius != nil {
			s.Load = *c.LoadRadius
		}
		if c.UnloadRadius != nil {
			s.Unload = *c.UnloadRadius
		}
		if c.PrefetchRadius != nil {
			s.Prefetch = *c.PrefetchRadius
		}
	}
	if err := streaming.CheckSources(sources); err != nil {
		return nil, nil, fmt.Errorf("%v (set --load-radius, --unload-radius and --prefetch-radius, or fix the scene's WorldStreamingSource)", err)
	}
	return sources, frames, nil
}

// openWorld resolves WORLD: a cooked directory, a manifest, or a scene.
func openWorld(ctx context.Context, opts *simulateOptions) (*streaming.World, error) {
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, false, opts.Components)
	if err != nil {
		return nil, err
	}
	o := cook.OpenOptions{Validate: vopts, ScenesRoot: opts.Cfg.ScenesRoot}
	if opts.World == defaultWorld {
		o.Missing = "cook a scene first (worldcook cook SCENE) or pass the world to simulate"
	}
	return cook.Open(ctx, opts.World, o)
}

// describe is the drawings' subtitle: the settings that shaped the run.
func describe(c config.Simulate, set streaming.Settings, frames int) string {
	parts := []string{fmt.Sprintf("%d frames", frames)}
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if set.Budget != nil {
		add("budget %d B", *set.Budget)
	}
	if set.MaxResidentBytes != nil {
		add("cap %d B", *set.MaxResidentBytes)
	}
	if set.PinnedRadius != nil {
		add("pinned %g", *set.PinnedRadius)
	}
	if set.LODRadius != nil {
		add("LOD %g", *set.LODRadius)
	}
	if c.IO == "disk" {
		add("disk IO, %d workers, %g ms a frame", c.Concurrency, c.FrameBudgetMS)
	} else {
		add("latency %d %s", c.LatencyFrames, plural(c.LatencyFrames, "frame", "frames"))
		if c.IOBytesPerFrame != nil {
			add("%d B/frame", *c.IOBytesPerFrame)
		}
	}
	add("distance %s", set.Distance)
	return strings.Join(parts, " · ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writeSVG renders a drawing and writes it to file.
func writeSVG(file string, render func(w io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", file, errors.Unwrap(err))
	}
	return nil
}
