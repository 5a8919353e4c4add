package cook

import (
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
// from with disk IO: the project given, else the one above near (a
// folder holding project.esproject). A world with assets but no project
// simply has none; the caller decides whether it needs them.
func openAssets(w *streaming.World, m *manifest.Manifest, project, near string) error {
	if len(m.Assets) == 0 {
		return nil
	}
	if project == "" && near != "" {
		if p, ok := assets.FindProject(filepath.Join(near, "x")); ok {
			project = p
		}
	}
	if project == "" {
		return nil
	}
	files, err := streaming.OpenAssets(project, m)
	if err != nil {
		return err
	}
	w.AssetFiles = files
	return nil
}
