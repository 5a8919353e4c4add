package validate

import (
	"fmt"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/world/expand"
)

// Misspelt streaming components (misspelt-streaming-component). The
// engine knows a component by its exact name: "StreamWorld" or
// "WorldPersistant" is data no system reads, so a world meant to stream
// is copied whole, or an entity meant to stay is cut into a cell.

// streamingComponents are the names a near miss is checked against.
var streamingComponents = [...]string{"StreamedWorld", "WorldPersistent", "WorldStreamingSource"}

// maxTypoDistance is the largest edit distance that counts as a misspelling.
const maxTypoDistance = 2

// intendedComponent returns the streaming component typ is a misspelling
// of: within maxTypoDistance edits (insertions, deletions, substitutions
// and transpositions of adjacent letters) and not the name itself. "" when
// typ is none.
func intendedComponent(typ string) string {
	for _, want := range streamingComponents {
		if typ == want {
			return ""
		}
	}
	for _, want := range streamingComponents {
		if d := len(typ) - len(want); d > maxTypoDistance || d < -maxTypoDistance {
			continue
		}
		if editDistance(typ, want, maxTypoDistance) <= maxTypoDistance {
			return want
		}
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b
// (byte-wise), or limit+1 once it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	// Three rows of at most len(b)+1 cells: the names are short.
	var buf [3][64]int
	if len(b) >= len(buf[0]) {
		return limit + 1
	}
	prev2, prev, cur := buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// typoCache remembers, per component type met, the streaming component
// it misspells ("" for none), so a world of many entities computes each
// distance once per name. One per goroutine.
type typoCache map[string]string

func (tc typoCache) intended(typ string) string {
	// Lengths outside every name's reach are not cached: most types are.
	if len(typ) < len("StreamedWorld")-maxTypoDistance || len(typ) > len("WorldStreamingSource")+maxTypoDistance {
		return ""
	}
	want, ok := tc[typ]
	if !ok {
		want = intendedComponent(typ)
		tc[typ] = want
	}
	return want
}

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
	tc := typoCache{}
	for i, fl := range c.flags {
		if fl&fTypo == 0 {
			continue
		}
		for _, comp := range c.d.Components(i) {
			if want := tc.intended(comp.Type); want != "" {
				c.add(int32(i), c.typoFinding(int32(i), "", comp.Type, want, comp.Type))
			}
		}
	}
	for k, i := range c.prefabIdx {
		if c.inst != nil {
			if in := &c.inst[k]; in.Tpl != nil && !in.Failed {
				t := in.Tpl
				for _, e := range t.Order {
					for _, comp := range t.Comps(e) {
						if want := tc.intended(comp.Type); want != "" {
							path := c.instancePath(i)
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
			if want := tc.intended(o.Comp); want != "" {
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
