package validate

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world/geometry"
)

// References across residency boundaries (cross-cell-ref,
// persistent-to-cell-ref, dangling-ref) and where to draw them.

// checkRefs classifies every collected reference. In a scene that is not a
// streamed world only dangling references are findings.
func (c *checker) checkRefs() {
	d := c.d
	var prefs []int64
	// The names in messages are built only for the references that make
	// a finding: most stay within their cell.
	names := func(r *ref) (field, from string) {
		field = r.Comp + "." + r.Field
		if r.Elem >= 0 {
			field += "[" + strconv.Itoa(int(r.Elem)) + "]"
		}
		from = c.who(r.From)
		if r.Path != "" {
			from += " (prefab entity " + r.Path + ")"
		} else if r.Peid != "" {
			from += fmt.Sprintf(" (override on prefab entity %q)", r.Peid)
		}
		return field, from
	}
	for k := range c.w.Refs() {
		r := &c.w.Refs()[k]
		j, ok := int(-1), false
		if r.Bad == nil {
			j, ok = d.Lookup(r.Target)
		}
		if !ok && r.Bad == nil && c.generatedRef(r, names) {
			continue
		}
		if !ok {
			field, from := names(r)
			f := Finding{Diagnostic: diag.Diagnostic{
				Code: CodeDanglingRef,
				Subject: diag.Subject{
					Field: field,
				},
				Hint: "set " + field + " to 0 for no entity, or to the id of an existing entity",
			}}
			if c.opts.Strict {
				f.Severity = SeverityError
			}
			if r.Bad != nil {
				f.Message = fmt.Sprintf("%s %s holds %s, which is not an entity id; the loader treats it as no entity", from, field, string(r.Bad))
			} else {
				t := r.Target
				f.Target = &t
				f.Message = fmt.Sprintf("%s %s references entity %d, which is not in the scene; the loader replaces it with 0 (no entity)", from, field, r.Target)
			}
			f.Arrow = c.mark(r.From)
			c.add(r.From, f)
			continue
		}
		if !c.plan.Streamed {
			continue
		}
		di, dj := c.pl.Cell(r.From), c.pl.Cell(int32(j))
		if di == dj || c.root[r.From] == c.root[j] {
			continue
		}
		if dj < 0 {
			prefs = append(prefs, r.Target)
			continue
		}
		field, from := names(r)
		t := r.Target
		f := Finding{Diagnostic: diag.Diagnostic{
			Subject: diag.Subject{
				Field:      field,
				Target:     &t,
				TargetName: d.Entities[j].Name,
				FromCell:   c.cellLabel(di),
				ToCell:     c.cellLabel(dj),
			},
		}, Arrow: c.arrow(r.From, int32(j))}
		fr, tr := c.root[r.From], c.root[j]
		soft := fmt.Sprintf("declare %s.%s soft in worldcook.yaml (components: {%s: {softFields: [%s]}}) if the game resolves it itself", r.Comp, r.Field, r.Comp, r.Field)
		if di < 0 {
			f.Code = CodePersistentToCellRef
			f.Message = fmt.Sprintf("%s %s in the persistent world references %s in cell %s, which residency may unload", from, field, c.who(int32(j)), f.ToCell)
			f.Hint = fmt.Sprintf("mark %s WorldPersistent, or %s", c.rootOf(tr, int32(j)), soft)
		} else {
			f.Code = CodeCrossCellRef
			f.Message = fmt.Sprintf("%s %s in cell %s references %s in another cell, %s", from, field, f.FromCell, c.who(int32(j)), f.ToCell)
			f.Hint = fmt.Sprintf("move %s under %s so both share a cell, mark both roots %s and %s WorldPersistent, or %s", c.who(int32(j)), c.rootOf(fr, r.From), c.who(fr), c.who(tr), soft)
		}
		c.add(r.From, f)
	}
	if len(prefs) > 0 {
		sort.Slice(prefs, func(a, b int) bool { return prefs[a] < prefs[b] })
		out := prefs[:1]
		for _, id := range prefs[1:] {
			if id != out[len(out)-1] {
				out = append(out, id)
			}
		}
		c.plan.PersistentRefs = out
	}
	if c.plan.Streamed && c.plan.PersistentRefs == nil {
		c.plan.PersistentRefs = []int64{}
	}
}

