package expand

import (
	"fmt"
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// This file expands a prefab instance into the entities the engine spawns
// for it, step for step as the engine's prefab core does (flatten with
// variants and nested slots, overrides, then the instance's structural
// edits: parent overrides, removed subtrees, added entities). Everything
// worldcook says about an instance — where it goes, what it covers, what
// it references — is read from this one expansion.

// maxNesting is the engine's limit on prefab nesting and variant depth.
const maxNesting = 10

// maxExpanded bounds the entities one instance expands to: nested slots
// multiply, and ten levels of a few slots each would otherwise be
// billions of entities from a few kilobytes of prefabs.
const maxExpanded = 1 << 20

// addrSep joins a nested slot's id and a nested entity's id into the
// entity's address inside one instance.
const addrSep = "/"

// xent is one entity of an expanded instance.
type xent struct {
	// id is the number the engine allocated for the entity's generated id
	// (1 for the first allocation of the instance). The instance root's
	// allocation is replaced by the entry's own id.
	id     int32
	parent int32 // allocation number of the parent, 0 for none
	addr   string
	name   string
	comps  []scene.Component
	hidden bool
	added  bool
	// src is the prefab file the entity comes from (nested or variant
	// prefabs name their own), "" for an entity the instance adds.
	src string
}

// expandErr is an expansion the engine refuses: the scene does not load.
type expandErr struct{ msg string }

func (e *expandErr) Error() string { return e.msg }

func failf(format string, args ...any) error { return &expandErr{fmt.Sprintf(format, args...)} }

// flattener carries what one instance's expansion shares across levels.
type flattener struct {
	load    func(ref, from string) (*pdoc, string)
	alloc   int32
	visited map[string]bool
}

// flatResult is a flattened prefab: its entities and its root's id.
type flatResult struct {
	ents []xent
	root int32
}

// flatten is the engine's flattenPrefab: a variant merges onto its base,
// a plain prefab allocates ids, mounts nested prefabs and applies the
// overrides of each entity.
func (f *flattener) flatten(p *pdoc, ovs []Override, depth int) (flatResult, error) {
	if depth > maxNesting {
		return flatResult{}, failf("prefab nesting is deeper than %d levels at %s (nested or variant prefabs that include each other?)", maxNesting, p.file)
	}
	if p.base != "" {
		return f.flattenVariant(p, ovs, depth)
	}
	if err := checkPrefabTopology(p); err != nil {
		return flatResult{}, err
	}
	ids := make(map[string]int32, len(p.ents))
	for k := range p.ents {
		if !p.ents[k].nested {
			f.alloc++
			ids[p.ents[k].id] = f.alloc
		}
	}
	if f.alloc > maxExpanded {
		return flatResult{}, failf("prefab %s expands to more than %d entities (nested prefabs mounted many times over)", p.file, maxExpanded)
	}
	buckets := make(map[string][]int, len(ovs))
	for k := range ovs {
		buckets[ovs[k].Entity] = append(buckets[ovs[k].Entity], k)
	}
	var out []xent
	for k := range p.ents {
		pe := &p.ents[k]
		if pe.nested {
			path := pe.nestedPath
			if f.visited[path] {
				return flatResult{}, failf("prefab %s mounts %s inside itself (a nested prefab cycle)", p.file, path)
			}
			nd, why := f.load(path, p.file)
			if nd == nil {
				return flatResult{}, failf("nested prefab %s of %s cannot be loaded: %s", path, p.file, why)
			}
			// Overrides addressed inside the slot go down into it, in the
			// nested prefab's own id space, after the slot's own.
			prefix := pe.id + addrSep
			nested := pe.nestedOvs
			for _, o := range ovs {
				if rest, ok := strings.CutPrefix(o.Entity, prefix); ok {
					o.Entity = rest
					nested = append(nested[:len(nested):len(nested)], o)
				}
			}
			f.visited[path] = true
			res, err := f.flatten(nd, nested, depth+1)
			delete(f.visited, path)
			if err != nil {
				return flatResult{}, err
			}
			for j := range res.ents {
				res.ents[j].addr = pe.id + addrSep + res.ents[j].addr
			}
			ids[pe.id] = res.root
			for j := range res.ents {
				if res.ents[j].id == res.root {
					res.ents[j].parent = 0
					if pe.hasParent {
						res.ents[j].parent = ids[pe.parent]
					}
				}
			}
			out = append(out, res.ents...)
			continue
		}
		e := xent{id: ids[pe.id], addr: pe.id, name: pe.name, hidden: pe.hidden, src: p.file}
		if pe.id != p.root && pe.hasParent {
			e.parent = ids[pe.parent]
		}
		e.comps = append([]scene.Component(nil), pe.comps...)
		for _, k := range buckets[pe.id] {
			applyOverride(&e, &ovs[k])
		}
		out = append(out, e)
	}
	root, ok := ids[p.root]
	if !ok {
		return flatResult{}, failf("prefab %s has no entity with its rootEntityId %q", p.file, p.root)
	}
	// Heal parent links to slots that came later in the list, as the
	// engine's second pass does.
	at := make(map[int32]int, len(out))
	for k := range out {
		at[out[k].id] = k
	}
	for k := range p.ents {
		pe := &p.ents[k]
		if pe.id == p.root {
			continue
		}
		id, ok := ids[pe.id]
		if !ok {
			continue
		}
		j, ok := at[id]
		if !ok {
			continue
		}
		want := int32(0)
		if pe.hasParent {
			want = ids[pe.parent]
		}
		out[j].parent = want
	}
	return flatResult{ents: out, root: root}, nil
}

// flattenVariant merges a variant onto its resolved base and flattens the
// result with the variant's own overrides before the instance's. As in
// the engine, only the outermost variant's overrides apply: the bases of
// a chain contribute their entities.
func (f *flattener) flattenVariant(v *pdoc, ovs []Override, depth int) (flatResult, error) {
	base, err := f.resolveChain(v, depth)
	if err != nil {
		return flatResult{}, err
	}
	merged, err := mergeVariant(base, v)
	if err != nil {
		return flatResult{}, err
	}
	combined := append(append([]Override(nil), v.ovs...), ovs...)
	f.visited[v.base] = true
	res, err := f.flatten(merged, combined, depth+1)
	delete(f.visited, v.base)
	return res, err
}

// resolveChain returns v's base prefab with the bases below it merged in.
func (f *flattener) resolveChain(v *pdoc, depth int) (*pdoc, error) {
	if depth > maxNesting {
		return nil, failf("prefab variant chain is deeper than %d levels at %s (variants that inherit from each other?)", maxNesting, v.file)
	}
	if f.visited[v.base] {
		return nil, failf("prefab %s inherits from %s, which is already in its variant chain", v.file, v.base)
	}
	b, why := f.load(v.base, v.file)
	if b == nil {
		return nil, failf("base prefab %s of variant %s cannot be loaded: %s", v.base, v.file, why)
	}
	if b.base == "" {
		return b, nil
	}
	f.visited[v.base] = true
	defer delete(f.visited, v.base)
	bb, err := f.resolveChain(b, depth+1)
	if err != nil {
		return nil, err
	}
	return mergeVariant(bb, b)
}

// mergeVariant lays a variant's entities over its base's: an entity with
// a base entity's id replaces it wholesale, a new one is appended under
// its parent.
func mergeVariant(base, v *pdoc) (*pdoc, error) {
	if v.root != base.root {
		return nil, failf("variant %s has rootEntityId %q but its base %s has %q; a variant extends its base and keeps its root", v.file, v.root, base.file, base.root)
	}
	merged := &pdoc{file: v.file, name: v.name, root: base.root, ents: make([]pent, len(base.ents), len(base.ents)+len(v.ents))}
	copy(merged.ents, base.ents)
	at := make(map[string]int, len(merged.ents))
	for k := range merged.ents {
		at[merged.ents[k].id] = k
	}
	inBase := make(map[string]bool, len(base.ents))
	for k := range base.ents {
		inBase[base.ents[k].id] = true
	}
	for _, ve := range v.ents {
		ve.children = append([]string(nil), ve.children...)
		if k, ok := at[ve.id]; ok {
			merged.ents[k] = ve
			continue
		}
		if !ve.hasParent {
			return nil, failf("variant %s adds entity %q with no parent; an added entity must hang under an entity of the base or another addition", v.file, ve.id)
		}
		at[ve.id] = len(merged.ents)
		merged.ents = append(merged.ents, ve)
	}
	for _, ve := range v.ents {
		if inBase[ve.id] {
			continue
		}
		k, ok := at[ve.parent]
		if !ok {
			return nil, failf("variant %s adds entity %q under %q, which is neither in its base nor added", v.file, ve.id, ve.parent)
		}
		if !contains(merged.ents[k].children, ve.id) {
			merged.ents[k].children = append(merged.ents[k].children[:len(merged.ents[k].children):len(merged.ents[k].children)], ve.id)
		}
	}
	// Parent cycles among the merged entities.
	for k := range merged.ents {
		seen := 0
		for j := k; j >= 0 && merged.ents[j].hasParent; seen++ {
			if seen > len(merged.ents) {
				return nil, failf("variant %s makes entity %q its own ancestor", v.file, merged.ents[k].id)
			}
			n, ok := at[merged.ents[j].parent]
			if !ok {
				break
			}
			j = n
		}
	}
	return merged, nil
}

// checkPrefabTopology is the engine's check of a plain prefab's hierarchy
// before it is flattened.
func checkPrefabTopology(p *pdoc) error {
	at := make(map[string]int, len(p.ents))
	for k := range p.ents {
		at[p.ents[k].id] = k
	}
	for k := range p.ents {
		pe := &p.ents[k]
		if strings.Contains(pe.id, addrSep) {
			return failf("prefab %s: entity id %q contains the reserved separator %q", p.file, pe.id, addrSep)
		}
		if pe.hasParent {
			j, ok := at[pe.parent]
			if !ok {
				return failf("prefab %s: entity %q names parent %q, which does not exist", p.file, pe.id, pe.parent)
			}
			if !contains(p.ents[j].children, pe.id) {
				return failf("prefab %s: entity %q names parent %q, whose children do not list it", p.file, pe.id, pe.parent)
			}
		}
		for _, c := range pe.children {
			j, ok := at[c]
			if !ok {
				return failf("prefab %s: entity %q lists child %q, which does not exist", p.file, pe.id, c)
			}
			if ch := &p.ents[j]; !ch.hasParent || ch.parent != pe.id {
				return failf("prefab %s: entity %q lists child %q, whose parent is elsewhere", p.file, pe.id, c)
			}
		}
	}
	return nil
}

// applyOverride applies one override to a flattened entity, as the
// engine's applyOverrides does.
func applyOverride(e *xent, o *Override) {
	switch o.Kind {
	case "property":
		if o.Comp == "" || o.Prop == "" && o.Value == nil {
			return
		}
		if k := compIndex(e.comps, o.Comp); k >= 0 {
			val := o.Value
			if val == nil {
				val = []byte("null") // undefined: the field reads as absent
			}
			e.comps[k].Data = setMember(e.comps[k].Data, o.Prop, val)
		}
	case "name":
		if scene.KindOf(o.Value) == scene.String {
			e.name = geometry.Str(o.Value)
		}
	case "visibility":
		if scene.KindOf(o.Value) == scene.Bool {
			e.hidden = o.Value[0] == 'f'
		}
	case "component_added":
		if o.HasData && compIndex(e.comps, o.DataType) < 0 {
			e.comps = append(e.comps, scene.Component{Type: o.DataType, Data: o.Data})
		}
	case "component_replaced":
		if !o.HasData {
			return
		}
		if k := compIndex(e.comps, o.DataType); k >= 0 {
			e.comps[k].Data = o.Data
		} else {
			e.comps = append(e.comps, scene.Component{Type: o.DataType, Data: o.Data})
		}
	case "component_removed":
		if o.Comp == "" {
			return
		}
		kept := e.comps[:0:0]
		for _, c := range e.comps {
			if c.Type != o.Comp {
				kept = append(kept, c)
			}
		}
		e.comps = kept
	}
}

// setMember returns a compact copy of the JSON object obj with member key
// set to val (replacing every member of that name, appended when absent).
// A value that is not an object is taken as an empty one.
func setMember(obj []byte, key string, val []byte) []byte {
	out := make([]byte, 0, len(obj)+len(key)+len(val)+4)
	out = append(out, '{')
	done := false
	scene.Members(obj, func(k, v []byte) bool {
		if string(k) == key {
			if done {
				return true
			}
			done = true
			v = val
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, k...)
		out = append(out, '"', ':')
		out = scene.AppendCompact(out, v)
		return true
	})
	if !done {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendJSONString(out, key)
		out = append(out, ':')
		out = scene.AppendCompact(out, val)
	}
	return append(out, '}')
}

func appendJSONString(out []byte, s string) []byte {
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c < 0x20:
			out = append(out, fmt.Sprintf(`\u%04x`, c)...)
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

// delta is what an instance entry adds to its prefab: its overrides and
// its structural edits.
type delta struct {
	ovs     []Override
	added   []addedEnt
	removed []string
}

// addedEnt is one entity of an instance entry's added list.
type addedEnt struct {
	addr      string
	name      string
	comps     []scene.Component
	hidden    bool
	parentID  string
	hasParent bool
}

// expandInstance is the engine's expandInstance: flatten the prefab with
// the instance's overrides, apply the parent overrides, drop the removed
// subtrees and append the added entities. It returns the entities, the
// root's allocation number and how many ids the expansion allocated.
func expandInstance(p *pdoc, dl *delta, load func(ref, from string) (*pdoc, string)) (ents []xent, root, allocs int32, err error) {
	f := &flattener{load: load, visited: map[string]bool{}}
	flat, err := f.flatten(p, dl.ovs, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	ents, root = flat.ents, flat.root
	applyParentOverrides(ents, dl.ovs, root, false)
	if len(dl.removed) > 0 {
		gone := removedClosure(ents, dl.removed)
		kept := ents[:0:0]
		for _, e := range ents {
			if !gone[e.addr] {
				kept = append(kept, e)
			}
		}
		ents = kept
	}
	if len(dl.added) > 0 {
		byAddr := make(map[string]int32, len(ents)+len(dl.added))
		for _, e := range ents {
			byAddr[e.addr] = e.id
		}
		first := len(ents)
		for _, a := range dl.added {
			f.alloc++
			byAddr[a.addr] = f.alloc
			ents = append(ents, xent{id: f.alloc, parent: root, addr: a.addr, name: a.name, comps: a.comps, hidden: a.hidden, added: true})
		}
		for k, a := range dl.added {
			if a.hasParent {
				if id, ok := byAddr[a.parentID]; ok {
					ents[first+k].parent = id
				}
			}
		}
		applyParentOverrides(ents, dl.ovs, root, true)
	} else {
		applyParentOverrides(ents, dl.ovs, root, true)
	}
	return ents, root, f.alloc, nil
}

// applyParentOverrides moves entities under their overridden parents. The
// root never moves; an unknown target leaves the entity where it is, or,
// with fallback, puts it under the root.
func applyParentOverrides(ents []xent, ovs []Override, root int32, fallback bool) {
	var at map[string]int
	for k := range ovs {
		o := &ovs[k]
		if o.Kind != "parent" {
			continue
		}
		if at == nil {
			at = make(map[string]int, len(ents))
			for j := range ents {
				at[ents[j].addr] = j
			}
		}
		j, ok := at[o.Entity]
		if !ok || ents[j].id == root {
			continue
		}
		if o.Value == nil || scene.KindOf(o.Value) == scene.Null {
			ents[j].parent = root
			continue
		}
		if t, ok := at[jsText(o.Value)]; ok {
			ents[j].parent = ents[t].id
		} else if fallback {
			ents[j].parent = root
		}
	}
}

// removedClosure is the set of addresses a removed list drops: each named
// entity and everything below it.
func removedClosure(ents []xent, roots []string) map[string]bool {
	addr := make(map[int32]string, len(ents))
	for _, e := range ents {
		addr[e.id] = e.addr
	}
	kids := make(map[string][]string)
	for _, e := range ents {
		if e.parent == 0 {
			continue
		}
		if pa, ok := addr[e.parent]; ok {
			kids[pa] = append(kids[pa], e.addr)
		}
	}
	gone := make(map[string]bool)
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if gone[cur] {
			continue
		}
		gone[cur] = true
		queue = append(queue, kids[cur]...)
	}
	return gone
}

// parseDelta reads the added and removed lists of prefab entry i.
func parseDelta(d *scene.Document, i int, ovs []Override) delta {
	dl := delta{ovs: ovs}
	added, removed := d.PrefabEdits(i)
	if v := added; v != nil {
		scene.Each(v, func(el []byte) bool {
			if scene.KindOf(el) != scene.Object {
				return true
			}
			var a addedEnt
			scene.Members(el, func(k, v []byte) bool {
				switch string(k) {
				case "prefabEntityId":
					a.addr = geometry.Str(v)
				case "name":
					a.name = geometry.Str(v)
				case "visible":
					a.hidden = string(v) == "false"
				case "parentId":
					// The engine looks the parent up by its string id: any
					// other value finds nothing and puts the entity under the
					// root.
					if scene.KindOf(v) == scene.String {
						a.parentID, a.hasParent = geometry.Str(v), true
					}
				case "components":
					scene.Each(v, func(c []byte) bool {
						typ, _ := scene.Field(c, "type")
						data, _ := scene.Field(c, "data")
						a.comps = append(a.comps, scene.Component{Type: geometry.Str(typ), Data: data})
						return true
					})
				}
				return true
			})
			dl.added = append(dl.added, a)
			return true
		})
	}
	if v := removed; v != nil {
		scene.Each(v, func(el []byte) bool {
			// Only string ids name prefab entities (see parentId).
			if scene.KindOf(el) == scene.String {
				dl.removed = append(dl.removed, geometry.Str(el))
			}
			return true
		})
	}
	return dl
}
