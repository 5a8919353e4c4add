package place

import (
	"math"

	"github.com/worldcook/worldcook/grid"
)

// Levels: a root too large for the level-0 grid goes to a coarser level's
// cell, so it no longer grows its level-0 cell's bounds over its whole
// size (docs/format.md, "Levels").
//
// Placement puts every root in its level-0 cell first and, when levels
// are asked for, grows each cell root's footprint: the box its subtree's
// contributions to the bounds cover, with the entity reaching farthest on
// each side. It keeps only the footprints promote may need (see
// keepFootprint). promote then clusters the roots that hard references
// bind, moves each cluster holding a large root to the level its union
// footprint needs, and rebuilds the bounds of every cell that lost or
// gained a root from the footprints alone: the bounds and the overhang a
// cell would have had, had its roots been placed there first.

// footprint is one cell root's extent on the partition plane.
type footprint struct {
	root int32     // entity index of the root
	ci   int32     // its cell: the placer's index, then the merged one
	box  grid.Rect // empty (+Inf..-Inf) until a finite point is added
	// side[k] is the entity (and 1 + its template entity inside an
	// instance) reaching farthest on side k: min X, max X, min Z, max Z;
	// ties go to the lowest entity index, then template entity.
	side [4][2]int32
}

func newFootprint(root, ci int32) footprint {
	inf := math.Inf(1)
	return footprint{root: root, ci: ci, box: grid.Rect{MinX: inf, MinZ: inf, MaxX: -inf, MaxZ: -inf}}
}

// grow adds the finite range [u0, u1] × [v0, v1] of entity i (sub inside
// an instance) to the footprint.
func (f *footprint) grow(i, sub int32, u0, u1, v0, v1 float64) {
	b := &f.box
	f.take(0, i, sub, u0 < b.MinX, u0 == b.MinX)
	b.MinX = min(b.MinX, u0)
	f.take(1, i, sub, u1 > b.MaxX, u1 == b.MaxX)
	b.MaxX = max(b.MaxX, u1)
	f.take(2, i, sub, v0 < b.MinZ, v0 == b.MinZ)
	b.MinZ = min(b.MinZ, v0)
	f.take(3, i, sub, v1 > b.MaxZ, v1 == b.MaxZ)
	b.MaxZ = max(b.MaxZ, v1)
}

func (f *footprint) take(k int, i, sub int32, beyond, tie bool) {
	s := &f.side[k]
	if beyond || tie && (i < s[0] || i == s[0] && sub < s[1]) {
		s[0], s[1] = i, sub
	}
}

func (f *footprint) empty() bool { return !(f.box.MinX <= f.box.MaxX) }

// side is the larger side of a footprint; 0 when it is empty.
func (f *footprint) size() float64 {
	if f.empty() {
		return 0
	}
	return max(f.box.MaxX-f.box.MinX, f.box.MaxZ-f.box.MinZ)
}

// cover grows cell a over footprint f as addRange would have over each
// of its points, overhang included.
func (a *cellAcc) cover(f *footprint) {
	if f.empty() {
		return
	}
	a.bounds = a.bounds.Union(f.box)
	g := &a.grid
	outs := [4]float64{g.MinX - f.box.MinX, f.box.MaxX - g.MaxX, g.MinZ - f.box.MinZ, f.box.MaxZ - g.MaxZ}
	for k, out := range outs {
		i, sub := f.side[k][0], f.side[k][1]
		if out > a.by || (out == a.by && out > 0 && (i < a.over || i == a.over && sub < a.sub)) {
			a.by, a.over, a.sub = out, i, sub
		}
	}
}

// boundRoots marks the roots that a hard reference ties to another root,
// by promote's test: a cluster holding a large root may carry them along,
// so their footprints are kept whatever their size.
func (pl *Placement) boundRoots() []bool {
	bound := make([]bool, len(pl.flags))
	pl.ties(func(a, b int32) { bound[a], bound[b] = true, true })
	return bound
}

