package validate

import (
	"fmt"
	"math"
	"sort"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/grid"
	"github.com/worldcook/worldcook/internal/scene"
)

// Partition: where each top-level entity goes, prefab instances
// expanded, and the cells' grown bounds (multiple-streamed-world,
// bad-cell-size, persistent-not-root).

// partition places every top-level entity of a streamed world and grows the
// cells' bounds. It is one pass over the topological order: a world matrix
// is the parent's times the local one, kept only for entities with children.
func (c *checker) partition() error {
	d := c.d
	c.plan.Streamed = true
	sw := c.w.Worlds()[0]
	for _, w := range c.w.Worlds()[1:] {
		c.add(w, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeMultipleStreamedWorld,
			Message: fmt.Sprintf("%s carries a second StreamedWorld; the first, on %s, decides the cell size", c.who(w), c.who(sw)),
			Subject: diag.Subject{
				Field: "StreamedWorld",
			},
			Hint: fmt.Sprintf("remove StreamedWorld from %s", c.who(w)),
		}})
	}
	c.cellSize, c.cellsOK = c.readCellSize(sw)
	c.plan.CellSize = c.cellSize
	c.w.Extents() // before the placers share it
	for i := range d.Entities {
		if c.flags[i]&(fPersistent|fStreamedWorld) != 0 && c.parent[i] >= 0 {
			c.persistentNotRoot(int32(i))
		}
	}
	if err := c.expand(); err != nil {
		return err
	}

	if err := c.place(); err != nil {
		return err
	}
	c.buildCells()
	return nil
}

// readCellSize reads StreamedWorld.cellSize of entity sw.
func (c *checker) readCellSize(sw int32) (float64, bool) {
	if c.opts.CellSize > 0 {
		return c.opts.CellSize, true
	}
	data, _ := c.d.Component(int(sw), "StreamedWorld")
	v, ok := scene.Field(data, "cellSize")
	if !ok || scene.KindOf(v) == scene.Null {
		return DefaultCellSize, true
	}
	var msg string
	f, err := scene.Float(v)
	switch {
	case err != nil:
		msg = "StreamedWorld.cellSize " + err.Error()
	case !(f > 0):
		msg = "StreamedWorld.cellSize is " + string(v) + "; it must be a positive number"
	case f > math.MaxFloat32:
		// The engine keeps positions in 32-bit floats: a cell wider than
		// their whole range is one cell for any world, and its bounds
		// overflow the moment they are measured.
		msg = "StreamedWorld.cellSize is " + string(v) + ", beyond the 32-bit float range the engine stores positions in"
	default:
		return f, true
	}
	c.add(sw, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeBadCellSize,
		Message: msg + "; every entity stays in the persistent world until it is fixed",
		Subject: diag.Subject{
			Field: "StreamedWorld.cellSize",
		},
		Hint: "set cellSize to a positive number of world units (the engine default is 1000)",
	}})
	return 0, false
}

func (c *checker) persistentNotRoot(i int32) {
	comp := "WorldPersistent"
	if c.flags[i]&fPersistent == 0 {
		comp = "StreamedWorld"
	}
	r := c.root[i]
	c.add(i, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodePersistentNotRoot,
		Message: fmt.Sprintf("%s carries %s but is not a top-level entity (its root is %s); only top-level entities are placed", c.who(i), comp, c.who(r)),
		Subject: diag.Subject{
			Field: comp,
		},
		Hint: fmt.Sprintf("move %s to the root %s, or make %s a top-level entity", comp, c.who(r), c.who(i)),
	}})
}

// expand has the model expand every prefab instance as the engine will,
// and reports what the expansions found. The error is for an overrides
// list that is not a list.
func (c *checker) expand() error {
	insts := c.w.Instances()
	if len(insts) == 0 {
		return nil
	}
	defer func() { c.plan.PrefabFiles = c.w.Prefabs().Files() }()
	if err := c.w.Expand(); err != nil {
		return err
	}
	for k, i := range insts {
		in := c.w.Inst(k)
		c.instanceFindings(i, in)
		if (in.Persistent || in.Streamed) && c.parent[i] >= 0 {
			c.persistentNotRoot(i)
		}
	}
	return nil
}

