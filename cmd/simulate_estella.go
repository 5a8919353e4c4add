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
	"github.com/worldcook/worldcook/simulate"
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
func runPolicies(ctx context.Context, opts *simulateOptions, run simulate.Options, format string) error {
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
	if c.Compare {
		cmp, err := simulate.Compare(ctx, world, run)
		if err != nil {
			return inputErr(err)
		}
		if opts.Quiet {
			return nil
		}
		if format == streaming.FormatJSONL {
			return streaming.WriteComparisonJSON(opts.IO.Out, cmp)
		}
		return streaming.WriteComparison(opts.IO.Out, cmp)
	}
	est, err := simulate.NewRuntime(world, run)
	if err != nil {
		return inputErr(err)
	}

	report, err := streaming.NewEstellaReport(format, opts.IO.Out, streaming.ReportOptions{Assets: est.Sched.HasAssets()})
	if err != nil {
		return inputErr(fmt.Errorf("--format: %v", err))
	}
	each := func(r *streaming.EstellaFrame) error { return report.Frame(r) }
	if opts.Quiet || c.SummaryOnly {
		each = nil
	}
	reports, sum, err := est.Run(ctx, each)
	if err != nil {
		return fmt.Errorf("writing the report: %v", err)
	}
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
	err = draw(opts, world, picture{
		title: fmt.Sprintf("%s along %s (Estella runtime)", world.Scene, filepath.Base(c.Path)),
		subtitle: fmt.Sprintf("%d frames · prepare %d, publish %d, unload %d frames · distance bounds",
			len(reports), c.LatencyFrames, c.PublishFrames, c.UnloadFrames),
		reports: streaming.FrameReports(reports), sum: &sum.Summary,
		loads: est.Sched.Loads, sources: est.Sched.Sources, route: est.Route(),
	})
	if err != nil {
		return err
	}
	if sum.Gate != nil && sum.Gate.Failed {
		return &ExitError{Code: ExitFindings, Err: fmt.Errorf("simulate --policy estella --fail-on: %s", sum.Gate.Message())}
	}
	return nil
}

// warnPlane tells a user cooking or validating a world cut on X and Y that
// Estella's own runtime will not stream it as cut.
func warnPlane(w io.Writer, plane string, quiet bool) {
	if plane == manifest.PlaneXY && !quiet {
		fmt.Fprintf(w, "worldcook: warning: --plane xy: %s\n", manifest.XYRuntimeNote)
	}
}
