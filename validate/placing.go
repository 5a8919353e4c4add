package validate

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
)

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
		at, why, isFile := p.resolve(e.ref, e.from)
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
