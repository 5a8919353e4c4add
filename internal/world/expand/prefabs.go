package expand

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Prefabs finds prefab assets for prefab-instance entries, and the mesh
// and map files whose boxes grow cell bounds, through the project's
// assets.Resolver (shared with the asset graph, so each reference is
// resolved once per run). It reads lazily and caches every answer, misses
// included, so one Prefabs can serve many scenes. It is safe for
// concurrent use.
type Prefabs struct {
	res *assets.Resolver

	// boxes reads the meshes, maps and tilesets components name.
	boxes *geometry.Boxes

	mu   sync.Mutex
	docs map[string]*prefabAsset // project path → the prefab read there
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

// NewPrefabs returns a Prefabs resolving through r.
func NewPrefabs(r *assets.Resolver) *Prefabs {
	return &Prefabs{res: r, boxes: geometry.NewBoxes(r), docs: make(map[string]*prefabAsset)}
}

// Resolver is the resolver the prefabs are found with.
func (p *Prefabs) Resolver() *assets.Resolver { return p.res }

// Boxes reads the boxes of the meshes and maps components name, through
// the same resolver.
func (p *Prefabs) Boxes() *geometry.Boxes { return p.boxes }

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
	at, why, isFile := geometry.Resolve(p.res, ref, from)
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

// PrefabExt is the extension of Estella prefab documents.
const PrefabExt = ".esprefab"

// A prefab is not a world: what it can break is the scenes that place
// it. Places tells which those are, so that a changed prefab is checked
// through every scene whose spawned entities it changes, and Read that
// the prefab is one an instance can be expanded from at all.

// Places reports whether the scene document d places the prefab at file:
// as the prefab of one of its instances, as a prefab nested in one of
// those, as the base of a variant one of them places, or as an asset one
// of its components or those of a prefab it places names (a spawner's
// prefab), at any depth — every prefab whose edit changes what the scene
// spawns or loads. A reference that does not resolve places nothing;
// validating the scene says why. file is compared by its project path,
// then as a file (a link, or a name differing in case where names ignore
// it).
func (p *Prefabs) Places(d *scene.Document, file string) bool {
	target, ok := p.res.Rel(file)
	if !ok {
		return false
	}
	targetInfo, _ := os.Stat(file)
	is := func(at string) bool {
		if at == target {
			return true
		}
		if targetInfo == nil {
			return false
		}
		st, err := os.Stat(p.res.Abs(at))
		return err == nil && os.SameFile(st, targetInfo)
	}
	// Asset references are found as the asset graph finds them; no asset
	// is read but the prefabs on the way.
	g := assets.NewGraph(p.res)
	type edge struct{ ref, from string }
	var queue []edge
	refs := func(found []assets.Found, from string) {
		for _, f := range found {
			queue = append(queue, edge{f.Value, from})
		}
	}
	for i := range d.Entities {
		if ref, _ := d.Prefab(i); ref != "" {
			queue = append(queue, edge{ref, d.Path})
			found, _ := g.Refs(d.Entities[i].Raw)
			refs(found, d.Path)
			continue
		}
		for _, c := range d.Components(i) {
			refs(g.ComponentRefs(c.Type, c.Data), d.Path)
		}
	}
	// Breadth first over the prefabs, each once: nested slots, variant
	// chains and spawners may meet again, or loop (expanding such an
	// instance fails, and is reported when the scene is validated).
	seen := map[string]bool{}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		at, why, isFile := geometry.Resolve(p.res, e.ref, e.from)
		if why != "" || !isFile || seen[at] {
			continue
		}
		seen[at] = true
		if is(at) {
			return true
		}
		if !strings.HasSuffix(at, PrefabExt) {
			continue
		}
		a := p.read(at)
		if a.doc == nil {
			continue
		}
		if a.doc.base != "" {
			queue = append(queue, edge{a.doc.base, a.file})
		}
		for k := range a.doc.ents {
			pe := &a.doc.ents[k]
			if pe.nested {
				queue = append(queue, edge{pe.nestedPath, a.file})
			}
			for _, c := range pe.comps {
				refs(g.ComponentRefs(c.Type, c.Data), a.file)
			}
		}
	}
	return false
}

// Read reads the prefab document at file as an instance's expansion
// would, and says in one line why no instance could be expanded from it:
// it is outside the project, unreadable, not a prefab document, or its
// hierarchy contradicts itself.
func (p *Prefabs) Read(file string) error {
	at, ok := p.res.Rel(file)
	if !ok {
		return fmt.Errorf("%s is outside the project %s, which its instances' references are resolved in", file, p.res.Root())
	}
	a := p.read(at)
	if a.doc == nil {
		return errors.New(a.err)
	}
	return checkPrefabTopology(a.doc)
}
