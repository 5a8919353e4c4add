package validate

import (
	"path/filepath"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/world/expand"
)

// PrefabExt is the extension of Estella prefab documents.
const PrefabExt = expand.PrefabExt

// Prefabs finds prefab assets for prefab-instance entries, and the mesh
// and map files whose boxes grow cell bounds, through the project's
// assets.Resolver; one Prefabs can serve many scenes (Options.Prefabs).
// See internal/world/expand.
type Prefabs = expand.Prefabs

// NewPrefabsFor returns a Prefabs resolving through r.
func NewPrefabsFor(r *assets.Resolver) *Prefabs { return expand.NewPrefabs(r) }

// ComponentFields lists a component type's entity-reference fields.
type ComponentFields = expand.ComponentFields

// ref is one entity reference the checker classifies.
type ref = expand.Ref

// defaultAssetDirs returns where prefab assets of the scene at file are
// looked for when no directory is configured: the Estella project holding
// the scene (the nearest parent directory with a project.esproject), else
// the scene's own directory.
func defaultAssetDirs(file string) []string {
	if root, ok := assets.FindProject(file); ok {
		return []string{root}
	}
	return []string{filepath.Dir(file)}
}
