package streaming

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexFindsWhatAScanFinds checks the index against a scan of every
// cell, on dense grids, sparse islands and cells with wide overhangs.
func TestIndexFindsWhatAScanFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		cells func() []geom
	}{
		{"dense with overhangs", func() []geom {
			var g []geom
			for x := -8; x < 8; x++ {
				for z := -8; z < 8; z++ {
					fx, fz := float64(x)*10, float64(z)*10
					r := geom{fx, fz, fx + 10, fz + 10, fx + 5, fz + 5}
					if rng.IntN(4) == 0 { // grow over the neighbours
						r.minX -= rng.Float64() * 25
						r.maxZ += rng.Float64() * 25
					}
					g = append(g, r)
				}
			}
			return g
		}},
		{"sparse islands", func() []geom {
			var g []geom
			for _, off := range []float64{-1e7, 0, 3e6} {
				for x := 0; x < 5; x++ {
					fx, fz := off+float64(x)*10, off
					g = append(g, geom{fx, fz, fx + 10, fz + 10, fx + 5, fz + 5})
				}
			}
			return g
		}},
		{"levelled cells", func() []geom {
			// Level-L cells of a 10-wide grid, 2^L buckets a side, over
			// the level-0 cells: level 3 fills 64 buckets, level 4 is too
			// wide to file.
			var g []geom
			for x := -4; x < 4; x++ {
				fx := float64(x) * 10
				g = append(g, geom{fx, 0, fx + 10, 10, fx + 5, 5})
			}
			for l := 1; l <= 5; l++ {
				s := 10 * float64(int(1)<<l)
				g = append(g, geom{-s, -s, 0, 0, -s / 2, -s / 2}, geom{0, 0, s + 3, s, s / 2, s / 2})
			}
			return g
		}},
		{"one wide cell", func() []geom {
			g := []geom{{-500, -500, 500, 500, 5, 5}}
			for x := 0; x < 10; x++ {
				fx := float64(x) * 10
				g = append(g, geom{fx, 0, fx + 10, 10, fx + 5, 5})
			}
			return g
		}},
		{"colliders past any grid", func() []geom {
			// 2^32 buckets a side (a span product that wraps to 0), and
			// the float range itself, beside ordinary cells.
			const w = 1 << 32 * 10
			g := []geom{{-w/2 + 10, -w/2 + 10, w / 2, w / 2, 5, 5}, {-math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, 5, 5}}
			for x := 0; x < 10; x++ {
				fx := float64(x) * 10
				g = append(g, geom{fx, 0, fx + 10, 10, fx + 5, 5})
			}
			return g
		}},
		{"empty", func() []geom { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cells := tc.cells()
			idx := newGridIndex(cells, 10)
			for q := 0; q < 500; q++ {
				x := (rng.Float64() - 0.5) * 300
				z := (rng.Float64() - 0.5) * 300
				if q%50 == 0 && len(cells) > 0 {
					x, z = cells[0].minX, cells[0].minZ
				}
				r := rng.Float64() * 60
				if q%97 == 0 {
					r = math.Inf(1)
				}
				var want, got []int32
				for i := range cells {
					if cells[i].dist2(x, z, false) <= sq(r) {
						want = append(want, int32(i))
					}
				}
				seen := map[int32]bool{}
				idx.query(x, z, r, func(i int32) {
					if !seen[i] && cells[i].dist2(x, z, false) <= sq(r) {
						got = append(got, i)
					}
					seen[i] = true
				})
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("query (%v, %v) r=%v: index %v, scan %v", x, z, r, got, want)
				}
			}
		})
	}
}

