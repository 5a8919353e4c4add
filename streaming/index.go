package streaming

import (
	"math"

	"github.com/worldcook/worldcook/grid"
)

// gridIndex is a uniform grid over cell bounds, one bucket per grid square.
// A cell is filed in every bucket its grown bounds touch, so a query only
// looks at the buckets a source's radius reaches, whatever the size of the
// world.
//
// Dense worlds (the usual case) keep the buckets in one compressed array,
// which keeps neighbouring buckets close in memory; a sparse world (a few
// islands far apart) falls back to a map so that empty ocean costs nothing.
type gridIndex struct {
	size float64
	// Bucket range covered by any cell.
	minBX, minBZ, maxBX, maxBZ int64
	// Dense storage: the cells of bucket b are items[start[b]:start[b+1]],
	// with b = (bx-minBX)*nz + (bz-minBZ).
	nz    int64
	start []int32
	items []int32
	// Sparse storage, used when dense would be mostly empty.
	sparse map[[2]int64][]int32
	// wide holds cells whose bounds touch more than maxSpan buckets: they
	// are checked by every query rather than filed everywhere.
	wide []int32
}

// maxSpan is the most buckets one cell is filed in before it is treated as
// wide. Ordinary overhangs touch 1 to 9.
const maxSpan = 64

// bucketOf returns the bucket coordinate of v, clamped so that huge or
// infinite query ranges stay representable.
func (g *gridIndex) bucketOf(v float64) int64 {
	b := grid.Index(v, g.size)
	const lim = 1 << 40
	switch {
	case b < -lim || math.IsNaN(b):
		return -lim
	case b > lim:
		return lim
	}
	return int64(b)
}

// tooWide reports whether a bucket rectangle spans more than maxSpan
// buckets. Each side is checked first: bucket coordinates are clamped to
// ±2^40, so a side fits an int64 but the product of two need not (a
// collider 2^32 buckets wide wraps the product to 0, which would file the
// cell in 2^64 buckets).
func tooWide(bx0, bz0, bx1, bz1 int64) bool {
	w, h := bx1-bx0+1, bz1-bz0+1
	return w > maxSpan || h > maxSpan || w*h > maxSpan
}

// span returns the bucket rectangle a cell is filed under.
func (g *gridIndex) span(r *geom) (bx0, bz0, bx1, bz1 int64) {
	return g.bucketOf(r.minX), g.bucketOf(r.minZ), g.bucketOf(r.maxX), g.bucketOf(r.maxZ)
}

func newGridIndex(cells []geom, size float64) *gridIndex {
	g := &gridIndex{size: size}
	g.minBX, g.minBZ = math.MaxInt64, math.MaxInt64
	g.maxBX, g.maxBZ = math.MinInt64, math.MinInt64
	filed := 0
	for i := range cells {
		bx0, bz0, bx1, bz1 := g.span(&cells[i])
		if tooWide(bx0, bz0, bx1, bz1) {
			g.wide = append(g.wide, int32(i))
			continue
		}
		filed++
		g.minBX, g.minBZ = min(g.minBX, bx0), min(g.minBZ, bz0)
		g.maxBX, g.maxBZ = max(g.maxBX, bx1), max(g.maxBZ, bz1)
	}
	if filed == 0 {
		g.minBX, g.minBZ, g.maxBX, g.maxBZ = 0, 0, -1, -1
		return g
	}
	nx, nz := g.maxBX-g.minBX+1, g.maxBZ-g.minBZ+1
	// Dense when the bucket array is at most a few times the cell count.
	if nx <= math.MaxInt32/nz && nx*nz <= 4*int64(len(cells))+1024 {
		g.buildDense(cells, nx, nz)
	} else {
		g.buildSparse(cells)
	}
	return g
}

func (g *gridIndex) buildDense(cells []geom, nx, nz int64) {
	g.nz = nz
	g.start = make([]int32, nx*nz+1)
	g.each(cells, func(bx, bz int64, _ int32) { g.start[g.bucket(bx, bz)+1]++ })
	for b := int64(1); b < int64(len(g.start)); b++ {
		g.start[b] += g.start[b-1]
	}
	g.items = make([]int32, g.start[len(g.start)-1])
	fill := make([]int32, nx*nz)
	copy(fill, g.start[:nx*nz])
	g.each(cells, func(bx, bz int64, i int32) {
		b := g.bucket(bx, bz)
		g.items[fill[b]] = i
		fill[b]++
	})
}

