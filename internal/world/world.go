// Package world is the model of the world the engine spawns from a
// scene: its entities with their ids, parents and roots, what each
// carries, the references between them, its prefab instances expanded
// into their entities (internal/world/expand), their local and world
// transforms and what each covers (internal/world/geometry). It is
// computed once per scene and read by whatever needs the world: the rules
// of validate, the placement of its entities on the streaming grid
// (internal/world/place), init, route.
//
// The entities are the document's, by index, in parallel arrays (a flag
// word, a parent, a root each), so that a world of millions stays
// cheap; a prefab instance's expansion is kept once per prefab and edits
// and read through the instance entry (Ent names an entity inside one).
package world

import (
	"runtime"
	"sync/atomic"

	"github.com/worldcook/worldcook/internal/assets"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Flag is what an entity carries, one bit each, set once for every rule.
type Flag uint32

// The flags of an entity (Flags).
const (
	Transform     Flag = 1 << iota // carries a Transform
	Persistent                     // carries WorldPersistent (an instance: its expanded root does)
	StreamedWorld                  // carries StreamedWorld
	Source                         // carries WorldStreamingSource
	Refs                           // carries a component with declared reference fields
	Extent                         // carries a component with a spatial extent
	HasKids                        // some entity names it as parent
	Prefab                         // a prefab-instance entry
	Canvas                         // carries Canvas or UICanvas
	Camera                         // carries Camera
	Misspelt                       // carries a component named like a misspelt streaming component
	GlobalLight                    // its first Light2D lights the whole scene (IsGlobalLight)
	NeedPos                        // its world position is wanted (a source, either end of a reference)

	// Bits of the hierarchy pass alone, left set: test flags by mask.
	listed // its parent's children list names it
	onPath // on the parent chain being walked
	done   // placed in the topological order
)

// Options configure Build.
type Options struct {
	// Components declares project components' entity-reference fields, in
	// addition to the engine's built-in table.
	Components map[string]expand.ComponentFields
	// Prefabs, when set, reads the prefabs of the scene's instances and
	// the asset boxes of its components (shared between scenes); nil makes
	// one over Resolver's, when first needed.
	Prefabs *expand.Prefabs
	// Resolver returns the resolver of the scene's asset references
	// (else Prefabs' is); it is called at most once, when it is first
	// needed.
	Resolver func() *assets.Resolver
	// Streamed models the scene as a streamed world though no entity
	// carries StreamedWorld: worldcook init checks a scene as the
	// StreamedWorld it is about to add would make it.
	Streamed bool
	// AddedID, when above 0, is the id of an entity the edit being
	// modelled adds (init's settings entity): the engine numbers the ids
	// it generates above the document's highest, which it may be.
	AddedID int64
}

// World is the model of one scene.
type World struct {
	d    *scene.Document
	opts Options

	// Fields is the table of entity-reference fields the world uses.
	Fields *expand.Fields

	flags  []Flag
	parent []int32 // parent index, -1 for top-level entities (after cuts)
	root   []int32
	order  []int32 // parents before children
	cut    []bool  // the parent link is cut: missing, or a cycle broken
	faults []Fault

	// cls holds the flags the component pass sets while the hierarchy
	// pass sets its own in flags; Build merges them.
	cls []Flag
	// blockRefs holds the references componentFlags collected, per block
	// of entities, for classify to gather in authored order.
	blockRefs [][]expand.Ref

	refs    []expand.Ref
	sources []int32
	worlds  []int32 // entities carrying StreamedWorld, authored order
	canvas  int32
	ppu     float64

	prefabIdx []int32           // prefab-instance entries, authored order
	inst      []expand.Instance // their expansions, parallel to prefabIdx (after Expand)
	instAt    []int32           // entity index → 1 + index in prefabIdx (after Expand)
	expanded  bool              // Expand ran
	anyTpl    bool              // some instance expanded
	gen       []genRange        // ids the engine generates for instance internals
	maxID     int64             // the document's highest id (once genDone)
	genDone   bool

	prefabs *expand.Prefabs
	res     *assets.Resolver
	ext     geometry.Extents
	extDone bool
}

// SplitCount is how many goroutines read a world of n entities: above
// one, the components are read beside the hierarchy (a variable so that
// tests can prove the model does not depend on it).
var SplitCount = func(n int) int {
	if n < parallelMin {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxWorkers)
}

// parallelMin is the world size from which a pass is spread over several
// goroutines; below it the goroutines cost more than they save.
const parallelMin = 32 << 10

// maxWorkers caps the goroutines of one pass.
const maxWorkers = 8

// Build reads the world of doc: the hierarchy, what each entity carries
// and the references the components hold. Prefab instances are expanded
// by Expand. The error is for input the engine could not read at all: an
// overrides list that is not a list (a *scene.Error naming the entity).
func Build(doc *scene.Document, opts Options) (*World, error) {
	n := len(doc.Entities)
	w := &World{d: doc, opts: opts, Fields: expand.NewFields(opts.Components), canvas: -1, ppu: geometry.DefaultPPU}
	w.flags = make([]Flag, n)
	w.cls = make([]Flag, n)
	w.parent = make([]int32, n)
	w.cut = make([]bool, n)
	// Reading which components each entity carries needs only the
	// components and the hierarchy only the ids, parents and children,
	// and each writes its own flag words: on a large world a second
	// goroutine starts on the components while this one reads the
	// hierarchy and then joins it. What the flags call for is then
	// collected in authored order.
	var next atomic.Int64
	w.blockRefs = make([][]expand.Ref, (n+classifyBlock-1)/classifyBlock)
	if SplitCount(n) > 1 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			w.componentFlags(&next)
		}()
		w.hierarchy()
		w.componentFlags(&next)
		<-done
	} else {
		w.hierarchy()
		w.componentFlags(&next)
	}
	if err := w.classify(); err != nil {
		return nil, err
	}
	for i, fl := range w.cls {
		w.flags[i] |= fl
	}
	w.cls = nil
	return w, nil
}

