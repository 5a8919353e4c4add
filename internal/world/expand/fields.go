package expand

import (
	"sort"
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
)

// ComponentFields lists a component type's entity-reference fields.
type ComponentFields struct {
	Entity []string // checked against residency boundaries
	Soft   []string // the game resolves these itself: not checked
}

// builtinFields are the entity-reference fields the Estella SDK declares
// (entityFields in its component metadata). Parent and Children are
// structural and never serialized, but a document that carries them anyway
// is read the same way the loader would remap them.
var builtinFields = map[string][]string{
	"Parent":          {"entity"},
	"Children":        {"entities"},
	"MeshSkin":        {"joints"},
	"ParticleEmitter": {"subEmitter"},
	"UIScroll":        {"content"},
	"UISlider":        {"fill", "handle"},
	"UIToggle":        {"check"},
	"UIDropdown":      {"label"},
	"RevoluteJoint":   {"connectedEntity"},
	"DistanceJoint":   {"connectedEntity"},
	"PrismaticJoint":  {"connectedEntity"},
	"WeldJoint":       {"connectedEntity"},
	"WheelJoint":      {"connectedEntity"},
	"MotorJoint":      {"connectedEntity"},
	"PointJoint3D":    {"connectedEntity"},
	"HingeJoint3D":    {"connectedEntity"},
	"SliderJoint3D":   {"connectedEntity"},
	"DistanceJoint3D": {"connectedEntity"},
	"FixedJoint3D":    {"connectedEntity"},
}

// Fields is the table of entity-reference fields one world uses: the built-in fields plus the
// project's entity fields, minus every field declared soft (a soft
// declaration may also silence a built-in field the game resolves itself).
//
// Project component types match case-insensitively: configuration loaders
// lower-case map keys (worldcook.yaml's "FollowTarget" arrives as
// "followtarget"), and Estella type names never differ by case alone.
type Fields struct {
	exact map[string][]string
	// fold holds project types not in exact, matched with EqualFold.
	fold map[string][]string
}

// NewFields returns the built-in table with the project's declarations.
func NewFields(project map[string]ComponentFields) *Fields {
	t := &Fields{exact: make(map[string][]string, len(builtinFields)+len(project))}
	for k, v := range builtinFields {
		t.exact[k] = v
	}
	// Sorted so the table, and so the order of findings, never depends on
	// map iteration.
	types := make([]string, 0, len(project))
	for k := range project {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, typ := range types {
		cf := project[typ]
		key := typ
		for b := range builtinFields {
			if strings.EqualFold(b, typ) {
				key = b
			}
		}
		_, builtin := builtinFields[key]
		fields := append([]string(nil), t.exact[key]...)
		for _, f := range cf.Entity {
			if !contains(fields, f) {
				fields = append(fields, f)
			}
		}
		kept := fields[:0]
		for _, f := range fields {
			if !contains(cf.Soft, f) {
				kept = append(kept, f)
			}
		}
		if builtin {
			t.exact[key] = kept
			continue
		}
		if t.fold == nil {
			t.fold = make(map[string][]string)
		}
		t.fold[key] = kept
	}
	return t
}

// Lookup returns a function giving the reference fields of a component
// type. Project types are resolved once each and remembered in a map of
// the function's own, so every goroutine takes its own lookup.
func (t *Fields) Lookup() func(typ string) []string {
	var memo map[string][]string
	if t.Project() {
		memo = make(map[string][]string)
	}
	return func(typ string) []string {
		if f, ok := t.exact[typ]; ok || memo == nil {
			return f
		}
		f, ok := memo[typ]
		if !ok {
			f = t.resolve(typ)
			memo[typ] = f
		}
		return f
	}
}

// resolve returns the project reference fields of a type that is not in
// the exact table. It only reads the table.
func (t *Fields) resolve(typ string) []string {
	if t.fold == nil {
		return nil
	}
	var out []string
	keys := make([]string, 0, len(t.fold))
	for k := range t.fold {
		if strings.EqualFold(k, typ) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, t.fold[k]...)
	}
	return out
}

// Project reports whether project types must be looked up per component.
func (t *Fields) Project() bool { return t.fold != nil }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// IsBuiltinRefType reports whether typ is in the built-in table. It is a
// switch rather than a map lookup because it runs once per component of a
// world of millions of entities.
func IsBuiltinRefType(typ string) bool {
	switch typ {
	case "Parent", "Children", "MeshSkin", "ParticleEmitter", "UIScroll", "UISlider", "UIToggle", "UIDropdown",
		"RevoluteJoint", "DistanceJoint", "PrismaticJoint", "WeldJoint", "WheelJoint", "MotorJoint",
		"PointJoint3D", "HingeJoint3D", "SliderJoint3D", "DistanceJoint3D", "FixedJoint3D":
		return true
	}
	return false
}

// Ref is one entity reference: a single field's value or one list
// element.
type Ref struct {
	// From is the scene entity holding it (an instance entry for its
	// expansion's references and its overrides').
	From int32
	Elem int32 // list index, -1 for a single field
	// Target is the id referenced, unless Bad holds a value that is not
	// an entity id (5.5, 1e400).
	Target      int64
	Bad         []byte
	Comp, Field string
	// Peid is set for a prefab instance's property override: the prefab
	// entity the override edits.
	Peid string
	// Path names the expanded instance entity that holds the reference
	// ("House#12/Wing").
	Path string
}

// AppendRefs appends the references in one field value to refs, of entity i's component comp: a number,
// or each number of a list. Strings (prefab-local ids), null and other
// shapes mean no entity in a scene.
func AppendRefs(refs []Ref, i int32, comp, field string, v []byte, peid string) []Ref {
	switch scene.KindOf(v) {
	case scene.Number:
		refs = refNumber(refs, i, comp, field, -1, v, peid)
	case scene.Array:
		k := int32(0)
		scene.Each(v, func(el []byte) bool {
			if scene.KindOf(el) == scene.Number {
				refs = refNumber(refs, i, comp, field, k, el, peid)
			}
			k++
			return true
		})
	}
	return refs
}

func refNumber(refs []Ref, i int32, comp, field string, elem int32, v []byte, peid string) []Ref {
	if v[0] == '-' || string(v) == "0" {
		return refs // 0 and negative values mean no entity
	}
	r := Ref{From: i, Elem: elem, Comp: comp, Field: field, Peid: peid}
	id, err := scene.Int(v)
	switch {
	case err != nil:
		if f, ferr := scene.Float(v); ferr == nil && f <= 0 {
			return refs
		}
		r.Bad = v
	case id <= 0:
		return refs
	default:
		r.Target = id
	}
	return append(refs, r)
}