// bucket is the dense index of grid bucket (bx, bz).
func (g *gridIndex) bucket(bx, bz int64) int64 { return (bx-g.minBX)*g.nz + (bz - g.minBZ) }

// each calls fn for every (bucket, cell) filing: each cell in every
// bucket its bounds touch, except cells too wide to file (kept apart).
func (g *gridIndex) each(cells []geom, fn func(bx, bz int64, i int32)) {
	for i := range cells {
		bx0, bz0, bx1, bz1 := g.span(&cells[i])
		if tooWide(bx0, bz0, bx1, bz1) {
			continue
		}
		for bx := bx0; bx <= bx1; bx++ {
			for bz := bz0; bz <= bz1; bz++ {
				fn(bx, bz, int32(i))
			}
		}
	}
}

func (g *gridIndex) buildSparse(cells []geom) {
	g.sparse = make(map[[2]int64][]int32)
	g.each(cells, func(bx, bz int64, i int32) {
		k := [2]int64{bx, bz}
		g.sparse[k] = append(g.sparse[k], i)
	})
}

// query calls visit for every cell whose bounds may lie within r of (x, z):
// a superset of the answer, in which a cell may appear more than once. The
// caller measures the exact distance.
func (g *gridIndex) query(x, z, r float64, visit func(int32)) {
	for _, i := range g.wide {
		visit(i)
	}
	bx0, bx1 := max(g.bucketOf(x-r), g.minBX), min(g.bucketOf(x+r), g.maxBX)
	bz0, bz1 := max(g.bucketOf(z-r), g.minBZ), min(g.bucketOf(z+r), g.maxBZ)
	if bx0 > bx1 || bz0 > bz1 {
		return
	}
	if g.sparse == nil {
		for bx := bx0; bx <= bx1; bx++ {
			row := (bx - g.minBX) * g.nz
			lo, hi := g.start[row+bz0-g.minBZ], g.start[row+bz1-g.minBZ+1]
			for _, i := range g.items[lo:hi] {
				visit(i)
			}
		}
		return
	}
	// In a sparse world a wide query may cover more empty buckets than
	// there are filed ones: then walking the map is the cheaper superset.
	if float64(bx1-bx0+1)*float64(bz1-bz0+1) > float64(len(g.sparse)) {
		for k, items := range g.sparse {
			if k[0] >= bx0 && k[0] <= bx1 && k[1] >= bz0 && k[1] <= bz1 {
				for _, i := range items {
					visit(i)
				}
			}
		}
		return
	}
	for bx := bx0; bx <= bx1; bx++ {
		for bz := bz0; bz <= bz1; bz++ {
			for _, i := range g.sparse[[2]int64{bx, bz}] {
				visit(i)
			}
		}
	}
}

// spans returns, for each of n cells, the bucket rectangle it is filed
// under (bx0, bz0, bx1, bz1), read from the index itself, and whether it
// is wide (filed apart, visited by every query). A cell filed nowhere
// gets an empty rectangle.
func (g *gridIndex) spans(n int) (span [][4]int64, wide []bool) {
	span = make([][4]int64, n)
	for i := range span {
		span[i] = [4]int64{math.MaxInt64, math.MaxInt64, math.MinInt64, math.MinInt64}
	}
	file := func(bx, bz int64, items []int32) {
		for _, i := range items {
			sp := &span[i]
			sp[0], sp[1] = min(sp[0], bx), min(sp[1], bz)
			sp[2], sp[3] = max(sp[2], bx), max(sp[3], bz)
		}
	}
	if g.sparse != nil {
		for k, items := range g.sparse {
			file(k[0], k[1], items)
		}
	} else if g.nz > 0 {
		for b := int64(0); b+1 < int64(len(g.start)); b++ {
			file(g.minBX+b/g.nz, g.minBZ+b%g.nz, g.items[g.start[b]:g.start[b+1]])
		}
	}
	wide = make([]bool, n)
	for _, i := range g.wide {
		wide[i] = true
	}
	return span, wide
}
