package validate

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/worldcook/worldcook/assets"
	"github.com/worldcook/worldcook/scene"
)

// ProjectFile marks the root of an Estella project.
const ProjectFile = assets.ProjectFile

// maxPrefabDepth bounds how many variant prefabs (basePrefab) are followed
// to find a root entity, so a variant cycle costs bounded work.
const maxPrefabDepth = 8

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

// prefabAsset is what placing an instance needs from a prefab document:
// its root entity's id and components.
type prefabAsset struct {
	file   string
	rootID string
	comps  []scene.Component
	// err says why the asset could not be used; the rest is then empty.
	err string
}

// lookup resolves an instance's prefab reference, relative to the scene
// file for plain relative paths.
func (p *Prefabs) lookup(ref, sceneFile string) *prefabAsset {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lookupLocked(ref, sceneFile, 0)
}

func (p *Prefabs) lookupLocked(ref, sceneFile string, depth int) *prefabAsset {
	key := ref
	id, isUUID := strings.CutPrefix(ref, "@uuid:")
	if !isUUID && assets.IsUUID(ref) {
		id, isUUID = ref, true
	}
	if !isUUID {
		// Relative paths may depend on the referencing scene's folder.
		key = filepath.Dir(sceneFile) + "\x00" + ref
	}
	if a, ok := p.assets[key]; ok {
		return a
	}
	var a *prefabAsset
	if isUUID {
		if file, ok := p.meta.Lookup(id); ok {
			a = p.read(file, sceneFile, depth)
		} else {
			a = &prefabAsset{err: "no .meta with uuid " + id + " under " + p.where()}
		}
	} else {
		a = p.readPath(ref, sceneFile, depth)
	}
	p.assets[key] = a
	return a
}

func (p *Prefabs) where() string {
	if len(p.dirs) == 0 {
		return "no asset directory"
	}
	return strings.Join(p.dirs, ", ")
}

// readPath resolves a logical path: project-relative under each asset
// directory ("assets/prefabs/Coin.esprefab", a leading "/" is logical
// too), then relative to the scene's folder.
func (p *Prefabs) readPath(ref, sceneFile string, depth int) *prefabAsset {
	rel := filepath.FromSlash(strings.TrimPrefix(ref, "/"))
	cands := make([]string, 0, len(p.dirs)+1)
	for _, d := range p.dirs {
		cands = append(cands, filepath.Join(d, rel))
	}
	cands = append(cands, filepath.Join(filepath.Dir(sceneFile), rel))
	for _, f := range cands {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			return p.read(f, sceneFile, depth)
		}
	}
	return &prefabAsset{err: "prefab " + ref + " not found under " + p.where()}
}

type prefabDoc struct {
	RootEntityID json.RawMessage `json:"rootEntityId"`
	BasePrefab   json.RawMessage `json:"basePrefab"`
	Entities     []struct {
		PrefabEntityID json.RawMessage `json:"prefabEntityId"`
		Components     []struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"components"`
	} `json:"entities"`
}

// read parses a prefab document and keeps its root entity's components. A
// variant whose root lives in its base prefab follows basePrefab.
func (p *Prefabs) read(file, sceneFile string, depth int) *prefabAsset {
	p.files = append(p.files, file)
	data, err := os.ReadFile(file)
	if err != nil {
		return &prefabAsset{file: file, err: "cannot read prefab " + file + ": " + errText(err)}
	}
	var doc prefabDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return &prefabAsset{file: file, err: "prefab " + file + " is not valid JSON: " + err.Error()}
	}
	root := rawID(doc.RootEntityID)
	if root == "" {
		return &prefabAsset{file: file, err: "prefab " + file + " has no rootEntityId"}
	}
	for _, e := range doc.Entities {
		if rawID(e.PrefabEntityID) != root {
			continue
		}
		a := &prefabAsset{file: file, rootID: root}
		for _, c := range e.Components {
			if c.Type == "" {
				continue
			}
			a.comps = append(a.comps, scene.Component{Type: c.Type, Data: bytes.TrimSpace(c.Data)})
		}
		return a
	}
	if base := rawID(doc.BasePrefab); base != "" && depth < maxPrefabDepth {
		a := p.lookupLocked(base, sceneFile, depth+1)
		if a.err == "" {
			return &prefabAsset{file: file, rootID: root, comps: a.comps}
		}
		return &prefabAsset{file: file, err: "base prefab of " + file + ": " + a.err}
	}
	return &prefabAsset{file: file, err: "prefab " + file + " has no entity with its rootEntityId " + strconv.Quote(root)}
}

// rawID reads an id written as a string or (legacy) a number.
func rawID(v json.RawMessage) string { return idText(bytes.TrimSpace(v)) }

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
