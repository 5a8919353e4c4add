package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/manifest"
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
row per source per frame. Sources are the world's authored
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
			opts.AssetRefs = cfg.AssetRefs
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
			return runSimulate(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.String("path", "", "route CSV: a header, then x,z (y, frame, source optional)")
	f.Float64("load-radius", 0, "load radius of every source (default: as authored)")
	f.Float64("unload-radius", 0, "unload radius of every source (default: as authored)")
	f.Float64("prefetch-radius", 0, "prefetch radius of every source (default: as authored)")
	f.Int64("budget", 0, "bytes that may start loading per frame (default: no budget)")
	f.Int("max-in-flight", 0, "requests in flight at once (default: no limit)")
	f.Int("latency-frames", 1, "modelled IO: frames from dispatch to completion")
	f.Int64("io-bytes-per-frame", 0, "modelled IO: bandwidth of one device serving requests in order (default: unlimited)")
	f.Float64("lod-radius", 0, "beyond it cells load their proxyBytes (default: always full detail)")
	f.Int64("max-resident-bytes", 0, "resident-bytes cap; the farthest cells are evicted (default: no cap)")
	f.Float64("pinned-radius", 0, "cells this close to a source are never evicted (default: none)")
	f.Int("evict-cooldown", 0, "frames an evicted cell waits before it is dispatched again")
	f.String("distance", "bounds", "distance to a cell: bounds (grown bounds) or center (grid square centre)")
	f.String("io", "model", "IO: model (deterministic) or disk (real reads and decodes)")
	f.Int("concurrency", 4, "disk IO: reading and decoding workers")
	f.Float64("frame-budget-ms", 4, "disk IO: time a frame may spend applying finished loads")
	f.Float64("fail-rate", 0, "probability that a load attempt fails, for testing retries")
	f.Uint64("seed", 1, "seed of --fail-rate failures")
	def := streaming.DefaultRetry()
	f.Int("retries", def.Retries, "attempts after a load's first failure before the cell is given up")
	f.Int("retry-backoff", def.BackoffFrames, "frames to wait after a first failure; doubles after each further one (at most 64)")
	f.Int("retry-timeout", def.TimeoutFrames, "frames after which an unfinished load counts as failed (at least 4x --latency-frames); 0: no timeout")
	f.String("format", streaming.FormatTable, "per-frame report: table, jsonl or csv")
	f.String("plot", "", "write resident bytes, requests against the budget, in-flight depth, evictions and holes over time to this SVG")
	f.String("map", "", "write the cell grid, grown bounds, the route and each cell's loads to this SVG")
	f.String("plane", "xz", "scene input: partition plane, xz or xy")
	f.String("scenes-root", "", "scene input: folder that scene names are relative to")
	f.StringSlice("assets", nil, "folders searched for prefab assets and .meta files; the first is the project whose asset files --io disk reads (default: the project holding the world)")
	f.String("asset-costs", "on", "on: requests, budgets and resident bytes count the assets the manifest lists, shared between cells; off: cell documents only")
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
		return inputErr(fmt.Errorf("--format: %v", err))
	}
	switch c.AssetCosts {
	case "", "on":
	case "off":
		set.IgnoreAssets = true
	default:
		return inputErr(fmt.Errorf("--asset-costs %q: use on or off", c.AssetCosts))
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
		if len(world.Assets) > 0 && !set.IgnoreAssets && world.AssetFiles == nil {
			return inputErr(errors.New("--io disk reads the world's assets, but no project holds it: pass --assets with the project folder, or --asset-costs off"))
		}
		loader, err = streaming.NewDiskLoader(streaming.DiskIO{
			Assets:      world.AssetFiles,
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
	if sched.HasAssets() {
		report, _ = streaming.NewReportWriter(format, opts.IO.Out, streaming.WithAssets())
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

// simulateSettings checks the settings and turns them into the
// scheduler's rules and the IO model. Messages name the flag; the same
// keys live under simulate: in worldcook.yaml.
func simulateSettings(c config.Simulate) (streaming.Settings, streaming.ModelIO, error) {
	var set streaming.Settings
	var model streaming.ModelIO
	dist, err := streaming.ParseDistance(c.Distance)
	if err != nil {
		return set, model, fmt.Errorf("--distance %q: use bounds or center", c.Distance)
	}
	switch c.IO {
	case "", "model", "disk":
	default:
		return set, model, fmt.Errorf("--io %q: use model or disk", c.IO)
	}
	checks := []struct {
		flag string
		bad  bool
		want string
	}{
		{"--budget", c.Budget != nil && *c.Budget < 0, "0 or more bytes"},
		{"--max-in-flight", c.MaxInFlight != nil && *c.MaxInFlight < 0, "0 or more requests"},
		{"--latency-frames", c.LatencyFrames < 0, "0 or more frames"},
		{"--io-bytes-per-frame", c.IOBytesPerFrame != nil && *c.IOBytesPerFrame < 0, "0 or more bytes"},
		{"--max-resident-bytes", c.MaxResidentBytes != nil && *c.MaxResidentBytes < 0, "0 or more bytes"},
		{"--lod-radius", badRadius(c.LODRadius), "a finite distance, 0 or more"},
		{"--pinned-radius", badRadius(c.PinnedRadius), "a finite distance, 0 or more"},
		{"--load-radius", badRadius(c.LoadRadius), "a finite distance, 0 or more"},
		{"--unload-radius", badRadius(c.UnloadRadius), "a finite distance, 0 or more"},
		{"--prefetch-radius", badRadius(c.PrefetchRadius), "a finite distance, 0 or more"},
		{"--evict-cooldown", c.EvictCooldown < 0, "0 or more frames"},
		{"--concurrency", c.Concurrency < 1, "at least 1 worker"},
		{"--frame-budget-ms", !(c.FrameBudgetMS >= 0) || math.IsInf(c.FrameBudgetMS, 0), "0 or more milliseconds"},
		{"--fail-rate", !(c.FailRate >= 0 && c.FailRate <= 1), "a probability from 0 to 1"},
		{"--retries", c.Retries < 0, "0 or more attempts"},
		{"--retry-backoff", c.RetryBackoff < 0, "0 or more frames"},
		{"--retry-timeout", c.RetryTimeout < 0, "0 or more frames"},
	}
	for _, ch := range checks {
		if ch.bad {
			return set, model, fmt.Errorf("%s must be %s (flag, WORLDCOOK_SIMULATE_* or simulate: in worldcook.yaml)", ch.flag, ch.want)
		}
	}
	retry := streaming.DefaultRetry()
	retry.Retries, retry.BackoffFrames, retry.TimeoutFrames = c.Retries, c.RetryBackoff, c.RetryTimeout
	if retry.TimeoutFrames > 0 {
		// Timeouts catch hung reads, not designed latency.
		retry.TimeoutFrames = max(retry.TimeoutFrames, 4*c.LatencyFrames)
	}
	set = streaming.Settings{
		Distance:         dist,
		Budget:           c.Budget,
		MaxInFlight:      c.MaxInFlight,
		LODRadius:        c.LODRadius,
		MaxResidentBytes: c.MaxResidentBytes,
		PinnedRadius:     c.PinnedRadius,
		EvictCooldown:    c.EvictCooldown,
		Retry:            retry,
	}
	model = streaming.ModelIO{
		LatencyFrames: c.LatencyFrames,
		BytesPerFrame: c.IOBytesPerFrame,
		Fail:          streaming.FailureModel{Rate: c.FailRate, Seed: c.Seed},
	}
	return set, model, nil
}

func badRadius(r *float64) bool {
	return r != nil && !(*r >= 0 && !math.IsInf(*r, 0))
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
	arg := opts.World
	st, err := os.Stat(arg)
	if err != nil {
		hint := "pass a cooked directory, a world manifest or a scene"
		if arg == defaultWorld {
			hint = "cook a scene first (worldcook cook SCENE) or pass the world to simulate"
		}
		return nil, fmt.Errorf("cannot read world %s: %v; %s", arg, errors.Unwrap(err), hint)
	}
	if !st.IsDir() && strings.HasSuffix(arg, ".esscene") {
		return sceneWorld(ctx, arg, opts)
	}
	file, root := arg, ""
	if st.IsDir() {
		if file, root, err = findManifest(arg); err != nil {
			return nil, err
		}
	} else {
		// Manifest paths are relative to the cooked directory, the parent
		// of the world/ folder the manifest sits in.
		root = filepath.Dir(file)
		if filepath.Base(root) == "world" {
			root = filepath.Dir(root)
		}
	}
	m, err := manifest.Load(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot read manifest %s: %v", file, pe.Err)
		}
		return nil, err
	}
	// A cooked world is simulated only as cook left it: not mid-commit
	// (some files new, the manifest old), and every file the manifest
	// lists with its size and blake3.
	if err := cook.Pending(root, m.Scene); err != nil {
		return nil, err
	}
	if err := cook.Verify(root, m); err != nil {
		return nil, err
	}
	w := streaming.WorldFromManifest(m, os.DirFS(root))
	if len(w.Assets) > 0 {
		w.AssetFiles = projectFiles(opts.Cfg.Assets, filepath.Join(root, "world"))
	}
	return w, nil
}

// findManifest finds the one world manifest of a cooked directory (or of
// its world/ folder).
func findManifest(dir string) (file, root string, err error) {
	root = dir
	found, _ := filepath.Glob(filepath.Join(dir, "world", "*.world.json"))
	if len(found) == 0 {
		if found, _ = filepath.Glob(filepath.Join(dir, "*.world.json")); len(found) > 0 {
			root = filepath.Dir(filepath.Clean(dir))
		}
	}
	switch len(found) {
	case 0:
		// A first cook killed mid-commit leaves its journal before the
		// manifest is in place.
		if err := cook.Pending(root, ""); err != nil {
			return "", "", err
		}
		return "", "", fmt.Errorf("%s holds no world/*.world.json: not a cooked world (cook a scene into it with worldcook cook SCENE --out %s)", dir, dir)
	case 1:
		return found[0], root, nil
	}
	names := make([]string, len(found))
	for i, f := range found {
		names[i] = filepath.Base(f)
	}
	return "", "", fmt.Errorf("%s holds %d worlds (%s); pass one manifest, e.g. %s", dir, len(found), strings.Join(names, ", "), found[0])
}

// sceneWorld cooks a scene in memory (nothing is written) and returns its
// world, served to disk IO from memory.
func sceneWorld(ctx context.Context, file string, opts *simulateOptions) (*streaming.World, error) {
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, false, opts.Components)
	if err != nil {
		return nil, err
	}
	if vopts.AssetRules, err = assetRules(opts.AssetRefs); err != nil {
		return nil, err
	}
	plan, err := cook.Load(file, vopts, opts.Cfg.ScenesRoot, nil)
	if err != nil {
		return nil, err
	}
	if n := plan.Errors(false); n > 0 {
		return nil, fmt.Errorf("%s has %d validation errors and cannot be cooked; run worldcook validate %s", file, n, file)
	}
	cooked, err := cook.Build(ctx, plan, cook.Options{})
	if err != nil {
		return nil, err
	}
	if cooked.Manifest == nil {
		return nil, fmt.Errorf("%s is not a streamed world (it has no StreamedWorld entity): nothing to simulate", file)
	}
	files := streaming.MemFiles{}
	for _, f := range cooked.Files {
		files[f.Path] = f.Bytes
	}
	w := streaming.WorldFromManifest(cooked.Manifest, files)
	if plan.Assets != nil && len(w.Assets) > 0 {
		w.AssetFiles = projectFiles([]string{plan.Assets.Root}, "")
	}
	return w, nil
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