// TestIndexHugeExtents: a cell whose bounds reach across 2^32 buckets a
// side (the span product wraps to exactly 0 in int64) or across the whole
// float range is kept in the wide list, not filed bucket by bucket, so the
// index stays as small as the ordinary cells make it.
func TestIndexHugeExtents(t *testing.T) {
	const size = 1000
	half := float64(1<<31)*size - 500 // halfExtents of the 400-byte scene
	cells := []geom{
		{500 - half, 500 - half, 500 + half, 500 + half, 500, 500},
		{-math.MaxFloat64, 0, math.MaxFloat64, 1, 0, 0},
		{0, 0, size, size, size / 2, size / 2},
	}
	bx0, bz0, bx1, bz1 := (&gridIndex{size: size}).span(&cells[0])
	if w := bx1 - bx0 + 1; w != 1<<32 || w*(bz1-bz0+1) != 0 {
		t.Fatalf("the first cell spans %d buckets a side; the case needs 2^32", w)
	}
	g := newGridIndex(cells, size)
	if !slices.Equal(g.wide, []int32{0, 1}) {
		t.Fatalf("wide cells %v, want [0 1]", g.wide)
	}
	// The ordinary cell touches buckets 0 and 1 on each axis.
	if len(g.items) != 4 || len(g.start) != 5 || g.sparse != nil {
		t.Fatalf("index holds %d filings in %d buckets; want the ordinary cell's 4", len(g.items), len(g.start)-1)
	}
	var seen []int32
	g.query(500, 500, 10, func(i int32) { seen = append(seen, i) })
	slices.Sort(seen)
	if !slices.Equal(seen, []int32{0, 1, 2}) {
		t.Fatalf("query saw %v", seen)
	}
}

// gridWorld is n×n cells of size 100, 1000 bytes each.
func gridWorld(n int) *World {
	w := &World{Scene: "grid", CellSize: 100, Plane: "xz", Cells: make([]Cell, 0, n*n)}
	for x := 0; x < n; x++ {
		for z := 0; z < n; z++ {
			fx, fz := float64(x)*100, float64(z)*100
			w.Cells = append(w.Cells, Cell{
				Name:   fmt.Sprintf("grid.cell_%d_%d", x, z),
				X:      int32(x),
				Z:      int32(z),
				Bounds: Bounds{MinX: fx, MinZ: fz, MaxX: fx + 100, MaxZ: fz + 100},
				Bytes:  1000, ProxyBytes: 200, HasProxy: true, EntityCount: 10,
			})
		}
	}
	return w
}

// benchRoute circles around (1600, 1600), inside the first 32×32 cells,
// so the same route runs on every world size.
func benchRoute(frames int) [][]Point {
	out := make([][]Point, frames)
	for f := range out {
		a := 2 * math.Pi * float64(f) / float64(frames)
		out[f] = []Point{{X: 1600 + 900*math.Cos(a), Z: 1600 + 900*math.Sin(a)}}
	}
	return out
}

func benchSources() []Source {
	return []Source{{Name: "player", X: 2500, Z: 1600, Prefetch: 450, Load: 300, Unload: 450, Enabled: true}}
}

func benchSettings() Settings {
	return Settings{Budget: Int64(8000), LODRadius: Float(200), MaxResidentBytes: Int64(60000), PinnedRadius: Float(100), Retry: DefaultRetry()}
}

// TestCostIndependentOfWorldSize counts distance evaluations, the work a
// frame does, on a small and a large world with the same route: they must
// be equal, because only cells near the sources are ever looked at.
func TestCostIndependentOfWorldSize(t *testing.T) {
	route := benchRoute(200)
	var counts []uint64
	for _, n := range []int{32, 256} {
		s, err := NewScheduler(gridWorld(n), benchSources(), benchSettings(), NewModelLoader(ModelIO{LatencyFrames: 2}))
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range route {
			s.Step(pos)
		}
		counts = append(counts, s.measured)
	}
	if counts[0] != counts[1] || counts[0] == 0 {
		t.Errorf("distance evaluations: %d on 32², %d on 256²; want equal", counts[0], counts[1])
	}
	if per := counts[0] / 200; per > 200 {
		t.Errorf("%d distance evaluations per frame for ~50 cells in reach", per)
	}
}
