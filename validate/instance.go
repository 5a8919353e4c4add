package validate

import (
	"strings"

	"github.com/worldcook/worldcook/scene"
)

// override is one entry of a prefab-instance entry's overrides list, as far
// as placement and reference checking need it.
type override struct {
	entity string // prefabEntityId
	kind   string // type: property, component_added, ...
	comp   string // componentType, or componentData.type when it is absent
	prop   string // propertyName
	value  []byte // value of a property override
	data   []byte // componentData.data of component_added / component_replaced
}

// parseOverrides reads entity i's overrides. Elements that are not objects
// are skipped (the editor never writes them); a list that is not a list is
// an input error, because the engine iterates it unguarded and would fail.
func parseOverrides(d *scene.Document, i int) ([]override, error) {
	_, raw := d.Prefab(i)
	switch scene.KindOf(raw) {
	case scene.Invalid, scene.Null:
		return nil, nil
	case scene.Array:
	default:
		return nil, d.EntityError(i, "overrides", "is "+scene.KindOf(raw).String()+", not a list of overrides", "write overrides as a list, [] when the instance changes nothing")
	}
	var out []override
	scene.Each(raw, func(el []byte) bool {
		if scene.KindOf(el) != scene.Object {
			return true
		}
		var o override
		scene.Members(el, func(k, v []byte) bool {
			switch string(k) {
			case "prefabEntityId":
				o.entity = idText(v)
			case "type":
				o.kind = strOf(v)
			case "componentType":
				o.comp = strOf(v)
			case "propertyName":
				o.prop = strOf(v)
			case "value":
				o.value = v
			case "componentData":
				scene.Members(v, func(k2, v2 []byte) bool {
					switch string(k2) {
					case "type":
						// component_added names its type here, not in
						// componentType (the editor's diff does not set it).
						if o.comp == "" {
							o.comp = strOf(v2)
						}
					case "data":
						o.data = v2
					}
					return true
				})
			}
			return true
		})
		out = append(out, o)
		return true
	})
	return out, nil
}

func strOf(v []byte) string {
	if scene.KindOf(v) != scene.String {
		return ""
	}
	s, _ := scene.Str(v)
	return s
}

// idText reads a prefab entity id, a string or (legacy) a number.
func idText(v []byte) string {
	switch scene.KindOf(v) {
	case scene.String:
		return strOf(v)
	case scene.Number:
		return string(v)
	}
	return ""
}

// instance is a prefab-instance entry's root as the loader would expand it:
// its components (the asset root's, changed by the component overrides) and
// the property overrides on it.
type instance struct {
	// placed is true when the root's local transform is known: from a
	// Transform.position override or from the asset's root Transform.
	placed bool
	trs    scene.TRS
	// why says what is missing when the instance cannot be placed.
	why   string
	comps []scene.Component
	props []override
	// persistent is true when the root carries WorldPersistent or
	// StreamedWorld; misplaced names a non-root prefab entity that does.
	persistent bool
	streamed   bool
	misplaced  string
	misComp    string
}