// ties calls tie with the roots of both ends of every hard reference that
// resolves, where they are two roots: what clusters roots for promotion.
func (pl *Placement) ties(tie func(a, b int32)) {
	for k := range pl.w.Refs() {
		r := &pl.w.Refs()[k]
		if r.Bad != nil {
			continue
		}
		j, ok := pl.d.Lookup(r.Target)
		if !ok {
			continue
		}
		if a, b := pl.root[r.From], pl.root[j]; a != b {
			tie(a, b)
		}
	}
}

// KeepEveryFootprint makes placement keep every root's footprint (a
// variable so tests can prove that the ones dropped change nothing).
var KeepEveryFootprint = false

// keepFootprint ends the footprint being grown. It is kept for promote
// when its root may move: when it is larger than a cell, or bound to
// another root. Any other root stays where it is whatever promote does,
// so its footprint is only covered by its cell's stay accumulator, from
// which promote rebuilds the cell if it loses or gains a root; most
// roots are such.
func (w *placer) keepFootprint() {
	if w.cur < 0 {
		return
	}
	f := &w.fps[w.cur]
	w.cur = -1
	if KeepEveryFootprint || w.bound[f.root] || f.size() > w.pl.opts.CellSize {
		return
	}
	w.stayAcc(f.ci).cover(f)
	w.fps = w.fps[:len(w.fps)-1]
}

// stayAcc is the placer's stay accumulator of its cell ci, made when
// first asked for: the cell's grid square, covering nothing yet.
func (w *placer) stayAcc(ci int32) *cellAcc {
	for int(ci) >= len(w.stay) {
		a := &w.cells[len(w.stay)]
		w.stay = append(w.stay, cellAcc{key: a.key, grid: a.grid, bounds: a.grid, over: -1})
	}
	return &w.stay[ci]
}

// Promotion is one root moved to a coarser level.
type Promotion struct {
	Entity int64  `json:"entity"`
	Name   string `json:"name"`
	// Footprint is the root's own extent on the partition plane; Level
	// is its cluster's, and Cell the level's cell it went to.
	Footprint grid.Rect `json:"footprint"`
	Level     int32     `json:"level"`
	Cell      string    `json:"cell"`
	// With is the id of the large root whose cluster drew this one up,
	// absent for a root large enough itself.
	With *int64 `json:"with,omitempty"`
}

// levelFor is the level a footprint whose larger side is s needs: the
// smallest L with cellSize·2^L ≥ s, that is ceil(log2(s / cellSize)),
// at most maxLevel.
func levelFor(s, cellSize float64, maxLevel int32) int32 {
	l := int32(0)
	for l < maxLevel && grid.LevelSize(cellSize, l) < s {
		l++
	}
	return l
}

