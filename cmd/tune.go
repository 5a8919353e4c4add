package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/initworld"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/tune"
)

func newTuneCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune --path ROUTE.csv [--path ROUTE.csv]... [WORLD]",
		Short: "Search the streaming settings for the cheapest without a hole on the routes",
		Long: `Tune runs the streaming scheduler over every combination of the settings given, on every
route, and recommends the cheapest one that meets --require (default: no pop-in after the
warm-up on any route; no holes when the scene shows no view), as the worldcook.yaml lines
to paste, beside what the authored settings give on the same routes.

WORLD is what simulate takes: a cooked directory (default cooked/), a manifest, or a scene,
cooked in memory once per --cell-size. Each dimension (--cell-size, the radii, --budget,
--max-resident-bytes) is a comma list, A..B/STEP or A..BxF; the radii default to multiples
of the cell size. Every other simulate setting (--policy, --latency-frames, ...) is fixed as
configured. Candidates run in parallel; Ctrl-C prints the best so far.

Exit status: 'worldcook help exit-codes'. Everything else: docs/tune.md.`,
		Example: `  # the cheapest radii without a hole on the demo route
  worldcook tune --path testdata/demo/route.csv testdata/demo/main.esscene

  # with a budget, over two routes and three cell sizes
  worldcook tune --path a.csv --path b.csv --cell-size 8,16,32 \
    --budget 16KiB..256KiBx2,none --require holes,over-budget scenes/main.esscene`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "tune", "simulate")
			if err != nil {
				return err
			}
			world := cfg.Simulate.DefaultWorld
			if len(args) == 1 {
				world = args[0]
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runTune(ctx, a.io, cfg, world, a.args)
		},
	}
	tuneSettings(cmd)
	return cmd
}

// tuneSettings registers tune's flags on sub (tune itself, or config
// tune): its own and the simulate settings it keeps fixed.
func tuneSettings(sub *cobra.Command) {
	settings(sub, "tune", sub.Flags())
	for _, s := range config.RegisterFixed(sub.Flags()) {
		if len(s.Values) > 0 {
			sub.RegisterFlagCompletionFunc(s.Flag, cobra.FixedCompletions(s.Values, cobra.ShellCompDirectiveNoFileComp))
		}
	}
}

// tuneSetup maps the settings onto the search: the space, the fixed
// simulate options (those of a simulate run with the same settings), the
// constraints and the objective.
func tuneSetup(cfg *config.Config, world string, args []string) (tune.Setup, tune.Options, *simulateOptions, error) {
	t := cfg.Tune
	// A dimension not set is "": tune's default.
	dim := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	sp, err := tune.ParseSpace(tune.Spec{CellSize: dim(t.CellSize), Load: dim(t.LoadRadius), Unload: dim(t.UnloadRadius),
		Prefetch: dim(t.PrefetchRadius), Budget: dim(t.Budget), MaxResidentBytes: dim(t.MaxResidentBytes)})
	if err != nil {
		return tune.Setup{}, tune.Options{}, nil, err
	}
	objective, err := tune.ParseObjective(t.Minimize)
	if err != nil {
		return tune.Setup{}, tune.Options{}, nil, err
	}
	failOn, err := streaming.ParseFailOn(t.Require)
	if err != nil {
		return tune.Setup{}, tune.Options{}, nil, fmt.Errorf("%s: %v", t.Name(&t.Require), err)
	}
	sim := cfg.Simulate
	sim.FailOn = nil // tune's --require is the gate, per candidate
	opts := &simulateOptions{World: world, Cfg: sim, Components: cfg.Components, AssetRefs: cfg.AssetRefs, ConfigFile: cfg.File, PlaneFrom: cfg.PlaneFrom("simulate"), Args: args, Tune: true}
	base, err := simulateRun(opts)
	if err != nil {
		return tune.Setup{}, tune.Options{}, nil, err
	}
	open, err := openOptions(opts)
	if err != nil {
		return tune.Setup{}, tune.Options{}, nil, err
	}
	s := tune.Setup{World: world, Open: open, Base: base, Routes: t.Path, Space: sp, MaxCandidates: t.MaxCandidates}
	o := tune.Options{Objective: objective, Require: streaming.Gate{FailOn: failOn, Warmup: sim.Warmup}, Top: t.Top, Workers: t.Jobs}
	return s, o, opts, nil
}

