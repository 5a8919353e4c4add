package cook

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/english"
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
	if err := verify(root, m); err != nil {
		return nil, err
	}
	files, err := streaming.OpenDir(root, m)
	if err != nil {
		return nil, err
	}
	w := streaming.WorldFromManifest(m, files)
	return w, openAssets(w, m, opts.Project, filepath.Join(root, manifest.WorldDir), file)
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
	plan, err := load(file, opts.Validate, opts.ScenesRoot, nil)
	if err != nil {
		return nil, err
	}
	if n := plan.Errors(false); n > 0 {
		return nil, &InvalidSceneError{File: file, Errors: n}
	}
	cooked, err := buildWorld(ctx, plan, options{})
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
	project := opts.Project
	if project == "" && plan.Assets != nil {
		project = plan.Assets.Root
	}
	return w, openAssets(w, cooked.Manifest, project, "", "")
}
