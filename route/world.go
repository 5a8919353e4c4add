package route

import (
	"fmt"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
	wm "github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/validate"
)

// world is everything route asks of the scene: its entities with their
// ids, names, parents, children and components by type, their local and
// world transforms, and the partition (cells, sources, plane). It reads
// them from the model of the expanded world validate built
// (internal/world): the entities the engine spawns, prefab instances
// expanded into theirs, so that a timeline, marker or tilemap inside a
// prefab is found. It is the one file of the package that knows the
// model; the rest speak of entities by their index here, the order the
// engine spawns them in.
type world struct {
	doc   *scene.Document
	plan  *validate.Plan
	model *wm.World
	// ents are the expanded world's entities in spawn order; at is the
	// index in ents of each scene entity, sub of each expanded one.
	ents []wm.Ent
	at   []int32
	sub  map[wm.Ent]int
	// unexpanded counts the instance entries whose prefab could not be
	// expanded: they are read as the entity they place.
	unexpanded int
}

// readWorld reads and checks the scene at file.
func readWorld(file string, opts validate.Options, scenesRoot string) (*world, error) {
	if opts.SceneName == "" {
		name, err := validate.SceneName(file, scenesRoot)
		if err != nil {
			return nil, err
		}
		opts.SceneName = name
	}
	src, err := regular.ReadFile(file, "scene")
	if err != nil {
		return nil, err
	}
	doc, err := scene.Parse(file, src)
	if err != nil {
		return nil, err
	}
	plan, err := validate.Check(doc, opts)
	if err != nil {
		return nil, err
	}
	model := plan.World()
	// validate expands the instances of a streamed world; route reads
	// those of any scene.
	if err := model.Expand(); err != nil {
		return nil, err
	}
	w := &world{doc: doc, plan: plan, model: model, at: make([]int32, len(doc.Entities)), sub: map[wm.Ent]int{}}
	model.Spawned(func(e wm.Ent) bool {
		if e.Sub == 0 {
			w.at[e.I] = int32(len(w.ents))
		} else {
			w.sub[e] = len(w.ents)
		}
		w.ents = append(w.ents, e)
		return true
	})
	for _, i := range model.Instances() {
		if in := model.Instance(i); in == nil || !in.Expanded() {
			w.unexpanded++
		}
	}
	return w, nil
}

// notes says what the reading leaves out.
func (w *world) notes() []string {
	if w.unexpanded == 0 {
		return nil
	}
	what := "are read as the entities they place"
	if w.unexpanded == 1 {
		what = "is read as the entity it places"
	}
	return []string{fmt.Sprintf("%s that cannot be expanded %s: timelines, markers and tilemaps inside its prefab are not searched", english.Count(w.unexpanded, "prefab instance"), what)}
}

// index is entity e's index in ents.
func (w *world) index(e wm.Ent) int {
	if e.Sub == 0 {
		return int(w.at[e.I])
	}
	return w.sub[e]
}

func (w *world) len() int          { return len(w.ents) }
func (w *world) id(i int) int64    { return w.model.ID(w.ents[i]) }
func (w *world) name(i int) string { return w.model.Name(w.ents[i]) }
func (w *world) file() string      { return w.doc.Path }
func (w *world) has(i int, typ string) bool {
	_, ok := w.component(i, typ)
	return ok
}

// component is the data of entity i's first component of type typ, an
// expanded entity's with its instance's overrides applied.
func (w *world) component(i int, typ string) ([]byte, bool) {
	return w.model.Component(w.ents[i], typ)
}

// lookup is the entity of id: a scene entity's own id, or the id the
// engine generates for an entity of an expansion when it loads the whole
// scene.
func (w *world) lookup(id int64) (int, bool) {
	if j, ok := w.doc.Lookup(id); ok {
		return int(w.at[j]), true
	}
	if i, k, ok := w.model.GeneratedAt(id); ok {
		if in := w.model.Instance(i); in != nil && k == in.Tpl.Root {
			return int(w.at[i]), true
		}
		j, ok := w.sub[wm.Ent{I: i, Sub: k + 1}]
		return j, ok
	}
	return 0, false
}

// parent is entity i's parent index, if it has one in the expanded world.
func (w *world) parent(i int) (int, bool) {
	p, ok := w.model.ParentOf(w.ents[i])
	if !ok {
		return 0, false
	}
	return w.index(p), true
}

// children are entity i's children, in the order the engine keeps them.
func (w *world) children(i int) []int {
	kids := w.model.Children(w.ents[i])
	out := make([]int, len(kids))
	for k, e := range kids {
		out[k] = w.index(e)
	}
	return out
}

// local is entity i's local Transform (the identity without one).
func (w *world) local(i int) (scene.TRS, error) {
	t, _, err := w.model.LocalOf(w.ents[i])
	return t, err
}

// where is entity i's world transform, each entity's local transform
// taken from pose when it gives one (an animated pose) and from the
// world otherwise, composed as the engine's transform system does
// (internal/world: an entity without a Transform is not composed
// through). An entity with no Transform on its chain is at the origin.
func (w *world) where(i int, pose func(int) (scene.TRS, bool)) (scene.Affine, error) {
	var p func(wm.Ent) (scene.TRS, bool)
	if pose != nil {
		p = func(e wm.Ent) (scene.TRS, bool) { return pose(w.index(e)) }
	}
	m, has, err := w.model.WorldOf(w.ents[i], p)
	if err != nil || !has {
		return scene.IdentityAffine, err
	}
	return m, nil
}

// ancestorOf reports whether a is i or one of its ancestors.
func (w *world) ancestorOf(a, i int) bool {
	for k := i; ; {
		if k == a {
			return true
		}
		p, ok := w.parent(k)
		if !ok {
			return false
		}
		k = p
	}
}

// label names entity i in messages: its name and id, and for an entity
// of a prefab instance its path below the instance.
func (w *world) label(i int) string {
	e := w.ents[i]
	if e.Sub > 0 {
		return fmt.Sprintf("%q (%s)", w.name(i), w.model.Path(e))
	}
	if n := w.name(i); n != "" {
		return fmt.Sprintf("%q (entity %d)", n, w.id(i))
	}
	return fmt.Sprintf("entity %d", w.id(i))
}

// entityError is an error about field of entity i, located at its
// record (an expanded entity's: its instance entry's).
func (w *world) entityError(i int, field, msg, fix string) error {
	e := w.ents[i]
	if e.Sub > 0 {
		msg = w.label(i) + " " + field + ": " + msg
	}
	return w.doc.EntityError(int(e.I), field, msg, fix)
}

// sourceIndex is the entity index of each of the plan's sources.
func (w *world) sourceIndex() map[int]int {
	out := map[int]int{}
	for k, s := range w.plan.Sources {
		if i, ok := w.lookup(s.Entity); ok {
			out[i] = k
		}
	}
	return out
}
