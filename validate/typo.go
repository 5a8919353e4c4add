package validate

import (
	"fmt"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/expand"
)

// Misspelt streaming components (misspelt-streaming-component). The
// engine knows a component by its exact name: "StreamWorld" or
// "WorldPersistant" is data no system reads, so a world meant to stream
// is copied whole, or an entity meant to stay is cut into a cell.

// typoFinding is the finding for component typ of entity i (or of the
// instance entity at path), a misspelling of want.
func (c *checker) typoFinding(i int32, path, typ, want, field string) Finding {
	who := c.who(i)
	if path != "" {
		who += " (prefab entity " + path + ")"
	}
	var effect string
	switch want {
	case "StreamedWorld":
		effect = "the scene is not a streamed world to the engine, and cook would copy it whole"
	case "WorldPersistent":
		effect = "the entity is not persistent and goes to a cell like any other"
	default:
		effect = "the entity is no streaming source: nothing streams around it"
	}
	return Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeMisspeltComponent,
		Message: fmt.Sprintf("%s carries a component %q, which no engine system reads; it looks like %s misspelt, so %s", who, typ, want, effect),
		Subject: diag.Subject{
			Field: field,
		},
		Hint: fmt.Sprintf("rename the component %q to %q", typ, want),
	}}
}

// checkTypos reports every component whose name misspells a streaming
// component: on scene entities, in the component_added and
// component_replaced overrides of instances that are not expanded, and
// in the expansions of those that are.
func (c *checker) checkTypos() {
	tc := world.TypoCache{}
	for i, fl := range c.flags {
		if fl&fTypo == 0 {
			continue
		}
		for _, comp := range c.d.Components(i) {
			if want := tc.Intended(comp.Type); want != "" {
				c.add(int32(i), c.typoFinding(int32(i), "", comp.Type, want, comp.Type))
			}
		}
	}
	for k, i := range c.w.Instances() {
		{
			if in := c.w.Inst(k); in != nil && in.Expanded() {
				t := in.Tpl
				for _, e := range t.Order {
					for _, comp := range t.Comps(e) {
						if want := tc.Intended(comp.Type); want != "" {
							path := c.w.InstancePath(i)
							if e != t.Root {
								path += "/" + t.Paths[e]
							}
							c.add(i, c.typoFinding(i, path, comp.Type, want, "prefab"))
						}
					}
				}
				continue
			}
		}
		ovs, _ := expand.ParseOverrides(c.d, int(i))
		for _, o := range ovs {
			if o.Kind != "component_added" && o.Kind != "component_replaced" {
				continue
			}
			if want := tc.Intended(o.Comp); want != "" {
				c.add(i, c.typoFinding(i, "", o.Comp, want, "overrides"))
			}
		}
	}
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeMisspeltComponent = "misspelt-streaming-component"
)

var ruleMisspeltComponent = rule{
	Rule: Rule{ID: CodeMisspeltComponent, Level: SeverityError,
		Short: "Misspelt streaming component",
		Full:  "A component whose name is within two edits of StreamedWorld, WorldPersistent or WorldStreamingSource is data no engine system reads: a misspelt StreamedWorld leaves the scene unstreamed (cook would copy it whole), a misspelt WorldPersistent sends the entity into a cell, a misspelt WorldStreamingSource streams nothing.",
		Help:  "Rename the component to the streaming component it was meant to be."},
	phase: phaseScene,
	check: (*checker).checkTypos,
}
