package cook

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/streaming"
	"github.com/worldcook/worldcook/validate"
)

// addAssets records in m what each cell and the persistent world load
// besides their documents. A world that references no asset gets no
// asset fields at all, so its manifest is what it was before assets
// were counted.
func addAssets(m *manifest.Manifest, plan *validate.Plan) {
	ap := plan.Assets
	if ap == nil || len(ap.All) == 0 {
		return
	}
	m.Assets = make([]manifest.Asset, len(ap.All))
	for i, a := range ap.All {
		m.Assets[i] = manifest.Asset{Path: a.Path, Bytes: a.Bytes, Blake3: a.Blake3}
	}
	m.Persistent.SetAssets(ap.Persistent.Paths, ap.Persistent.Bytes)
	for k := range m.Cells {
		m.Cells[k].SetAssets(ap.Cells[k].Paths, ap.Cells[k].Bytes)
	}
}

// projectOf is the manifest's project field for a world cooked into out:
// its project folder relative to the manifest's folder (out/world), so
// that simulate --io disk finds the asset files wherever the world was
// cooked. "" for a world without assets, or when no relative path joins
// the two (another drive).
func projectOf(m *manifest.Manifest, plan *validate.Plan, out string) string {
	if len(m.Assets) == 0 || plan.Assets == nil || plan.Assets.Root == "" {
		return ""
	}
	root, err := filepath.Abs(plan.Assets.Root)
	if err != nil {
		return ""
	}
	dir, err := filepath.Abs(filepath.Join(out, manifest.WorldDir))
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(dir, root)
	if err != nil {
		return ""
	}
	rel = filepath.ToSlash(rel)
	if manifest.CheckProject(rel) != nil {
		return ""
	}
	return rel
}

// dependsOnAssets reports whether the cooked world may depend on files
// besides the scene: a scene cooked inside a project, whose assets (and
// their .meta files) the cook record does not cover. Such a world gets no
// record (one left by an earlier cook is removed), so it is never
// confirmed from one; every cook reads its assets again.
func dependsOnAssets(plan *validate.Plan) bool { return plan.Assets != nil }

// inProject reports whether the scene's world is cooked with asset lists
// (it lies in a project, or asset folders are given), as validate decides:
// such a world is never confirmed from a record, even one an earlier cook
// wrote before the project was there.
func inProject(file string, opts validate.Options) bool {
	if len(opts.Assets) > 0 || opts.AssetGraph != nil {
		return true
	}
	_, ok := assets.FindProject(file)
	return ok
}

// openAssets gives a world with assets the project files they are read
// from with disk IO: the project given, else the one the manifest file
// records (its project field), else the one above near (a folder holding
// project.esproject). A world with assets but no project
// simply has none; the caller decides whether it needs them.
func openAssets(w *streaming.World, m *manifest.Manifest, opts OpenOptions, near, file string) error {
	if len(m.Assets) == 0 {
		return nil
	}
	project := opts.Project
	if project == "" && file != "" && m.Project != "" {
		// The folder the cook recorded, relative to the manifest's: reading
		// assets there is all that is done with it, from inside that folder
		// only (OpenAssets).
		dir := filepath.Join(filepath.Dir(file), filepath.FromSlash(m.Project))
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: project %q names %s, which is not a folder (was the cooked folder moved without its project?); pass --assets with the project folder, or cook the world again", file, m.Project, dir)
		}
		// A relative path always names some folder: one that holds none
		// of the world's assets is not its project but wherever a cooked
		// folder moved alone happens to sit.
		if !holdsAny(dir, m.Assets) {
			return fmt.Errorf("%s: project %q names %s, which holds none of the world's assets (was the cooked folder moved without its project?); pass --assets with the project folder, or cook the world again", file, m.Project, dir)
		}
		project = dir
	}
	if project == "" && near != "" {
		if p, ok := assets.FindProject(filepath.Join(near, "x")); ok {
			project = p
		}
	}
	if project == "" {
		return nil
	}
	if opts.Read != nil {
		read := []string{filepath.Join(project, assets.ProjectFile)}
		for _, a := range m.Assets {
			f := filepath.Join(project, filepath.FromSlash(a.Path))
			read = append(read, f, f+assets.MetaExt)
		}
		opts.read(read...)
	}
	files, err := streaming.OpenAssets(project, m)
	if err != nil {
		return err
	}
	w.AssetFiles = files
	return nil
}

// holdsAny reports whether the folder dir holds a file at one of the
// assets' paths, looked up inside it only.
func holdsAny(dir string, list []manifest.Asset) bool {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, a := range list {
		if st, err := r.Stat(filepath.FromSlash(a.Path)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}
