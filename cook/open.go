package cook

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// OpenOptions says how Open treats a path that is not a cooked world.
type OpenOptions struct {
	// Validate and ScenesRoot are used when the path is a scene, which
	// is cooked in memory as Load and Build would cook it.
	Validate   validate.Options
	ScenesRoot string
	// Missing is the advice given when the path does not exist (default:
	// pass a cooked directory, a world manifest or a scene).
	Missing string
	// Project is the folder whose asset files a world with assets loads
	// (disk IO); "" means the one the manifest records (its project
	// field), else the project above the cooked directory, or the scene's
	// project.
	Project string
	// Read, if set, is told the files the world is read from: the
	// manifest, the persistent world and the cells; the scene with its
	// PlanInputs; the asset files (and their sidecars) of the project
	// whose assets the world loads. A caller that writes files besides
	// (a plot, a page) guards them with it. It may be called from several
	// goroutines at once when one Options opens several worlds.
	Read func(files ...string)
}

func (o OpenOptions) read(files ...string) {
	if o.Read != nil {
		o.Read(files...)
	}
}

// Open opens a world for simulation: a cooked directory (its manifest
// found as world/*.world.json, or *.world.json when the directory is the
// world/ folder), a world manifest, or a scene (.esscene), cooked in
// memory without writing anything.
//
// A cooked world is opened only as cook left it: no commit pending, and
// every file its manifest lists with the manifest's size and blake3. Its
// files are then served, for disk IO, only from inside the cooked
// directory (streaming.DirFiles: an os.Root, regular files only, each
// read bounded by its manifest size).
func Open(ctx context.Context, path string, opts OpenOptions) (*streaming.World, error) {
	st, err := os.Stat(path)
	if err != nil {
		hint := opts.Missing
		if hint == "" {
			hint = "pass a cooked directory, a world manifest or a scene"
		}
		return nil, fmt.Errorf("cannot read world %s: %v; %s", path, cause(err), hint)
	}
	if !st.IsDir() && strings.HasSuffix(path, ".esscene") {
		return openScene(ctx, path, opts)
	}
	file, root := path, ""
	if st.IsDir() {
		if file, root, err = findManifest(path); err != nil {
			return nil, err
		}
	} else {
		// Manifest paths are relative to the cooked directory, the parent
		// of the world/ folder the manifest sits in.
		root = filepath.Dir(file)
		if filepath.Base(root) == manifest.WorldDir {
			root = filepath.Dir(root)
		}
	}
	opts.read(file)
	m, err := manifest.Load(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot read manifest %s: %v", file, pe.Err)
		}
		return nil, err
	}
	// Not mid-commit (some files new, the manifest old), and every file
	// the manifest lists with its size and blake3.
	if err := pending(root, m.Scene); err != nil {
		return nil, err
	}
	read := []string{filepath.Join(root, filepath.FromSlash(m.Persistent.Path))}
	for _, c := range m.Cells {
		read = append(read, filepath.Join(root, filepath.FromSlash(c.Path)))
	}
	opts.read(read...)
	if err := verify(root, m); err != nil {
		return nil, err
	}
	files, err := streaming.OpenDir(root, m)
	if err != nil {
		return nil, err
	}
	w := streaming.WorldFromManifest(m, files)
	return w, openAssets(w, m, opts, filepath.Join(root, manifest.WorldDir), file)
}

// NotWorldError is Open's answer to a folder that holds no cooked world,
// so that a caller who knows the command line can say what to run.
type NotWorldError struct{ Dir string }

func (e *NotWorldError) Error() string {
	return e.Dir + " holds no world/*.world.json: not a cooked world; pass the --out folder of a cook, a world manifest or a scene"
}

// InvalidSceneError is Open's answer to a scene with validation errors,
// which it cannot cook.
type InvalidSceneError struct {
	File   string
	Errors int
}

func (e *InvalidSceneError) Error() string {
	return fmt.Sprintf("%s has %s and cannot be cooked; validate it to see them", e.File, english.Count(e.Errors, "validation error"))
}

