package world

import (
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Transforms as the engine's transform system composes them: an entity's
// world matrix is its parent's times its local one; an entity without a
// Transform has no place, and its children's world matrices are their
// local ones (the engine never composes through it). A prefab instance's
// root is placed by its expanded root's Transform with the instance's
// overrides (expand.Instance.TRS).

// Local is entity i's local transform and whether it has one. err is set
// for a malformed Transform (a *scene.Error naming the entity and field).
// An instance entry, once the instances are expanded, has its expanded
// root's (without one when the instance cannot be placed).
func (w *World) Local(i int32) (t scene.TRS, hasT bool, err error) {
	fl := w.flags[i]
	if fl&Prefab != 0 {
		if in := w.Instance(i); in != nil {
			return in.TRS, in.Placed, nil
		}
	}
	if fl&Transform == 0 {
		return scene.Identity, false, nil
	}
	if data, found := w.d.Component(int(i), "Transform"); found {
		if t, ok := geometry.ReadTRS(data); ok {
			return t, true, nil
		}
	}
	if t, _, err = w.d.Transform(int(i)); err != nil {
		return t, false, err
	}
	return t, true, nil
}

// Walker composes the world matrices of whole subtrees walked parents
// first, keeping only those of entities with children: the one pass a
// world of millions of entities is placed in. Walkers over disjoint
// subtrees may run at once, sharing one slot array.
type Walker struct {
	w    *World
	mats []scene.Affine
	// slot[i] is 1 + the index in its walker's mats of entity i's matrix.
	slot []int32
}

// NewSlots returns the slot array the walkers of one pass share.
func (w *World) NewSlots() []int32 { return make([]int32, len(w.flags)) }

// Walker returns a walker over run, whole subtrees in parents-first
// order, sharing slot with the other walkers of the pass.
func (w *World) Walker(run []int32, slot []int32) *Walker {
	kids := 0
	for _, i := range run {
		if w.flags[i]&HasKids != 0 {
			kids++
		}
	}
	return &Walker{w: w, mats: make([]scene.Affine, 0, kids), slot: slot}
}

// Next returns the world matrix of entity i, the next of the walker's
// run, and whether it has one (a Transform). err is set for a malformed
// Transform.
func (k *Walker) Next(i int32) (m scene.Affine, hasT bool, err error) {
	w := k.w
	local, hasT, err := w.Local(i)
	if err != nil || !hasT {
		return m, false, err
	}
	m = local.Matrix()
	if p := w.parent[i]; p >= 0 && k.slot[p] > 0 {
		m = k.mats[k.slot[p]-1].Mul(m)
	}
	if w.flags[i]&HasKids != 0 {
		k.mats = append(k.mats, m)
		k.slot[i] = int32(len(k.mats))
	}
	return m, true, nil
}

// WorldMatrix is entity i's world matrix and whether it has one,
// composed from its root down (as a Walker would).
func (w *World) WorldMatrix(i int32) (scene.Affine, bool, error) {
	return w.WorldOf(Ent{I: i}, nil)
}

// maxDepth bounds a chain of parents walked for one entity; the
// hierarchy has no cycles, so only a world this deep reaches it.
const maxDepth = 1 << 20

// WorldOf is entity e's world matrix and whether it has one, each
// entity's local transform on the way taken from pose when it gives one
// (an animated pose) and from the world otherwise.
func (w *World) WorldOf(e Ent, pose func(Ent) (scene.TRS, bool)) (scene.Affine, bool, error) {
	if e.Sub > 0 {
		return w.internalWorld(e, pose)
	}
	chain := make([]int32, 0, 8)
	for j := e.I; j >= 0 && len(chain) < maxDepth; j = w.parent[j] {
		chain = append(chain, j)
	}
	var m scene.Affine
	has := false
	for c := len(chain) - 1; c >= 0; c-- {
		j := chain[c]
		local, hasT, err := scene.TRS{}, false, error(nil)
		if pose != nil {
			local, hasT = pose(Ent{I: j})
		}
		if !hasT {
			if local, hasT, err = w.Local(j); err != nil {
				return m, false, err
			}
		}
		if !hasT {
			has = false
			continue
		}
		if has {
			m = m.Mul(local.Matrix())
		} else {
			m = local.Matrix()
		}
		has = true
	}
	return m, has, nil
}

// internalWorld is WorldOf for an entity inside an instance's expansion:
// its matrix in the root's frame times the root's world matrix, or, for
// an entity not under the root's transform, its matrix alone.
func (w *World) internalWorld(e Ent, pose func(Ent) (scene.TRS, bool)) (scene.Affine, bool, error) {
	var m scene.Affine
	in := w.Instance(e.I)
	if in == nil || !in.Expanded() {
		return m, false, nil
	}
	k := e.Sub - 1
	rel, has, abs, err := w.relative(e.I, k, pose)
	if err != nil || !has {
		return m, false, err
	}
	if abs {
		return rel, true, nil
	}
	root, ok, err := w.WorldOf(Ent{I: e.I}, pose)
	if err != nil || !ok {
		return m, false, err
	}
	return root.Mul(rel), true, nil
}

// relative is entity k of t's matrix in its root's frame (abs: in the
// world, for one not under the root's transform), recomposed when pose
// moves an entity between it and the root.
func (w *World) relative(i, k int32, pose func(Ent) (scene.TRS, bool)) (scene.Affine, bool, bool, error) {
	tpl := w.Instance(i).Tpl
	s := &tpl.Shape
	posed := false
	if pose != nil {
		for j := k; j >= 0 && j != tpl.Root; j = tpl.Parent[j] {
			if _, ok := pose(Ent{I: i, Sub: j + 1}); ok {
				posed = true
				break
			}
		}
	}
	if !posed {
		return s.Rel[k], s.HasT[k], s.Abs[k], nil
	}
	chain := []int32{}
	for j := k; j >= 0 && j != tpl.Root && len(chain) < maxDepth; j = tpl.Parent[j] {
		chain = append(chain, j)
	}
	top := chain[len(chain)-1]
	var m scene.Affine
	has := false
	abs := tpl.Parent[top] != tpl.Root || !s.HasT[tpl.Root]
	if !abs {
		m, has = scene.Identity.Matrix(), true
	}
	for c := len(chain) - 1; c >= 0; c-- {
		j := chain[c]
		local, hasT := pose(Ent{I: i, Sub: j + 1})
		if !hasT {
			var err error
			if local, hasT, err = localOf(tpl.Comps(j)); err != nil {
				return m, false, false, err
			}
		}
		if !hasT {
			has, abs = false, true
			continue
		}
		if has {
			m = m.Mul(local.Matrix())
		} else {
			m, abs = local.Matrix(), true
		}
		has = true
	}
	return m, has, abs, nil
}

// localOf reads the local transform of the Transform among comps.
func localOf(comps []scene.Component) (scene.TRS, bool, error) {
	for _, c := range comps {
		if c.Type != "Transform" {
			continue
		}
		if t, ok := geometry.ReadTRS(c.Data); ok {
			return t, true, nil
		}
		t, err := scene.ParseTRS(c.Data)
		if err != nil {
			return t, false, err
		}
		return t, true, nil
	}
	return scene.Identity, false, nil
}
