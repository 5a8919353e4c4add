package assets

import (
	"bytes"
	"sort"
	"strings"

	"github.com/worldcook/worldcook/internal/jsondoc"

	"github.com/worldcook/worldcook/internal/scene"
)

// Found is one reference in a JSON document: the text and the field that
// holds it, as a dotted path ("Sprite.texture" for a component's field,
// "prefab" for an instance's asset).
type Found struct {
	Field string
	Value string
}

// maxDepth bounds how deeply Extract descends, so that a hostile document
// of nested lists costs bounded stack.
const maxDepth = 256

// Extract lists the references in the JSON value data: every "@uuid:"
// string, and every string (or string in a list) held by a key of fields
// or extra. Components ({"type": T, "data": {...}}) name their fields
// "T.field"; a property override ({"propertyName": P, "value": v}) holds a
// reference in v when P's last part is a reference field. The list is
// sorted by field, then value, without repeats.
func Extract(data []byte, fields, extra map[string]bool) ([]Found, error) {
	if err := jsondoc.Check(data); err != nil {
		return nil, err
	}
	return extractValid(data, fields, extra), nil
}

// extractValid is Extract of a value already known to be valid JSON (a
// parsed entity record): it walks the bytes in place, allocating only for
// what it finds.
func extractValid(data []byte, fields, extra map[string]bool) []Found {
	x := extractor{fields: fields, extra: extra}
	x.walk(bytes.TrimSpace(data), nil, 0)
	if len(x.out) < 2 {
		return x.out
	}
	sort.Slice(x.out, func(a, b int) bool {
		if x.out[a].Field != x.out[b].Field {
			return x.out[a].Field < x.out[b].Field
		}
		return x.out[a].Value < x.out[b].Value
	})
	out := x.out[:1]
	for _, f := range x.out[1:] {
		if f != out[len(out)-1] {
			out = append(out, f)
		}
	}
	return out
}

type extractor struct {
	fields, extra map[string]bool
	// path holds the field path's parts; the last is the key whose value
	// is being walked ("" inside a list or at the top).
	path [][]byte
	out  []Found
}

func (x *extractor) isField(key []byte) bool {
	return len(key) > 0 && (x.fields[string(key)] || x.extra[string(key)])
}

func (x *extractor) at() string {
	var parts []string
	for _, p := range x.path {
		if len(p) > 0 {
			parts = append(parts, string(p))
		}
	}
	return strings.Join(parts, ".")
}

var uuidQuote = []byte(`"@uuid:`)

// walk visits value v, held by key (nil inside a list or at the top).
func (x *extractor) walk(v, key []byte, depth int) {
	if depth > maxDepth || len(v) == 0 {
		return
	}
	switch v[0] {
	case '"':
		if uuid := bytes.HasPrefix(v, uuidQuote); uuid || x.isField(key) {
			if s, err := scene.Str(v); err == nil && s != "" && (uuid || namesAsset(string(key), s)) {
				x.out = append(x.out, Found{Field: x.at(), Value: s})
			}
		}
	case '[':
		scene.Each(v, func(el []byte) bool {
			if string(key) == "components" && scene.KindOf(el) == scene.Object {
				if x.component(el, depth) {
					return true
				}
			}
			x.walk(el, key, depth+1)
			return true
		})
	case '{':
		if p, ok := scene.Field(v, "propertyName"); ok {
			x.override(v, p)
		}
		scene.Members(v, func(k, val []byte) bool {
			x.path = append(x.path, k)
			x.walk(val, k, depth+1)
			x.path = x.path[:len(x.path)-1]
			return true
		})
	}
}

// component walks a {"type": T, "data": {...}} element, naming its fields
// after T; false when el is not one.
func (x *extractor) component(el []byte, depth int) bool {
	t, ok := scene.Field(el, "type")
	if !ok || scene.KindOf(t) != scene.String {
		return false
	}
	data, ok := scene.Field(el, "data")
	if !ok || scene.KindOf(data) != scene.Object {
		return false
	}
	if !mayRefer(data, x.fields) && !mayRefer(data, x.extra) {
		return true // a Transform, a collider: nothing to walk
	}
	// The component's type (its raw text) replaces "components" in the
	// path.
	saved := x.path[len(x.path)-1]
	x.path[len(x.path)-1] = t[1 : len(t)-1]
	n := len(x.out)
	x.walk(data, nil, depth+1)
	typ, _ := scene.Str(t)
	x.out = append(x.out[:n], applyComponentRules(typ, data, x.at(), x.out[n:])...)
	x.path[len(x.path)-1] = saved
	return true
}

// override records a property override's value that a reference field
// takes (the value's own key is "value", which is no reference field).
func (x *extractor) override(obj, prop []byte) {
	val, ok := scene.Field(obj, "value")
	if !ok || scene.KindOf(val) != scene.String || bytes.HasPrefix(val, uuidQuote) {
		return
	}
	name, err := scene.Str(prop)
	if err != nil {
		return
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if !x.isField([]byte(last)) {
		return
	}
	s, err := scene.Str(val)
	if err != nil || s == "" || !namesAsset(last, s) {
		return
	}
	field := x.at()
	if c, ok := scene.Field(obj, "componentType"); ok {
		if comp, err := scene.Str(c); err == nil && comp != "" {
			field = join(field, comp)
		}
	}
	x.out = append(x.out, Found{Field: join(field, name), Value: s})
}

func join(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// ComponentRefs lists the references in one component's data (valid
// JSON, as a parsed scene holds it), its fields named "typ.field". A
// record is cheaper to read component by component than as a whole: the
// parser has already found its components, and most hold no reference.
func (g *Graph) ComponentRefs(typ string, data []byte) []Found {
	if !mayRefer(data, g.rules.fields) {
		return nil
	}
	x := extractor{fields: g.rules.fields, path: [][]byte{[]byte(typ)}}
	x.walk(bytes.TrimSpace(data), nil, 0)
	return applyComponentRules(typ, data, typ, x.out)
}
