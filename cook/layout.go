package cook

import (
	"path"
	"strings"

	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// The names below are worldcook's own bookkeeping inside the output
// directory: the staging folder and journal exist only while a commit
// runs (or after it was killed), the record between cooks.
const (
	stagingPrefix = ".worldcook-staging-"
	journalSuffix = ".worldcook-journal"
	recordSuffix  = ".worldcook-record"
	tmpSuffix     = ".tmp"
	worldDir      = manifest.WorldDir
)

// layout is every path, relative to the output directory, that the cook
// of one scene may write, rename or remove. It is the one place those
// names are made; the collision checks, the input check and the journal's
// validation all ask it.
type layout struct {
	scene string // the scene's runtime name ("levels/boss")
	safe  string // grid.FileSafe(scene)
	// persist, if set, is where the persistent world goes instead of
	// PersistentPath (--persist-at registered: the path the game
	// configuration registers for the scene, checked by RegisteredPaths).
	persist string
}

func layoutOf(scene string) layout { return layout{scene: scene, safe: grid.FileSafe(scene)} }

// layoutAt is the scene's layout with its persistent world at persist
// ("" = PersistentPath).
func layoutAt(scene, persist string) layout {
	l := layoutOf(scene)
	l.persist = persist
	return l
}

// PersistentPath is where a scene's persistent world goes inside the output
// directory: its runtime name plus ".esscene".
func PersistentPath(sceneName string) string { return sceneName + validate.SceneExt }

// ManifestPath is where a scene's world manifest goes.
func ManifestPath(sceneName string) string { return layoutOf(sceneName).manifest() }

func (l layout) persistent() string {
	if l.persist != "" {
		return l.persist
	}
	return PersistentPath(l.scene)
}
func (l layout) manifest() string { return worldDir + "/" + l.safe + ".world.json" }
func (l layout) staging() string  { return stagingPrefix + l.safe }
func (l layout) journal() string  { return "." + l.safe + journalSuffix }
func (l layout) record() string   { return "." + l.safe + recordSuffix }

// fixed lists the scene's paths that have one name each, the staging
// folder included (its files are inside it).
func (l layout) fixed() []string {
	return []string{
		l.persistent(), l.manifest(), l.staging(),
		l.journal(), l.journal() + tmpSuffix, l.record(), l.record() + tmpSuffix,
	}
}

// cell reports whether p is the path of one of the scene's cell
// documents, world/<scene>.cell_<x>_<z>.json, exactly as grid names them
// (no other spelling of the numbers).
func (l layout) cell(p string) bool {
	base, ok := strings.CutPrefix(p, worldDir+"/")
	if !ok {
		return false
	}
	_, k, ok := grid.ParseFile(base)
	return ok && p == worldDir+"/"+grid.File(grid.Name(l.scene, k))
}

// staged reports whether p is a file the scene's commit stages: a
// six-or-more-digit name directly inside its staging folder.
func (l layout) staged(p string) bool {
	name, ok := strings.CutPrefix(p, l.staging()+"/")
	if !ok || len(name) < 6 {
		return false
	}
	for _, c := range []byte(name) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// target reports whether p is a file of the scene's world: what a
// journal may move into place or remove.
func (l layout) target(p string) bool {
	return p == l.persistent() || p == l.manifest() || l.cell(p)
}

// owns reports whether the cook of the scene may write, rename or remove
// p: a file of its world or of its bookkeeping.
func (l layout) owns(p string) bool {
	if manifest.CheckPath(p) != nil {
		return false
	}
	if l.target(p) || l.staged(p) {
		return true
	}
	for _, f := range l.fixed() {
		if p == f || strings.HasPrefix(p, f+"/") {
			return true
		}
	}
	return false
}

// role says what p, a path the scene owns, is to its cook.
func (l layout) role(p string) string {
	switch {
	case p == l.persistent():
		return "the persistent world"
	case p == l.manifest():
		return "the world manifest"
	case l.cell(p):
		return "a cell"
	case p == l.journal() || p == l.journal()+tmpSuffix:
		return "the commit journal"
	case p == l.record() || p == l.record()+tmpSuffix:
		return "the cook record"
	}
	return "the staging folder"
}

// clash reports a path of a's that b's cook would also write, if any:
// two such scenes cooked together would replace each other's files.
func clash(a, b layout) (string, bool) {
	if a.safe == b.safe {
		return a.manifest(), true
	}
	for _, p := range a.fixed() {
		if b.owns(p) {
			return p, true
		}
		// A folder of a's holding a file of b's is as bad.
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if b.owns(d) {
				return p, true
			}
		}
	}
	for _, p := range b.fixed() {
		if a.owns(p) {
			return p, true
		}
	}
	return "", false
}