// args is the command line, for advice that repeats it.
func runTune(ctx context.Context, streams IO, cfg *config.Config, world string, args []string) error {
	// A --path that is a folder is every route in it.
	var paths []string
	for _, p := range cfg.Tune.Path {
		files, err := routeFiles(p)
		if err != nil {
			return inputErr(err)
		}
		paths = append(paths, files...)
	}
	cfg.Tune.Path = paths
	s, o, opts, err := tuneSetup(cfg, world, args)
	if err != nil {
		return inputErr(err)
	}
	side := tuneDrawings(cfg, world)
	if err := side.Claim(cfg.Tune.Plot, "--plot"); err != nil {
		return inputErr(err)
	}
	if cfg.Tune.Plot != "" {
		if err := side.Check(cfg.Tune.Plot, "--plot"); err != nil {
			return inputErr(err)
		}
		// The plot is checked again against every file the world is
		// read from before the first candidate runs (and the scene is
		// written).
		s.Open.Read, s.Opened = side.Inputs, side.Recheck
	}
	bar := newTuneProgress(streams, cfg)
	o.Events = bar.event
	// With --diff, stdout is the diff alone, ready for git apply.
	report := streams.Out
	if cfg.Tune.Diff {
		report = streams.Err
	}
	// The JSON report is written as the search goes, each candidate's
	// line as its batch finishes: a search keeps no list of them.
	var js *reportWriter
	if cfg.JSON {
		js = &reportWriter{w: report}
		o.JSON = js
	}
	res, err := tune.Run(ctx, s, o)
	bar.finish()
	if js != nil && js.err != nil {
		return fmt.Errorf("writing the report: %v", js.err)
	}
	if err != nil {
		if ctx.Err() != nil {
			return inputErr(fmt.Errorf("tune was interrupted before a candidate ran: %v", err))
		}
		return inputErr(worldAdvice(opts, err))
	}
	if !cfg.Quiet && !cfg.JSON {
		if err := tune.WriteText(report, res); err != nil {
			return fmt.Errorf("writing the report: %v", err)
		}
	}
	if (cfg.Tune.Diff || cfg.Tune.Write) && res.Best != nil && !res.Partial {
		if err := tuneEdit(streams, cfg, res); err != nil {
			return inputErr(err)
		}
	}
	if cfg.Tune.Plot != "" {
		if err := side.WriteFile(cfg.Tune.Plot, "--plot", func(w io.Writer) error { return tune.WritePlot(w, res) }); err != nil {
			return inputErr(err)
		}
	}
	switch {
	case res.Partial:
		return inputErr(fmt.Errorf("tune was interrupted after %d of %d candidates: the report is the best of those", res.Evaluated, res.Candidates))
	case res.Best == nil:
		return &ExitError{Code: ExitFindings, Err: errors.New("tune: " + res.Infeasible())}
	}
	return nil
}

// reportWriter is the report's stream, remembering the first error
// writing to it, which is told as the report's and not the world's.
type reportWriter struct {
	w   io.Writer
	err error
}

func (r *reportWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.err = err
	return n, err
}

// tuneEdit puts the recommendation on the scene: prints the diff (named
// as the scene's path from the working directory, where it applies) or
// makes the edit.
func tuneEdit(streams IO, cfg *config.Config, res *tune.Result) error {
	name, _ := initworld.DiffPath(res.World)
	r, err := res.Edit(name, cfg.Tune.Write)
	if err != nil {
		return err
	}
	for _, n := range r.Notes {
		fmt.Fprintf(streams.Err, "worldcook: %s\n", n)
	}
	switch {
	case cfg.Tune.Diff:
		streams.Out.Write(r.Diff)
	case len(r.Diff) == 0:
		fmt.Fprintf(streams.Err, "worldcook: %s already has the recommended radii\n", res.World)
	case !cfg.Quiet:
		fmt.Fprintf(streams.Err, "worldcook: wrote %s: the recommended radii on %s\n", res.World, english.Count(len(res.Driven), "streaming source"))
	}
	return nil
}

// tuneDrawings guards the plot: never written over the configuration,
// a route or any file the world is read from.
func tuneDrawings(cfg *config.Config, world string) *sidefile.Guard {
	side := sidefile.New(append([]string{cfg.File, world}, cfg.Tune.Path...)...)
	cook.ReserveAround(side, world, cfg.Tune.Plot)
	return side
}

// tuneProgress draws the candidates run on an interactive terminal, and
// nothing anywhere else (CI logs, --json, --quiet).
type tuneProgress struct{ bar *progressbar.ProgressBar }

func newTuneProgress(streams IO, cfg *config.Config) *tuneProgress {
	p := &tuneProgress{}
	if !streams.ErrTerminal || cfg.Quiet || cfg.JSON {
		return p
	}
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(streams.Err),
		progressbar.OptionSetDescription("tuning"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

// event is the search's progress, one call at a time.
func (p *tuneProgress) event(e tune.Event) {
	if p.bar == nil {
		return
	}
	p.bar.ChangeMax(e.Total)
	p.bar.Describe(fmt.Sprintf("tuning: %d feasible, %d stopped early", e.Feasible, e.Pruned))
	p.bar.Set(e.Done)
}

func (p *tuneProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
