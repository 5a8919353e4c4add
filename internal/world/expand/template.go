package expand

import (
	"slices"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Template is one prefab expanded with one set of instance edits. Every
// instance with the same prefab and the same edits (the root's own
// Transform overrides aside) shares it: its entities, their matrices in the
// root's frame, the box they cover there and the references they hold
// that may leave the instance are worked out once, and an instance only
// transforms them by its root's world matrix.
//
// Its entities are numbered 0 to Len()-1 in the order the engine spawns
// them; Root is the instance root's number.
type Template struct {
	// Err says why the engine cannot expand the instance; nothing else is
	// set then but Files.
	Err  string
	File string // the prefab the instances name
	ents []xent
	// Parent is the number of each entity's parent, -1 for none.
	Parent []int32
	Root   int32 // the root's number
	Allocs int32 // ids the expansion allocates
	// Order lists the entities parents first.
	Order []int32
	// Paths name the entities below the root by their names ("Wing/Door");
	// the root's is "".
	Paths []string
	// Shape is the entities' geometry in the root's frame.
	Shape geometry.Shape
	// Refs are the references to scene ids its entities hold.
	Refs []Xref
	// rootT is the root's local transform; rootHasT is false when the root
	// has no Transform; rootTErr says why it could not be read.
	rootT    scene.TRS
	rootHasT bool
	rootTErr string
	// Persistent and Streamed are set when the root carries
	// WorldPersistent or StreamedWorld; Marks lists other entities that
	// do.
	Persistent, Streamed bool
	Marks                []Mark
	// Files are the prefab documents the expansion read (the prefab, its
	// bases and nested prefabs), in the order it read them: the engine
	// loads each of them for the instance.
	Files []string
}

// Len is how many entities the expansion spawns (but those hidden).
func (t *Template) Len() int { return len(t.ents) }

// ID is the number the engine allocates for entity k's generated id (1
// for the first allocation of the instance; the root's is replaced by the
// instance entry's own id).
func (t *Template) ID(k int32) int32 { return t.ents[k].id }

// Addr is entity k's address inside the instance: its prefab entity id,
// behind the ids of the nested slots that hold it ("porch/0").
func (t *Template) Addr(k int32) string { return t.ents[k].addr }

// Name is entity k's name, else its address.
func (t *Template) Name(k int32) string { return entName(&t.ents[k]) }

// Comps are entity k's components, the instance's overrides applied.
func (t *Template) Comps(k int32) []scene.Component { return t.ents[k].comps }

// Hidden reports that entity k has "visible": false: the engine does not
// spawn it.
func (t *Template) Hidden(k int32) bool { return t.ents[k].hidden }

// Src is the prefab file entity k comes from (a nested or base prefab
// names its own), "" for an entity the instance adds.
func (t *Template) Src(k int32) string { return t.ents[k].src }

// At is the entity the engine allocated number id for, other than the
// root; ok is false when none.
func (t *Template) At(id int32) (k int32, ok bool) {
	for e := range t.ents {
		if t.ents[e].id == id && int32(e) != t.Root {
			return int32(e), true
		}
	}
	return 0, false
}

// Xref is a reference an expanded entity holds to a scene id.
type Xref struct {
	Ent         int32
	Comp, Field string
	Elem        int32
	Target      int64
	Bad         []byte
}

// Mark is a non-root expanded entity carrying WorldPersistent or
// StreamedWorld: it has no effect there.
type Mark struct {
	Ent      int32
	Comp     string
	Override bool // added by an instance override
}

// appendTemplateKey appends to buf what tells instances apart for their
// expansion, the added entities aside: the prefab file, the instance's
// overrides and its removed list, leaving out the property overrides of
// the root's Transform, which only place the root and are returned.
// Those are kept in the key when an override also adds, replaces or
// removes the root's Transform, whose outcome then depends on their
// order. parents reports parent overrides.
func appendTemplateKey(buf []byte, rootOvs []Override, file, rootAddr string, ovs []Override, removed []byte) (key []byte, _ []Override, parents bool) {
	buf = append(buf, file...)
	buf = append(buf, 0)
	strip := true
	for k := range ovs {
		o := &ovs[k]
		if o.Entity == rootAddr && o.Kind != "property" && o.Comp == "Transform" {
			strip = false
		}
		parents = parents || o.Kind == "parent"
	}
	for k := range ovs {
		o := &ovs[k]
		if strip && !o.NumID && isRootTRS(o, rootAddr) {
			rootOvs = append(rootOvs, *o)
			continue
		}
		buf = append(buf, o.raw...)
		buf = append(buf, 0)
	}
	buf = append(buf, 0)
	buf = append(buf, removed...)
	return buf, rootOvs, parents
}

// build expands prefab p with the instance edits dl and works out what
// every instance sharing them needs.
func (x *Expander) build(p *pdoc, dl *delta) *Template {
	files := []string{p.file}
	load := func(ref, from string) (*pdoc, string) {
		a := x.prefabs.lookup(ref, from)
		if a.doc != nil && !slices.Contains(files, a.doc.file) {
			files = append(files, a.doc.file)
		}
		return a.doc, a.err
	}
	ents, rootID, allocs, err := expandInstance(p, dl, load)
	if err != nil {
		return &Template{Err: err.Error(), Files: files}
	}
	t := &Template{File: p.file, ents: ents, Allocs: allocs, Root: -1, Files: files}
	for k := range ents {
		if ents[k].id == rootID {
			t.Root = int32(k)
		}
	}
	if t.Root < 0 {
		return &Template{Err: "its instance edits remove the prefab's root entity", Files: files}
	}
	t.link()
	t.Shape = geometry.NewShape(len(ents))
	t.Paths = make([]string, len(ents))
	marked := overrideMarks(dl.ovs)
	for _, k := range t.Order {
		x.describe(t, k, marked)
	}
	return t
}

// derive returns base with an instance's added entities appended, as the
// engine appends them after flattening: their ids follow the base's, and
// each hangs under its parent (a prefab entity or another added one, the
// root when there is none). Valid when the instance has no parent
// overrides, which could move prefab entities under added ones.
func (x *Expander) derive(base *Template, added []addedEnt, ovs []Override) *Template {
	if base.Err != "" || len(added) == 0 {
		return base
	}
	t := *base
	n0 := len(base.ents)
	n := n0 + len(added)
	t.ents = append(make([]xent, 0, n), base.ents...)
	t.Shape = base.Shape.Extend(n)
	t.Paths = append(make([]string, 0, n), base.Paths...)[:n]
	t.Refs = append([]Xref(nil), base.Refs...)
	t.Marks = append([]Mark(nil), base.Marks...)
	byAddr := make(map[string]int32, n)
	for k := range base.ents {
		byAddr[base.ents[k].addr] = base.ents[k].id
	}
	rootID := base.ents[base.Root].id
	for k, a := range added {
		id := base.Allocs + int32(k) + 1
		byAddr[a.addr] = id
		t.ents = append(t.ents, xent{id: id, parent: rootID, addr: a.addr, name: a.name, comps: a.comps, hidden: a.hidden, added: true})
	}
	for k, a := range added {
		if a.hasParent {
			if id, ok := byAddr[a.parentID]; ok {
				t.ents[n0+k].parent = id
			}
		}
	}
	t.Allocs = base.Allocs + int32(len(added))
	t.link()
	marked := overrideMarks(ovs)
	for _, k := range t.Order {
		if int(k) >= n0 {
			x.describe(&t, k, marked)
		}
	}
	return &t
}

// link resolves the entities' parent ids to indices and orders them
// parents first.
func (t *Template) link() {
	n := len(t.ents)
	at := make(map[int32]int32, n)
	for k := range t.ents {
		at[t.ents[k].id] = int32(k)
	}
	t.Parent = make([]int32, n)
	for k := range t.ents {
		t.Parent[k] = -1
		if k == int(t.Root) {
			continue
		}
		if j, ok := at[t.ents[k].parent]; ok {
			t.Parent[k] = j
		}
	}
	t.orderParentsFirst()
}

// overrideMarks lists the components instance overrides add, by entity.
func overrideMarks(ovs []Override) map[string]bool {
	var m map[string]bool
	for _, o := range ovs {
		if o.Kind == "component_added" || o.Kind == "component_replaced" {
			if m == nil {
				m = map[string]bool{}
			}
			m[o.Entity+"\x00"+o.DataType] = true
		}
	}
	return m
}

// describe works out entity k of t, its parent already done: its path,
// streaming marks, references, and its geometry.
func (x *Expander) describe(t *Template, k int32, marked map[string]bool) {
	e := &t.ents[k]
	p := t.Parent[k]
	if k != t.Root {
		if p >= 0 && p != t.Root && t.Paths[p] != "" {
			t.Paths[k] = t.Paths[p] + "/" + entName(e)
		} else {
			t.Paths[k] = entName(e)
		}
	}
	for _, comp := range e.comps {
		switch comp.Type {
		case "WorldPersistent", "StreamedWorld":
			if k == t.Root {
				t.Persistent = t.Persistent || comp.Type == "WorldPersistent"
				t.Streamed = t.Streamed || comp.Type == "StreamedWorld"
			} else {
				t.Marks = append(t.Marks, Mark{Ent: k, Comp: comp.Type, Override: marked[e.addr+"\x00"+comp.Type]})
			}
		}
		for _, f := range x.fields(comp.Type) {
			if v, ok := scene.Field(comp.Data, f); ok {
				t.Refs = appendXrefs(t.Refs, k, comp.Type, f, v)
			}
		}
	}
	local, hasT, err := t.Shape.Add(x.ext, k, p, k == t.Root, e.comps, t.File)
	switch {
	case err != nil && k == t.Root:
		t.rootTErr = "its root Transform is malformed (" + err.Error() + ")"
	case hasT && k == t.Root:
		t.rootT, t.rootHasT = local, true
	}
}

// orderParentsFirst fills t.Order; parent links that loop are cut, the
// entity reached first becoming one without a parent.
func (t *Template) orderParentsFirst() {
	n := len(t.Parent)
	state := make([]uint8, n) // 0 new, 1 on the path, 2 done
	t.Order = make([]int32, 0, n)
	var stack []int32
	for s := range t.Parent {
		for j := int32(s); j >= 0 && state[j] == 0; j = t.Parent[j] {
			state[j] = 1
			stack = append(stack, j)
			if p := t.Parent[j]; p >= 0 && state[p] == 1 {
				t.Parent[j] = -1
				break
			}
		}
		for k := len(stack) - 1; k >= 0; k-- {
			state[stack[k]] = 2
			t.Order = append(t.Order, stack[k])
		}
		stack = stack[:0]
	}
}

func entName(e *xent) string {
	if e.name != "" {
		return e.name
	}
	return e.addr
}

// appendXrefs appends the scene-id references in one field value: a
// number or the numbers of a list. Strings are prefab-local ids the
// engine maps inside the instance (or clears), never scene ids.
func appendXrefs(refs []Xref, k int32, comp, field string, v []byte) []Xref {
	for _, r := range AppendRefs(nil, k, comp, field, v, "") {
		refs = append(refs, Xref{Ent: k, Comp: comp, Field: field, Elem: r.Elem, Target: r.Target, Bad: r.Bad})
	}
	return refs
}
