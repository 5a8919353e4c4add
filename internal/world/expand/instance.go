package expand

import (
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// Override is one entry of an overrides list (an instance entry's, a
// variant's, or a nested prefab slot's), as the engine applies it.
type Override struct {
	Entity string // prefabEntityId
	Kind   string // type: property, component_added, ...
	Comp   string // componentType, or componentData.type when it is absent
	Prop   string // propertyName
	Value  []byte // value (property, name, visibility, parent)
	// HasData is set when componentData is an object; DataType and Data
	// are its type and data (what component_added and component_replaced
	// insert).
	HasData  bool
	DataType string
	Data     []byte
	// raw is the whole entry, for telling override sets apart.
	raw []byte
	// NumID is set when prefabEntityId is a number. A prefab document's
	// migration turns those into strings; in a scene's instance entry
	// nothing does, and the engine's string-keyed lookup never matches
	// them.
	NumID bool
}

// ParseOverrides reads entity i's overrides. Elements that are not objects
// are skipped (the editor never writes them); a list that is not a list is
// an input error, because the engine iterates it unguarded and would fail.
func ParseOverrides(d *scene.Document, i int) ([]Override, error) {
	return ParseOverridesInto(nil, d, i)
}

// ParseOverridesInto is ParseOverrides appending to buf.
func ParseOverridesInto(buf []Override, d *scene.Document, i int) ([]Override, error) {
	_, raw := d.Prefab(i)
	switch scene.KindOf(raw) {
	case scene.Invalid, scene.Null:
		return nil, nil
	case scene.Array:
	default:
		return nil, d.EntityError(i, "overrides", "is "+scene.KindOf(raw).String()+", not a list of overrides", "write overrides as a list, [] when the instance changes nothing")
	}
	return appendOverrides(buf, raw), nil
}

// overrideList reads a validated JSON list of overrides.
func overrideList(raw []byte) []Override { return appendOverrides(nil, raw) }

// appendOverrides appends the overrides of a validated JSON list to out.
func appendOverrides(out []Override, raw []byte) []Override {
	scene.Each(raw, func(el []byte) bool {
		if scene.KindOf(el) != scene.Object {
			return true
		}
		o := Override{raw: el}
		scene.Members(el, func(k, v []byte) bool {
			switch string(k) {
			case "prefabEntityId":
				o.Entity = idText(v)
				o.NumID = scene.KindOf(v) == scene.Number
			case "type":
				o.Kind = geometry.Str(v)
			case "componentType":
				o.Comp = geometry.Str(v)
			case "propertyName":
				o.Prop = geometry.Str(v)
			case "value":
				o.Value = v
			case "componentData":
				o.HasData = scene.KindOf(v) == scene.Object
				scene.Members(v, func(k2, v2 []byte) bool {
					switch string(k2) {
					case "type":
						o.DataType = geometry.Str(v2)
					case "data":
						o.Data = v2
					}
					return true
				})
			}
			return true
		})
		// component_added names its type in componentData, not in
		// componentType (the editor's diff does not set it).
		if o.Comp == "" {
			o.Comp = o.DataType
		}
		out = append(out, o)
		return true
	})
	return out
}

// idText reads a prefab entity id, a string or (legacy) a number.
func idText(v []byte) string {
	switch scene.KindOf(v) {
	case scene.String:
		return geometry.Str(v)
	case scene.Number:
		return string(v)
	}
	return ""
}

// Instance is a prefab-instance entry as the engine expands it: its
// expansion (shared with the instances that have the same prefab and
// edits), its root's local transform and the root's components.
type Instance struct {
	// Tpl is the expansion; nil when the prefab cannot be found.
	Tpl *Template
	// Unresolved says why the prefab cannot be found.
	Unresolved string
	// Failed is set when the engine cannot expand the instance: it
	// refuses to load the scene (Why says why).
	Failed bool
	// Placed is true when the root's local transform, TRS, is known: from
	// the expanded root, or from a Transform.position override when the
	// asset is missing.
	Placed bool
	TRS    scene.TRS
	// Why says what is missing when the instance cannot be placed, and
	// Fix how to mend it. An expanded root without a Transform has no
	// place, as any Transform-less root: it is persistent, and Why is "".
	Why string
	Fix string
	// Comps are the root's components; Props, for an instance whose
	// prefab cannot be found, the property overrides on its guessed
	// root, which win over the components' data (Field).
	Comps []scene.Component
	Props []Override
	// Persistent is true when the root carries WorldPersistent, Streamed
	// when it carries StreamedWorld.
	Persistent bool
	Streamed   bool
}

// Expanded reports whether the instance was expanded: its prefab found
// and expanded as the engine does.
func (in *Instance) Expanded() bool { return in.Tpl != nil && !in.Failed }

// Expander expands instances: one goroutine's, with its cache of
// expansions by prefab and edits, and of prefab answers by reference.
// What an expansion says does not depend on the expander that made it.
type Expander struct {
	prefabs *Prefabs
	ext     *geometry.Extents
	fields  func(typ string) []string

	cache     map[string]*Template
	byRef     map[string]*prefabAsset
	rootAddrs map[*pdoc]string
	keyBuf    []byte
	rootOvBuf []Override
}

// NewExpander returns an expander reading prefabs through p, the extents
// of their entities through ext, and the references they hold through
// fields (one per goroutine: see Fields.Lookup).
func NewExpander(p *Prefabs, ext *geometry.Extents, fields func(typ string) []string) *Expander {
	return &Expander{prefabs: p, ext: ext, fields: fields, cache: map[string]*Template{}, byRef: map[string]*prefabAsset{}, rootAddrs: map[*pdoc]string{}}
}

// Expand expands prefab entry i of d, whose overrides are ovs. A known prefab is expanded as
// the engine does; the root's Transform overrides then place the
// expanded root. When the asset cannot be found, the engine drops the
// instance, but its record still has to go somewhere: the root is guessed
// from the overrides (see guessInstance).
func (x *Expander) Expand(d *scene.Document, i int, ovs []Override) Instance {
	prefabs := x.prefabs
	ref, _ := d.Prefab(i)
	// Most instances of a world name a few prefabs: the answer per
	// reference is kept here, without the shared index's lock.
	asset, ok := x.byRef[ref]
	if !ok {
		asset = prefabs.lookup(ref, d.Path)
		x.byRef[ref] = asset
	}
	if asset.doc == nil {
		// The instance's findings name the reference already.
		why := ofItsPrefab(asset.err, ref)
		in := guessInstance(ovs, why)
		in.Unresolved = why
		return in
	}
	rootAddr, known := x.rootAddrs[asset.doc]
	if !known {
		rootAddr = rootAddress(asset.doc, prefabs)
		x.rootAddrs[asset.doc] = rootAddr
	}
	added, removed := d.PrefabEdits(i)
	key, rootOvs, parents := appendTemplateKey(x.keyBuf[:0], x.rootOvBuf[:0], asset.file, rootAddr, ovs, removed)
	x.rootOvBuf = rootOvs
	base := len(key)
	key = append(append(key, 0), added...)
	x.keyBuf = key
	cache := x.cache
	tpl, ok := cache[string(key)]
	if !ok {
		rest := make([]Override, 0, len(ovs))
		for _, o := range ovs {
			if !o.NumID && !(len(rootOvs) > 0 && isRootTRS(&o, rootAddr)) {
				rest = append(rest, o)
			}
		}
		dl := parseDelta(d, i, rest)
		if parents || len(dl.added) == 0 {
			tpl = x.build(asset.doc, &dl)
		} else {
			// The expansion without the added entities is shared by
			// every instance with the same edits; each list of added
			// entities is appended to it.
			b, ok := cache[string(key[:base])]
			if !ok {
				b = x.build(asset.doc, &delta{ovs: rest, removed: dl.removed})
				cache[string(key[:base])] = b
			}
			tpl = x.derive(b, dl.added, rest)
		}
		cache[string(key)] = tpl
	}
	in := Instance{Tpl: tpl}
	if tpl.Err != "" {
		in.Failed = true
		in.Why = tpl.Err
		return in
	}
	in.Comps = tpl.ents[tpl.Root].comps
	in.Persistent, in.Streamed = tpl.Persistent, tpl.Streamed
	switch {
	case tpl.rootTErr != "":
		in.Why = tpl.rootTErr + " in " + asset.file
		in.Fix = "fix the Transform of the root of " + asset.file + ", or mark the instance WorldPersistent"
	case !tpl.rootHasT:
		// The engine applies no Transform override to a root without a
		// Transform: the instance has no place, and stays persistent as
		// any Transform-less root does.
	default:
		in.place(tpl.rootT, rootOvs)
	}
	return in
}

// isRootTRS reports whether o is a property override of the root's
// Transform position, rotation or scale.
func isRootTRS(o *Override, rootAddr string) bool {
	if o.Entity != rootAddr || o.Kind != "property" || o.Comp != "Transform" {
		return false
	}
	switch o.Prop {
	case "position", "rotation", "scale":
		return true
	}
	return false
}

// rootAddress is the address of a prefab's root entity in its expansion:
// its rootEntityId, followed into the slot when the root is a nested
// prefab. The address does not depend on the instance's edits.
func rootAddress(p *pdoc, prefabs *Prefabs) string {
	addr := ""
	for depth := 0; p != nil && depth <= maxNesting; depth++ {
		for p.base != "" && depth <= maxNesting {
			b := prefabs.lookup(p.base, p.file).doc
			if b == nil {
				return addr + p.root
			}
			p = b
			depth++
		}
		var slot *pent
		for k := range p.ents {
			if p.ents[k].id == p.root && p.ents[k].nested {
				slot = &p.ents[k]
			}
		}
		if slot == nil {
			return addr + p.root
		}
		addr += slot.id + addrSep
		p = prefabs.lookup(slot.nestedPath, p.file).doc
	}
	return addr
}

// place puts the instance where its root's Transform overrides on t
// put it, or says why they cannot be read.
func (in *Instance) place(t scene.TRS, ovs []Override) {
	t, why := applyRootTransform(t, ovs)
	if why != "" {
		in.Why = why
		in.Fix = "write the instance's Transform overrides as {x, y, z} objects of numbers (rotation {x, y, z, w}), or mark the instance WorldPersistent"
		return
	}
	in.Placed, in.TRS = true, t
}

// applyRootTransform applies an instance's Transform property overrides
// on its root, in order. A property override replaces the whole field; a
// missing axis takes the Transform default, as the engine's one-level
// merge does.
func applyRootTransform(t scene.TRS, ovs []Override) (scene.TRS, string) {
	for _, o := range ovs {
		var ok bool
		switch o.Prop {
		case "position":
			t.Position, ok = geometry.Vec3(o.Value, scene.Vec3{})
		case "scale":
			t.Scale, ok = geometry.Vec3(o.Value, scene.Vec3{X: 1, Y: 1, Z: 1})
		case "rotation":
			t.Rotation, ok = geometry.Quat(o.Value)
		}
		if !ok {
			return t, "its Transform." + o.Prop + " override is not an {x, y, z} object of numbers"
		}
	}
	return t, ""
}

// ofItsPrefab words why, the reason the prefab ref names cannot be used,
// for a message that has named ref already: "its prefab has no .meta …"
// rather than the uuid a second time. A reason about another file (a
// nested or base prefab) is left as it is.
func ofItsPrefab(why, ref string) string {
	if rest, ok := strings.CutPrefix(why, ref+" "); ok && ref != "" {
		return "its prefab " + rest
	}
	return why
}

// guessInstance places an instance whose prefab cannot be found. The root
// is guessed: the one prefab entity (no nested "slot/local" id) with a
// Transform.position override — the common case of a placed instance —
// and a WorldPersistent added to any of its entities is taken to be on
// the root, since a misplaced one cannot be told from a right one without
// the asset.
func guessInstance(ovs []Override, assetErr string) Instance {
	var in Instance
	rootID := ""
	for _, o := range ovs {
		if o.Kind != "property" || o.Comp != "Transform" || o.Prop != "position" || o.Entity == "" || strings.Contains(o.Entity, "/") {
			continue
		}
		if rootID == "" {
			rootID = o.Entity
		} else if rootID != o.Entity {
			rootID = ""
			break
		}
	}
	for _, o := range ovs {
		isRoot := rootID != "" && o.Entity == rootID
		marks := o.Comp == "WorldPersistent" || o.Comp == "StreamedWorld"
		switch o.Kind {
		case "component_added", "component_replaced":
			if !isRoot && !marks {
				continue
			}
			k := compIndex(in.Comps, o.Comp)
			switch {
			case k < 0:
				in.Comps = append(in.Comps, scene.Component{Type: o.Comp, Data: o.Data})
			case o.Kind == "component_replaced":
				in.Comps[k].Data = o.Data
			}
		case "component_removed":
			if isRoot || marks {
				if k := compIndex(in.Comps, o.Comp); k >= 0 {
					in.Comps = append(in.Comps[:k:k], in.Comps[k+1:]...)
				}
			}
		case "property":
			if isRoot {
				in.Props = append(in.Props, o)
			}
		}
	}
	for _, c := range in.Comps {
		switch c.Type {
		case "WorldPersistent":
			in.Persistent = true
		case "StreamedWorld":
			in.Streamed = true
		}
	}
	var pos []Override
	for _, o := range in.Props {
		if o.Comp == "Transform" && (o.Prop == "position" || o.Prop == "rotation" || o.Prop == "scale") {
			pos = append(pos, o)
		}
	}
	switch {
	case rootID == "":
		in.Why = "it has no Transform.position override on its root and " + assetErr
		in.Fix = "add a Transform.position override to the instance's root, pass --assets with the folder holding the prefab and its .meta, or mark the instance WorldPersistent"
	default:
		in.place(scene.Identity, pos)
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

// Field returns a root component field of an instance, a property
// override winning over the component's data.
func (in *Instance) Field(typ, key string) ([]byte, bool) {
	for k := len(in.Props) - 1; k >= 0; k-- {
		if o := &in.Props[k]; o.Comp == typ && o.Prop == key {
			return o.Value, true
		}
	}
	if k := compIndex(in.Comps, typ); k >= 0 {
		return scene.Field(in.Comps[k].Data, key)
	}
	return nil, false
}

// RootComps are the components the root of an instance is taken to
// carry: Comps, with the property overrides of an instance whose prefab
// cannot be found (Props) applied to them.
func (in *Instance) RootComps() []scene.Component {
	if len(in.Props) == 0 {
		return in.Comps
	}
	eff := make([]scene.Component, len(in.Comps))
	copy(eff, in.Comps)
	for _, o := range in.Props {
		if k := compIndex(eff, o.Comp); k >= 0 && o.Prop != "" {
			eff[k].Data = setMember(eff[k].Data, o.Prop, o.Value)
		}
	}
	return eff
}

// HasComp reports whether comps holds a component of type typ.
func HasComp(comps []scene.Component, typ string) bool { return compIndex(comps, typ) >= 0 }

// ComponentOf returns the data of the first component of type typ.
func ComponentOf(comps []scene.Component, typ string) ([]byte, bool) {
	if k := compIndex(comps, typ); k >= 0 {
		return comps[k].Data, true
	}
	return nil, false
}

// OverrideRefs appends the references the property overrides ovs of
// instance entry i hold as written.
func OverrideRefs(refs []Ref, i int32, ovs []Override, fields func(string) []string) []Ref {
	for _, o := range ovs {
		if o.Kind != "property" || !contains(fields(o.Comp), o.Prop) {
			continue
		}
		refs = AppendRefs(refs, i, o.Comp, o.Prop, o.Value, o.Entity)
	}
	return refs
}
