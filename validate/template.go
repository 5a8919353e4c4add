package validate

import (
	"math"
	"slices"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// template is one prefab expanded with one set of instance edits. Every
// instance with the same prefab and the same edits (the root's own
// Transform overrides aside) shares it: its entities, their matrices in the
// root's frame, the box they cover there and the references they hold
// that may leave the instance are worked out once, and an instance only
// transforms them by its root's world matrix.
type template struct {
	// err says why the engine cannot expand the instance; nothing else is
	// set then.
	err    string
	file   string // the prefab the instances name
	ents   []xent
	parent []int32 // index of each entity's parent, -1 for none
	root   int32   // index of the root
	allocs int32   // ids the expansion allocates
	// order lists the entities parents first.
	order []int32
	// rel is each placed entity's matrix in the root's frame, or, for an
	// entity not under the root's transform (abs), in the world.
	rel  []scene.Affine
	hasT []bool
	abs  []bool
	// paths name the entities below the root by their names ("Wing/Door").
	paths []string
	// boxes holds the local boxes of each entity's extents (lo, hi pairs),
	// so that an instance walked entity by entity reads no component data.
	boxes [][]scene.Vec3
	// fixed holds each entity's boxes that follow a frame other than
	// scaled (colliders, lights): placed from the entity's world matrix,
	// they cannot be put in the root's frame. flo..fhi covers their
	// entities' origins in the root's frame, and fixedR is the farthest
	// any of them reaches from its origin; hasFixed is false for none.
	fixed    [][]fixedBox
	flo, fhi scene.Vec3
	fixedR   float64
	hasFixed bool
	// lo..hi covers, in the root's frame, every origin and extent of the
	// entities under the root's transform; hasBox is false when there is
	// none. anyAbs says some entity must be placed on its own.
	lo, hi scene.Vec3
	hasBox bool
	anyAbs bool
	// refs are the references to scene ids its entities hold.
	refs []xref
	// rootT is the root's local transform; rootHasT is false when the root
	// has no Transform; rootTErr says why it could not be read.
	rootT    scene.TRS
	rootHasT bool
	rootTErr string
	// persistent and streamed are set when the root carries WorldPersistent
	// or StreamedWorld; marks lists other entities that do.
	persistent, streamed bool
	marks                []mark
	misses               []assetMiss
	// files are the prefab documents the expansion read (the prefab, its
	// bases and nested prefabs), in the order it read them: the engine
	// loads each of them for the instance.
	files []string
}

// xref is a reference an expanded entity holds to a scene id.
type xref struct {
	ent         int32
	comp, field string
	elem        int32
	target      int64
	bad         []byte
}

// mark is a non-root expanded entity carrying WorldPersistent or
// StreamedWorld: it has no effect there.
type mark struct {
	ent      int32
	comp     string
	override bool // added by an instance override
}

// appendTemplateKey appends to buf what tells instances apart for their
// expansion, the added entities aside: the prefab file, the instance's
// overrides and its removed list, leaving out the property overrides of
// the root's Transform, which only place the root and are returned.
// Those are kept in the key when an override also adds, replaces or
// removes the root's Transform, whose outcome then depends on their
// order. parents reports parent overrides.
func appendTemplateKey(buf []byte, rootOvs []override, file, rootAddr string, ovs []override, removed []byte) (key []byte, _ []override, parents bool) {
	buf = append(buf, file...)
	buf = append(buf, 0)
	strip := true
	for k := range ovs {
		o := &ovs[k]
		if o.entity == rootAddr && o.kind != "property" && o.comp == "Transform" {
			strip = false
		}
		parents = parents || o.kind == "parent"
	}
	for k := range ovs {
		o := &ovs[k]
		if strip && !o.numID && isRootTRS(o, rootAddr) {
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

// buildTemplate expands prefab p with the instance edits dl and works out
// what every instance sharing them needs.
func (c *checker) buildTemplate(p *pdoc, dl *delta, prefabs *Prefabs) *template {
	files := []string{p.file}
	load := func(ref, from string) (*pdoc, string) {
		a := prefabs.lookup(ref, from)
		if a.doc != nil && !slices.Contains(files, a.doc.file) {
			files = append(files, a.doc.file)
		}
		return a.doc, a.err
	}
	ents, rootID, allocs, err := expandInstance(p, dl, load)
	if err != nil {
		return &template{err: err.Error(), files: files}
	}
	t := &template{file: p.file, ents: ents, allocs: allocs, root: -1, files: files}
	for k := range ents {
		if ents[k].id == rootID {
			t.root = int32(k)
		}
	}
	if t.root < 0 {
		return &template{err: "its instance edits remove the prefab's root entity", files: files}
	}
	t.link()
	t.lo = scene.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	t.hi = scene.Vec3{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}
	t.rel = make([]scene.Affine, len(ents))
	t.hasT = make([]bool, len(ents))
	t.abs = make([]bool, len(ents))
	t.paths = make([]string, len(ents))
	t.boxes = make([][]scene.Vec3, len(ents))
	t.fixed = make([][]fixedBox, len(ents))
	t.flo = scene.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	t.fhi = scene.Vec3{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}
	marked := overrideMarks(dl.ovs)
	fields := c.table.lookup()
	for _, k := range t.order {
		c.describe(t, k, fields, marked)
	}
	return t
}

// derive returns base with an instance's added entities appended, as the
// engine appends them after flattening: their ids follow the base's, and
// each hangs under its parent (a prefab entity or another added one, the
// root when there is none). Valid when the instance has no parent
// overrides, which could move prefab entities under added ones.
func (c *checker) derive(base *template, added []addedEnt, ovs []override) *template {
	if base.err != "" || len(added) == 0 {
		return base
	}
	t := *base
	n0 := len(base.ents)
	n := n0 + len(added)
	t.ents = append(make([]xent, 0, n), base.ents...)
	t.rel = append(make([]scene.Affine, 0, n), base.rel...)[:n]
	t.hasT = append(make([]bool, 0, n), base.hasT...)[:n]
	t.abs = append(make([]bool, 0, n), base.abs...)[:n]
	t.paths = append(make([]string, 0, n), base.paths...)[:n]
	t.boxes = append(make([][]scene.Vec3, 0, n), base.boxes...)[:n]
	t.fixed = append(make([][]fixedBox, 0, n), base.fixed...)[:n]
	t.refs = append([]xref(nil), base.refs...)
	t.marks = append([]mark(nil), base.marks...)
	t.misses = append([]assetMiss(nil), base.misses...)
	byAddr := make(map[string]int32, n)
	for k := range base.ents {
		byAddr[base.ents[k].addr] = base.ents[k].id
	}
	rootID := base.ents[base.root].id
	for k, a := range added {
		id := base.allocs + int32(k) + 1
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
	t.allocs = base.allocs + int32(len(added))
	t.link()
	marked := overrideMarks(ovs)
	fields := c.table.lookup()
	for _, k := range t.order {
		if int(k) >= n0 {
			c.describe(&t, k, fields, marked)
		}
	}
	return &t
}

// link resolves the entities' parent ids to indices and orders them
// parents first.
func (t *template) link() {
	n := len(t.ents)
	at := make(map[int32]int32, n)
	for k := range t.ents {
		at[t.ents[k].id] = int32(k)
	}
	t.parent = make([]int32, n)
	for k := range t.ents {
		t.parent[k] = -1
		if k == int(t.root) {
			continue
		}
		if j, ok := at[t.ents[k].parent]; ok {
			t.parent[k] = j
		}
	}
	t.orderParentsFirst()
}

// overrideMarks lists the components instance overrides add, by entity.
func overrideMarks(ovs []override) map[string]bool {
	var m map[string]bool
	for _, o := range ovs {
		if o.kind == "component_added" || o.kind == "component_replaced" {
			if m == nil {
				m = map[string]bool{}
			}
			m[o.entity+"\x00"+o.dataType] = true
		}
	}
	return m
}

// describe works out entity k of t, its parent already done: its path,
// streaming marks, references, matrix and what it adds to the box.
func (c *checker) describe(t *template, k int32, fields func(string) []string, marked map[string]bool) {
	e := &t.ents[k]
	p := t.parent[k]
	if k != t.root {
		if p >= 0 && p != t.root && t.paths[p] != "" {
			t.paths[k] = t.paths[p] + "/" + entName(e)
		} else {
			t.paths[k] = entName(e)
		}
	}
	for _, comp := range e.comps {
		switch comp.Type {
		case "WorldPersistent", "StreamedWorld":
			if k == t.root {
				t.persistent = t.persistent || comp.Type == "WorldPersistent"
				t.streamed = t.streamed || comp.Type == "StreamedWorld"
			} else {
				t.marks = append(t.marks, mark{ent: k, comp: comp.Type, override: marked[e.addr+"\x00"+comp.Type]})
			}
		}
		for _, f := range fields(comp.Type) {
			if v, ok := scene.Field(comp.Data, f); ok {
				t.refs = appendXrefs(t.refs, k, comp.Type, f, v)
			}
		}
	}
	data, ok := componentOf(e.comps, "Transform")
	if !ok {
		return
	}
	local, ok := geometry.ReadTRS(data)
	if !ok {
		var err error
		if local, err = scene.ParseTRS(data); err != nil {
			if k == t.root {
				t.rootTErr = "its root Transform is malformed (" + err.Error() + ")"
			}
			return
		}
	}
	t.hasT[k] = true
	switch {
	case k == t.root:
		t.rootT, t.rootHasT = local, true
		t.rel[k] = scene.Identity.Matrix()
	case p >= 0 && t.hasT[p]:
		t.rel[k] = t.rel[p].Mul(local.Matrix())
		t.abs[k] = t.abs[p]
	default:
		t.rel[k] = local.Matrix()
		t.abs[k] = true
	}
	c.ext.Local(e.comps, t.file, geometry.FuncSink{
		OnBox: func(lo, hi scene.Vec3, f geometry.Frame) {
			if f == geometry.Scaled {
				t.boxes[k] = append(t.boxes[k], lo, hi)
			} else {
				t.fixed[k] = append(t.fixed[k], fixedBox{lo: lo, hi: hi, f: f})
			}
		},
		OnMiss: func(comp, field, ref, why string) {
			t.misses = append(t.misses, assetMiss{ent: k, comp: comp, field: field, ref: ref, why: why})
		},
	})
	if t.abs[k] {
		t.anyAbs = true
		return
	}
	m := &t.rel[k]
	t.grow(m, m.Origin(), m.Origin())
	for b := 0; b+1 < len(t.boxes[k]); b += 2 {
		t.grow(m, t.boxes[k][b], t.boxes[k][b+1])
	}
	if len(t.fixed[k]) > 0 {
		o := m.Origin()
		t.hasFixed = true
		t.flo = scene.Vec3{X: math.Min(t.flo.X, o.X), Y: math.Min(t.flo.Y, o.Y), Z: math.Min(t.flo.Z, o.Z)}
		t.fhi = scene.Vec3{X: math.Max(t.fhi.X, o.X), Y: math.Max(t.fhi.Y, o.Y), Z: math.Max(t.fhi.Z, o.Z)}
		for _, b := range t.fixed[k] {
			t.fixedR = math.Max(t.fixedR, geometry.Reach(b.lo, b.hi))
		}
	}
}

// fixedBox is a local box placed in a frame other than scaled.
type fixedBox struct {
	lo, hi scene.Vec3
	f      geometry.Frame
}

// grow widens the template's box over the box lo..hi under matrix m.
func (t *template) grow(m *scene.Affine, lo, hi scene.Vec3) {
	var c, e [3]float64
	c[0], c[1], c[2] = (lo.X+hi.X)/2, (lo.Y+hi.Y)/2, (lo.Z+hi.Z)/2
	e[0], e[1], e[2] = (hi.X-lo.X)/2, (hi.Y-lo.Y)/2, (hi.Z-lo.Z)/2
	var out [2][3]float64
	for r := 0; r < 3; r++ {
		row := &m[r]
		mid := row[0]*c[0] + row[1]*c[1] + row[2]*c[2] + row[3]
		d := math.Abs(row[0])*e[0] + math.Abs(row[1])*e[1] + math.Abs(row[2])*e[2]
		out[0][r], out[1][r] = mid-d, mid+d
	}
	if !geometry.Finite(out[0][0]) || !geometry.Finite(out[0][1]) || !geometry.Finite(out[0][2]) || !geometry.Finite(out[1][0]) || !geometry.Finite(out[1][1]) || !geometry.Finite(out[1][2]) {
		// Left to the exact path, which reports it.
		t.anyAbs = true
		return
	}
	t.hasBox = true
	t.lo = scene.Vec3{X: math.Min(t.lo.X, out[0][0]), Y: math.Min(t.lo.Y, out[0][1]), Z: math.Min(t.lo.Z, out[0][2])}
	t.hi = scene.Vec3{X: math.Max(t.hi.X, out[1][0]), Y: math.Max(t.hi.Y, out[1][1]), Z: math.Max(t.hi.Z, out[1][2])}
}

// orderParentsFirst fills t.order; parent links that loop are cut, the
// entity reached first becoming one without a parent.
func (t *template) orderParentsFirst() {
	n := len(t.parent)
	state := make([]uint8, n) // 0 new, 1 on the path, 2 done
	t.order = make([]int32, 0, n)
	var stack []int32
	for s := range t.parent {
		for j := int32(s); j >= 0 && state[j] == 0; j = t.parent[j] {
			state[j] = 1
			stack = append(stack, j)
			if p := t.parent[j]; p >= 0 && state[p] == 1 {
				t.parent[j] = -1
				break
			}
		}
		for k := len(stack) - 1; k >= 0; k-- {
			state[stack[k]] = 2
			t.order = append(t.order, stack[k])
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

func componentOf(comps []scene.Component, typ string) ([]byte, bool) {
	for _, c := range comps {
		if c.Type == typ {
			return c.Data, true
		}
	}
	return nil, false
}

// appendXrefs appends the scene-id references in one field value: a
// number or the numbers of a list. Strings are prefab-local ids the
// engine maps inside the instance (or clears), never scene ids.
func appendXrefs(refs []xref, k int32, comp, field string, v []byte) []xref {
	for _, r := range refValue(nil, k, comp, field, v, "") {
		refs = append(refs, xref{ent: k, comp: comp, field: field, elem: r.elem, target: r.target, bad: r.bad})
	}
	return refs
}
