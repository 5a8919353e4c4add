package navgrid

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/worldcook/worldcook/internal/enginejs"
	"github.com/worldcook/worldcook/internal/tilemap"
)

type tileCase struct {
	Blob                      string   `json:"blob"`
	MinX, MinY, Width, Height int      `json:"-"`
	Blocked                   []int    `json:"blocked"`
	Pairs                     [][4]int `json:"pairs"`
	chunks                    []tilemap.Chunk
	truncated                 bool
}

func (c tileCase) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"blob": c.Blob, "minX": c.MinX, "minY": c.MinY, "width": c.Width, "height": c.Height, "blocked": c.Blocked, "pairs": c.Pairs})
}

// genTiles paints chunks at any chunk coordinates (negative ones too) with
// walls, doors, diagonal gaps (two blocked tiles touching at a corner),
// walled-in islands and noise, some tiles flipped, and writes the blob in
// either alphabet, now and then padded, wrapped or cut short.
func genTiles(r *rand.Rand) tileCase {
	c := tileCase{Blocked: []int{1, 2, 5}}
	cx0, cy0 := r.IntN(5)-2, r.IntN(5)-2
	cw, ch := 1+r.IntN(3), 1+r.IntN(3)
	var chunks []tilemap.Chunk
	for cy := cy0; cy < cy0+ch; cy++ {
		for cx := cx0; cx < cx0+cw; cx++ {
			if r.IntN(6) == 0 {
				continue // an unpainted chunk: walkable
			}
			chunks = append(chunks, tilemap.Chunk{X: int32(cx), Y: int32(cy)})
		}
	}
	w, h := cw*16, ch*16
	set := func(tx, ty int, id uint16) {
		for i := range chunks {
			k := &chunks[i]
			if int(k.X) == (tx+cx0*16)>>4 && int(k.Y) == (ty+cy0*16)>>4 {
				k.Tiles[((ty+cy0*16)&15)*16+(tx+cx0*16)&15] = id
			}
		}
	}
	blockedID := func() uint16 {
		id := uint16(c.Blocked[r.IntN(len(c.Blocked))])
		if r.IntN(4) == 0 {
			id |= uint16(1+r.IntN(7)) << 13 // flipped
		}
		return id
	}
	for i := 0; i < w*h/6; i++ { // noise, blocked and not
		id := uint16(r.IntN(8))
		if r.IntN(3) == 0 {
			id |= 0x8000
		}
		set(r.IntN(w), r.IntN(h), id)
	}
	for k := 0; k < 1+r.IntN(4); k++ { // walls with a door
		if r.IntN(2) == 0 {
			x, door := r.IntN(w), r.IntN(h)
			for y := 0; y < h; y++ {
				if y != door {
					set(x, y, blockedID())
				}
			}
		} else {
			y, door := r.IntN(h), r.IntN(w)
			for x := 0; x < w; x++ {
				if x != door {
					set(x, y, blockedID())
				}
			}
		}
	}
	for k := 0; k < r.IntN(3); k++ { // a diagonal wall: corners touch
		x, y := r.IntN(w), r.IntN(h)
		for s := 0; s < 10; s++ {
			set(x+s, y+s, blockedID())
		}
	}
	if r.IntN(2) == 0 { // an island walled in
		x, y, s := r.IntN(w), r.IntN(h), 2+r.IntN(4)
		for i := 0; i <= s; i++ {
			set(x+i, y, blockedID())
			set(x+i, y+s, blockedID())
			set(x, y+i, blockedID())
			set(x+s, y+i, blockedID())
		}
	}
	blob := tilemap.Encode(chunks)
	switch r.IntN(6) {
	case 0:
		blob = strings.NewReplacer("-", "+", "_", "/").Replace(blob) + "=="
	case 1:
		blob = blob[:len(blob)/2] + "\n " + blob[len(blob)/2:]
	case 2:
		blob = blob[:max(0, len(blob)-1-r.IntN(700))] // cut short
	}
	c.Blob, c.MinX, c.MinY, c.Width, c.Height = blob, cx0*16, cy0*16, w, h
	for i := 0; i < 12; i++ {
		c.Pairs = append(c.Pairs, [4]int{r.IntN(w+4) - 2, r.IntN(h+4) - 2, r.IntN(w+4) - 2, r.IntN(h+4) - 2})
	}
	return c
}

