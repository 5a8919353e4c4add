package world

import (
	"strconv"

	"github.com/worldcook/worldcook/internal/scene"
)

// Ent is an entity of the expanded world: the scene entity I itself (Sub
// 0), which for a prefab-instance entry is its expanded root, or entity
// Sub-1 of the instance's expansion (expand.Template numbering).
type Ent struct{ I, Sub int32 }

// Spawned calls fn with every entity of the expanded world, in the order
// the engine spawns them: the scene's in authored order, each expanded
// instance's after its entry (its root being the entry), those with
// "visible": false included. It stops when fn returns false.
func (w *World) Spawned(fn func(e Ent) bool) {
	for i := range w.d.Entities {
		if !fn(Ent{I: int32(i)}) {
			return
		}
		in := w.Instance(int32(i))
		if in == nil || !in.Expanded() {
			continue
		}
		t := in.Tpl
		for k := int32(0); k < int32(t.Len()); k++ {
			if k != t.Root && !fn(Ent{I: int32(i), Sub: k + 1}) {
				return
			}
		}
	}
}

// Components are entity e's components: a scene entity's as authored, an
// expanded instance root's and entity's with the instance's overrides
// applied.
func (w *World) Components(e Ent) []scene.Component {
	in := w.Instance(e.I)
	switch {
	case e.Sub > 0:
		return in.Tpl.Comps(e.Sub - 1)
	case in != nil && in.Expanded():
		return in.Tpl.Comps(in.Tpl.Root)
	}
	return w.d.Components(int(e.I))
}

// Component is the data of entity e's first component of type typ.
func (w *World) Component(e Ent, typ string) ([]byte, bool) {
	for _, c := range w.Components(e) {
		if c.Type == typ {
			return c.Data, true
		}
	}
	return nil, false
}

// Name is entity e's name: a scene entity's own (an instance entry's, else
// its expanded root's), an expanded entity's name or prefab address.
func (w *World) Name(e Ent) string {
	if e.Sub > 0 {
		t := w.Instance(e.I).Tpl
		return t.Name(e.Sub - 1)
	}
	if name := w.d.Entities[e.I].Name; name != "" {
		return name
	}
	if in := w.Instance(e.I); in != nil && in.Expanded() {
		return in.Tpl.Name(in.Tpl.Root)
	}
	return ""
}

// ID is entity e's id: a scene entity's own, and for an entity of an
// expansion the id the engine generates for it when it loads the whole
// scene (above the document's highest id, instance after instance).
func (w *World) ID(e Ent) int64 {
	if e.Sub == 0 {
		return w.d.Entities[e.I].ID
	}
	w.generatedIDs()
	k := w.InstanceIndex(e.I)
	t := w.inst[k].Tpl
	for _, g := range w.gen {
		if int(g.k) == k {
			return g.base + int64(t.ID(e.Sub-1))
		}
	}
	return 0
}

// Hidden reports that entity e has "visible": false: the engine does
// not spawn it.
func (w *World) Hidden(e Ent) bool {
	if e.Sub > 0 {
		return w.Instance(e.I).Tpl.Hidden(e.Sub - 1)
	}
	return w.d.Entities[e.I].Hidden
}

// Path names entity e in messages: a scene entity as "Name" (id), an
// expanded one by its instance and its names below the root
// ("House#12/Wing/Door").
func (w *World) Path(e Ent) string {
	if e.Sub == 0 {
		return strconv.Quote(w.d.Entities[e.I].Name) + " (" + strconv.FormatInt(w.d.Entities[e.I].ID, 10) + ")"
	}
	t := w.Instance(e.I).Tpl
	return w.InstancePath(e.I) + "/" + t.Paths[e.Sub-1]
}

// ParentOf is entity e's parent in the expanded world; ok is false for a
// top-level entity (an entity of an expansion not under its root
// included).
func (w *World) ParentOf(e Ent) (Ent, bool) {
	if e.Sub == 0 {
		if p := w.parent[e.I]; p >= 0 {
			return Ent{I: p}, true
		}
		return Ent{}, false
	}
	t := w.Instance(e.I).Tpl
	p := t.Parent[e.Sub-1]
	switch {
	case p < 0:
		return Ent{}, false
	case p == t.Root:
		return Ent{I: e.I}, true
	}
	return Ent{I: e.I, Sub: p + 1}, true
}

// Children are entity e's children in the expanded world, in the order
// the engine keeps them: for an expanded instance root, its expansion's
// children, then the scene entities its entry's children list names;
// for a scene entity, its children list's (those in the scene).
func (w *World) Children(e Ent) []Ent {
	var out []Ent
	in := w.Instance(e.I)
	if in != nil && in.Expanded() {
		t := in.Tpl
		parent := t.Root
		if e.Sub > 0 {
			parent = e.Sub - 1
		}
		for k := int32(0); k < int32(t.Len()); k++ {
			if k != t.Root && t.Parent[k] == parent {
				out = append(out, Ent{I: e.I, Sub: k + 1})
			}
		}
	}
	if e.Sub == 0 {
		ids, _ := w.d.Children(int(e.I))
		for _, id := range ids {
			if j, ok := w.d.Lookup(id); ok && w.parent[j] == e.I {
				out = append(out, Ent{I: int32(j)})
			}
		}
	}
	return out
}

// LocalOf is entity e's local transform and whether it has one (Local
// for a scene entity; an expanded entity's own Transform).
func (w *World) LocalOf(e Ent) (scene.TRS, bool, error) {
	if e.Sub == 0 {
		return w.Local(e.I)
	}
	return localOf(w.Instance(e.I).Tpl.Comps(e.Sub - 1))
}
