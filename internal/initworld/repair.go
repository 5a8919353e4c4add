package initworld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
)

// Repair is the edit `worldcook validate --fix` makes to mend references
// the cut breaks: top-level entities marked WorldPersistent, and top-level
// entities moved under another with their Transform recomputed so that
// nothing moves in the world. Like init's, the edit keeps every other
// byte: a component, an override or a child id is appended, a number or
// a parent replaced in place, a field the record leaves out added after
// its last.
//
// A prefab instance entry carries no components of its own: what its
// root carries and where it stands are the instance's overrides on the
// prefab's root entity, which the engine applies in order when it
// expands the instance. Marking one appends a component_added override
// of WorldPersistent; moving one writes its root's Transform property
// overrides (the last one of each property edited in place, else one
// appended), and un-marking it appends a component_removed override.
type Repair struct {
	// Persist are the ids of the top-level entities to mark.
	Persist []int64
	// Moves are the top-level entities to move.
	Moves []Move
	// Roots are the root addresses (the prefabEntityId overrides name
	// the root by) of the prefab instance entries the repair marks or
	// moves, by their ids.
	Roots map[int64]string
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
	// From is, for a prefab instance entry, the local transform its root
	// has now, as its prefab and overrides place it: the properties that
	// change are written as overrides. A scene entity's is read from its
	// Transform.
	From scene.TRS
}

