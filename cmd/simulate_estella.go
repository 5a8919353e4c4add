package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
)

// The scheduling policies of simulate.
const (
	policySeed    = "seed"
	policyEstella = "estella"
)

// estellaRefusals names the settings that Estella's runtime scheduler does
// not have, so that a run under it never silently ignores one.
func estellaRefusals(c config.Simulate) error {
	var given []string
	add := func(set bool, flag string) {
		if set {
			given = append(given, flag)
		}
	}
	add(c.Budget != nil, "--budget")
	add(c.MaxResidentBytes != nil, "--max-resident-bytes")
	add(c.PinnedRadius != nil, "--pinned-radius")
	add(c.LODRadius != nil, "--lod-radius")
	add(c.MaxInFlight != nil, "--max-in-flight")
	add(c.EvictCooldown != 0, "--evict-cooldown")
	add(c.Distance == "center" || c.Distance == "centre", "--distance center")
	// The runtime does not retry: a failed preparation returns the cell to
	// unloaded and the next update asks again.
	def := streaming.DefaultRetry()
	add(c.Retries != def.Retries, "--retries")
	add(c.RetryBackoff != def.BackoffFrames, "--retry-backoff")
	add(c.RetryTimeout != def.TimeoutFrames, "--retry-timeout")
	if len(given) == 0 {
		return nil
	}
	return fmt.Errorf("--policy estella: Estella's runtime scheduler has no byte budget, resident cap, pinning, LOD, in-flight limit, eviction, centre distance or retry policy; drop %s (flag, WORLDCOOK_SIMULATE_* or simulate: in worldcook.yaml), or pass --compare to see what they would do under --policy seed", strings.Join(given, ", "))
}

