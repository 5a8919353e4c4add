package validate

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/internal/regular"
)

// ProjectFile marks the root of an Estella project.
const ProjectFile = "project.esproject"

// maxMetaBytes bounds the .meta files read while indexing: a sidecar is a
// few hundred bytes, and anything much larger is not one.
const maxMetaBytes = 1 << 20

// Prefabs finds prefab assets for prefab-instance entries: by uuid through
// the .meta sidecars under its directories, or by project-relative path.
// It reads and indexes lazily and caches every answer, misses included, so
// one Prefabs can serve many scenes. It is safe for concurrent use.
type Prefabs struct {
	dirs []string

	mu      sync.Mutex
	indexed bool
	uuids   map[string]string // lower-case uuid → prefab file
	assets  map[string]*prefabAsset
	boxes   map[string]assetBox // asset file → its local box
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
	return &Prefabs{dirs: append([]string(nil), dirs...), assets: make(map[string]*prefabAsset)}
}

// DefaultAssetDirs returns where prefab assets of the scene at file are
// looked for when no directory is configured: the Estella project holding
// the scene (the nearest parent directory with a project.esproject), else
// the scene's own directory.
func DefaultAssetDirs(file string) []string {
	dir := filepath.Dir(file)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return []string{dir}
	}
	for d := abs; ; {
		if st, err := os.Stat(filepath.Join(d, ProjectFile)); err == nil && !st.IsDir() {
			return []string{d}
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return []string{dir}
}

// prefabAsset is a prefab document found for a reference, or why none was.
type prefabAsset struct {
	file string
	doc  *pdoc
	// err says why the asset could not be used; doc is then nil.
	err string
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

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
	return ref, uuidRE.MatchString(ref)
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
		p.index()
		if file, ok := p.uuids[strings.ToLower(id)]; ok {
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

// index maps every .meta uuid under the directories to its document. Hidden
// folders and node_modules are skipped: they hold no authored assets and can
// be huge.
func (p *Prefabs) index() {
	if p.indexed {
		return
	}
	p.indexed = true
	p.uuids = make(map[string]string)
	for _, root := range p.dirs {
		_ = filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				if de != nil && de.IsDir() && path != root {
					return fs.SkipDir
				}
				return nil
			}
			name := de.Name()
			if de.IsDir() {
				if path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(name, ".meta") {
				return nil
			}
			// A sidecar that is a link to a pipe or a device, or far too
			// large, is not one: it is skipped, never opened to block.
			f, size, err := regular.Open(path, "meta")
			if err != nil {
				return nil
			}
			data, err := io.ReadAll(io.LimitReader(f, maxMetaBytes))
			f.Close()
			if err != nil || size > maxMetaBytes {
				return nil
			}
			var meta struct {
				UUID string `json:"uuid"`
			}
			if json.Unmarshal(data, &meta) != nil || meta.UUID == "" {
				return nil
			}
			u := strings.ToLower(meta.UUID)
			if _, dup := p.uuids[u]; !dup {
				p.uuids[u] = strings.TrimSuffix(path, ".meta")
			}
			return nil
		})
	}
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
