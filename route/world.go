package route

import (
	"fmt"

	"github.com/worldcook/worldcook/internal/english"
	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/validate"
)

// world is everything route asks of the scene: its entities with their
// ids, names, parents, children and components by type, their local and
// world transforms, and the partition (cells, sources, plane). It is the
// one place that knows how the scene is read, so that a model of the
// expanded world (prefab instances expanded into their entities) can
// take its place without the rest of the package changing.
//
// Today it reads the scene's own records: a prefab instance is one
// entity without components (its insides are not searched), which
// notes() says when the scene has any.
type world struct {
	doc  *scene.Document
	plan *validate.Plan
	// prefabs counts the instance entries whose insides are not searched.
	prefabs int
}

// maxDepth bounds a chain of parents: the scene's hierarchy is checked
// by validate, and this only keeps a broken one from looping.
const maxDepth = 1 << 12

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
	w := &world{doc: doc, plan: plan}
	for i := range doc.Entities {
		if doc.Entities[i].IsPrefab() {
			w.prefabs++
		}
	}
	return w, nil
}

// notes says what the reading leaves out.
func (w *world) notes() []string {
	if w.prefabs == 0 {
		return nil
	}
	what := "are read as the entities they place"
	if w.prefabs == 1 {
		what = "is read as the entity it places"
	}
	return []string{fmt.Sprintf("%s %s, not expanded: timelines, markers and tilemaps inside a prefab are not searched", english.Count(w.prefabs, "prefab instance"), what)}
}

func (w *world) len() int                                   { return len(w.doc.Entities) }
func (w *world) id(i int) int64                             { return w.doc.Entities[i].ID }
func (w *world) name(i int) string                          { return w.doc.Entities[i].Name }
func (w *world) has(i int, typ string) bool                 { return w.doc.Has(i, typ) }
func (w *world) lookup(id int64) (int, bool)                { return w.doc.Lookup(id) }
func (w *world) file() string                               { return w.doc.Path }
func (w *world) component(i int, typ string) ([]byte, bool) { return w.doc.Component(i, typ) }

// parent is entity i's parent index, if it has one in the scene.
func (w *world) parent(i int) (int, bool) {
	e := &w.doc.Entities[i]
	if !e.HasParent || w.plan.CutParent(i) {
		return 0, false
	}
	return w.doc.Lookup(e.Parent)
}

// children are the entities entity i's children list names, in order.
func (w *world) children(i int) []int {
	ids, _ := w.doc.Children(i)
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if k, ok := w.doc.Lookup(id); ok {
			out = append(out, k)
		}
	}
	return out
}

// local is entity i's authored Transform (the identity without one).
func (w *world) local(i int) (scene.TRS, error) {
	t, _, err := w.doc.Transform(i)
	return t, err
}

// where is entity i's world transform, each entity's local transform
// taken from pose when it gives one (an animated pose) and authored
// otherwise, composed from the root down as the engine's transform
// system does.
func (w *world) where(i int, pose func(int) (scene.TRS, bool)) (scene.Affine, error) {
	chain := []int{i}
	for k := i; ; {
		p, ok := w.parent(k)
		if !ok {
			break
		}
		if len(chain) == maxDepth {
			return scene.Affine{}, w.doc.EntityError(i, "parent", "is in a chain of more than 4096 parents", "fix the scene's hierarchy")
		}
		chain = append(chain, p)
		k = p
	}
	m := scene.IdentityAffine
	for c := len(chain) - 1; c >= 0; c-- {
		t, ok := scene.TRS{}, false
		if pose != nil {
			t, ok = pose(chain[c])
		}
		if !ok {
			var err error
			if t, err = w.local(chain[c]); err != nil {
				return scene.Affine{}, err
			}
		}
		m = m.Mul(t.Matrix())
	}
	return m, nil
}

// ancestorOf reports whether a is i or one of its ancestors.
func (w *world) ancestorOf(a, i int) bool {
	for k, n := i, 0; n < maxDepth; n++ {
		if k == a {
			return true
		}
		p, ok := w.parent(k)
		if !ok {
			return false
		}
		k = p
	}
	return false
}

// label names entity i in messages: its name and id.
func (w *world) label(i int) string {
	if n := w.name(i); n != "" {
		return fmt.Sprintf("%q (entity %d)", n, w.id(i))
	}
	return fmt.Sprintf("entity %d", w.id(i))
}

// sourceIndex is the entity index of each of the plan's sources.
func (w *world) sourceIndex() map[int]int {
	out := map[int]int{}
	for k, s := range w.plan.Sources {
		if i, ok := w.doc.Lookup(s.Entity); ok {
			out[i] = k
		}
	}
	return out
}
