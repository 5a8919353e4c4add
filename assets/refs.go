package assets

import (
	"sort"
	"strings"

	"encoding/json"
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
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	x := extractor{fields: fields, extra: extra}
	x.walk(v, "", "", 0)
	sort.Slice(x.out, func(a, b int) bool {
		if x.out[a].Field != x.out[b].Field {
			return x.out[a].Field < x.out[b].Field
		}
		return x.out[a].Value < x.out[b].Value
	})
	out := x.out[:0]
	for i, f := range x.out {
		if i == 0 || f != x.out[i-1] {
			out = append(out, f)
		}
	}
	return out, nil
}

type extractor struct {
	fields, extra map[string]bool
	out           []Found
}

func (x *extractor) isField(key string) bool { return x.fields[key] || x.extra[key] }

func join(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

func (x *extractor) walk(v any, key, at string, depth int) {
	if depth > maxDepth {
		return
	}
	switch t := v.(type) {
	case string:
		if strings.HasPrefix(t, "@uuid:") || (key != "" && x.isField(key) && t != "") {
			x.out = append(x.out, Found{Field: at, Value: t})
		}
	case []any:
		for _, e := range t {
			x.walk(e, key, at, depth+1)
		}
	case map[string]any:
		typ, hasType := t["type"].(string)
		data, hasData := t["data"].(map[string]any)
		if hasType && hasData && key == "components" {
			// A component: its fields are named after its type.
			base := typ
			if at != "components" {
				base = join(strings.TrimSuffix(at, ".components"), typ)
			}
			x.walk(data, "", base, depth+1)
			return
		}
		if prop, ok := t["propertyName"].(string); ok {
			if s, ok := t["value"].(string); ok && s != "" {
				last := prop[strings.LastIndexByte(prop, '.')+1:]
				comp, _ := t["componentType"].(string)
				if x.isField(last) && !strings.HasPrefix(s, "@uuid:") {
					x.out = append(x.out, Found{Field: join(join(at, comp), prop), Value: s})
				}
			}
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			x.walk(t[k], k, join(at, k), depth+1)
		}
	}
}
