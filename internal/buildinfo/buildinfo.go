// Package buildinfo tells build systems what a cook read and wrote: a
// Make/Ninja depfile (the manifest of each scene and every file its cook
// read) and a metafile (every input and output with its bytes and blake3,
// and the inputs each output was made from). A cook reads prefabs and
// assets no build file lists; with these a build re-runs exactly the cooks
// whose inputs changed, and a remote build knows what to ship.
package buildinfo

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/worldcook/worldcook/cook"
	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/manifest"
)

// Scene is what one scene's cook read and wrote.
type Scene struct {
	// File is the scene as given; Target is the file a build rule names
	// as the cook's output: the manifest, or the copy of a scene that is
	// not a streamed world.
	File, Target string
	// Inputs are every file the cook read, the scene first, then sorted.
	Inputs []string
	// Outputs are the world's files (paths in the file system) with the
	// inputs each was made from.
	Outputs []Output
}

// Output is one file a cook wrote (or confirmed unchanged).
type Output struct {
	Path   string
	Inputs []string
}

// Graph is what a whole cook read and wrote, scene by scene.
type Graph struct {
	Scenes []Scene
	// Settings are the files besides the scenes and their assets whose
	// content decides every output: the configuration file, and the game
	// configuration where it says where each persistent world goes.
	Settings []string
}

// ErrIncomplete is returned for an outcome with a scene that did not
// cook: its inputs are not all known, so no depfile may claim them.
var ErrIncomplete = errors.New("a scene did not cook")

// Of returns what a cook outcome read and wrote. Every scene must have
// cooked; the outputs are the world's files in out. settings are the
// files that decide every output besides the scenes and their assets
// ("" entries are ignored; see Graph.Settings).
func Of(o *cook.Outcome, settings ...string) (*Graph, error) {
	g := &Graph{}
	for _, f := range settings {
		if f != "" {
			g.Settings = append(g.Settings, f)
		}
	}
	for i, s := range o.Scenes {
		rep := o.Reports[i]
		if o.Errs[i] != nil || rep == nil || rep.Result == nil {
			return nil, fmt.Errorf("%s: %w", s.File, ErrIncomplete)
		}
		g.Scenes = append(g.Scenes, sceneOf(s, rep, g.Settings))
	}
	return g, nil
}

func sceneOf(s cook.Scene, rep *cook.Report, settings []string) Scene {
	out := func(p string) string { return filepath.Join(rep.Out, filepath.FromSlash(p)) }
	sc := Scene{File: s.File}
	base := append([]string{s.File}, settings...)
	if p := rep.Plan; p != nil && p.Assets != nil {
		// Every sidecar read for the uuid index decides what a uuid
		// names, so it is an input of every output.
		base = append(base, local(existing(p.Assets.Sidecars))...)
	}
	with := func(files ...[]string) []string {
		return sortedSet(base[:1], append(append([]string(nil), base[1:]...), concat(files...)...))
	}
	var all []string
	byPath := map[string]string{}
	if p := rep.Plan; p != nil {
		all = append(all, p.PrefabFiles...)
		if ap := p.Assets; ap != nil {
			all = append(all, ap.Files...)
			// The project file is read for being there: it decides the
			// root the asset paths are relative to.
			all = append(all, filepath.Join(ap.Root, assets.ProjectFile))
			for k, a := range ap.All {
				byPath[a.Path] = ap.Files[k]
			}
		}
	}
	files := func(paths *[]string) []string {
		if paths == nil {
			return nil
		}
		var fs []string
		for _, p := range *paths {
			if f, ok := byPath[p]; ok {
				fs = append(fs, f, f+".meta")
			}
		}
		return local(existing(fs))
	}
	all = local(existing(append(all, metaOf(all)...)))
	sc.Inputs = with(all)
	if !rep.Streamed {
		sc.Target = out(cook.PersistentPath(rep.Scene))
		sc.Outputs = []Output{{Path: sc.Target, Inputs: sc.Inputs}}
		return sc
	}
	sc.Target = out(cook.ManifestPath(rep.Scene))
	var m *manifest.Manifest
	if rep.World != nil {
		m = rep.World.Manifest
	}
	if m == nil && rep.Result != nil {
		// Confirmed from its record: the world has no prefabs and no
		// assets (see cook's record), so the scene alone made each file.
		for _, f := range rep.Result.Unchanged {
			sc.Outputs = append(sc.Outputs, Output{Path: out(f), Inputs: with()})
		}
		sort.Slice(sc.Outputs, func(a, b int) bool { return sc.Outputs[a].Path < sc.Outputs[b].Path })
		return sc
	}
	if m == nil {
		return sc // a failed cook: only its inputs are known
	}
	// A cell is made of the scene, and of what its entities load: the
	// asset lists hold the prefab documents its instances expand too.
	sc.Outputs = append(sc.Outputs, Output{Path: out(m.Persistent.Path), Inputs: with(files(m.Persistent.Assets.Assets))})
	for _, c := range m.Cells {
		sc.Outputs = append(sc.Outputs, Output{Path: out(c.Path), Inputs: with(files(c.Assets.Assets))})
	}
	sc.Outputs = append(sc.Outputs, Output{Path: sc.Target, Inputs: sc.Inputs})
	sort.Slice(sc.Outputs, func(a, b int) bool { return sc.Outputs[a].Path < sc.Outputs[b].Path })
	return sc
}

// local spells a file under the working directory relative to it, as a
// build file there names it; the asset resolver makes project paths
// absolute.
func local(files []string) []string {
	wd, err := os.Getwd()
	if err != nil {
		return files
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f
		if filepath.IsAbs(f) {
			if r, err := filepath.Rel(wd, f); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				out[i] = r
			}
		}
	}
	return out
}

// metaOf names the .meta sidecars of files: a uuid reference is resolved
// through the sidecar beside the asset it names.
func metaOf(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f + ".meta"
	}
	return out
}

// existing keeps the files that are there.
func existing(files []string) []string {
	var out []string
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	return out
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// sortedSet returns first, then the rest sorted without duplicates (nor
// repeats of first).
func sortedSet(first, rest []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, f := range first {
		seen[filepath.Clean(f)] = true
		out = append(out, f)
	}
	sort.Strings(rest)
	for _, f := range rest {
		if c := filepath.Clean(f); !seen[c] {
			seen[c] = true
			out = append(out, f)
		}
	}
	return out
}

// Inputs returns every file the cook read, each once, sorted.
func (g *Graph) Inputs() []string {
	var all []string
	for _, s := range g.Scenes {
		all = append(all, s.Inputs...)
	}
	return sortedSet(nil, all)
}

// hashFile returns a file's size and blake3.
func hashFile(path string) (int64, string, error) {
	f, _, err := regular.Open(path, "file")
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := blake3.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// InputsOf returns the files a cook outcome read, scenes that failed
// included as far as they got (what a watch must follow): the scenes, the
// prefabs their expansion opened and the assets they list, with sidecars.
func InputsOf(o *cook.Outcome) []string {
	var all []string
	for i, s := range o.Scenes {
		all = append(all, s.File)
		if rep := o.Reports[i]; rep != nil && (rep.Result != nil || rep.Plan != nil) {
			all = append(all, sceneOf(s, rep, nil).Inputs...)
		}
	}
	return sortedSet(nil, all)
}
