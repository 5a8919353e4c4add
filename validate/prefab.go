package validate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/assets"
)

// ProjectFile marks the root of an Estella project.
const ProjectFile = assets.ProjectFile

// Prefabs finds prefab assets for prefab-instance entries: by uuid through
// the .meta sidecars under its directories, or by project-relative path.
// It reads and indexes lazily and caches every answer, misses included, so
// one Prefabs can serve many scenes. It is safe for concurrent use.
type Prefabs struct {
	dirs []string

	// meta is the uuid index of the folders, shared with the asset graph
	// so that each .meta is read once.
	meta *assets.Index

	mu     sync.Mutex
	assets map[string]*prefabAsset
	boxes  map[string]assetBox // asset file → its local box
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

// NewPrefabs returns a Prefabs searching dirs (recursively for .meta files).
func NewPrefabs(dirs []string) *Prefabs {
	return &Prefabs{dirs: append([]string(nil), dirs...), meta: assets.NewIndex(dirs), assets: make(map[string]*prefabAsset)}
}

// Index is the .meta uuid index of the folders.
func (p *Prefabs) Index() *assets.Index { return p.meta }

// DefaultAssetDirs returns where prefab assets of the scene at file are
// looked for when no directory is configured: the Estella project holding
// the scene (the nearest parent directory with a project.esproject), else
// the scene's own directory.
func DefaultAssetDirs(file string) []string {
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

// lookup resolves a prefab reference, relative to the file that makes it
// (the scene, or the prefab naming a base or nested prefab) for plain
// relative paths.
func (p *Prefabs) lookup(ref, from string) *prefabAsset {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := p.key(ref, from)
	if a, ok := p.assets[key]; ok {
		return a
	}
	a := &prefabAsset{}
	file, why := p.resolveLocked(ref, from)
	if why == "" {
		// Read, or tried: an input of the run either way.
		p.files = append(p.files, file)
	}
	if why != "" {
		a.err = why
	} else if doc, why := readPrefabDoc(file); why != "" {
		a.file, a.err = file, why
	} else {
		a.file, a.doc = file, doc
	}
	p.assets[key] = a
	return a
}

// key is the cache key of a reference: uuids are global, relative paths
// may depend on the referencing file's folder.
func (p *Prefabs) key(ref, from string) string {
	if _, ok := assetUUID(ref); ok {
		return strings.ToLower(ref)
	}
	return filepath.Dir(from) + "\x00" + ref
}

// assetUUID returns the uuid of an "@uuid:" reference or a bare uuid.
func assetUUID(ref string) (string, bool) {
	if id, ok := strings.CutPrefix(ref, "@uuid:"); ok {
		return id, true
	}
	return ref, assets.IsUUID(ref)
}

// resolve finds the file an asset reference names: by uuid through the
// .meta sidecars, else as a project path. why says what is missing.
func (p *Prefabs) resolve(ref, from string) (file, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolveLocked(ref, from)
}

func (p *Prefabs) resolveLocked(ref, from string) (file, why string) {
	if id, ok := assetUUID(ref); ok {
		if file, ok := p.meta.Lookup(id); ok {
			return file, ""
		}
		return "", "no .meta with uuid " + id + " under " + p.where()
	}
	return p.readPath(ref, from)
}

func (p *Prefabs) where() string {
	if len(p.dirs) == 0 {
		return "no asset directory"
	}
	return strings.Join(p.dirs, ", ")
}

// readPath resolves a logical path: project-relative under each asset
// directory ("assets/prefabs/Coin.esprefab", a leading "/" is logical
// too), then relative to the referencing file's folder.
func (p *Prefabs) readPath(ref, from string) (string, string) {
	rel := filepath.Clean(filepath.FromSlash(strings.TrimPrefix(ref, "/")))
	// A project path names a file inside the project, as the engine's
	// asset catalog does; one that climbs out of it names nothing.
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", ref + " leaves the project folder"
	}
	cands := make([]string, 0, len(p.dirs)+1)
	for _, d := range p.dirs {
		cands = append(cands, filepath.Join(d, rel))
	}
	cands = append(cands, filepath.Join(filepath.Dir(from), rel))
	for _, f := range cands {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			return f, ""
		}
	}
	return "", ref + " not found under " + p.where()
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
