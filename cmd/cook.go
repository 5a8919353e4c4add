package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/worldcook/worldcook/internal/english"

	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/config"
	"github.com/worldcook/worldcook/internal/gcpause"
	"github.com/worldcook/worldcook/internal/shell"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// cookOptions is everything a cook run needs, resolved from flags and config.
type cookOptions struct {
	IO          IO
	Scenes      []string
	Cfg         config.Cook
	Components  map[string]config.Component
	AssetRefs   config.AssetRefs
	Quiet       bool
	JSON        bool
	LockTimeout time.Duration
	CPUProfile  string
	MemProfile  string
	// ConfigFile is the configuration file read, an input of the run.
	ConfigFile string
	// PlaneFrom says where the plane was set ("" for the default).
	PlaneFrom string
	// FS replaces the real file system in tests.
	FS cook.FS
	// Args is the command line, for advice that repeats it.
	Args []string
}

func newCookCmd(a *app) *cobra.Command {
	opts := &cookOptions{}
	cmd := &cobra.Command{
		Use:   "cook SCENE|DIR...",
		Short: "Split scenes into a persistent world, grid cells and a world manifest",
		Long: `Cook splits each streamed Estella scene (one with a StreamedWorld entity) into the persistent
world (OUT/<scene>.esscene), one entity document per non-empty grid cell
(OUT/world/<scene>.cell_<x>_<z>.json) and a world manifest (OUT/world/<scene>.world.json).
A scene without StreamedWorld is copied byte for byte; a directory cooks every .esscene in it.

Cook validates first and writes nothing when validation finds errors. It writes atomically
and incrementally: a failed or killed cook leaves the previous world intact, unchanged files
are not rewritten, vanished cells are removed, nothing else in OUT is touched, and it never
writes outside OUT or over its own inputs. --check writes nothing and exits 1 if the output
would change. --package-config lists each world in the game.config.json the packaged Estella
runtime reads. --depfile, --metafile and --watch serve the build around the cook.

Exit status: 'worldcook help exit-codes'. Everything else: docs/cook.md.`,
		Example: `  # cook the demo world into ./cooked
  worldcook cook testdata/demo/main.esscene

  # cook straight into a game's build folder and list the world in its game.config.json
  worldcook cook levels/main.esscene --out build/web --package-config build/web/game.config.json

  # in CI: fail when the committed cooked world is stale
  worldcook cook --check --out build/world levels/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "cook")
			if err != nil {
				return err
			}
			opts.IO = a.io
			opts.Args = a.args
			opts.Scenes = args
			opts.Cfg = cfg.Cook
			opts.Components = cfg.Components
			opts.AssetRefs = cfg.AssetRefs
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
			opts.LockTimeout = cfg.Cook.LockTimeout
			opts.CPUProfile, opts.MemProfile = cfg.Cook.CPUProfile, cfg.Cook.MemProfile
			opts.ConfigFile = cfg.File
			opts.PlaneFrom = cfg.PlaneFrom("cook")
			return runCook(cmd.Context(), opts)
		},
	}
	settings(cmd, "cook", cmd.Flags())
	return cmd
}

// validateOptions maps the configuration onto the partition options.
func validateOptions(plane string, assets []string, strict bool, comps map[string]config.Component) (validate.Options, error) {
	plane, err := manifest.ParsePlane(plane)
	if err != nil {
		return validate.Options{}, err
	}
	fields := make(map[string]validate.ComponentFields, len(comps))
	for name, c := range comps {
		fields[name] = validate.ComponentFields{Entity: c.EntityFields, Soft: c.SoftFields}
	}
	return validate.Options{Plane: plane, Assets: assets, Strict: strict, Components: fields}, nil
}

func runCook(ctx context.Context, opts *cookOptions) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, opts.Cfg.Strict, opts.Components)
	if err != nil {
		return inputErr(err)
	}
	vopts.Levels = opts.Cfg.Levels
	vopts.PlaneFrom = opts.PlaneFrom
	assetOptions(&vopts, opts.AssetRefs)
	warnPlane(opts.IO, vopts.Plane, opts.PlaneFrom, opts.Quiet)
	if err := checkBuildOptions(opts); err != nil {
		return inputErr(err)
	}
	// Profiles are files besides the world: written to a temporary file
	// and put in place at the end, never over an input of the run.
	side := sidefile.New(append([]string{opts.ConfigFile}, opts.Scenes...)...)
	for _, o := range []struct{ file, flag string }{
		{opts.CPUProfile, "--cpuprofile"}, {opts.MemProfile, "--memprofile"},
		{opts.Cfg.PackageConfig, "--package-config"}, {opts.Cfg.Depfile, "--depfile"}, {opts.Cfg.Metafile, "--metafile"},
	} {
		if err := side.Claim(o.file, o.flag); err != nil {
			return inputErr(err)
		}
	}
	if opts.CPUProfile != "" {
		// Its own names for the errors here: the deferred Commit must
		// report to the function's err, not to one shadowing it.
		f, cerr := side.Create(opts.CPUProfile, "--cpuprofile")
		if cerr != nil {
			return inputErr(cerr)
		}
		if perr := pprof.StartCPUProfile(f); perr != nil {
			f.Abort()
			return inputErr(perr)
		}
		defer func() {
			pprof.StopCPUProfile()
			if cerr := f.Commit(); cerr != nil && err == nil {
				err = inputErr(cerr)
			}
		}()
	}
	if opts.MemProfile != "" {
		defer func() {
			if werr := side.WriteFile(opts.MemProfile, "--memprofile", heapProfile); werr != nil && err == nil {
				err = inputErr(werr)
			}
		}()
	}
	if opts.Cfg.Watch {
		return watchCook(ctx, opts, vopts, side)
	}
	_, err = cookOnce(ctx, opts, vopts, side)
	return err
}

// cookOnce runs one cook with its reports and the files it writes
// besides the world, and returns the inputs it read (nil when the run
// failed before it cooked).
func cookOnce(ctx context.Context, opts *cookOptions, vopts validate.Options, side *sidefile.Guard) (*cook.Outcome, error) {
	bar := newProgress(opts, func() {
		if !opts.Quiet {
			fmt.Fprintf(opts.IO.Err, "worldcook: waiting for another cook writing %s\n", opts.Cfg.Out)
		}
	})
	out, err := cook.Cook(ctx, cook.Batch{
		Args:          opts.Scenes,
		Out:           opts.Cfg.Out,
		ScenesRoot:    opts.Cfg.ScenesRoot,
		Validate:      vopts,
		Check:         opts.Cfg.Check,
		Jobs:          opts.Cfg.Jobs,
		LockTimeout:   opts.LockTimeout,
		FS:            opts.FS,
		GC:            gcpause.Job,
		Events:        bar.events(),
		PackageConfig: opts.Cfg.PackageConfig,
		PersistentAt:  opts.Cfg.PersistentAt,
		Side:          side,
	})
	bar.finish()
	if err != nil {
		return nil, inputErr(err)
	}
	side.Inputs(out.Files()...)
	side.Owned(out.Owned()...)
	if err := reportCook(opts, out); err != nil {
		return out, err
	}
	if err := writePackageConfig(opts, out.Reports, side); err != nil {
		return out, err
	}
	return out, writeBuildInfo(opts, out, side)
}

func heapProfile(w io.Writer) error { return pprof.WriteHeapProfile(w) }

// reportCook prints what happened to each scene, in argument order, and
// picks the exit status: input problems (2) outrank findings and stale
// output (1).
func reportCook(opts *cookOptions, out *cook.Outcome) error {
	code, stale := ExitOK, false
	for i, sc := range out.Scenes {
		file := sc.File
		rep, err := out.Reports[i], out.Errs[i]
		if rep != nil && rep.Plan != nil && (err == nil || errors.Is(err, cook.ErrFindings)) {
			if opts.JSON {
				if err := writeFindingLines(opts.IO.Out, rep.Plan); err != nil {
					return err
				}
			} else {
				printFindings(opts.IO, rep.Plan, opts.Quiet && err == nil)
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			// Interrupted (cook --watch): its caller says so once.
			code = ExitInput
		case errors.Is(err, cook.ErrFindings), errors.Is(err, cook.ErrWouldChange):
			fmt.Fprintf(opts.IO.Err, "worldcook: %v\n", err)
			code = max(code, ExitFindings)
			stale = stale || errors.Is(err, cook.ErrWouldChange)
		default:
			fmt.Fprintf(opts.IO.Err, "worldcook: %s\n", oneLine(err))
			code = ExitInput
		}
		s := summarize(file, opts.Cfg.Out, rep, err)
		if opts.JSON {
			if err := writeJSONLine(opts.IO.Out, &s); err != nil {
				return err
			}
		} else if !opts.Quiet && err == nil {
			printSummary(opts, s, rep)
		}
	}
	if stale && !opts.JSON {
		fmt.Fprintf(opts.IO.Err, "worldcook: to bring it up to date, cook without --check: %s\n", uncheckedCook(opts.Args))
	}
	if code != ExitOK {
		return &ExitError{Code: code}
	}
	return nil
}

// uncheckedCook is the cook command line args without --check: the
// flag dropped where it was given, else --check=false, which outranks a
// check asked for by WORLDCOOK_COOK_CHECK or worldcook.yaml.
func uncheckedCook(args []string) string {
	for _, f := range []string{"--check", "--check=true"} {
		if slices.Contains(args, f) {
			return retyped(args, f, nil)
		}
	}
	words := append(append([]string{"worldcook"}, args...), "--check=false")
	if len(args) == 0 {
		words = []string{"worldcook", "cook", "--check=false"}
	}
	return shell.Command(words...)
}

func oneLine(err error) string { return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ") }

// cookSummary is the --json record of one scene (docs/json.md).
type cookSummary struct {
	MessageType string   `json:"message_type"`
	Scene       string   `json:"scene"`
	File        string   `json:"file"`
	Out         string   `json:"out"`
	Streamed    bool     `json:"streamed"`
	Cells       int      `json:"cells"`
	Entities    int      `json:"entities"`
	Written     []string `json:"written"`
	Unchanged   []string `json:"unchanged"`
	Removed     []string `json:"removed"`
	Error       string   `json:"error,omitempty"`
	Seconds     float64  `json:"seconds"`
}

func summarize(file, out string, rep *cook.Report, err error) cookSummary {
	s := cookSummary{MessageType: "cook", File: file, Out: out, Written: []string{}, Unchanged: []string{}, Removed: []string{}}
	if err != nil {
		s.Error = oneLine(err)
	}
	if rep == nil {
		return s
	}
	s.Scene = rep.Scene
	for _, p := range rep.Timings {
		s.Seconds += p.Duration.Seconds()
	}
	s.Streamed, s.Cells, s.Entities = rep.Streamed, rep.Cells, rep.Entities
	if rep.Result != nil {
		s.Written = append(s.Written, rep.Result.Written...)
		s.Unchanged = append(s.Unchanged, rep.Result.Unchanged...)
		s.Removed = append(s.Removed, rep.Result.Removed...)
	}
	return s
}

func printSummary(opts *cookOptions, s cookSummary, rep *cook.Report) {
	w := opts.IO.Out
	verb := "cooked"
	if opts.Cfg.Check {
		verb = "checked"
	}
	kind := fmt.Sprintf("%d %s, %d %s", s.Entities, english.Plural(s.Entities, "entity"), s.Cells, english.Plural(s.Cells, "cell"))
	if !s.Streamed {
		kind = "not a streamed world, copied"
	}
	fmt.Fprintf(w, "%s %s -> %s (%s): %d written, %d unchanged, %d removed in %.2fs\n",
		verb, s.File, s.Out, kind, len(s.Written), len(s.Unchanged), len(s.Removed), s.Seconds)
	if opts.Cfg.Timings && rep != nil {
		for _, p := range rep.Timings {
			fmt.Fprintf(w, "  %-9s %8.1f ms\n", p.Name, float64(p.Duration.Microseconds())/1000)
		}
	}
}
