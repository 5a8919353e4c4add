package place

import (
	"sort"

	"github.com/worldcook/worldcook/grid"
)

// buildCells sorts the cells by level, then x, then z, lists their
// entities in authored order and renumbers pl.doc accordingly.
func (pl *Placement) buildCells() {
	nc := len(pl.cells)
	perm := make([]int32, nc)
	for k := range perm {
		perm[k] = int32(k)
	}
	sort.Slice(perm, func(a, b int) bool {
		return pl.cells[perm[a]].key.Compare(pl.cells[perm[b]].key) < 0
	})
	rank := make([]int32, nc)
	for r, k := range perm {
		rank[k] = int32(r)
	}
	persistent := 0
	for i, ci := range pl.doc {
		if ci < 0 {
			persistent++
			continue
		}
		ci = rank[ci]
		pl.doc[i] = ci
		pl.cells[perm[ci]].count++
	}
	// One backing array for every cell's entity list.
	all := make([]int32, len(pl.doc)-persistent)
	pl.Persistent = make([]int32, 0, persistent)
	pl.Cells = make([]Cell, nc)
	off := 0
	for r, k := range perm {
		a := &pl.cells[k]
		name := grid.Name(pl.opts.SceneName, a.key)
		cell := Cell{Key: a.key, Name: name, File: grid.File(name), Entities: all[off : off : off+a.count], Roots: a.roots, Grid: a.grid, Bounds: a.bounds, Over: -1, MaxID: a.maxID}
		if a.over >= 0 && a.by > 0 {
			cell.Over, cell.Sub, cell.By = a.over, a.sub, a.by
		}
		pl.Cells[r] = cell
		off += a.count
	}
	for i, ci := range pl.doc {
		if ci < 0 {
			pl.Persistent = append(pl.Persistent, int32(i))
		} else {
			cl := &pl.Cells[ci]
			cl.Entities = append(cl.Entities, int32(i))
		}
	}
}
