package world

import (
	"runtime"
	"sort"
	"strconv"
	"sync"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/expand"
)

// ExpanderCount is how many goroutines expand n instances (a variable so
// that tests can prove the model does not depend on it).
var ExpanderCount = func(n int) int {
	if n < 1<<12 {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxWorkers)
}

// Expand expands every prefab instance as the engine will (see
// internal/world/expand): afterwards an instance entry carries what its
// expanded root carries (Persistent, Source, Camera, Canvas), its
// expansion is read through Instance, and on a streamed world Refs hold
// the references inside the expansions, or, for an instance that is not
// expanded, those its overrides hold as written (on another world they
// are read as written from the start). The error is for an overrides list
// that is not a list. It runs once; it is not safe for concurrent use.
func (w *World) Expand() error {
	if w.expanded {
		return nil
	}
	w.expanded = true
	if len(w.prefabIdx) == 0 {
		return nil
	}
	prefabs := w.Prefabs()
	ext := w.Extents()
	w.instAt = make([]int32, len(w.flags))
	w.inst = make([]expand.Instance, len(w.prefabIdx))
	for k, i := range w.prefabIdx {
		w.instAt[i] = int32(k + 1)
	}
	// Instances are expanded by a few goroutines over contiguous runs,
	// each with caches of its own: an expansion a run meets again is
	// shared, and no run waits on another. What an expansion says does
	// not depend on who made it, so neither does the world.
	n := len(w.prefabIdx)
	parts := max(1, min(ExpanderCount(n), n))
	var wg sync.WaitGroup
	errs := make([]error, parts)
	for p := 0; p < parts; p++ {
		lo, hi := n*p/parts, n*(p+1)/parts
		work := func() {
			x := expand.NewExpander(prefabs, ext, w.Fields.Lookup())
			var buf []expand.Override
			for k := lo; k < hi; k++ {
				i := int(w.prefabIdx[k])
				ovs, err := expand.ParseOverridesInto(buf[:0], w.d, i)
				if err != nil {
					errs[p] = err // the first of this run: runs are in authored order
					return
				}
				buf = ovs
				w.inst[k] = x.Expand(w.d, i, ovs)
			}
		}
		if parts == 1 {
			work()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	streamed := w.Streamed()
	fields := w.Fields.Lookup()
	for k, i := range w.prefabIdx {
		in := &w.inst[k]
		if streamed && !in.Expanded() {
			// Not expanded: the references its overrides hold are read
			// as written.
			ovs, _ := expand.ParseOverrides(w.d, int(i))
			from := len(w.refs)
			w.refs = expand.OverrideRefs(w.refs, i, ovs, fields)
			for _, r := range w.refs[from:] {
				w.wantPositions(&r)
			}
		}
		if in.Persistent || in.Streamed {
			w.flags[i] |= Persistent
		}
		if expand.HasComp(in.Comps, "WorldStreamingSource") {
			if w.flags[i]&Source == 0 {
				w.sources = append(w.sources, i)
			}
			w.flags[i] |= Source | NeedPos
		}
		for _, comp := range in.Comps {
			switch comp.Type {
			case "Camera":
				w.flags[i] |= Camera
			case "Canvas", "UICanvas":
				w.flags[i] |= Canvas
			}
		}
	}
	sort.Slice(w.sources, func(a, b int) bool { return w.sources[a] < w.sources[b] })
	if streamed {
		w.instanceRefs()
	}
	for k := range w.inst {
		if w.inst[k].Expanded() {
			w.anyTpl = true
			break
		}
	}
	return nil
}

// wantPositions marks both ends of reference r as wanting their world
// positions.
func (w *World) wantPositions(r *expand.Ref) {
	w.flags[r.From] |= NeedPos
	if r.Bad == nil {
		if j, ok := w.d.Lookup(r.Target); ok {
			w.flags[j] |= NeedPos
		}
	}
}

// instanceRefs adds the references every expanded instance's expansion
// holds: not the overrides as written (an override on a component the
// entity lacks binds nothing), but what the engine spawns, component
// data, added entities and prefab assets included.
func (w *World) instanceRefs() {
	for k, i := range w.prefabIdx {
		in := &w.inst[k]
		if !in.Expanded() || len(in.Tpl.Refs) == 0 {
			continue
		}
		t := in.Tpl
		prefix := w.InstancePath(i)
		w.flags[i] |= NeedPos
		for _, x := range t.Refs {
			path := prefix
			if x.Ent != t.Root {
				path += "/" + t.Paths[x.Ent]
			}
			w.refs = append(w.refs, expand.Ref{From: i, Elem: x.Elem, Target: x.Target, Comp: x.Comp, Field: x.Field, Bad: x.Bad, Path: path})
			if x.Bad == nil {
				if j, ok := w.d.Lookup(x.Target); ok {
					w.flags[j] |= NeedPos
				}
			}
		}
	}
}

// Instances are the prefab-instance entries, in authored order.
func (w *World) Instances() []int32 { return w.prefabIdx }

// Inst is the expansion of the k-th instance entry (Instances); nil
// before Expand.
func (w *World) Inst(k int) *expand.Instance {
	if w.inst == nil {
		return nil
	}
	return &w.inst[k]
}

// InstanceIndex is entity i's index among the instance entries, -1 when
// it is none or the instances are not expanded.
func (w *World) InstanceIndex(i int32) int {
	if int(i) >= len(w.instAt) {
		return -1
	}
	return int(w.instAt[i]) - 1
}

// Instance is the expansion of instance entry i; nil when i is no
// instance entry or the instances are not expanded.
func (w *World) Instance(i int32) *expand.Instance {
	if k := w.InstanceIndex(i); k >= 0 {
		return &w.inst[k]
	}
	return nil
}

// AnyExpanded reports whether some instance was expanded.
func (w *World) AnyExpanded() bool { return w.anyTpl }

// InstancePath names instance entry i in the paths of its entities:
// "House#12" (the expanded root's name when the entry has none).
func (w *World) InstancePath(i int32) string {
	e := &w.d.Entities[i]
	name := e.Name
	if name == "" {
		if in := w.Instance(i); in != nil {
			if t := in.Tpl; t != nil && t.Err == "" {
				name = t.Name(t.Root)
			}
		}
	}
	return name + "#" + strconv.FormatInt(e.ID, 10)
}

// Field reads member key of entity i's component typ: an expanded
// instance root's, its overrides applied, or the authored data.
func (w *World) Field(i int32, typ string) func(key string) ([]byte, bool) {
	if w.flags[i]&Prefab != 0 {
		if in := w.Instance(i); in != nil {
			return func(key string) ([]byte, bool) { return in.Field(typ, key) }
		}
	}
	data, _ := w.d.Component(int(i), typ)
	return func(key string) ([]byte, bool) { return scene.Field(data, key) }
}

// SpawnCount is how many entities the engine spawns for entity i: an
// instance its expansion, or nothing when it cannot be expanded, and
// nothing for an entity (or expanded entity) with "visible": false.
func (w *World) SpawnCount(i int32) int {
	k := w.InstanceIndex(i)
	switch {
	case k < 0:
		if !w.d.Entities[i].Hidden {
			return 1
		}
	case w.inst[k].Expanded():
		t := w.inst[k].Tpl
		n := 0
		for e := int32(0); e < int32(t.Len()); e++ {
			if !t.Hidden(e) {
				n++
			}
		}
		return n
	}
	return 0
}

// genRange is the ids the engine allocates for one instance's internal
// entities when it loads the whole scene: base+1 .. base+n.
type genRange struct {
	base int64
	n    int32
	k    int32 // index in prefabIdx
}

// MaxID is the document's highest entity id.
func (w *World) MaxID() int64 {
	w.generatedIDs()
	return w.maxID
}

// generatedIDs lays out the ids the engine generates: above the
// document's highest id, instance after instance in authored order. It is
// worked out when first needed: most worlds never ask.
func (w *World) generatedIDs() {
	if w.genDone {
		return
	}
	w.genDone = true
	for k := range w.d.Entities {
		w.maxID = max(w.maxID, w.d.Entities[k].ID)
	}
	w.maxID = max(w.maxID, w.opts.AddedID)
	next := w.maxID
	for k := range w.prefabIdx {
		if w.inst == nil {
			break
		}
		in := &w.inst[k]
		if !in.Expanded() || in.Tpl.Allocs == 0 {
			continue
		}
		w.gen = append(w.gen, genRange{base: next, n: in.Tpl.Allocs, k: int32(k)})
		next += int64(in.Tpl.Allocs)
	}
}

// GeneratedAt returns the instance entry and the entity of its expansion
// the engine gives id when it loads the whole scene (ids above the
// document's highest); ok is false when it gives id to none.
func (w *World) GeneratedAt(id int64) (i, ent int32, ok bool) {
	if !w.anyTpl {
		return 0, 0, false
	}
	w.generatedIDs()
	if len(w.gen) == 0 || id <= w.maxID {
		return 0, 0, false
	}
	g := sort.Search(len(w.gen), func(a int) bool { return w.gen[a].base+int64(w.gen[a].n) >= id })
	if g == len(w.gen) || id <= w.gen[g].base {
		return 0, 0, false
	}
	r := &w.gen[g]
	t := w.inst[r.k].Tpl
	if e, ok := t.At(int32(id - r.base)); ok {
		return w.prefabIdx[r.k], e, true
	}
	return 0, 0, false
}
