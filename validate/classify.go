package validate

import (
	"sync/atomic"

	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/expand"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// What each entity carries, read once for every rule: the components
// that decide placement and extents, and the entity references their
// declared fields hold.

// componentFlags sets c.cls from the components of the entities: what each
// carries, which positions are wanted, whether classify has more to do;
// and it collects the references their reference fields hold. Goroutines
// calling it together share the entities out in blocks claimed from next;
// each writes only the flag words and c.blockRefs slots of its own blocks.
func (c *checker) componentFlags(next *atomic.Int64) {
	d := c.d
	n := len(d.Entities)
	fields := c.table.Lookup() // per goroutine: it caches in a map of its own
	project := c.table.Project()
	typos := typoCache{}
	for {
		from := int(next.Add(classifyBlock)) - classifyBlock
		if from >= n {
			return
		}
		var refs []ref
		for i := from; i < min(from+classifyBlock, n); i++ {
			var fl uint32
			light := false // a Light2D was met: only the first counts, as Component finds it
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "Transform":
					fl |= fTransform
				case "WorldPersistent":
					fl |= fPersistent
				case "StreamedWorld":
					fl |= fStreamedWorld
				case "WorldStreamingSource":
					fl |= fSource | fNeedPos
				case "Canvas", "UICanvas":
					fl |= fCanvas
				case "Camera":
					fl |= fCamera
				default:
					switch {
					case geometry.IsExtentType(comp.Type):
						fl |= fExtent
						// Whether a light is scene-wide is read here, on
						// every core while the components are at hand,
						// so that the cell rule visits only those lights
						// and not every entity with an extent.
						if comp.Type == "Light2D" && !light {
							light = true
							if globalLight(comp.Data) != "" {
								fl |= fGlobalLight
							}
						}
					case expand.IsBuiltinRefType(comp.Type):
						fl |= fRefs
					case typos.intended(comp.Type) != "":
						fl |= fTypo
					case fl&fRefs == 0 && project && len(fields(comp.Type)) > 0:
						fl |= fRefs
					}
				}
			}
			if d.Entities[i].IsPrefab() {
				fl |= fPrefab
			}
			if fl&fRefs != 0 {
				refs = c.componentRefs(refs, int32(i), fields)
			}
			c.cls[i] = fl
		}
		c.blockRefs[from/classifyBlock] = refs
	}
}

// classify collects, in authored order, what the component flags call
// for: the streaming entities, the canvas, the references held by
// reference components and the prefab instances' overrides. It sets
// c.cls, not c.flags, and adds no findings.
func (c *checker) classify() error {
	d := c.d
	fields := c.table.Lookup()
	const more = fStreamedWorld | fSource | fCanvas | fRefs | fPrefab
	var block []ref // the rest of the current block's component references
	for i, fl := range c.cls {
		if i%classifyBlock == 0 {
			block = c.blockRefs[i/classifyBlock]
		}
		if fl&more == 0 {
			continue
		}
		if fl&(fStreamedWorld|fSource|fCanvas) != 0 {
			for _, comp := range d.Components(i) {
				switch comp.Type {
				case "StreamedWorld":
					c.worlds = append(c.worlds, int32(i))
				case "Canvas":
					if c.canvas < 0 {
						c.canvas = int32(i)
					}
				}
			}
			if fl&fSource != 0 {
				c.sources = append(c.sources, int32(i))
			}
		}
		for len(block) > 0 && block[0].From == int32(i) {
			c.refs = append(c.refs, block[0])
			block = block[1:]
		}
		if fl&fPrefab != 0 {
			c.prefabIdx = append(c.prefabIdx, int32(i))
		}
	}
	c.blockRefs = nil
	// A streamed world reads each instance's overrides as it expands it
	// (placeInstances); elsewhere the references they hold are checked as
	// written.
	if len(c.worlds) == 0 {
		for _, i := range c.prefabIdx {
			ovs, err := expand.ParseOverrides(d, int(i))
			if err != nil {
				return err
			}
			c.refs = expand.OverrideRefs(c.refs, i, ovs, fields)
		}
	}
	// A reference wants the positions of both of its ends.
	for k := range c.refs {
		r := &c.refs[k]
		c.cls[r.From] |= fNeedPos
		if r.Bad == nil {
			if j, ok := d.Lookup(r.Target); ok {
				c.cls[j] |= fNeedPos
			}
		}
	}
	if c.canvas >= 0 {
		data, _ := d.Component(int(c.canvas), "Canvas")
		v, _ := scene.Field(data, "pixelsPerUnit")
		if ppu := geometry.Num(v, geometry.DefaultPPU); ppu > 0 && geometry.Finite(ppu) {
			c.ppu = ppu
		}
	}
	return nil
}

// componentRefs appends the references held by entity i's components to
// refs; fields gives a component type's reference fields.
func (c *checker) componentRefs(refs []ref, i int32, fields func(string) []string) []ref {
	for _, comp := range c.d.Components(int(i)) {
		for _, f := range fields(comp.Type) {
			if v, ok := scene.Field(comp.Data, f); ok {
				refs = expand.AppendRefs(refs, i, comp.Type, f, v, "")
			}
		}
	}
	return refs
}
