package validate

import (
	"sort"
	"strings"
)

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

// fieldTable is the table one Check uses: the built-in fields plus the
// project's entity fields, minus every field declared soft (a soft
// declaration may also silence a built-in field the game resolves itself).
//
// Project component types match case-insensitively: configuration loaders
// lower-case map keys (worldcook.yaml's "FollowTarget" arrives as
// "followtarget"), and Estella type names never differ by case alone.
type fieldTable struct {
	exact map[string][]string
	// fold holds project types not in exact, matched with EqualFold.
	fold map[string][]string
}

func newFieldTable(project map[string]ComponentFields) *fieldTable {
	t := &fieldTable{exact: make(map[string][]string, len(builtinFields)+len(project))}
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

// lookup returns a function giving the reference fields of a component
// type. Project types are resolved once each and remembered in a map of
// the function's own, so every goroutine takes its own lookup.
func (t *fieldTable) lookup() func(typ string) []string {
	var memo map[string][]string
	if t.project() {
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
func (t *fieldTable) resolve(typ string) []string {
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

// project reports whether project types must be looked up per component.
func (t *fieldTable) project() bool { return t.fold != nil }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// isBuiltinRefType reports whether typ is in the built-in table. It is a
// switch rather than a map lookup because it runs once per component of a
// world of millions of entities.
func isBuiltinRefType(typ string) bool {
	switch typ {
	case "Parent", "Children", "MeshSkin", "ParticleEmitter", "UIScroll", "UISlider", "UIToggle", "UIDropdown",
		"RevoluteJoint", "DistanceJoint", "PrismaticJoint", "WeldJoint", "WheelJoint", "MotorJoint",
		"PointJoint3D", "HingeJoint3D", "SliderJoint3D", "DistanceJoint3D", "FixedJoint3D":
		return true
	}
	return false
}