// findManifest finds the one world manifest of a cooked directory (or of
// its world/ folder).
func findManifest(dir string) (file, root string, err error) {
	root = dir
	found, _ := filepath.Glob(filepath.Join(dir, manifest.WorldDir, "*.world.json"))
	if len(found) == 0 {
		if found, _ = filepath.Glob(filepath.Join(dir, "*.world.json")); len(found) > 0 {
			root = filepath.Dir(filepath.Clean(dir))
		}
	}
	switch len(found) {
	case 0:
		// A first cook killed mid-commit leaves its journal before the
		// manifest is in place.
		if err := pending(root, ""); err != nil {
			return "", "", err
		}
		return "", "", &NotWorldError{Dir: dir}
	case 1:
		return found[0], root, nil
	}
	return "", "", &ManyWorldsError{Dir: dir, Manifests: found}
}

// ManyWorldsError is Open's answer to a cooked folder that holds several
// worlds: a run simulates one, given by its manifest.
type ManyWorldsError struct {
	Dir string
	// Manifests are the worlds' manifests, sorted.
	Manifests []string
}

func (e *ManyWorldsError) Error() string {
	names := make([]string, len(e.Manifests))
	for i, f := range e.Manifests {
		names[i] = filepath.Base(f)
	}
	return fmt.Sprintf("%s holds %d worlds (%s); pass one manifest, e.g. %s", e.Dir, len(e.Manifests), strings.Join(names, ", "), e.Manifests[0])
}

// openScene cooks a scene in memory (nothing is written) and returns its
// world, served to disk IO from memory.
func openScene(ctx context.Context, file string, opts OpenOptions) (*streaming.World, error) {
	opts.read(file)
	plan, err := load(file, opts.Validate, opts.ScenesRoot, nil)
	if err != nil {
		return nil, err
	}
	_, w, err := openPlan(ctx, file, plan, opts, false)
	return w, err
}

// OpenSource is Open for a scene's text src, as if read from file (which
// is not read: its name places the scene in its project and names its
// cells): the scene's plan and, for a streamed world, its manifest and
// world, cooked in memory even when the plan has errors (a caller
// weighing edits reads them from the plan; cook itself refuses them).
// The plan keeps its model of the world (Plan.World), for the caller to
// read.
func OpenSource(ctx context.Context, file string, src []byte, opts OpenOptions) (*validate.Plan, *manifest.Manifest, *streaming.World, error) {
	vo, err := named(file, opts.Validate, opts.ScenesRoot)
	if err != nil {
		return nil, nil, nil, err
	}
	p, err := check(file, src, scene.Options{}, vo, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	m, w, err := openPlan(ctx, file, p, opts, true)
	return p, m, w, err
}

// openPlan cooks plan in memory and opens its world; a plan of errors is
// refused unless anyway.
func openPlan(ctx context.Context, file string, plan *validate.Plan, opts OpenOptions, anyway bool) (*manifest.Manifest, *streaming.World, error) {
	opts.read(PlanInputs(file, plan)...)
	if n := plan.Errors(false); n > 0 && !anyway {
		return nil, nil, &InvalidSceneError{File: file, Errors: n}
	}
	cooked, err := buildWorld(ctx, plan, options{})
	if err != nil {
		return nil, nil, err
	}
	if cooked.Manifest == nil {
		return nil, nil, fmt.Errorf("%s is not a streamed world (it has no StreamedWorld entity): nothing to simulate", file)
	}
	files := streaming.MemFiles{}
	for _, f := range cooked.Files {
		files[f.Path] = f.Bytes
	}
	w := streaming.WorldFromManifest(cooked.Manifest, files)
	if opts.Project == "" && plan.Assets != nil {
		opts.Project = plan.Assets.Root
	}
	return cooked.Manifest, w, openAssets(w, cooked.Manifest, opts, "", "")
}

// PlanInputs are the files whose content a plan of file depends on: the
// scene, the prefabs its instances were placed from, the asset files it
// references and their .meta sidecars, every sidecar read for the uuid
// index, and the project file that decides where asset paths start. A
// file written besides the run's output must be none of them.
func PlanInputs(file string, p *validate.Plan) []string {
	out := []string{file}
	if p == nil {
		return out
	}
	for _, f := range p.PrefabFiles {
		out = append(out, f, f+assets.MetaExt)
	}
	if a := p.Assets; a != nil {
		for _, f := range a.Files {
			out = append(out, f, f+assets.MetaExt)
		}
		out = append(out, a.Sidecars...)
		if a.Root != "" {
			out = append(out, filepath.Join(a.Root, assets.ProjectFile))
		}
	}
	return out
}
