package initworld

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/worldcook/worldcook/internal/scene"
)

// Repair is the edit `worldcook validate --fix` makes to mend references
// the cut breaks: top-level entities marked WorldPersistent, and top-level
// entities moved under another with their Transform recomputed so that
// nothing moves in the world. Like init's, the edit keeps every other
// byte: a component or a child id is appended, a number or a parent
// replaced in place, a field the record leaves out added after its last.
type Repair struct {
	// Persist are the ids of the top-level entities to mark.
	Persist []int64
	// Moves are the top-level entities to move.
	Moves []Move
	// Name is the scene's path in the diff ("": as DiffPath names it).
	Name string
}

// Move puts top-level entity Entity under Under with local transform
// Transform (written only where it differs from the authored one).
// Unpersist also removes the entity's WorldPersistent, which the engine
// allows only on top-level entities: its subtree takes the residency of
// its new parent's.
type Move struct {
	Entity, Under int64
	Transform     scene.TRS
	Unpersist     bool
}

// MakeRepair returns the edit r makes of the scene in src (read from
// file).
func MakeRepair(file string, src []byte, r Repair) (*Result, error) {
	d, err := scene.Parse(file, src)
	if err != nil {
		return nil, err
	}
	res := &Result{File: file, Before: src, After: src, Streamed: true}
	var ins []insertion
	lookup := func(id int64) (int, error) {
		i, ok := d.Lookup(id)
		if !ok {
			return 0, fmt.Errorf("%s: no entity %d to repair", file, id)
		}
		return i, nil
	}
	for _, id := range r.Persist {
		i, err := lookup(id)
		if err != nil {
			return nil, err
		}
		if d.Has(i, "WorldPersistent") {
			continue
		}
		in, err := addComponents(d, i, []string{component("WorldPersistent", "{}", compact(d.Authored(i)))})
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	for _, m := range r.Moves {
		i, err := lookup(m.Entity)
		if err != nil {
			return nil, err
		}
		p, err := lookup(m.Under)
		if err != nil {
			return nil, err
		}
		if d.Entities[i].IsPrefab() {
			return nil, fmt.Errorf("%s: entity %d is a prefab instance, whose transform is its overrides: not moved", file, m.Entity)
		}
		more, err := moveEdits(d, i, p, m)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
	}
	applyIn, err := res.edit(r.Name, ins)
	if err != nil {
		return nil, err
	}
	res.ApplyIn = applyIn
	return res, nil
}

// moveEdits are the edits that put entity i under entity p: its parent,
// p's children list, its Transform and, with m.Unpersist, its
// WorldPersistent removed.
func moveEdits(d *scene.Document, i, p int, m Move) ([]insertion, error) {
	rec, base := d.Authored(i), d.Offset(i)
	ins, err := setIn(d, i, base+offsetIn(rec, rec), rec, [][2]string{{"parent", strconv.FormatInt(m.Under, 10)}})
	if err != nil {
		return nil, err
	}
	if kids, ok := scene.Field(d.Authored(p), "children"); ok && scene.KindOf(kids) == scene.Array {
		in, err := appendElement(d, p, kids, strconv.FormatInt(m.Entity, 10))
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	dataAt, data := componentData(d, i, "Transform")
	if data == nil || scene.KindOf(data) != scene.Object {
		return nil, d.EntityError(i, "Transform", "has no Transform data to recompute", "give the entity a Transform")
	}
	old, err := scene.ParseTRS(data)
	if err != nil {
		return nil, err
	}
	t := m.Transform
	vecs := []struct {
		key      string
		old, new []float64
		def      float64
		names    string
	}{
		{"position", []float64{old.Position.X, old.Position.Y, old.Position.Z}, []float64{t.Position.X, t.Position.Y, t.Position.Z}, 0, "xyz"},
		{"rotation", []float64{old.Rotation.X, old.Rotation.Y, old.Rotation.Z, old.Rotation.W}, []float64{t.Rotation.X, t.Rotation.Y, t.Rotation.Z, t.Rotation.W}, 0, "xyzw"},
		{"scale", []float64{old.Scale.X, old.Scale.Y, old.Scale.Z}, []float64{t.Scale.X, t.Scale.Y, t.Scale.Z}, 1, "xyz"},
	}
	var whole [][2]string
	for _, v := range vecs {
		if slices.Equal(v.old, v.new) {
			continue
		}
		obj, ok := scene.Field(data, v.key)
		if !ok || scene.KindOf(obj) != scene.Object {
			// No vector written: add it whole.
			whole = append(whole, [2]string{v.key, vector(v.names, v.new, compact(rec))})
			continue
		}
		var fields [][2]string
		for k, name := range v.names {
			if v.old[k] != v.new[k] {
				fields = append(fields, [2]string{string(name), Number(v.new[k])})
			}
		}
		more, err := setIn(d, i, dataAt+offsetIn(data, obj), obj, fields)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
	}
	if len(whole) > 0 {
		more, err := setIn(d, i, dataAt, data, whole)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
	}
	if m.Unpersist {
		in, ok := cutComponent(d, i, "WorldPersistent")
		if ok {
			ins = append(ins, in)
		}
	}
	return ins, nil
}

// Number writes a transform number as the scene will hold it: the
// shortest text that reads back as f.
func Number(f float64) string {
	if f == 0 {
		return "0" // and -0, which JSON writers spell 0
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// vector renders a vector object of the named components.
func vector(names string, v []float64, min bool) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for k, name := range names {
		if k > 0 {
			b.WriteString(", ")
		}
		if !min && k == 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%q: %s", string(name), Number(v[k]))
	}
	if !min {
		b.WriteByte(' ')
	}
	b.WriteByte('}')
	if min {
		return string(bytes.ReplaceAll(b.Bytes(), []byte(" "), nil))
	}
	return b.String()
}

// componentData is entity i's component typ's data as authored, and its
// offset in the scene (nil when it has none).
func componentData(d *scene.Document, i int, typ string) (at int, data []byte) {
	rec, base := d.Authored(i), d.Offset(i)
	if list, ok := scene.Field(rec, "components"); ok && scene.KindOf(list) == scene.Array {
		scene.Each(list, func(el []byte) bool {
			if t, ok := scene.Field(el, "type"); ok && string(t) == `"`+typ+`"` {
				if v, ok := scene.Field(el, "data"); ok {
					at, data = base+offsetIn(rec, v), v
					return false
				}
			}
			return true
		})
	}
	return at, data
}

// appendElement returns the insertion that appends elem (JSON text) to
// list, a list in entity i's record.
func appendElement(d *scene.Document, i int, list []byte, elem string) (insertion, error) {
	rec, base := d.Authored(i), d.Offset(i)
	listAt := base + offsetIn(rec, list)
	var last []byte
	scene.Each(list, func(el []byte) bool { last = el; return true })
	if last == nil {
		return insertion{At: listAt + 1, Text: elem}, nil
	}
	lastAt := listAt + offsetIn(list, last)
	return insertion{At: lastAt + len(last), Text: separator(d.Src, spaceBefore(d.Src, lastAt), lastAt) + elem}, nil
}

// cutComponent returns the edit that removes entity i's component typ
// from its components list, with the separator before it (after it, for
// the first).
func cutComponent(d *scene.Document, i int, typ string) (insertion, bool) {
	rec, base := d.Authored(i), d.Offset(i)
	list, ok := scene.Field(rec, "components")
	if !ok || scene.KindOf(list) != scene.Array {
		return insertion{}, false
	}
	listAt := base + offsetIn(rec, list)
	var els [][]byte
	scene.Each(list, func(el []byte) bool { els = append(els, el); return true })
	for k, el := range els {
		t, ok := scene.Field(el, "type")
		if !ok || string(t) != `"`+typ+`"` {
			continue
		}
		at := listAt + offsetIn(list, el)
		end := at + len(el)
		switch {
		case k > 0:
			prev := listAt + offsetIn(list, els[k-1]) + len(els[k-1])
			return insertion{At: prev, Cut: end - prev}, true
		case len(els) > 1:
			next := listAt + offsetIn(list, els[1])
			return insertion{At: at, Cut: next - at}, true
		default:
			return insertion{At: at, Cut: len(el)}, true
		}
	}
	return insertion{}, false
}
