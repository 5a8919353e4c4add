package validate

import (
	"runtime"
	"strings"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// override is one entry of an overrides list (an instance entry's, a
// variant's, or a nested prefab slot's), as the engine applies it.
type override struct {
	entity string // prefabEntityId
	kind   string // type: property, component_added, ...
	comp   string // componentType, or componentData.type when it is absent
	prop   string // propertyName
	value  []byte // value (property, name, visibility, parent)
	// hasData is set when componentData is an object; dataType and data
	// are its type and data (what component_added and component_replaced
	// insert).
	hasData  bool
	dataType string
	data     []byte
	// raw is the whole entry, for telling override sets apart.
	raw []byte
	// numID is set when prefabEntityId is a number. A prefab document's
	// migration turns those into strings; in a scene's instance entry
	// nothing does, and the engine's string-keyed lookup never matches
	// them.
	numID bool
}

// parseOverrides reads entity i's overrides. Elements that are not objects
// are skipped (the editor never writes them); a list that is not a list is
// an input error, because the engine iterates it unguarded and would fail.
func parseOverrides(d *scene.Document, i int) ([]override, error) {
	return parseOverridesInto(nil, d, i)
}

// parseOverridesInto is parseOverrides appending to buf.
func parseOverridesInto(buf []override, d *scene.Document, i int) ([]override, error) {
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
func overrideList(raw []byte) []override { return appendOverrides(nil, raw) }

// appendOverrides appends the overrides of a validated JSON list to out.
func appendOverrides(out []override, raw []byte) []override {
	scene.Each(raw, func(el []byte) bool {
		if scene.KindOf(el) != scene.Object {
			return true
		}
		o := override{raw: el}
		scene.Members(el, func(k, v []byte) bool {
			switch string(k) {
			case "prefabEntityId":
				o.entity = idText(v)
				o.numID = scene.KindOf(v) == scene.Number
			case "type":
				o.kind = geometry.Str(v)
			case "componentType":
				o.comp = geometry.Str(v)
			case "propertyName":
				o.prop = geometry.Str(v)
			case "value":
				o.value = v
			case "componentData":
				o.hasData = scene.KindOf(v) == scene.Object
				scene.Members(v, func(k2, v2 []byte) bool {
					switch string(k2) {
					case "type":
						o.dataType = geometry.Str(v2)
					case "data":
						o.data = v2
					}
					return true
				})
			}
			return true
		})
		// component_added names its type in componentData, not in
		// componentType (the editor's diff does not set it).
		if o.comp == "" {
			o.comp = o.dataType
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

// instance is a prefab-instance entry as the engine expands it: its
// expansion (shared with the instances that have the same prefab and
// edits), its root's local transform and the root's components.
type instance struct {
	// tpl is the expansion; nil when the prefab cannot be found.
	tpl *template
	// unresolved says why the prefab cannot be found.
	unresolved string
	// failed is set when the engine cannot expand the instance (already
	// reported).
	failed bool
	// placed is true when the root's local transform is known: from the
	// expanded root, or from a Transform.position override when the asset
	// is missing.
	placed bool
	trs    scene.TRS
	// why says what is missing when the instance cannot be placed, and
	// fix how to mend it. An expanded root without a Transform has no
	// place, as any Transform-less root: it is persistent, and why is "".
	why   string
	fix   string
	comps []scene.Component
	props []override
	// persistent is true when the root carries WorldPersistent or
	// StreamedWorld; misplaced names a non-root prefab entity that does.
	persistent bool
	streamed   bool
	misplaced  string
	misComp    string
}

// expander is what one goroutine expanding instances keeps: its cache of
// expansions by prefab and edits, and of prefab answers by reference.
type expander struct {
	cache     map[string]*template
	byRef     map[string]*prefabAsset
	rootAddrs map[*pdoc]string
	keyBuf    []byte
	rootOvBuf []override
	ovBuf     []override
}

func newExpander() *expander {
	return &expander{cache: map[string]*template{}, byRef: map[string]*prefabAsset{}, rootAddrs: map[*pdoc]string{}}
}

// resolveInstance expands prefab entry i. A known prefab is expanded as
// the engine does; the root's Transform overrides then place the
// expanded root. When the asset cannot be found, the engine drops the
// instance, but its record still has to go somewhere: the root is guessed
// from the overrides (see guessInstance).
func (c *checker) resolveInstance(x *expander, i int, ovs []override, prefabs *Prefabs) instance {
	d := c.d
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
		in.unresolved = why
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
		rest := make([]override, 0, len(ovs))
		for _, o := range ovs {
			if !o.numID && !(len(rootOvs) > 0 && isRootTRS(&o, rootAddr)) {
				rest = append(rest, o)
			}
		}
		dl := parseDelta(d, i, rest)
		if parents || len(dl.added) == 0 {
			tpl = c.buildTemplate(asset.doc, &dl, prefabs)
		} else {
			// The expansion without the added entities is shared by
			// every instance with the same edits; each list of added
			// entities is appended to it.
			b, ok := cache[string(key[:base])]
			if !ok {
				b = c.buildTemplate(asset.doc, &delta{ovs: rest, removed: dl.removed}, prefabs)
				cache[string(key[:base])] = b
			}
			tpl = c.derive(b, dl.added, rest)
		}
		cache[string(key)] = tpl
	}
	in := instance{tpl: tpl}
	if tpl.err != "" {
		in.failed = true
		in.why = tpl.err
		return in
	}
	in.comps = tpl.ents[tpl.root].comps
	in.persistent, in.streamed = tpl.persistent, tpl.streamed
	switch {
	case tpl.rootTErr != "":
		in.why = tpl.rootTErr + " in " + asset.file
		in.fix = "fix the Transform of the root of " + asset.file + ", or mark the instance WorldPersistent"
	case !tpl.rootHasT:
		// The engine applies no Transform override to a root without a
		// Transform: the instance has no place, and stays persistent as
		// any Transform-less root does.
	default:
		t, why := applyRootTransform(tpl.rootT, rootOvs)
		if why != "" {
			in.why = why
			in.fix = "write the instance's Transform overrides as {x, y, z} objects of numbers (rotation {x, y, z, w}), or mark the instance WorldPersistent"
			return in
		}
		in.placed, in.trs = true, t
	}
	return in
}

// isRootTRS reports whether o is a property override of the root's
// Transform position, rotation or scale.
func isRootTRS(o *override, rootAddr string) bool {
	if o.entity != rootAddr || o.kind != "property" || o.comp != "Transform" {
		return false
	}
	switch o.prop {
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

// applyRootTransform applies an instance's Transform property overrides
// on its root, in order. A property override replaces the whole field; a
// missing axis takes the Transform default, as the engine's one-level
// merge does.
func applyRootTransform(t scene.TRS, ovs []override) (scene.TRS, string) {
	for _, o := range ovs {
		var ok bool
		switch o.prop {
		case "position":
			t.Position, ok = geometry.Vec3(o.value, scene.Vec3{})
		case "scale":
			t.Scale, ok = geometry.Vec3(o.value, scene.Vec3{X: 1, Y: 1, Z: 1})
		case "rotation":
			t.Rotation, ok = geometry.Quat(o.value)
		}
		if !ok {
			return t, "its Transform." + o.prop + " override is not an {x, y, z} object of numbers"
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
func guessInstance(ovs []override, assetErr string) instance {
	var in instance
	rootID := ""
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
	for _, o := range ovs {
		isRoot := rootID != "" && o.entity == rootID
		marks := o.comp == "WorldPersistent" || o.comp == "StreamedWorld"
		switch o.kind {
		case "component_added", "component_replaced":
			if !isRoot && !marks {
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
			if isRoot || marks {
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
	var pos []override
	for _, o := range in.props {
		if o.comp == "Transform" && (o.prop == "position" || o.prop == "rotation" || o.prop == "scale") {
			pos = append(pos, o)
		}
	}
	switch {
	case rootID == "":
		in.why = "it has no Transform.position override on its root and " + assetErr
		in.fix = "add a Transform.position override to the instance's root, pass --assets with the folder holding the prefab and its .meta, or mark the instance WorldPersistent"
	default:
		t, why := applyRootTransform(scene.Identity, pos)
		if why != "" {
			in.why = why
			in.fix = "write the instance's Transform overrides as {x, y, z} objects of numbers (rotation {x, y, z, w}), or mark the instance WorldPersistent"
			return in
		}
		in.placed, in.trs = true, t
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

// overrideRefs appends the references an instance's property overrides
// hold as written.
func overrideRefs(refs []ref, i int32, ovs []override, fields func(string) []string) []ref {
	for _, o := range ovs {
		if o.kind != "property" || !contains(fields(o.comp), o.prop) {
			continue
		}
		refs = refValue(refs, i, o.comp, o.prop, o.value, o.entity)
	}
	return refs
}

// expanderCount is how many goroutines expand n instances (a variable so
// that tests can prove the plan does not depend on it).
var expanderCount = func(n int) int {
	if n < 1<<12 {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxPlacers)
}