// Doc is the scene document the world is read from.
func (w *World) Doc() *scene.Document { return w.d }

// Len is the number of the document's entities.
func (w *World) Len() int { return len(w.d.Entities) }

// Flags is what entity i carries.
func (w *World) Flags(i int32) Flag { return w.flags[i] }

// FlagWords are every entity's flags, by index, for passes over the
// whole world. Callers read them only.
func (w *World) FlagWords() []Flag { return w.flags }

// Parent is entity i's parent index, -1 for a top-level entity: one
// without a parent, whose parent is not in the scene, or where a parent
// cycle was cut (CutParent).
func (w *World) Parent(i int32) int32 { return w.parent[i] }

// Parents are every entity's parent (Parent), by index. Callers read
// them only.
func (w *World) Parents() []int32 { return w.parent }

// Root is the top-level entity whose subtree holds entity i.
func (w *World) Root(i int32) int32 { return w.root[i] }

// Roots are every entity's root (Root), by index. Callers read them
// only.
func (w *World) Roots() []int32 { return w.root }

// Order lists the entities parents first: each subtree's entities after
// its root, roots in authored order. Callers read it only.
func (w *World) Order() []int32 { return w.order }

// CutParent reports whether entity i's parent link is cut: its parent is
// not in the scene, or a parent cycle was broken there. A writer then
// writes its parent as null.
func (w *World) CutParent(i int) bool { return i < len(w.cut) && w.cut[i] }

// Cuts are every entity's CutParent, by index. Callers read them only.
func (w *World) Cuts() []bool { return w.cut }

// Refs are the entity references the world holds, in authored order:
// the components' reference fields, the references inside expanded
// instances (after Expand), and those an instance's overrides hold as
// written when it is not expanded.
func (w *World) Refs() []expand.Ref { return w.refs }

// Sources are the entities carrying WorldStreamingSource (instance roots
// too, after Expand), in authored order.
func (w *World) Sources() []int32 { return w.sources }

// Worlds are the entities carrying StreamedWorld, in authored order: the
// scene is a streamed world when there is one.
func (w *World) Worlds() []int32 { return w.worlds }

// Streamed reports whether the scene is a streamed world.
func (w *World) Streamed() bool { return len(w.worlds) > 0 || w.opts.Streamed }

// Canvas is the scene's first entity carrying Canvas, -1 for none.
func (w *World) Canvas() int32 { return w.canvas }

// PPU is the scene's pixels per unit (its first Canvas's pixelsPerUnit),
// the scale of 2D physics.
func (w *World) PPU() float64 { return w.ppu }

// Faults are what the hierarchy pass found wrong with the scene's ids,
// parents and children lists, in the order it found them.
func (w *World) Faults() []Fault { return w.faults }

// Resolver is the one resolver of the scene's asset references, which
// the expansion, the extents and the asset graph share.
func (w *World) Resolver() *assets.Resolver {
	if w.res == nil {
		switch {
		case w.opts.Resolver != nil:
			w.res = w.opts.Resolver()
		case w.opts.Prefabs != nil:
			w.res = w.opts.Prefabs.Resolver()
		}
	}
	return w.res
}

// Prefabs is the prefab reader of the world, over its resolver.
func (w *World) Prefabs() *expand.Prefabs {
	if w.prefabs == nil {
		w.prefabs = w.opts.Prefabs
		if w.prefabs == nil {
			w.prefabs = expand.NewPrefabs(w.Resolver())
		}
	}
	return w.prefabs
}

// Extents reads what components cover, at the scene's pixels per unit,
// naming assets through the world's prefab reader.
func (w *World) Extents() *geometry.Extents {
	if !w.extDone {
		w.ext = geometry.Extents{PPU: w.ppu, Boxes: w.Prefabs().Boxes()}
		w.extDone = true
	}
	return &w.ext
}