// grid builds the walkable grid of a case as the engine's
// navGridFromTilemapLayer does: rows flipped, flip bits masked, unpainted
// tiles walkable.
func (c *tileCase) grid() *Grid {
	c.chunks, c.truncated = tilemap.Decode(c.Blob)
	tiles := map[[2]int]*tilemap.Chunk{}
	for i := range c.chunks {
		tiles[[2]int{int(c.chunks[i].X), int(c.chunks[i].Y)}] = &c.chunks[i]
	}
	blocked := map[int]bool{}
	for _, b := range c.Blocked {
		blocked[b] = true
	}
	g := New(c.Width, c.Height)
	for y := 0; y < c.Height; y++ {
		for x := 0; x < c.Width; x++ {
			tx, ty := c.MinX+x, c.MinY+c.Height-1-y
			var id uint16
			if k := tiles[[2]int{tx >> 4, ty >> 4}]; k != nil {
				id = k.Tile(tx&15, ty&15)
			}
			if blocked[int(id&tilemap.IDMask)] {
				g.Walkable[y*c.Width+x] = 0
			}
		}
	}
	return g
}

// TestEngine decodes generated tilemaps and finds paths over them with
// the engine's chunk codec, nav grid and A* in Node, and with this
// package and tilemap: the chunks, the walkable cells and every path must
// be the same, cell for cell (equally short paths included).
func TestEngine(t *testing.T) {
	bundle := enginejs.Bundle(t, enginejs.Engine(t), filepath.Join("testdata", "engine.ts"))
	r := rand.New(rand.NewPCG(33, 2))
	var cases []tileCase
	for i := 0; i < 200; i++ {
		cases = append(cases, genTiles(r))
	}
	in, err := json.Marshal(map[string]any{"cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	var ans []struct {
		Chunks []struct {
			X, Y  int32
			Tiles []uint16
		}
		Walkable []uint8
		Paths    [][][2]int
	}
	if err := json.Unmarshal(enginejs.Run(t, bundle, in), &ans); err != nil {
		t.Fatal(err)
	}
	paths, reached, cells := 0, 0, 0
	for i := range cases {
		c := &cases[i]
		g := c.grid()
		a := ans[i]
		if len(a.Chunks) != len(c.chunks) {
			t.Fatalf("case %d: %d chunks, the engine %d", i, len(c.chunks), len(a.Chunks))
		}
		for k, ch := range a.Chunks {
			if ch.X != c.chunks[k].X || ch.Y != c.chunks[k].Y || [256]uint16(ch.Tiles) != c.chunks[k].Tiles {
				t.Fatalf("case %d chunk %d differs from the engine's", i, k)
			}
		}
		if string(a.Walkable) != string(g.Walkable) {
			t.Fatalf("case %d: walkable cells differ from the engine's", i)
		}
		for k, p := range c.Pairs {
			got := g.FindPath(Cell{p[0], p[1]}, Cell{p[2], p[3]})
			want := a.Paths[k]
			if (got == nil) != (want == nil) || len(got) != len(want) {
				t.Fatalf("case %d pair %v: %d cells (nil %v), the engine %d (nil %v)", i, p, len(got), got == nil, len(want), want == nil)
			}
			for j := range got {
				if got[j].X != want[j][0] || got[j].Y != want[j][1] {
					t.Fatalf("case %d pair %v: cell %d is %v, the engine's %v", i, p, j, got[j], want[j])
				}
			}
			paths++
			if got != nil {
				reached++
				cells += len(got)
			}
		}
	}
	if reached == 0 || reached == paths {
		t.Fatalf("%d of %d paths found: the cases test nothing either way", reached, paths)
	}
	t.Logf("%d paths (%d found, %d cells) over %d tilemaps the same as the engine's", paths, reached, cells, len(cases))
}
