package navgrid

import "testing"

func TestFindPath(t *testing.T) {
	// . . .
	// # . #     a diagonal gap between the walls' corners is no way through
	// . # .
	g := New(3, 3)
	for _, c := range []Cell{{1, 0}, {0, 1}, {2, 1}} {
		g.Walkable[c.Y*3+c.X] = 0
	}
	if p := g.FindPath(Cell{0, 0}, Cell{1, 2}); p != nil {
		t.Fatalf("cut a corner: %v", p)
	}
	g.Walkable[1*3+0] = 1
	p := g.FindPath(Cell{0, 0}, Cell{2, 2})
	if len(p) != 4 || p[0] != (Cell{0, 0}) || p[1] != (Cell{0, 1}) || p[3] != (Cell{2, 2}) {
		t.Fatalf("path %v", p)
	}
	if p := g.FindPath(Cell{1, 0}, Cell{1, 0}); len(p) != 1 || p[0] != (Cell{0, 0}) {
		t.Fatalf("a blocked start snaps to the nearest walkable cell: %v", p)
	}
	if p := New(1, 1).FindPath(Cell{40, 40}, Cell{0, 0}); p != nil {
		t.Fatalf("a start more than %d rings off the grid is not snapped: %v", Snap, p)
	}
}

func TestRound(t *testing.T) {
	for v, want := range map[float64]float64{-2.5: -2, 2.5: 3, 0.49999999999999994: 0, -0.5: 0, 7: 7} {
		if got := Round(v); got != want {
			t.Errorf("Round(%v) = %v, want %v", v, got, want)
		}
	}
}

// FuzzFindPath: any mask and endpoints give a path of neighbouring
// walkable cells, or none, never a panic.
func FuzzFindPath(f *testing.F) {
	f.Add([]byte{1, 1, 0, 1, 0, 1, 1, 1, 1}, uint8(3), int8(0), int8(0), int8(2), int8(2))
	f.Fuzz(func(t *testing.T, mask []byte, w uint8, sx, sy, gx, gy int8) {
		if w == 0 || len(mask) == 0 || len(mask) > 4096 {
			return
		}
		width := int(w)%64 + 1
		h := len(mask) / width
		if h == 0 {
			return
		}
		g := New(width, h)
		for i := range g.Walkable {
			g.Walkable[i] = mask[i] & 1
		}
		p := g.FindPath(Cell{int(sx), int(sy)}, Cell{int(gx), int(gy)})
		for i, c := range p {
			if !g.IsWalkable(c.X, c.Y) {
				t.Fatalf("cell %v is not walkable", c)
			}
			if i > 0 {
				d := Cell{c.X - p[i-1].X, c.Y - p[i-1].Y}
				if max(abs(d.X), abs(d.Y)) != 1 {
					t.Fatalf("step %v is no neighbour's", d)
				}
				if d.X != 0 && d.Y != 0 && (!g.IsWalkable(p[i-1].X+d.X, p[i-1].Y) || !g.IsWalkable(p[i-1].X, p[i-1].Y+d.Y)) {
					t.Fatalf("step %v cuts a corner", d)
				}
			}
		}
	})
}
