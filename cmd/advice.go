package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/shell"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// Advice that names a command prints one that works when pasted as
// printed: it repeats the command line as the user typed it, with only
// what must change changed, and quotes every word for the shell
// (internal/shell). A test runs each.

// retyped is the command line args with its argument arg (the last word
// equal to it) replaced by with (none to drop it), as one shell command
// starting "worldcook". Without arg in it (a test calling a command
// directly), it is "worldcook" and the words of fallback.
func retyped(args []string, arg string, with []string, fallback ...string) string {
	i := -1
	for k := len(args) - 1; k >= 0; k-- {
		if args[k] == arg {
			i = k
			break
		}
	}
	if i < 0 {
		return shell.Command(append([]string{"worldcook"}, fallback...)...)
	}
	words := append([]string{"worldcook"}, args[:i]...)
	words = append(words, with...)
	words = append(words, args[i+1:]...)
	return shell.Command(words...)
}

// maxListedScenes is how many scenes a piece of advice lists by name.
const maxListedScenes = 5

// scenesUnder lists the authored scenes under dir, sorted: every .esscene
// file, not in a hidden folder, node_modules, or a folder a cook wrote
// (one holding world/*.world.json). Unreadable folders are skipped.
func scenesUnder(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return fs.SkipDir
			}
			if found, _ := filepath.Glob(filepath.Join(p, manifest.WorldDir, "*.world.json")); len(found) > 0 {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, validate.SceneExt) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// isDir reports whether p is a folder.
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// worldAdvice adds to simulate's (or tune's) answer to a WORLD that is
// not a world the command that simulates (or tunes) what the folder holds: the world a cook
// wrote under it (cook.out), else one of its scenes, cooked in memory,
// made a streamed world first when none is one yet.
func worldAdvice(opts *simulateOptions, err error) error {
	verb := opts.command()
	var nw *cook.NotWorldError
	var bad *cook.InvalidSceneError
	var many *cook.ManyWorldsError
	switch {
	case errors.As(err, &many):
		m := worldIn(many.Dir)
		if m == "" || m == many.Dir {
			m = many.Manifests[0]
		}
		cmd := retyped(opts.Args, many.Dir, []string{m}, verb, m)
		if opts.Defaulted {
			cmd = shell.Command(append(append([]string{"worldcook"}, opts.Args...), m)...)
		}
		return fmt.Errorf("%s holds %s; %s one by its manifest: %s", many.Dir, english.Count(len(many.Manifests), "world"), verb, cmd)
	case errors.As(err, &bad):
		return fmt.Errorf("%s has %s and cannot be cooked; see them with %s", bad.File, english.Count(bad.Errors, "validation error"), validateCommand(opts, bad.File))
	case !errors.As(err, &nw):
		return err
	}
	dir := nw.Dir
	if w := worldIn(opts.Cfg.DefaultWorld); w != "" && within(w, dir) {
		return fmt.Errorf("%s holds no world/*.world.json: not a cooked world; the cook's output is in %s: %s", dir, opts.Cfg.DefaultWorld, retyped(opts.Args, dir, []string{w}, verb, w))
	}
	scenes := scenesUnder(dir)
	if len(scenes) == 0 {
		return err
	}
	return fmt.Errorf("%s holds %s, not a cooked world (no world/*.world.json); %s", dir, english.Count(len(scenes), "scene"), sceneAdvice(opts, scenes, dir))
}

// missingWorldAdvice is what simulate without WORLD says when nothing is
// cooked at cook.out: a scene here to simulate instead, as worldAdvice.
func missingWorldAdvice(opts *simulateOptions) string {
	scenes := scenesUnder(".")
	if len(scenes) == 0 {
		return "cook a scene into it first, or pass the world to simulate"
	}
	return "nothing is cooked there yet, and this folder holds " + english.Count(len(scenes), "scene") + "; " + sceneAdvice(opts, scenes, "")
}

// sceneAdvice says how to simulate one of scenes, found under dir (the
// argument the command line gives, "" when it gives none): as it is
// when it is a streamed world, else after init makes it one. The scene
// chosen is the first streamed one of the first few, preferring one
// called main.
func sceneAdvice(opts *simulateOptions, scenes []string, dir string) string {
	sort.SliceStable(scenes, func(a, b int) bool {
		return filepath.Base(scenes[a]) == "main"+validate.SceneExt && filepath.Base(scenes[b]) != "main"+validate.SceneExt
	})
	sim := func(s string) string {
		if dir == "" {
			return shell.Command(append(append([]string{"worldcook"}, opts.Args...), s)...)
		}
		return retyped(opts.Args, dir, []string{s}, opts.command(), s)
	}
	vopts, err := validateOptions(opts.Cfg.Plane, opts.Cfg.Assets, false, opts.Components)
	for _, s := range scenes[:min(len(scenes), maxListedScenes)] {
		if err != nil {
			break
		}
		if plan, err := cook.Validate(s, opts.Cfg.ScenesRoot, vopts, nil); err == nil && plan.Streamed {
			return opts.command() + " " + s + " as it is, cooked in memory: " + sim(s)
		}
	}
	s := scenes[0]
	init := []string{"worldcook", "init", "--write", s}
	if opts.Cfg.Plane == manifest.PlaneXY {
		init = []string{"worldcook", "init", "--plane", "xy", "--write", s}
	}
	return "none of them is a streamed world yet: make " + s + " one with " + shell.Command(init...) + ", then " + opts.command() + " it: " + sim(s)
}

// command is the command the advice is for: simulate, or tune, which
// opens its world as simulate does.
func (opts *simulateOptions) command() string {
	if opts.Tune {
		return "tune"
	}
	return "simulate"
}

// validateCommand is the validate command that shows a scene's errors
// with the settings file and plane the simulate run had.
func validateCommand(opts *simulateOptions, file string) string {
	words := []string{"worldcook"}
	for i, a := range opts.Args {
		if a == "--config" && i+1 < len(opts.Args) {
			words = append(words, a, opts.Args[i+1])
		} else if strings.HasPrefix(a, "--config=") {
			words = append(words, a)
		}
	}
	words = append(words, "validate")
	if opts.Cfg.Plane == manifest.PlaneXY {
		words = append(words, "--plane", "xy")
	}
	return shell.Command(append(words, file)...)
}

// worldIn is the world to simulate in the cooked folder dir: dir when it
// holds one world, its manifest when it holds several, "" for none.
func worldIn(dir string) string {
	found, _ := filepath.Glob(filepath.Join(dir, manifest.WorldDir, "*.world.json"))
	switch len(found) {
	case 0:
		return ""
	case 1:
		return dir
	}
	for _, f := range found {
		if filepath.Base(f) == "main.world.json" {
			return f
		}
	}
	return found[0]
}

// within reports whether path p lies in (or is) folder dir.
func within(p, dir string) bool {
	ap, err1 := filepath.Abs(p)
	ad, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ad, ap)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