// MakeRepair returns the edit r makes of the scene in src (read from
// file).
func MakeRepair(file string, src []byte, r Repair) (*Result, error) {
	d, err := scene.Parse(file, src)
	if err != nil {
		return nil, err
	}
	res := &Result{File: file, Before: src, Streamed: true}
	var ins []insertion
	lookup := func(id int64) (int, error) {
		i, ok := d.Lookup(id)
		if !ok {
			return 0, fmt.Errorf("%s: no entity %d to repair", file, id)
		}
		return i, nil
	}
	// The overrides appended to each instance entry, in order: one
	// insertion per entry, so that a list the entry lacks is made once.
	ovs := map[int][]string{}
	var touched []int
	root := func(i int) (string, error) {
		id := d.Entities[i].ID
		addr, ok := r.Roots[id]
		if !ok {
			return "", fmt.Errorf("%s: entity %d is a prefab instance whose root is not known: not repaired", file, id)
		}
		if _, ok := ovs[i]; !ok {
			touched = append(touched, i)
			ovs[i] = nil
		}
		return addr, nil
	}
	for _, id := range r.Persist {
		i, err := lookup(id)
		if err != nil {
			return nil, err
		}
		if d.Entities[i].IsPrefab() {
			addr, err := root(i)
			if err != nil {
				return nil, err
			}
			ovs[i] = append(ovs[i], componentOverride(addr, "component_added", "WorldPersistent", compact(d.Authored(i))))
			continue
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
		more, err := reparentEdits(d, i, p, m)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
		if !d.Entities[i].IsPrefab() {
			more, err = transformEdits(d, i, m)
			if err != nil {
				return nil, err
			}
			ins = append(ins, more...)
			continue
		}
		addr, err := root(i)
		if err != nil {
			return nil, err
		}
		more, add, err := instanceTransformEdits(d, i, addr, m.From, m.Transform)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
		ovs[i] = append(ovs[i], add...)
		if m.Unpersist {
			ovs[i] = append(ovs[i], componentOverride(addr, "component_removed", "WorldPersistent", compact(d.Authored(i))))
		}
	}
	for _, i := range touched {
		if len(ovs[i]) == 0 {
			continue
		}
		more, err := appendOverrides(d, i, ovs[i])
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

// reparentEdits are the edits that put entity i under entity p: its
// parent, and p's children list (made when p's record has none).
func reparentEdits(d *scene.Document, i, p int, m Move) ([]insertion, error) {
	rec, base := d.Authored(i), d.Offset(i)
	ins, err := setIn(d, i, base+offsetIn(rec, rec), rec, [][2]string{{"parent", strconv.FormatInt(m.Under, 10)}})
	if err != nil {
		return nil, err
	}
	prec := d.Authored(p)
	if kids, ok := scene.Field(prec, "children"); ok && scene.KindOf(kids) == scene.Array {
		in, err := appendElement(d, p, kids, strconv.FormatInt(m.Entity, 10))
		if err != nil {
			return nil, err
		}
		return append(ins, in), nil
	}
	// No children list (an instance entry's is usually left out): the
	// moved entity is listed in a new one, as the editor lists children.
	more, err := setIn(d, p, d.Offset(p), prec, [][2]string{{"children", "[" + strconv.FormatInt(m.Entity, 10) + "]"}})
	if err != nil {
		return nil, err
	}
	return append(ins, more...), nil
}

// transformEdits are the edits of scene entity i's Transform that give it
// local transform m.Transform and, with m.Unpersist, remove its
// WorldPersistent.
func transformEdits(d *scene.Document, i int, m Move) ([]insertion, error) {
	rec := d.Authored(i)
	var ins []insertion
	dataAt, data := componentData(d, i, "Transform")
	if data == nil || scene.KindOf(data) != scene.Object {
		return nil, d.EntityError(i, "Transform", "has no Transform data to recompute", "give the entity a Transform")
	}
	old, err := scene.ParseTRS(data)
	if err != nil {
		return nil, err
	}
	var whole [][2]string
	for _, v := range trsVectors(old, m.Transform) {
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

// trsVector is one vector of a transform before and after, with the
// names of its components and the value an absent one takes.
type trsVector struct {
	key      string
	old, new []float64
	def      []float64
	names    string
}

func trsVectors(old, t scene.TRS) []trsVector {
	return []trsVector{
		{"position", []float64{old.Position.X, old.Position.Y, old.Position.Z}, []float64{t.Position.X, t.Position.Y, t.Position.Z}, []float64{0, 0, 0}, "xyz"},
		{"rotation", []float64{old.Rotation.X, old.Rotation.Y, old.Rotation.Z, old.Rotation.W}, []float64{t.Rotation.X, t.Rotation.Y, t.Rotation.Z, t.Rotation.W}, []float64{0, 0, 0, 1}, "xyzw"},
		{"scale", []float64{old.Scale.X, old.Scale.Y, old.Scale.Z}, []float64{t.Scale.X, t.Scale.Y, t.Scale.Z}, []float64{1, 1, 1}, "xyz"},
	}
}

// instanceTransformEdits are the edits that give instance entry i's root
// (address root) the local transform to instead of from: for each of
// position, rotation and scale that changes, the last property override
// of it on the root edited in place (the engine applies overrides in
// order, so the last one wins), else a new override returned to append.
// A property override replaces the whole field, an axis it leaves out
// taking its default: an edited one is given every axis that differs
// from what it reads as.
func instanceTransformEdits(d *scene.Document, i int, root string, from, to scene.TRS) ([]insertion, []string, error) {
	rec, base := d.Authored(i), d.Offset(i)
	min := compact(rec)
	last := map[string][]byte{}
	if list, ok := scene.Field(rec, "overrides"); ok && scene.KindOf(list) == scene.Array {
		scene.Each(list, func(el []byte) bool {
			id, _ := scene.Field(el, "prefabEntityId")
			if scene.KindOf(el) != scene.Object || string(id) != jsonString(root) {
				return true
			}
			kind, _ := scene.Field(el, "type")
			comp, _ := scene.Field(el, "componentType")
			if string(kind) != `"property"` {
				if data, ok := scene.Field(el, "componentData"); ok {
					if t, ok := scene.Field(data, "type"); ok {
						comp = t
					}
				}
				if string(comp) == `"Transform"` {
					// The root's Transform is added, replaced or removed
					// here: an earlier property override no longer holds.
					clear(last)
				}
				return true
			}
			prop, _ := scene.Field(el, "propertyName")
			if string(comp) == `"Transform"` {
				last[strings.Trim(string(prop), `"`)] = el
			}
			return true
		})
	}
	var ins []insertion
	var add []string
	for _, v := range trsVectors(from, to) {
		if slices.Equal(v.old, v.new) {
			continue
		}
		el := last[v.key]
		val, ok := scene.Field(el, "value")
		if el == nil || !ok || scene.KindOf(val) != scene.Object {
			add = append(add, fmt.Sprintf(`{ "prefabEntityId": %s, "type": "property", "componentType": "Transform", "propertyName": %q, "value": %s }`,
				jsonString(root), v.key, vector(v.names, v.new, false)))
			continue
		}
		var fields [][2]string
		for k, name := range v.names {
			_, has := scene.Field(val, string(name))
			if has && v.old[k] != v.new[k] || !has && v.new[k] != v.def[k] {
				fields = append(fields, [2]string{string(name), Number(v.new[k])})
			}
		}
		more, err := setIn(d, i, base+offsetIn(rec, val), val, fields)
		if err != nil {
			return nil, nil, err
		}
		ins = append(ins, more...)
	}
	if min {
		for k := range add {
			add[k] = minify(add[k])
		}
	}
	return ins, add, nil
}

// componentOverride renders an override of kind component_added (of typ
// with empty data) or component_removed on the root at address root.
func componentOverride(root, kind, typ string, min bool) string {
	text := fmt.Sprintf(`{ "prefabEntityId": %s, "type": %q, "componentType": %q }`, jsonString(root), kind, typ)
	if kind == "component_added" {
		text = fmt.Sprintf(`{ "prefabEntityId": %s, "type": %q, "componentType": %q, "componentData": { "type": %q, "data": {} } }`, jsonString(root), kind, typ, typ)
	}
	if min {
		return minify(text)
	}
	return text
}

// minify drops the spaces of a rendered override, whose strings hold
// none but the root address's.
func minify(text string) string {
	var b strings.Builder
	in := false
	for k := 0; k < len(text); k++ {
		c := text[k]
		switch {
		case c == '"' && (k == 0 || text[k-1] != '\\'):
			in = !in
		case c == ' ' && !in:
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// appendOverrides returns the insertion that appends the rendered
// overrides to instance entry i's overrides list, making the list when
// the entry has none (or null).
func appendOverrides(d *scene.Document, i int, texts []string) ([]insertion, error) {
	rec := d.Authored(i)
	list, ok := scene.Field(rec, "overrides")
	if ok && scene.KindOf(list) == scene.Array {
		var last []byte
		scene.Each(list, func(el []byte) bool { last = el; return true })
		listAt := d.Offset(i) + offsetIn(rec, list)
		if last == nil {
			text := strings.Join(texts, ", ")
			if !compact(rec) {
				text = " " + text + " "
			}
			return []insertion{{At: listAt + 1, Text: text}}, nil
		}
		lastAt := listAt + offsetIn(list, last)
		sep := separator(d.Src, spaceBefore(d.Src, lastAt), lastAt)
		return []insertion{{At: lastAt + len(last), Text: sep + strings.Join(texts, sep)}}, nil
	}
	sep := ", "
	if compact(rec) {
		sep = ","
	}
	return setIn(d, i, d.Offset(i), rec, [][2]string{{"overrides", "[" + strings.Join(texts, sep) + "]"}})
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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
