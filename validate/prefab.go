package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/worldcook/worldcook/internal/assets"
)

// Prefabs finds prefab assets for prefab-instance entries, and the mesh
// and map files whose boxes grow cell bounds, through the project's
// assets.Resolver (shared with the asset graph, so each reference is
// resolved once per run). It reads lazily and caches every answer, misses
// included, so one Prefabs can serve many scenes. It is safe for
// concurrent use.
type Prefabs struct {
	res *assets.Resolver

	mu    sync.Mutex
	docs  map[string]*prefabAsset // project path → the prefab read there
	boxes map[string]assetBox     // project path → its local box
	// files are the prefab documents read, in the order they were.
	files []string
}

// Files returns the prefab documents read so far: inputs of the run, which
// a cook must never write over.
func (p *Prefabs) Files() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.files...)
}

// newPrefabs returns a Prefabs over the project at dirs[0] whose uuids
// resolve through the .meta files under dirs (recursively).
func newPrefabs(dirs []string) *Prefabs {
	root := "."
	if len(dirs) > 0 {
		root = dirs[0]
	}
	return NewPrefabsFor(assets.NewResolver(root, assets.NewIndex(dirs), assets.Rules{}))
}

// NewPrefabsFor returns a Prefabs resolving through r.
func NewPrefabsFor(r *assets.Resolver) *Prefabs {
	return &Prefabs{res: r, docs: make(map[string]*prefabAsset)}
}

// Resolver is the resolver the prefabs are found with.
func (p *Prefabs) Resolver() *assets.Resolver { return p.res }

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

// prefabAsset is a prefab document found for a reference, or why none was.
type prefabAsset struct {
	file string
	doc  *pdoc
	// err says why the asset could not be used; doc is then nil.
	err string
}

// lookup resolves a prefab reference made in the file from (the scene, or
// the prefab naming a base or nested prefab) and reads the prefab. The
// resolver remembers each reference's answer and docs each prefab read,
// so a second lookup reads nothing.
func (p *Prefabs) lookup(ref, from string) *prefabAsset {
	at, why, isFile := p.resolve(ref, from)
	if !isFile {
		// The engine asks its loader anyway, which finds no prefab.
		why = ref + " names no file (a builtin: name or a URL)"
	}
	if why != "" {
		return &prefabAsset{err: why}
	}
	return p.read(at)
}

// read reads the prefab at project path at, once: several references (a
// uuid, a path) may name one prefab, and it is read under the lock, so
// that two goroutines never read it twice.
func (p *Prefabs) read(at string) *prefabAsset {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.docs[at]; ok {
		return a
	}
	a := &prefabAsset{file: p.res.Name(at)}
	// Read, or tried: an input of the run either way.
	p.files = append(p.files, a.file)
	a.doc, a.err = readPrefabAt(p.res, at)
	p.docs[at] = a
	return a
}

// resolve finds the project path an asset reference made in the file from
// names; why says, naming the reference, why it names none, and isFile is
// false when the text is not a file reference at all.
func (p *Prefabs) resolve(ref, from string) (at, why string, isFile bool) {
	rel, _ := p.res.Rel(from)
	r := p.res.Resolve(ref, rel)
	if r.Reason != "" {
		return "", ref + " " + r.Reason, true
	}
	return r.Path, "", r.Ref
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