// runPolicies runs the route under --policy estella, or under both
// policies with --compare.
func runPolicies(ctx context.Context, opts *simulateOptions, set streaming.Settings, model streaming.ModelIO, format string, gate streaming.Gate) error {
	c := opts.Cfg
	// The policy's name and the frame counts were checked where they
	// were resolved (config declares them).
	switch {
	case c.IO == "disk":
		return inputErr(errors.New("--policy estella and --compare run over a modelled host; drop --io disk"))
	case c.Compare && (c.Plot != "" || c.Map != ""):
		return inputErr(errors.New("--compare prints a comparison only; drop --plot and --map, or draw each policy in its own run"))
	}
	if !c.Compare {
		if err := estellaRefusals(c); err != nil {
			return inputErr(err)
		}
	}
	world, err := openWorld(ctx, opts)
	if err != nil {
		return inputErr(err)
	}
	if world.Plane == manifest.PlaneXY && !opts.Quiet {
		fmt.Fprintf(opts.IO.Err, "worldcook: warning: %s is cut on x and y: %s; this run shows the cells the runtime would stream, and the holes where the sources really stand\n", world.Scene, manifest.XYRuntimeNote)
	}
	host := streaming.EstellaHost{Prepare: model, PublishFrames: c.PublishFrames, UnloadFrames: c.UnloadFrames}
	est, err := estellaRun(c, world, host)
	if err != nil {
		return inputErr(err)
	}

	if c.Compare {
		sources, frames, err := readRoute(c, world.Sources, world.Plane, false)
		if err != nil {
			return inputErr(err)
		}
		sched, err := streaming.NewScheduler(world, sources, set, streaming.NewModelLoader(model))
		if err != nil {
			return inputErr(err)
		}
		if _, err := streaming.Run(ctx, sched, frames, 0, nil); err != nil {
			return err
		}
		sched.Close()
		if _, err := est.run(ctx, nil); err != nil {
			return err
		}
		cmp := &streaming.Comparison{Seed: sched.Summary(), Estella: est.sched.Summary()}
		if opts.Quiet {
			return nil
		}
		if format == streaming.FormatJSONL {
			return streaming.WriteComparisonJSON(opts.IO.Out, cmp)
		}
		return streaming.WriteComparison(opts.IO.Out, cmp)
	}

	report, err := streaming.NewEstellaWriter(format, opts.IO.Out)
	if err != nil {
		return inputErr(fmt.Errorf("--format: %v", err))
	}
	each := func(r *streaming.EstellaFrame) error { return report.Frame(r) }
	if opts.Quiet || c.SummaryOnly {
		each = nil
	}
	reports, err := est.run(ctx, each)
	if err != nil {
		return fmt.Errorf("writing the report: %v", err)
	}
	sum := est.sched.Summary()
	// The gate reads the runtime's frames as it reads the seed
	// scheduler's: holes and given-up loads are the same facts.
	streaming.Conclude(&sum.Summary, streaming.FrameReports(reports), gate)
	if !opts.Quiet {
		if err := report.Summary(&sum); err != nil {
			return err
		}
		if err := report.Flush(); err != nil {
			return err
		}
		if format == streaming.FormatCSV {
			if err := streaming.WriteEstellaSummary(opts.IO.Err, &sum); err != nil {
				return err
			}
		}
	}
	title := fmt.Sprintf("%s along %s (Estella runtime)", world.Scene, filepath.Base(c.Path))
	subtitle := fmt.Sprintf("%d frames · prepare %d, publish %d, unload %d frames · distance bounds",
		len(reports), c.LatencyFrames, c.PublishFrames, c.UnloadFrames)
	side := drawings(opts, world)
	if c.Plot != "" {
		chart := streaming.Chart(title, subtitle, streaming.FrameReports(reports), &sum.Summary, streaming.Settings{})
		if err := side.WriteFile(c.Plot, "--plot", chart.WriteSVG); err != nil {
			return inputErr(err)
		}
	}
	if c.Map != "" {
		route := est.actual
		if route == nil {
			route = est.sampled
		}
		m := streaming.Map(title, subtitle, world, est.sched.Loads(), est.sched.Sources(), route)
		streaming.MarkHoles(m, sum.HoleEpisodes, route, est.sched.Sources())
		if err := side.WriteFile(c.Map, "--map", m.WriteSVG); err != nil {
			return inputErr(err)
		}
	}
	if sum.Gate != nil && sum.Gate.Failed {
		return &ExitError{Code: ExitFindings, Err: fmt.Errorf("simulate --policy estella --fail-on: %s", sum.Gate.Message())}
	}
	return nil
}

// estellaRoute is a route bound for the runtime scheduler: the positions it
// samples and, for a world cut on x and y, where the sources really stand.
type estellaRoute struct {
	sched   *streaming.Estella
	sampled [][]streaming.Point
	// actual is nil when the runtime sees the sources where they stand.
	actual [][]streaming.Point
}

func estellaRun(c config.Simulate, world *streaming.World, host streaming.EstellaHost) (*estellaRoute, error) {
	runtimeSources := world.RuntimeSources
	if runtimeSources == nil {
		runtimeSources = world.Sources
	}
	sources, sampled, err := readRoute(c, runtimeSources, world.Plane, true)
	if err != nil {
		return nil, err
	}
	r := &estellaRoute{sampled: sampled}
	if world.Plane == manifest.PlaneXY {
		if _, r.actual, err = readRoute(c, world.Sources, world.Plane, false); err != nil {
			return nil, err
		}
	}
	if r.sched, err = streaming.NewEstella(world, sources, host); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *estellaRoute) run(ctx context.Context, each func(*streaming.EstellaFrame) error) ([]streaming.EstellaFrame, error) {
	return streaming.RunEstella(ctx, r.sched, r.sampled, r.actual, each)
}

// warnPlane tells a user cooking or validating a world cut on X and Y that
// Estella's own runtime will not stream it as cut.
func warnPlane(w io.Writer, plane string, quiet bool) {
	if plane == manifest.PlaneXY && !quiet {
		fmt.Fprintf(w, "worldcook: warning: --plane xy: %s\n", manifest.XYRuntimeNote)
	}
}