// resolveInstance expands what placement needs of prefab entry i. The root
// is identified by the asset's rootEntityId. When the asset cannot be
// found, the root is guessed: the one prefab entity (no nested
// "slot/local" id) with a Transform.position override — the common case
// of a placed instance — and a WorldPersistent added to any of its
// entities is taken to be on the root, since a misplaced one cannot be
// told from a right one without the asset.
func resolveInstance(d *scene.Document, i int, ovs []override, prefabs *Prefabs) instance {
	var in instance
	ref, _ := d.Prefab(i)
	asset := prefabs.lookup(ref, d.Path)
	known := asset.err == ""
	rootID := ""
	if known {
		rootID = asset.rootID
		in.comps = append(in.comps, asset.comps...)
	} else {
		for _, o := range ovs {
			if o.kind != "property" || o.comp != "Transform" || o.prop != "position" || o.entity == "" || strings.Contains(o.entity, "/") {
				continue
			}
			if rootID == "" {
				rootID = o.entity
			} else if rootID != o.entity {
				rootID = ""
				break
			}
		}
	}
	for _, o := range ovs {
		isRoot := rootID != "" && o.entity == rootID
		switch o.kind {
		case "component_added", "component_replaced":
			marks := o.comp == "WorldPersistent" || o.comp == "StreamedWorld"
			if !isRoot && known && marks {
				in.misplaced, in.misComp = o.entity, o.comp
				continue
			}
			if !isRoot && !(marks && !known) {
				continue
			}
			k := compIndex(in.comps, o.comp)
			switch {
			case k < 0:
				in.comps = append(in.comps, scene.Component{Type: o.comp, Data: o.data})
			case o.kind == "component_replaced":
				in.comps[k].Data = o.data
			}
		case "component_removed":
			if isRoot || (!known && (o.comp == "WorldPersistent" || o.comp == "StreamedWorld")) {
				if k := compIndex(in.comps, o.comp); k >= 0 {
					in.comps = append(in.comps[:k:k], in.comps[k+1:]...)
				}
			}
		case "property":
			if isRoot {
				in.props = append(in.props, o)
			}
		}
	}
	for _, c := range in.comps {
		switch c.Type {
		case "WorldPersistent":
			in.persistent = true
		case "StreamedWorld":
			in.streamed = true
		}
	}

	t := scene.Identity
	haveT := false
	if k := compIndex(in.comps, "Transform"); k >= 0 {
		var err error
		if t, err = scene.ParseTRS(in.comps[k].Data); err != nil {
			in.why = "its root Transform in " + asset.file + " is malformed (" + err.Error() + ")"
			return in
		}
		haveT = true
	}
	posOverride := false
	for _, o := range in.props {
		if o.comp != "Transform" {
			continue
		}
		// A property override replaces the whole field; a missing axis
		// takes the Transform default, as the engine's one-level merge does.
		var ok bool
		switch o.prop {
		case "position":
			t.Position, ok = vec3(o.value, scene.Vec3{})
			posOverride = posOverride || ok
		case "scale":
			t.Scale, ok = vec3(o.value, scene.Vec3{X: 1, Y: 1, Z: 1})
		case "rotation":
			var q scene.Vec3
			var w float64
			q, w, ok = quat(o.value)
			t.Rotation = scene.Quat{X: q.X, Y: q.Y, Z: q.Z, W: w}
		default:
			continue
		}
		if !ok {
			in.why = "its Transform." + o.prop + " override is not an {x, y, z} object of numbers"
			return in
		}
	}
	switch {
	case posOverride || haveT:
		in.placed, in.trs = true, t
	case asset.err != "":
		in.why = "it has no Transform.position override on its root and " + asset.err
	case rootID == "":
		in.why = "its prefab's root entity is unknown"
	default:
		in.why = "neither its prefab's root (" + asset.file + ") nor its overrides give it a Transform"
	}
	return in
}

func compIndex(comps []scene.Component, typ string) int {
	for k := range comps {
		if comps[k].Type == typ {
			return k
		}
	}
	return -1
}

// vec3 reads {x, y, z}; missing axes take def's. When an axis is not a
// number it reports false with the axes read before it.
func vec3(v []byte, def scene.Vec3) (scene.Vec3, bool) {
	// The usual object of plain numbers is read in one pass; anything
	// else (escaped keys, a value that is not a number, numbers off the
	// exact fast path) is read again from the start below.
	if len(v) > 0 && v[0] == '{' {
		out := def
		if _, ok := readVec(v, 0, &out.X, &out.Y, &out.Z, nil); ok {
			return out, true
		}
	}
	return vec3Members(v, def)
}

// vec3Members is vec3 for any object: it defines the semantics.
func vec3Members(v []byte, def scene.Vec3) (scene.Vec3, bool) {
	if scene.KindOf(v) != scene.Object {
		return def, false
	}
	out := def
	ok := true
	scene.Members(v, func(k, val []byte) bool {
		var dst *float64
		switch string(k) {
		case "x":
			dst = &out.X
		case "y":
			dst = &out.Y
		case "z":
			dst = &out.Z
		default:
			return true
		}
		f, err := scene.Float(val)
		if err != nil {
			ok = false
			return false
		}
		*dst = f
		return true
	})
	return out, ok
}

// quat reads a rotation quaternion {x, y, z, w}; a missing w is 1.
func quat(v []byte) (scene.Vec3, float64, bool) {
	xyz, ok := vec3(v, scene.Vec3{})
	if !ok {
		return xyz, 1, false
	}
	w := 1.0
	if wv, has := scene.Field(v, "w"); has {
		f, err := scene.Float(wv)
		if err != nil {
			return xyz, 1, false
		}
		w = f
	}
	return xyz, w, true
}

// field returns a root component field of an instance, a property
// override winning over the component's data.
func (in *instance) field(typ, key string) ([]byte, bool) {
	for k := len(in.props) - 1; k >= 0; k-- {
		if o := &in.props[k]; o.comp == typ && o.prop == key {
			return o.value, true
		}
	}
	if k := compIndex(in.comps, typ); k >= 0 {
		return scene.Field(in.comps[k].Data, key)
	}
	return nil, false
}