// rootOf names root r of entity i for hints, saying whose root it is when
// i is not a top-level entity itself.
func (c *checker) rootOf(r, i int32) string {
	if r == i {
		return c.who(i)
	}
	return c.who(r) + " (the root of " + c.who(i) + ")"
}

func (c *checker) cellLabel(ci int32) string {
	if ci < 0 {
		return "persistent"
	}
	return c.plan.Cells[ci].Name
}

func (c *checker) arrow(from, to int32) *Arrow {
	p, ok1 := c.posOf(from)
	q, ok2 := c.posOf(to)
	if !ok1 || !ok2 {
		return nil
	}
	a := &Arrow{}
	a.FromX, a.FromZ = c.pl.UV(p)
	a.ToX, a.ToZ = c.pl.UV(q)
	if !geometry.Finite(a.FromX) || !geometry.Finite(a.FromZ) || !geometry.Finite(a.ToX) || !geometry.Finite(a.ToZ) {
		return nil
	}
	return a
}

// mark locates a dangling reference at the entity that holds it.
func (c *checker) mark(from int32) *Arrow {
	p, ok := c.posOf(from)
	if !ok {
		return nil
	}
	a := &Arrow{Dangling: true}
	a.FromX, a.FromZ = c.pl.UV(p)
	a.ToX, a.ToZ = a.FromX, a.FromZ
	if !geometry.Finite(a.FromX) || !geometry.Finite(a.FromZ) {
		return nil
	}
	return a
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeCrossCellRef        = "cross-cell-ref"
	CodePersistentToCellRef = "persistent-to-cell-ref"
	CodeDanglingRef         = "dangling-ref"
)

var ruleCrossCellRef = rule{
	Rule: Rule{ID: CodeCrossCellRef, Level: SeverityError,
		Short: "Entity reference crosses from one cell to another",
		Full:  "A declared entity-reference field of an entity in one cell names an entity in another cell. Residency loads and unloads cells independently, so the target may not exist when the reference is used.",
		Help:  "Move the target under the referencing entity's root (a subtree never leaves its cell), mark both roots WorldPersistent, or declare the field soft in worldcook.yaml if the game resolves the reference itself."},
	phase: phaseReferences,
}

var rulePersistentToCellRef = rule{
	Rule: Rule{ID: CodePersistentToCellRef, Level: SeverityError,
		Short: "Persistent entity references an entity inside a cell",
		Full:  "An entity of the persistent world holds a hard reference to an entity that lives in a cell. The persistent world outlives every cell, so the reference dangles whenever that cell is unloaded.",
		Help:  "Mark the target's root WorldPersistent, or declare the field soft in worldcook.yaml if the game tolerates the target being absent."},
	phase: phaseReferences,
}

var ruleDanglingRef = rule{
	Rule: Rule{ID: CodeDanglingRef, Level: SeverityWarning,
		Short: "Entity reference names no entity of the scene",
		Full:  "A declared entity-reference field holds an id that no entity of the scene has. The loader logs it and replaces it with 0 (no entity). 0, negative values, null and strings mean no entity and are not reported.",
		Help:  "Set the field to 0 for no entity, or to the id of an existing entity."},
	phase: phaseReferences,
}

// posOf is the world position of entity i that placement kept, for an
// entity that wants one.
func (c *checker) posOf(i int32) (scene.Vec3, bool) {
	if c.pl == nil {
		return scene.Vec3{}, false
	}
	return c.pl.Pos(i)
}