// buildCells sorts the cells by level, then x, then z, lists their entities in authored
// order and renumbers c.doc accordingly.
func (c *checker) buildCells() {
	nc := len(c.cells)
	perm := make([]int32, nc)
	for k := range perm {
		perm[k] = int32(k)
	}
	sort.Slice(perm, func(a, b int) bool {
		return c.cells[perm[a]].key.Compare(c.cells[perm[b]].key) < 0
	})
	rank := make([]int32, nc)
	for r, k := range perm {
		rank[k] = int32(r)
	}
	persistent := 0
	for i, ci := range c.doc {
		if ci < 0 {
			persistent++
			continue
		}
		ci = rank[ci]
		c.doc[i] = ci
		c.cells[perm[ci]].count++
	}
	// One backing array for every cell's entity list.
	all := make([]int32, len(c.doc)-persistent)
	c.plan.Persistent = make([]int32, 0, persistent)
	c.plan.Cells = make([]Cell, nc)
	off := 0
	for r, k := range perm {
		a := &c.cells[k]
		name := grid.Name(c.opts.SceneName, a.key)
		cell := Cell{Level: a.key.Level, X: a.key.X, Z: a.key.Z, Name: name, File: grid.File(name), Entities: all[off : off : off+a.count], Roots: a.roots, Grid: a.grid, Bounds: a.bounds, maxID: a.maxID}
		if a.over >= 0 && a.by > 0 {
			cell.Overhang = Overhang{Entity: c.d.Entities[a.over].ID, Name: c.d.Entities[a.over].Name, By: a.by}
			if a.sub > 0 {
				t := c.w.Instance(a.over).Tpl
				cell.Overhang.Name = c.w.InstancePath(a.over) + "/" + t.Paths[a.sub-1]
			}
		}
		c.plan.Cells[r] = cell
		off += a.count
	}
	for i, ci := range c.doc {
		if ci < 0 {
			c.plan.Persistent = append(c.plan.Persistent, int32(i))
		} else {
			cl := &c.plan.Cells[ci]
			cl.Entities = append(cl.Entities, int32(i))
		}
	}
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodePersistentNotRoot     = "persistent-not-root"
	CodeMultipleStreamedWorld = "multiple-streamed-world"
	CodeBadCellSize           = "bad-cell-size"
)

var rulePersistentNotRoot = rule{
	Rule: Rule{ID: CodePersistentNotRoot, Level: SeverityError,
		Short: "WorldPersistent or StreamedWorld below the top level",
		Full:  "Only top-level entities are placed; a WorldPersistent or StreamedWorld component on a child has no effect on where its subtree goes.",
		Help:  "Move the component to the subtree's top-level entity, or make the entity a top-level entity."},
	phase: phasePartition,
}

var ruleMultipleStreamedWorld = rule{
	Rule: Rule{ID: CodeMultipleStreamedWorld, Level: SeverityError,
		Short: "More than one StreamedWorld",
		Full:  "A scene declares its streamed world once; the first StreamedWorld in authored order decides the cell size and the others are ignored.",
		Help:  "Keep one StreamedWorld component and remove the others."},
	phase: phasePartition,
}

var ruleBadCellSize = rule{
	Rule: Rule{ID: CodeBadCellSize, Level: SeverityError,
		Short: "Cell size or cell index out of range",
		Full:  "StreamedWorld.cellSize must be a positive finite number, and every placed position must fall in a cell whose index fits a 32-bit integer.",
		Help:  "Set StreamedWorld.cellSize to a positive number of world units (1000 is the engine default), or bring far-away entities nearer the origin."},
	phase: phasePartition,
}
