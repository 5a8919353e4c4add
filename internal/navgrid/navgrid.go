// Package navgrid finds a walker's path over a grid of walkable cells the
// way the engine's navigation does: 8-connected A* over a binary heap with
// the octile heuristic, diagonal steps only where both orthogonal cells
// beside them are open (no corner cutting), and an endpoint on a blocked
// cell snapped to the nearest walkable one within 8 rings. The same heap,
// the same neighbour order and the same arithmetic make the same path
// where several are equally short, not just one as short.
package navgrid

import "math"

// MaxCells bounds a grid: a tilemap's painted area and the points a route
// joins decide its size, and the search holds a few numbers per cell.
const MaxCells = 1 << 24

// Cell is a grid coordinate: X across, Y up (cell 0,0 is bottom-left).
type Cell struct{ X, Y int }

// Grid is a walkability mask, row-major, 1 for walkable.
type Grid struct {
	Width, Height int
	Walkable      []uint8
}

// New returns a grid of w×h cells, all walkable.
func New(w, h int) *Grid {
	g := &Grid{Width: w, Height: h, Walkable: make([]uint8, w*h)}
	for i := range g.Walkable {
		g.Walkable[i] = 1
	}
	return g
}

// InBounds reports whether (x, y) is on the grid.
func (g *Grid) InBounds(x, y int) bool { return x >= 0 && y >= 0 && x < g.Width && y < g.Height }

// IsWalkable reports whether (x, y) is on the grid and walkable.
func (g *Grid) IsWalkable(x, y int) bool { return g.InBounds(x, y) && g.Walkable[y*g.Width+x] == 1 }

// Snap is how many rings around a blocked endpoint are searched for a
// walkable cell, the engine's default.
const Snap = 8

// NearestWalkable is the first walkable cell of the rings around (x, y),
// out to radius, each ring scanned row by row from its bottom, or false.
func (g *Grid) NearestWalkable(x, y, radius int) (Cell, bool) {
	if g.IsWalkable(x, y) {
		return Cell{x, y}, true
	}
	for r := 1; r <= radius; r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if max(abs(dx), abs(dy)) != r {
					continue
				}
				if g.IsWalkable(x+dx, y+dy) {
					return Cell{x + dx, y + dy}, true
				}
			}
		}
	}
	return Cell{}, false
}

var ortho = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var diag = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// FindPath is the path from start to goal, both included, or nil when goal
// cannot be reached (or an endpoint is blocked with nothing walkable
// within Snap rings). A start equal to the goal is a path of one cell.
func (g *Grid) FindPath(start, goal Cell) []Cell {
	s, ok := g.NearestWalkable(start.X, start.Y, Snap)
	if !ok {
		return nil
	}
	e, ok := g.NearestWalkable(goal.X, goal.Y, Snap)
	if !ok {
		return nil
	}
	w := g.Width
	n := w * g.Height
	si, gi := s.Y*w+s.X, e.Y*w+e.X
	if si == gi {
		return []Cell{s}
	}
	score := make([]float64, n)
	for i := range score {
		score[i] = math.Inf(1)
	}
	from := make([]int32, n)
	for i := range from {
		from[i] = -1
	}
	closed := make([]bool, n)
	score[si] = 0
	h := newHeap(n)
	h.push(int32(si), octile(s.X, s.Y, e.X, e.Y))
	for h.size > 0 {
		cur := int(h.pop())
		if cur == gi {
			return reconstruct(from, cur, w)
		}
		if closed[cur] {
			continue
		}
		closed[cur] = true
		cx, cy := cur%w, cur/w
		base := score[cur]
		for i := 0; i < 8; i++ {
			var d [2]int
			if i < 4 {
				d = ortho[i]
			} else {
				d = diag[i-4]
			}
			nx, ny := cx+d[0], cy+d[1]
			if !g.IsWalkable(nx, ny) {
				continue
			}
			if i >= 4 && (!g.IsWalkable(cx+d[0], cy) || !g.IsWalkable(cx, cy+d[1])) {
				continue
			}
			ni := ny*w + nx
			if closed[ni] {
				continue
			}
			step := 1.0
			if i >= 4 {
				step = sqrt2
			}
			t := base + step
			if t < score[ni] {
				score[ni] = t
				from[ni] = int32(cur)
				h.push(int32(ni), t+octile(nx, ny, e.X, e.Y))
			}
		}
	}
	return nil
}

// sqrt2 is √2 as a float64 variable: the constant math.Sqrt2-2 would be
// worked out exactly before rounding, and the engine's SQRT2 - 2 rounds
// √2 first, which gives another last bit and other ties.
var sqrt2 float64 = math.Sqrt2

// octile is the engine's 8-connected heuristic, in its order of operations.
func octile(ax, ay, bx, by int) float64 {
	dx, dy := float64(abs(ax-bx)), float64(abs(ay-by))
	return (dx + dy) + float64((sqrt2-2)*math.Min(dx, dy))
}

func reconstruct(from []int32, goal, w int) []Cell {
	var path []Cell
	for node := goal; node != -1; node = int(from[node]) {
		path = append(path, Cell{node % w, node / w})
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// heap is the engine's binary min-heap of cell indices keyed by f-score,
// with lazy deletion: a cell may be in it more than once. Its sift order
// decides which of equal keys comes out first, so it is kept as written.
type heap struct {
	nodes []int32
	keys  []float64
	size  int
}

func newHeap(capacity int) *heap {
	c := max(16, capacity)
	return &heap{nodes: make([]int32, c), keys: make([]float64, c)}
}

func (h *heap) push(node int32, key float64) {
	if h.size == len(h.nodes) {
		h.nodes = append(h.nodes, make([]int32, len(h.nodes))...)
		h.keys = append(h.keys, make([]float64, len(h.keys))...)
	}
	i := h.size
	h.size++
	h.nodes[i], h.keys[i] = node, key
	for i > 0 {
		p := (i - 1) >> 1
		if h.keys[p] <= h.keys[i] {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *heap) pop() int32 {
	top := h.nodes[0]
	h.size--
	last := h.size
	h.nodes[0], h.keys[0] = h.nodes[last], h.keys[last]
	i := 0
	for {
		l := 2*i + 1
		r := l + 1
		small := i
		if l < h.size && h.keys[l] < h.keys[small] {
			small = l
		}
		if r < h.size && h.keys[r] < h.keys[small] {
			small = r
		}
		if small == i {
			break
		}
		h.swap(i, small)
		i = small
	}
	return top
}

func (h *heap) swap(a, b int) {
	h.nodes[a], h.nodes[b] = h.nodes[b], h.nodes[a]
	h.keys[a], h.keys[b] = h.keys[b], h.keys[a]
}

// Round is JavaScript's Math.round: halves go up (towards +∞), as the
// engine's world-to-cell mapping rounds.
func Round(v float64) float64 {
	f := math.Floor(v)
	if v-f >= 0.5 {
		return f + 1
	}
	return f
}
