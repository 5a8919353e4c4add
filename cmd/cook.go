package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/worldcook/worldcook/config"
	"github.com/worldcook/worldcook/cook"
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
	// FS replaces the real file system in tests.
	FS cook.FS
}

func newCookCmd(a *app) *cobra.Command {
	opts := &cookOptions{}
	cmd := &cobra.Command{
		Use:   "cook SCENE|DIR...",
		Short: "Split scenes into a persistent world, grid cells and a world manifest",
		Long: `Cook splits each streamed Estella scene (one with a StreamedWorld entity)
into the persistent world (OUT/<scene>.esscene), one compact entity document
per non-empty grid cell (OUT/world/<scene>.cell_<x>_<z>.json) and a world
manifest (OUT/world/<scene>.world.json). A scene without StreamedWorld is
copied byte for byte. A directory argument cooks every .esscene under it.

Cook validates first and writes nothing when validation finds errors. It
writes atomically: files are staged and renamed into place, so a failed or
killed cook leaves the previous world intact. Files whose bytes did not
change are not rewritten, cells that disappeared are removed, and nothing
else in the output directory is touched.

EXIT STATUS
  0  cooked (or, with --check, already up to date)
  1  validation errors, or --check found output that would change
  2  unreadable or malformed input, bad usage, or the output could not be written`,
		Example: `  # cook the demo world into ./cooked
  worldcook cook testdata/demo/main.esscene

  # in CI: fail when the committed cooked world is stale
  worldcook cook --check --out build/world levels/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.config(cmd, "cook")
			if err != nil {
				return err
			}
			opts.IO = a.io
			opts.Scenes = args
			opts.Cfg = cfg.Cook
			opts.Components = cfg.Components
			opts.Quiet = cfg.Quiet
			opts.JSON = cfg.JSON
			return runCook(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringP("out", "o", "cooked", "output directory")
	f.Bool("check", false, "write nothing; exit 1 if the output would change")
	f.String("plane", "xz", "partition plane: xz (3D worlds) or xy (2D worlds)")
	f.String("scenes-root", "", "folder that scene names are relative to (default: each scene's folder)")
	f.StringSlice("assets", nil, "folders searched for prefab assets and .meta files (default: the scene's folder up to project.esproject)")
	f.Int("jobs", 0, "scenes and cells cooked in parallel (default: number of CPUs)")
	f.Bool("timings", false, "print how long each phase took")
	f.Bool("strict", false, "treat validation warnings as errors")
	f.DurationVar(&opts.LockTimeout, "lock-timeout", time.Minute, "how long to wait for another cook writing the same output directory")
	f.StringVar(&opts.CPUProfile, "cpuprofile", "", "write a CPU profile to `file`")
	f.StringVar(&opts.MemProfile, "memprofile", "", "write a heap profile to `file` at the end")
	return cmd
}

// sceneArg is one scene to process and the folder its runtime name is
// relative to.
type sceneArg struct {
	File string
	Root string
}

// scenePaths expands directory arguments into the .esscene files under
// them, sorted, so that a run's order never depends on the file system.
// A scene found under a directory argument is named relative to that
// directory (levels/town/market.esscene under levels/ is "town/market"),
// one given as a file relative to its own folder, unless root (from
// --scenes-root) is set. Two scenes with one name would overwrite each
// other's output, so that is refused.
func scenePaths(args []string, root string) ([]sceneArg, error) {
	var out []sceneArg
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", arg, errors.Unwrap(err))
		}
		if !st.IsDir() {
			out = append(out, sceneArg{File: arg, Root: root})
			continue
		}
		dirRoot := root
		if dirRoot == "" {
			dirRoot = arg
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".esscene") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no .esscene files", arg)
		}
		sort.Strings(found)
		for _, f := range found {
			out = append(out, sceneArg{File: f, Root: dirRoot})
		}
	}
	seen := map[string]string{}
	for _, s := range out {
		name, err := validate.SceneName(s.File, s.Root)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s and %s are both named %q and would overwrite each other's output; pass --scenes-root with a folder that holds both", other, s.File, name)
		}
		seen[name] = s.File
	}
	return out, nil
}

// validateOptions maps the configuration onto the partition options.
func validateOptions(plane string, assets []string, strict bool, comps map[string]config.Component) (validate.Options, error) {
	switch plane {
	case "", "xz", "xy":
	default:
		return validate.Options{}, fmt.Errorf("--plane %q is not a plane; use xz or xy", plane)
	}
	if plane == "" {
		plane = "xz"
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
	if opts.CPUProfile != "" {
		f, err := os.Create(opts.CPUProfile)
		if err != nil {
			return inputErr(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return inputErr(err)
		}
		defer pprof.StopCPUProfile()
	}
	if opts.MemProfile != "" {
		defer func() {
			f, ferr := os.Create(opts.MemProfile)
			if ferr == nil {
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}()
	}
	scenes, err := scenePaths(opts.Scenes, opts.Cfg.ScenesRoot)
	if err != nil {
		return inputErr(err)
	}
	files := make([]string, len(scenes))
	for i, s := range scenes {
		files[i] = s.File
	}
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, opts.Cfg.Strict, opts.Components)
	if err != nil {
		return inputErr(err)
	}
	if !opts.Cfg.Check {
		lock, err := cook.LockDir(opts.Cfg.Out, opts.LockTimeout, func() {
			if !opts.Quiet {
				fmt.Fprintf(opts.IO.Err, "worldcook: waiting for another cook writing %s\n", opts.Cfg.Out)
			}
		})
		if err != nil {
			return inputErr(err)
		}
		defer lock.Unlock()
	}

	bar := newProgress(opts, len(files))
	jobs := opts.Cfg.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	reports := make([]*cook.Report, len(files))
	errs := make([]error, len(files))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, sc := range scenes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			reports[i], errs[i] = cook.Run(ctx, cook.Job{
				File:       sc.File,
				Out:        opts.Cfg.Out,
				ScenesRoot: sc.Root,
				Validate:   vopts,
				Check:      opts.Cfg.Check,
				Workers:    jobs,
				Progress:   bar.add(i),
				Starting:   bar.phase(sc.File),
				FS:         opts.FS,
			})
		}()
	}
	wg.Wait()
	bar.finish()
	return reportCook(opts, files, reports, errs)
}

// reportCook prints what happened to each scene, in argument order, and
// picks the exit status: input problems (2) outrank findings and stale
// output (1).
func reportCook(opts *cookOptions, files []string, reports []*cook.Report, errs []error) error {
	code := ExitOK
	var summaries []cookSummary
	for i, file := range files {
		rep, err := reports[i], errs[i]
		if rep != nil && rep.Plan != nil && (err == nil || errors.Is(err, cook.ErrFindings)) {
			printFindings(opts.IO, rep.Plan, opts.Quiet && err == nil)
		}
		switch {
		case err == nil:
		case errors.Is(err, cook.ErrFindings), errors.Is(err, cook.ErrWouldChange):
			fmt.Fprintf(opts.IO.Err, "worldcook: %v\n", err)
			code = max(code, ExitFindings)
		default:
			fmt.Fprintf(opts.IO.Err, "worldcook: %s\n", oneLine(err))
			code = ExitInput
		}
		s := summarize(file, opts.Cfg.Out, rep, err)
		summaries = append(summaries, s)
		if !opts.JSON && !opts.Quiet && err == nil {
			printSummary(opts, s, rep)
		}
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(summaries); err != nil {
			return err
		}
	}
	if code != ExitOK {
		return &ExitError{Code: code}
	}
	return nil
}

func oneLine(err error) string { return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ") }

// cookSummary is the --json record of one scene.
type cookSummary struct {
	Scene     string   `json:"scene"`
	File      string   `json:"file"`
	Out       string   `json:"out"`
	Streamed  bool     `json:"streamed"`
	Cells     int      `json:"cells"`
	Entities  int      `json:"entities"`
	Written   []string `json:"written"`
	Unchanged []string `json:"unchanged"`
	Removed   []string `json:"removed"`
	Error     string   `json:"error,omitempty"`
	Seconds   float64  `json:"seconds"`
}

func summarize(file, out string, rep *cook.Report, err error) cookSummary {
	s := cookSummary{File: file, Out: out, Written: []string{}, Unchanged: []string{}, Removed: []string{}}
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
	kind := fmt.Sprintf("%d entities, %d cells", s.Entities, s.Cells)
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