// promote moves the clusters holding a large root to their levels. fps
// are the footprints of the cell roots that may move (see keepFootprint)
// in authored order, with merged cell indices; stay[ci] is cell ci grown
// over all its other roots.
func (pl *Placement) promote(fps []footprint, stay []cellAcc) {
	cs := pl.opts.CellSize
	maxLevel := int32(min(pl.opts.Levels, grid.MaxLevel))
	large := false
	for k := range fps {
		if fps[k].size() > cs {
			large = true
			break
		}
	}
	if !large {
		return
	}
	// Cluster the roots that hard references bind: a reference between
	// two cell roots, whichever cells, keeps them together.
	at := make([]int32, len(pl.flags)) // root entity → 1 + its footprint
	for k := range fps {
		at[fps[k].root] = int32(k + 1)
	}
	parent := make([]int32, len(fps))
	for k := range parent {
		parent[k] = int32(k)
	}
	find := func(k int32) int32 {
		for parent[k] != k {
			parent[k] = parent[parent[k]]
			k = parent[k]
		}
		return k
	}
	pl.ties(func(ra, rb int32) {
		a, b := at[ra], at[rb]
		if a == 0 || b == 0 || a == b {
			return
		}
		fa, fb := find(a-1), find(b-1)
		// The lower index stays the representative: the cluster's first
		// root in authored order.
		if fa < fb {
			parent[fb] = fa
		} else if fb < fa {
			parent[fa] = fb
		}
	})
	// Each cluster's union footprint and first large root, kept at its
	// representative's index (the cluster's first root): slices, not a
	// map, since most roots are clusters of their own.
	type cluster struct {
		box   grid.Rect
		first int32 // its first large root's footprint, -1 for none
		key   grid.Key
		ci    int32 // the level cell, -1 when the cluster stays
	}
	cls := make([]cluster, len(fps))
	for k := range fps {
		f := &fps[k]
		r := find(int32(k))
		x := &cls[r]
		if r == int32(k) {
			*x = cluster{box: f.box, first: -1, ci: -1}
		} else if !f.empty() {
			x.box = x.box.Union(f.box)
		}
		if x.first < 0 && f.size() > cs {
			x.first = int32(k)
		}
	}
	key := make(map[grid.Key]int32, len(pl.cells))
	for k := range pl.cells {
		key[pl.cells[k].key] = int32(k)
	}
	affected := make([]bool, len(pl.cells))
	moved := false
	for k := range fps {
		x := &cls[find(int32(k))]
		if x.first < 0 {
			continue
		}
		if x.ci < 0 {
			u := x.box.MinX/2 + x.box.MaxX/2
			v := x.box.MinZ/2 + x.box.MaxZ/2
			lk, sq, ok := grid.LocateLevel(u, v, cs, levelFor(max(x.box.MaxX-x.box.MinX, x.box.MaxZ-x.box.MinZ), cs, maxLevel))
			if !ok {
				x.first = -1 // no level cell holds it: it stays at level 0
				continue
			}
			g, found := key[lk]
			if !found {
				g = int32(len(pl.cells))
				key[lk] = g
				pl.cells = append(pl.cells, cellAcc{key: lk, grid: sq, bounds: sq, over: -1})
				affected = append(affected, true)
			}
			x.key, x.ci = lk, g
		}
		f := &fps[k]
		affected[f.ci] = true
		pl.cells[f.ci].roots--
		pl.cells[x.ci].roots++
		f.ci = x.ci
		affected[x.ci] = true
		moved = true
		p := Promotion{Entity: pl.d.Entities[f.root].ID, Name: pl.d.Entities[f.root].Name, Footprint: f.box,
			Level: x.key.Level, Cell: grid.Name(pl.opts.SceneName, x.key)}
		if first := fps[x.first].root; first != f.root {
			id := pl.d.Entities[first].ID
			p.With = &id
		}
		pl.Promotions = append(pl.Promotions, p)
	}
	if !moved {
		return
	}
	// Rebuild the cells that lost or gained a root from the roots that
	// cannot move and the footprints of those that may, and drop the
	// cells left empty.
	for k, a := range affected {
		if !a {
			continue
		}
		x := &pl.cells[k]
		if k < len(stay) {
			*x = cellAcc{key: x.key, grid: x.grid, bounds: stay[k].bounds, by: stay[k].by, over: stay[k].over, sub: stay[k].sub, roots: x.roots}
		} else {
			*x = cellAcc{key: x.key, grid: x.grid, bounds: x.grid, over: -1, roots: x.roots} // a new level cell
		}
	}
	for k := range fps {
		if f := &fps[k]; affected[f.ci] {
			pl.cells[f.ci].cover(f)
		}
	}
	for i, ci := range pl.doc {
		if ci < 0 {
			continue
		}
		if f := at[pl.root[i]]; f > 0 {
			ci = fps[f-1].ci
			pl.doc[i] = ci
		}
		if affected[ci] {
			a := &pl.cells[ci]
			a.maxID = max(a.maxID, pl.d.Entities[i].ID)
		}
	}
	remap := make([]int32, len(pl.cells))
	kept := pl.cells[:0]
	for k := range pl.cells {
		if pl.cells[k].roots == 0 {
			remap[k] = -1
			continue
		}
		remap[k] = int32(len(kept))
		kept = append(kept, pl.cells[k])
	}
	pl.cells = kept
	for i, ci := range pl.doc {
		if ci >= 0 {
			pl.doc[i] = remap[ci]
		}
	}
}
