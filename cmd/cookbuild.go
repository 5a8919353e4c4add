package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/buildinfo"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/internal/watch"
	"github.com/worldcook/worldcook/validate"
)

// checkBuildOptions refuses --depfile, --metafile and --watch where they
// cannot work, before anything is cooked.
func checkBuildOptions(opts *cookOptions) error {
	if opts.Cfg.Watch && opts.Cfg.Check {
		return errors.New("--watch cooks on every change and --check writes nothing; drop one of them (in CI, run --check once)")
	}
	for _, f := range []struct{ file, flag string }{{opts.Cfg.Depfile, "--depfile"}, {opts.Cfg.Metafile, "--metafile"}} {
		if err := buildinfo.CheckTarget(f.file, f.flag, opts.Scenes); err != nil {
			return err
		}
	}
	return nil
}

// writeBuildInfo writes the --depfile and --metafile of a good cook.
func writeBuildInfo(opts *cookOptions, out *cook.Outcome, side *sidefile.Guard) error {
	if opts.Cfg.Depfile == "" && opts.Cfg.Metafile == "" {
		return nil
	}
	// With --persist-at registered the game configuration decides where
	// each persistent world goes.
	var registered string
	if opts.Cfg.PersistentAt == cook.PersistentAtRegistered {
		registered = opts.Cfg.PackageConfig
	}
	g, err := buildinfo.Of(out, opts.ConfigFile, registered)
	if err != nil {
		return inputErr(err)
	}
	if f := opts.Cfg.Depfile; f != "" {
		if err := side.WriteFile(f, "--depfile", g.WriteDepfile); err != nil {
			return inputErr(err)
		}
	}
	if f := opts.Cfg.Metafile; f != "" {
		if err := side.WriteFile(f, "--metafile", g.WriteMetafile); err != nil {
			return inputErr(err)
		}
	}
	return nil
}

// watchingText says, once, what a watch watches and how to stop it: the
// input files (scenes, prefabs, assets and their sidecars), the folders
// that hold them, and the folders whose new scenes join the next cook.
func watchingText(w watch.Watched) string {
	rel := func(ds []string) []string {
		out := make([]string, len(ds))
		for i, d := range ds {
			out[i] = d
			if wd, err := os.Getwd(); err == nil {
				if r, err := filepath.Rel(wd, d); err == nil && !strings.HasPrefix(r, "..") {
					out[i] = r
				}
			}
		}
		return out
	}
	where := english.Count(len(w.Folders), "folder")
	if n := len(w.Folders); n > 0 && n <= 3 {
		where = strings.Join(rel(w.Folders), ", ")
	}
	msg := "watching " + english.Count(w.Files, "file") + " the cook read (scenes, prefabs, assets, .meta files) in " + where
	if len(w.SceneDirs) > 0 {
		msg += ", and new scenes under " + strings.Join(rel(w.SceneDirs), ", ")
	}
	return msg + "; cooking again after each change; press Ctrl-C to stop"
}

// watchCook cooks, then again on every change of an input, until
// interrupted: Ctrl-C between cooks (or during a cook that still
// finished) exits 0; during one it stops the cook, which leaves the
// previous world as any interrupted cook does, and exits 2 saying so, as
// a cook stopped without --watch would.
func watchCook(ctx context.Context, opts *cookOptions, vopts validate.Options, side *sidefile.Guard) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	var dirs []string
	for _, a := range opts.Scenes {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			dirs = append(dirs, a)
		}
	}
	once := func(ctx context.Context) watch.Inputs {
		// The settings are read once, when the watch starts: the
		// configuration file is not watched (docs/build.md).
		in := watch.Inputs{Files: append([]string(nil), opts.Scenes...), Dirs: dirs}
		// A cache of asset graphs is one run's: each cook reads the
		// assets as they are now.
		v := vopts
		v.AssetCache = assets.NewCache()
		out, err := cookOnce(ctx, opts, v, side)
		if out != nil {
			in.Files = append(in.Files, buildinfo.InputsOf(out)...)
		}
		var ee *ExitError
		switch {
		case err == nil:
			in.OK = true
		case ctx.Err() != nil:
			// Interrupted: the watch ends here, and says so once.
			return in
		case errors.As(err, &ee) && ee.Err == nil:
			// reportCook printed the findings and errors already.
		default:
			fmt.Fprintf(opts.IO.Err, "worldcook: %s\n", oneLine(errOf(err)))
		}
		if !in.OK && !opts.Quiet {
			fmt.Fprintln(opts.IO.Err, "worldcook: the previous world is unchanged; waiting for the next change")
		}
		return in
	}
	told := opts.Quiet
	armed := func(w watch.Watched) {
		if !told {
			told = true
			fmt.Fprintf(opts.IO.Err, "worldcook: %s\n", watchingText(w))
		}
	}
	err := watch.Run(ctx, once, watch.Options{SceneExt: validate.SceneExt, Exclude: opts.Cfg.Out, Armed: armed})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, watch.ErrInterrupted):
		return inputErr(errors.New("interrupted during a cook; the previous world is unchanged"))
	}
	return inputErr(err)
}
