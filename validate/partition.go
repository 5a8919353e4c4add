package validate

import (
	"fmt"
	"math"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/scene"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/place"
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
	sw, _ := c.worldEntity()
	for _, w := range c.w.Worlds()[min(1, len(c.w.Worlds())):] {
		c.add(w, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeMultipleStreamedWorld,
			Message: fmt.Sprintf("%s carries a second StreamedWorld; the first, on %s, decides the cell size", c.who(w), c.who(sw)),
			Subject: diag.Subject{
				Field: "StreamedWorld",
			},
			Hint: fmt.Sprintf("remove StreamedWorld from %s", c.who(w)),
		}})
	}
	cellSize, cellsOK := c.readCellSize(sw)
	c.cellSize = cellSize
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

	pl, err := c.place(place.Options{SceneName: c.opts.SceneName, CellSize: cellSize, CellsOK: cellsOK, XY: c.xy, Levels: c.opts.Levels})
	if err != nil {
		return err
	}
	c.pl = pl
	c.placeFindings()
	c.buildCells()
	return nil
}

// placeFindings reports what placement could not place as it is.
func (c *checker) placeFindings() {
	for _, f := range c.pl.Faults {
		i := f.I
		switch f.Kind {
		case place.Unplaced:
			in := c.w.Instance(i)
			c.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeUnplaceablePrefab,
				Message: fmt.Sprintf("prefab instance %s of %s cannot be placed: %s", c.who(i), prefabRef(c.d, i), in.Why),
				Subject: diag.Subject{
					Field: "prefab",
				},
				Hint: in.Fix,
			}})
		case place.OutOfRange:
			c.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeBadCellSize,
				Message: fmt.Sprintf("%s at %s lies beyond the cell index range of a 32-bit integer for cellSize %s; it stays in the persistent world", c.who(i), c.planeText(f.U, f.V), fmtNum(c.cellSize)),
				Subject: diag.Subject{
					Field: "Transform.position",
				},
				Hint: "move the entity nearer the origin or increase StreamedWorld.cellSize",
			}})
		case place.NonFinite:
			c.add(i, Finding{Diagnostic: diag.Diagnostic{
				Code:    CodeBadCellSize,
				Message: c.who(i) + " has a world position or extent that is not a finite number (its transforms overflow); it is left out of the cell bounds",
				Subject: diag.Subject{
					Field: "Transform",
				},
				Hint: "bring the Transform position and scale of " + c.who(i) + " and its ancestors into a sensible range",
			}})
		}
	}
}

func (c *checker) planeText(u, v float64) string {
	if c.xy {
		return "x=" + fmtNum(u) + ", y=" + fmtNum(v)
	}
	return "x=" + fmtNum(u) + ", z=" + fmtNum(v)
}

// prefabRef is the asset reference of prefab-instance entry i.
func prefabRef(d *scene.Document, i int32) string {
	ref, _ := d.Prefab(int(i))
	return ref
}

// readCellSize reads StreamedWorld.cellSize of entity sw.
func (c *checker) readCellSize(sw int32) (float64, bool) {
	if c.opts.CellSize > 0 {
		// A model's cell size is the one its StreamedWorld would say,
		// which the engine keeps in a 32-bit float (below).
		return c.opts.CellSize, c.model == nil || c.opts.CellSize <= math.MaxFloat32
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

// buildCells gives the plan the placement's cells, persistent world and
// promotions.
func (c *checker) buildCells() {
	pl := c.pl
	c.plan.Persistent = pl.Persistent
	c.plan.Promotions = pl.Promotions
	c.plan.Cells = make([]Cell, len(pl.Cells))
	for k := range pl.Cells {
		a := &pl.Cells[k]
		cell := Cell{Level: a.Key.Level, X: a.Key.X, Z: a.Key.Z, Name: a.Name, File: a.File, Entities: a.Entities, Roots: a.Roots, Grid: a.Grid, Bounds: a.Bounds, maxID: a.MaxID}
		if a.Over >= 0 {
			e := &c.d.Entities[a.Over]
			cell.Overhang = Overhang{Entity: e.ID, Name: e.Name, By: a.By}
			if a.Sub > 0 {
				cell.Overhang.Name = c.w.Path(world.Ent{I: a.Over, Sub: a.Sub})
			}
		}
		c.plan.Cells[k] = cell
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
