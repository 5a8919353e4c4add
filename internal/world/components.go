package world

import (
	"sync/atomic"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// What each entity carries, read once for every rule: the components
// that decide placement and extents, and the entity references their
// declared fields hold.

// componentFlags sets w.cls from the components of the entities: what each
// carries, which positions are wanted, whether classify has more to do;
// and it collects the references their reference fields hold. Goroutines
// calling it together share the entities out in blocks claimed from next;
// each writes only the flag words and w.blockRefs slots of its own blocks.
func (w *World) componentFlags(next *atomic.Int64) {
	d := w.d
	n := len(d.Entities)
	fields := w.Fields.Lookup() // per goroutine: it caches in a map of its own
	project := w.Fields.Project()
	typos := TypoCache{}
	for {
		from := int(next.Add(classifyBlock)) - classifyBlock
		if from >= n {
			return
		}
		var refs []expand.Ref
		for i := from; i < min(from+classifyBlock, n); i++ {
			var fl Flag
			light := false // a Light2D was met: only the first counts, as Component finds it
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "Transform":
					fl |= Transform
				case "WorldPersistent":
					fl |= Persistent
				case "StreamedWorld":
					fl |= StreamedWorld
				case "WorldStreamingSource":
					fl |= Source | NeedPos
				case "Canvas", "UICanvas":
					fl |= Canvas
				case "Camera":
					fl |= Camera
				default:
					switch {
					case geometry.IsExtentType(comp.Type):
						fl |= Extent
						// Whether a light is scene-wide is read here, on
						// every core while the components are at hand,
						// so that the cell rule visits only those lights
						// and not every entity with an extent.
						if comp.Type == "Light2D" && !light {
							light = true
							if GlobalLightKind(comp.Data) != "" {
								fl |= GlobalLight
							}
						}
					case expand.IsBuiltinRefType(comp.Type):
						fl |= Refs
					case typos.Intended(comp.Type) != "":
						fl |= Misspelt
					case fl&Refs == 0 && project && len(fields(comp.Type)) > 0:
						fl |= Refs
					}
				}
			}
			if d.Entities[i].IsPrefab() {
				fl |= Prefab
			}
			if fl&Refs != 0 {
				refs = w.componentRefs(refs, int32(i), fields)
			}
			w.cls[i] = fl
		}
		w.blockRefs[from/classifyBlock] = refs
	}
}

// classify collects, in authored order, what the component flags call
// for: the streaming entities, the canvas, the references held by
// reference components and the prefab instances' overrides. It sets
// w.cls, not w.flags.
func (w *World) classify() error {
	d := w.d
	fields := w.Fields.Lookup()
	const more = StreamedWorld | Source | Canvas | Refs | Prefab
	var block []expand.Ref // the rest of the current block's component references
	for i, fl := range w.cls {
		if i%classifyBlock == 0 {
			block = w.blockRefs[i/classifyBlock]
		}
		if fl&more == 0 {
			continue
		}
		if fl&(StreamedWorld|Source|Canvas) != 0 {
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "StreamedWorld":
					w.worlds = append(w.worlds, int32(i))
				case "Canvas":
					if w.canvas < 0 {
						w.canvas = int32(i)
					}
				}
			}
			if fl&Source != 0 {
				w.sources = append(w.sources, int32(i))
			}
		}
		for len(block) > 0 && block[0].From == int32(i) {
			w.refs = append(w.refs, block[0])
			block = block[1:]
		}
		if fl&Prefab != 0 {
			w.prefabIdx = append(w.prefabIdx, int32(i))
		}
	}
	w.blockRefs = nil
	// A streamed world reads each instance's overrides as it expands it
	// (Expand); elsewhere the references they hold are checked as
	// written.
	if len(w.worlds) == 0 {
		for _, i := range w.prefabIdx {
			ovs, err := expand.ParseOverrides(d, int(i))
			if err != nil {
				return err
			}
			w.refs = expand.OverrideRefs(w.refs, i, ovs, fields)
		}
	}
	// A reference wants the positions of both of its ends.
	for k := range w.refs {
		r := &w.refs[k]
		w.cls[r.From] |= NeedPos
		if r.Bad == nil {
			if j, ok := d.Lookup(r.Target); ok {
				w.cls[j] |= NeedPos
			}
		}
	}
	if w.canvas >= 0 {
		data, _ := d.Component(int(w.canvas), "Canvas")
		v, _ := scene.Field(data, "pixelsPerUnit")
		if ppu := geometry.Num(v, geometry.DefaultPPU); ppu > 0 && geometry.Finite(ppu) {
			w.ppu = ppu
		}
	}
	return nil
}

// componentRefs appends the references held by entity i's components to
// refs; fields gives a component type's reference fields.
func (w *World) componentRefs(refs []expand.Ref, i int32, fields func(string) []string) []expand.Ref {
	for _, comp := range w.d.Components(int(i)) {
		for _, f := range fields(comp.Type) {
			if v, ok := scene.Field(comp.Data, f); ok {
				refs = expand.AppendRefs(refs, i, comp.Type, f, v, "")
			}
		}
	}
	return refs
}

// classifyBlock is how many entities componentFlags claims at a time.
const classifyBlock = 4096
