package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/worldcook/worldcook/diag"
)

// The structure of a scene: unique ids, parents that exist, children
// lists that agree with them, no cycles, and an order that puts parents
// first (duplicate-id, missing-parent, inconsistent-topology,
// parent-cycle).

// structure checks ids and the hierarchy and orders the entities parents
// first.
func (c *checker) structure() {
	c.hierarchy()
	c.topology()
	c.sortTopologically()
}

// hierarchy resolves parent ids to indices and reports duplicate ids and
// parents that are not in the scene.
func (c *checker) hierarchy() {
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
	for i := range d.Entities {
		e := &d.Entities[i]
		c.parent[i] = -1
		if !e.HasParent {
			continue
		}
		p, ok := d.Lookup(e.Parent)
		if !ok {
			c.plan.cut[i] = true
			c.add(int32(i), Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeMissingParent,
				Message: fmt.Sprintf("%s names parent %d, which is not in the scene; it is loaded and placed as a top-level entity", c.who(int32(i)), e.Parent),
				Subject: diag.Subject{
					Field: "parent",
				},
				Hint: "set parent to null or to the id of an existing entity",
			}})
			continue
		}
		c.parent[i] = int32(p)
		c.flags[p] |= fHasKids
	}
}

// topology checks that every children list names exactly the entities
// whose parent it is: the parent links are what the loader uses.
func (c *checker) topology() {
	d := c.d
	for p := range d.Entities {
		kids, _ := d.Children(p)
		for _, id := range kids {
			j, ok := d.Lookup(id)
			switch {
			case !ok:
				c.add(int32(p), Finding{Diagnostic: diag.Diagnostic{
					Code:    CodeInconsistentTopology,
					Message: fmt.Sprintf("%s lists child %d, which is not in the scene", c.who(int32(p)), id),
					Subject: diag.Subject{
						Field: "children",
					},
					Hint: fmt.Sprintf("remove %d from the children of %s", id, c.who(int32(p))),
				}})
			case c.parent[j] != int32(p):
				c.add(int32(p), Finding{Diagnostic: diag.Diagnostic{
					Code:    CodeInconsistentTopology,
					Message: fmt.Sprintf("%s lists child %s, whose parent is %s", c.who(int32(p)), c.who(int32(j)), c.parentText(int32(j))),
					Subject: diag.Subject{
						Field: "children",
					},
					Hint: fmt.Sprintf("remove %d from the children of %s, or set the parent of %s to %d", id, c.who(int32(p)), c.who(int32(j)), d.Entities[p].ID),
				}})
			default:
				c.flags[j] |= fListed
			}
		}
	}
	for j := range d.Entities {
		p := c.parent[j]
		if p < 0 || c.flags[j]&fListed != 0 {
			continue
		}
		c.add(int32(j), Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeInconsistentTopology,
			Message: fmt.Sprintf("%s has parent %s, whose children do not list it", c.who(int32(j)), c.who(p)),
			Subject: diag.Subject{
				Field: "parent",
			},
			Hint: fmt.Sprintf("add %d to the children of %s, or re-save the scene from the editor", d.Entities[j].ID, c.who(p)),
		}})
	}
}

func (c *checker) parentText(j int32) string {
	e := &c.d.Entities[j]
	switch {
	case !e.HasParent:
		return "null (it is a top-level entity)"
	case c.plan.cut[j]:
		return fmt.Sprintf("%d (not in the scene)", e.Parent)
	}
	return c.who(c.parent[j])
}

// sortTopologically orders entities parents first, finds each one's root,
// and breaks parent cycles. It walks each parent chain once with an
// explicit stack: hierarchies may be deep, and a cycle must end the walk.
// A cycle is cut at its first member in authored order, which becomes a
// top-level entity, so that the rest of the checks see a forest.
func (c *checker) sortTopologically() {
	n := len(c.parent)
	c.order = make([]int32, 0, n)
	c.root = make([]int32, n)
	flags, parent := c.flags, c.parent
	stack := make([]int32, 0, 64)
	for i := 0; i < n; i++ {
		if flags[i]&fDone != 0 {
			continue
		}
		for {
			stack = stack[:0]
			j := int32(i)
			for j >= 0 && flags[j]&(fDone|fOnPath) == 0 {
				flags[j] |= fOnPath
				stack = append(stack, j)
				j = parent[j]
			}
			if j >= 0 && flags[j]&fOnPath != 0 {
				k := len(stack) - 1
				for stack[k] != j {
					k--
				}
				m := j
				for _, s := range stack[k:] {
					m = min(m, s)
				}
				c.cycle(m)
				parent[m] = -1
				c.plan.cut[m] = true
				for _, s := range stack {
					flags[s] &^= fOnPath
				}
				continue
			}
			for k := len(stack) - 1; k >= 0; k-- {
				s := stack[k]
				flags[s] = flags[s]&^fOnPath | fDone
				if p := parent[s]; p >= 0 {
					c.root[s] = c.root[p]
				} else {
					c.root[s] = s
				}
				c.order = append(c.order, s)
			}
			break
		}
	}
}

// cycle reports the parent cycle through m, naming its members.
func (c *checker) cycle(m int32) {
	const show = 8
	var b strings.Builder
	j := m
	for k := 0; ; k++ {
		if k > 0 {
			b.WriteString(" → ")
		}
		if k == show {
			b.WriteString("…")
			break
		}
		b.WriteString(strconv.FormatInt(c.d.Entities[j].ID, 10))
		j = c.parent[j]
		if j == m {
			b.WriteString(" → ")
			b.WriteString(strconv.FormatInt(c.d.Entities[m].ID, 10))
			break
		}
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

// classifyBlock is how many entities componentFlags claims at a time.
const classifyBlock = 4096

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
