package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/world"
)

// The structure of a scene: unique ids, parents that exist, children
// lists that agree with them, no cycles, and an order that puts parents
// first (duplicate-id, missing-parent, inconsistent-topology,
// parent-cycle).

// structure reports what the model found wrong with the ids and the
// hierarchy.
func (c *checker) structure() {
	d := c.d
	for _, dup := range d.Duplicates() {
		first := &d.Entities[dup.First]
		c.add(int32(dup.Second), Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeDuplicateID,
			Message: fmt.Sprintf("id %d is used by %s (entities[%d]) and %s (entities[%d]); the engine refuses to load the scene", dup.ID, quoteName(first.Name), dup.First, quoteName(d.Entities[dup.Second].Name), dup.Second),
			Subject: diag.Subject{
				Field: "id",
			},
			Hint: "give one of them an unused id, or re-save the scene from the editor",
		}})
	}
	for _, f := range c.w.Faults() {
		switch f.Kind {
		case world.MissingParent:
			c.add(f.I, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeMissingParent,
				Message: fmt.Sprintf("%s names parent %d, which is not in the scene; it is loaded and placed as a top-level entity", c.who(f.I), f.ID),
				Subject: diag.Subject{
					Field: "parent",
				},
				Hint: "set parent to null or to the id of an existing entity",
			}})
		case world.ChildMissing:
			c.add(f.I, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeInconsistentTopology,
				Message: fmt.Sprintf("%s lists child %d, which is not in the scene", c.who(f.I), f.ID),
				Subject: diag.Subject{
					Field: "children",
				},
				Hint: fmt.Sprintf("remove %d from the children of %s", f.ID, c.who(f.I)),
			}})
		case world.ChildElsewhere:
			c.add(f.I, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeInconsistentTopology,
				Message: fmt.Sprintf("%s lists child %s, whose parent is %s", c.who(f.I), c.who(f.J), c.parentText(f.J, f.P)),
				Subject: diag.Subject{
					Field: "children",
				},
				Hint: fmt.Sprintf("remove %d from the children of %s, or set the parent of %s to %d", f.ID, c.who(f.I), c.who(f.J), d.Entities[f.I].ID),
			}})
		case world.Unlisted:
			c.add(f.I, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeInconsistentTopology,
				Message: fmt.Sprintf("%s has parent %s, whose children do not list it", c.who(f.I), c.who(f.P)),
				Subject: diag.Subject{
					Field: "parent",
				},
				Hint: fmt.Sprintf("add %d to the children of %s, or re-save the scene from the editor", d.Entities[f.I].ID, c.who(f.P)),
			}})
		case world.Cycle:
			c.cycle(f.I, f.Cycle)
		}
	}
}

// parentText names the parent of entity j, p as the hierarchy had it
// before cycles were cut (-1 for none, or one not in the scene).
func (c *checker) parentText(j, p int32) string {
	e := &c.d.Entities[j]
	switch {
	case !e.HasParent:
		return "null (it is a top-level entity)"
	case p < 0:
		return fmt.Sprintf("%d (not in the scene)", e.Parent)
	}
	return c.who(p)
}

// cycle reports the parent cycle through m, naming its members.
func (c *checker) cycle(m int32, members []int32) {
	const show = 8
	var b strings.Builder
	for k, j := range members[:min(len(members), show)] {
		if k > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(strconv.FormatInt(c.d.Entities[j].ID, 10))
	}
	if len(members) > show {
		b.WriteString(" → …")
	} else {
		b.WriteString(" → ")
		b.WriteString(strconv.FormatInt(c.d.Entities[m].ID, 10))
	}
	c.add(m, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeParentCycle,
		Message: fmt.Sprintf("%s is its own ancestor (%s); the engine refuses to load the scene", c.who(m), b.String()),
		Subject: diag.Subject{
			Field: "parent",
		},
		Hint: fmt.Sprintf("set the parent of %s, or of another entity of the cycle, to null or to an entity outside it", c.who(m)),
	}})
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeDuplicateID          = "duplicate-id"
	CodeParentCycle          = "parent-cycle"
	CodeMissingParent        = "missing-parent"
	CodeInconsistentTopology = "inconsistent-topology"
)

var ruleDuplicateID = rule{
	Rule: Rule{ID: CodeDuplicateID, Level: SeverityError,
		Short: "Two entities share an id",
		Full:  "Entity ids are document-local and must be unique; the engine refuses to load a scene with duplicates.",
		Help:  "Give every entity a unique id (re-saving the scene from the editor renumbers them)."},
	phase: phaseStructure,
}

var ruleParentCycle = rule{
	Rule: Rule{ID: CodeParentCycle, Level: SeverityError,
		Short: "An entity is its own ancestor",
		Full:  "Following parent links from an entity leads back to it; the engine refuses to load such a scene.",
		Help:  "Set the parent of one entity of the cycle to null or to an entity outside the cycle."},
	phase: phaseStructure,
}

var ruleMissingParent = rule{
	Rule: Rule{ID: CodeMissingParent, Level: SeverityWarning,
		Short: "Parent id names no entity",
		Full:  "An entity's parent is not in the scene. The loader keeps it as a top-level entity, and worldcook places it as one, writing its parent as null.",
		Help:  "Set the parent to null or to the id of an existing entity."},
	phase: phaseStructure,
}

var ruleInconsistentTopology = rule{
	Rule: Rule{ID: CodeInconsistentTopology, Level: SeverityError,
		Short: "children lists disagree with parent links",
		Full:  "The hierarchy comes from each entity's parent; each parent's children list must name exactly the entities whose parent it is.",
		Help:  "Make the children list match the parent links, or re-save the scene from the editor."},
	phase: phaseStructure,
}
